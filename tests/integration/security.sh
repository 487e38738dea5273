#!/usr/bin/env bash
# The security layers: what the workload gives up (capabilities, no_new_privs,
# a seccomp filter), checked from INSIDE the sandbox: /proc/self/status and
# syscalls made by a python3 probe (ctypes: libc.syscall and get_errno), as
# root and as nobody. Then bad input (capability names, profiles), the state
# a run leaves (none a later sandbox trusts), the program the kernel holds,
# the JSON `security` object and steps, and `layers`
# refusing these options. x86_64 syscall numbers; elsewhere every test skips.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

PLAN=96
plan $PLAN

# The probe's syscall numbers are x86_64's.
if [ "$(uname -m)" != x86_64 ]; then
	for _ in $(seq $PLAN); do skip "security" "the probe uses x86_64 syscall numbers"; done
	exit 0
fi

# Docker's default set (CHOWN ... SETFCAP) and the masks derived from it.
DOCKER_CAPS=00000000a80425fb
DOCKER_PLUS_NET_ADMIN=00000000a80435fb   # + CAP_NET_ADMIN (12)
DOCKER_MINUS_CHOWN_KILL=00000000a80425da # - CAP_CHOWN (0), CAP_KILL (5)
ONLY_NET_ADMIN=0000000000001000
ZERO=0000000000000000
DOCKER_NAMES='["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_FOWNER","CAP_FSETID","CAP_KILL","CAP_SETGID","CAP_SETUID","CAP_SETPCAP","CAP_NET_BIND_SERVICE","CAP_NET_RAW","CAP_SYS_CHROOT","CAP_MKNOD","CAP_AUDIT_WRITE","CAP_SETFCAP"]'

# Every capability this kernel has, as /proc/self/status prints a mask.
LAST_CAP=$(cat /proc/sys/kernel/cap_last_cap)
ALL_CAPS=$(printf '%016x' $(((1 << (LAST_CAP + 1)) - 1)))
ALL_BUT_NET_ADMIN=$(printf '%016x' $((((1 << (LAST_CAP + 1)) - 1) & ~(1 << 12))))

# The probe: prints KEY=VALUE lines, the fields of /proc/self/status first,
# then one line per syscall, "NAME=ok" or "NAME=errno N".
PROBE=$ST_PYDIR/sec_probe.py

# Profiles are written here, readable by nobody too; reports there.
PROFILES=$ST_TMP/profiles
REPORTS=$ST_TMP/reports
mkdir -p "$PROFILES" "$REPORTS" && chmod 755 "$PROFILES" && chmod 1777 "$REPORTS"

# profile NAME JSON: writes $PROFILES/NAME.json and prints its path.
profile() {
	printf '%s\n' "$2" >"$PROFILES/$1.json" && chmod 644 "$PROFILES/$1.json" && echo "$PROFILES/$1.json"
}

# probe MODE ARG...: runs the probe in a sandbox built with ARG... (--repeat=0).
probe() {
	local mode=$1; shift
	st_run "$mode" --repeat=0 -q "$@" -- "$ST_PY" "$PROBE" || return 1
	expect_rc 0 && expect_clean
}

# want KEY VALUE...: the probe printed KEY=VALUE, for one of the VALUEs.
want() {
	local key=$1 got v; shift
	got=$(sed -n "s/^$key=//p" "$ST_OUT")
	for v in "$@"; do
		[ "$got" = "$v" ] && return 0
	done
	echo "$key: expected '$*', got '$got'"
	st_show
	return 1
}

# want_caps MASK: effective, permitted and bounding sets are MASK, the
# inheritable and ambient sets empty.
want_caps() {
	want CapEff "$1" && want CapPrm "$1" && want CapBnd "$1" && want CapInh "$ZERO" && want CapAmb "$ZERO"
}

# expect_one_error TEXT...: standard error is one line "sandboxtime: ..."
# naming every TEXT, plus the --help hint if it is a usage error.
expect_one_error() {
	local n
	n=$(wc -l <"$ST_ERR")
	case $n in
	1) ;;
	2) [ "$(sed -n 2p "$ST_ERR")" = "Try 'sandboxtime --help' for more information." ] ||
		{ echo "a second line that is not the --help hint"; st_show; return 1; } ;;
	*) echo "expected one error line, got $n"; st_show; return 1 ;;
	esac
	case $(head -n1 "$ST_ERR") in
	"sandboxtime: "?*) ;;
	*) echo "stderr does not start with 'sandboxtime: '"; st_show; return 1 ;;
	esac
	expect_error_names "$@" || { st_show; return 1; }
}

# json_check FILE PYTHON: runs PYTHON with d = the JSON document in FILE;
# an AssertionError fails the test with its message.
json_check() {
	local file=$1 code=$2
	[ -s "$file" ] || { echo "no report in $file"; st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/json_check.py" "$file" "$code" || { st_show; return 1; }
}

# ---------------------------------------------------------------------------
# Capabilities, from inside.

t_default_status() {
	probe "$1" || return 1
	want_caps "$DOCKER_CAPS" && want NoNewPrivs 1 && want Seccomp 2
}

# --ns=none: as root the host's capabilities, cut to Docker's set; as nobody
# there is no user namespace, so the workload has none at all, and runs.
t_ns_none_status() {
	probe "$1" --ns=none || return 1
	if [ "$1" = root ]; then
		want_caps "$DOCKER_CAPS" || return 1
	else
		want CapEff "$ZERO" && want CapPrm "$ZERO" && want CapInh "$ZERO" && want CapAmb "$ZERO" || return 1
	fi
	want NoNewPrivs 1 && want Seccomp 2 && want keyctl "errno 1"
}

t_caps() {
	local mode=$1 mask=$2; shift 2
	probe "$mode" "$@" || return 1
	want_caps "$mask"
}

# The capabilities do something: CAP_DAC_OVERRIDE (in Docker's set) reads a
# file of mode 000 that the workload's uid owns; without it, it cannot.
t_dac_override() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	if [ "$mode" = nobody ]; then
		as_nobody sh -c "echo hidden > '$dir/secret' && chmod 000 '$dir/secret'" || return 1
	else
		echo hidden >"$dir/secret" && chmod 000 "$dir/secret" || return 1
	fi
	st_run "$mode" --repeat=0 -q -- cat "$dir/secret" || return 1
	expect_rc 0 && expect_stdout hidden && expect_clean || return 1
	st_run "$mode" --repeat=0 -q --cap-drop=DAC_OVERRIDE -- cat "$dir/secret" || return 1
	expect_rc 1 && expect_stdout "" && expect_clean
}

# A bad capability name: checked before measuring (--repeat=100000 would take
# minutes, past the 30 s timeout: timeout(1)'s 124, not our 125, would show
# it), one line naming it, 125, nothing written or left.
t_bad_cap() {
	local mode=$1 name=$2 report; shift 2
	report=$REPORTS/report-$RANDOM$RANDOM.json
	ST_TIMEOUT=30 st_run "$mode" --repeat=100000 -o "$report" "$@" -- true || return 1
	expect_rc 125 && expect_clean && expect_one_error "$name" || return 1
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
	[ ! -e "$report" ] || { echo "the report file was created"; return 1; }
}

each_mode "default: CapEff = CapPrm = CapBnd = Docker's a80425fb, CapInh and CapAmb 0, NoNewPrivs 1, Seccomp 2" t_default_status
each_mode "--ns=none: root keeps Docker's set, nobody has no capability at all; NoNewPrivs 1, Seccomp 2" t_ns_none_status
each_mode "--cap-drop=ALL: no capability left" t_caps "$ZERO" --cap-drop=ALL
each_mode "--cap-add=NET_ADMIN: a80435fb" t_caps "$DOCKER_PLUS_NET_ADMIN" --cap-add=NET_ADMIN
each_mode "--cap-drop=chown,CAP_KILL removes those two" t_caps "$DOCKER_MINUS_CHOWN_KILL" --cap-drop=chown,CAP_KILL
each_mode "--cap-drop=Cap_Chown,kill: any case, with or without CAP_" t_caps "$DOCKER_MINUS_CHOWN_KILL" --cap-drop=Cap_Chown,kill
each_mode "--cap-drop=ALL --cap-add=net_admin: only NET_ADMIN" t_caps "$ONLY_NET_ADMIN" --cap-drop=ALL --cap-add=net_admin
each_mode "--cap-add=ALL: every capability of the kernel" t_caps "$ALL_CAPS" --cap-add=ALL
# Docker (moby oci/caps TweakCapabilities): with ALL in --cap-add, the result
# is every capability except those of --cap-drop.
each_mode "--cap-add=ALL --cap-drop=NET_ADMIN: all but NET_ADMIN, as in Docker" t_caps "$ALL_BUT_NET_ADMIN" --cap-add=ALL --cap-drop=NET_ADMIN
each_mode "CAP_DAC_OVERRIDE reads a mode-000 file; --cap-drop=DAC_OVERRIDE cannot" t_dac_override
each_mode "--cap-add=CAP_FOO: one error line naming it, 125, before measuring" t_bad_cap CAP_FOO --cap-add=CAP_FOO
each_mode "--cap-drop=chown,bogus: one error line naming 'bogus', 125, before measuring" t_bad_cap bogus --cap-drop=chown,bogus

# ---------------------------------------------------------------------------
# no_new_privs.

# Without no_new_privs: a warning, NoNewPrivs 0, the filter still loaded:
# before the capabilities are dropped (loading needs CAP_SYS_ADMIN then).
t_nnp_false() {
	local mode=$1 report
	report=$REPORTS/nnp-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" --no-new-privileges=false -- "$ST_PY" "$PROBE" || return 1
	expect_rc 0 && expect_clean || return 1
	want NoNewPrivs 0 && want Seccomp 2 && want keyctl "errno 1" && want_caps "$DOCKER_CAPS" || return 1
	if [ "$(grep -c 'warning' "$ST_ERR")" -ne 1 ] || ! grep -q -- 'no-new-privileges' "$ST_ERR"; then
		echo "expected one warning line about --no-new-privileges=false"; st_show; return 1
	fi
	json_check "$report" '
s = [x["step"] for x in d["steps"]]
assert d["security"]["no_new_privs"] is False, "no_new_privs is not false"
assert "no_new_privs" not in s, "a no_new_privs step without no_new_privs: %s" % s
assert s.count("seccomp_load") == 1 and s.count("caps_drop") == 1, "steps: %s" % s
assert s.index("seccomp_load") < s.index("caps_drop"), "the filter was not loaded before caps_drop: %s" % s'
}

t_nnp_true() {
	local mode=$1
	probe "$mode" --no-new-privileges || return 1
	want NoNewPrivs 1 || return 1
	probe "$mode" --no-new-privileges=true || return 1
	want NoNewPrivs 1 || return 1
	[ ! -s "$ST_ERR" ] || { echo "something on stderr"; st_show; return 1; }
}

t_nnp_bad() {
	st_run "$1" --repeat=0 -q --no-new-privileges=yes -- true || return 1
	expect_rc 125 && expect_clean && expect_one_error --no-new-privileges yes
}

# Rootless without a user namespace nothing holds CAP_SYS_ADMIN, so without
# no_new_privs the kernel refuses the filter: an error, never a workload
# that silently runs unfiltered.
t_nnp_false_rootless_ns_none() {
	st_run nobody --repeat=0 -q --ns=none --no-new-privileges=false -- "$ST_PY" "$PROBE" || return 1
	expect_rc 125 && expect_clean || return 1
	[ ! -s "$ST_OUT" ] || { echo "the workload ran"; st_show; return 1; }
	grep -v 'warning' "$ST_ERR" >"$ST_ERR.nowarn"
	mv "$ST_ERR.nowarn" "$ST_ERR"
	expect_one_error seccomp
}

# ... and that is known before anything is measured: it should cost nothing.
# --cold=60 makes measuring last at least 100,000 x 60 ms, whatever the CPU:
# far past the 30 s timeout, whose 124 would show a refusal after measuring.
t_nnp_false_rootless_ns_none_early() {
	ST_TIMEOUT=30 st_run nobody --repeat=100000 --cold=60 -q --ns=none --no-new-privileges=false -- true ||
		return 1
	expect_rc 125 && expect_clean
}

each_mode "--no-new-privileges=false: NoNewPrivs 0, one warning, Seccomp 2, filter loaded before caps_drop" t_nnp_false
each_mode "--no-new-privileges and =true: NoNewPrivs 1, no warning" t_nnp_true
each_mode "--no-new-privileges=yes: one error line, 125" t_nnp_bad
if can_run nobody; then
	ok "rootless --ns=none --no-new-privileges=false: the filter cannot be loaded: 125, one error line, workload not run [nobody]" t_nnp_false_rootless_ns_none
	ok "rootless --ns=none --no-new-privileges=false is refused before measuring [nobody]" t_nnp_false_rootless_ns_none_early
else
	skip "rootless --ns=none --no-new-privileges=false: the filter cannot be loaded: 125, one error line, workload not run [nobody]" "needs root to switch to nobody"
	skip "rootless --ns=none --no-new-privileges=false is refused before measuring [nobody]" "needs root to switch to nobody"
fi

# ---------------------------------------------------------------------------
# seccomp, from inside.

t_default_filter() {
	probe "$1" || return 1
	want getppid ok && want keyctl "errno 1" && want mount "errno 1" && want clone_newuser "errno 1" &&
		want unshare_newuser "errno 1" && want clone3 "errno 38" && want fork ok && want thread ok
}

# Unfiltered: keyctl fails for its argument (EINVAL) or returns a key id;
# unshare(CLONE_NEWUSER) works for root and for nobody alike (an
# unprivileged process may create a user namespace on this host).
t_no_filter() {
	probe "$@" --seccomp=none || return 1
	want Seccomp 0 && want NoNewPrivs 1 && want keyctl "errno 22" ok && want mount "errno 14" &&
		want clone3 "errno 22" && want getppid ok && want thread ok && want unshare_newuser ok
}

t_custom_profile() {
	local mode=$1 file report
	file=$(profile errno99 '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 99}]}') || return 1
	report=$REPORTS/custom-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" --seccomp="$file" -- "$ST_PY" "$PROBE" || return 1
	expect_rc 0 && expect_clean || return 1
	want getppid "errno 99" && want Seccomp 2 && want keyctl "errno 22" ok && want clone3 "errno 22" || return 1
	json_check "$report" "
sc = d['security']['seccomp']
assert isinstance(sc, dict), 'security.seccomp is %r' % (sc,)
assert sc['profile'] == '$file', 'profile: %r' % sc['profile']
assert sc['rules'] == 1, 'rules: %r' % sc['rules']
assert sc['unknown_syscalls'] == [], 'unknown_syscalls: %r' % sc['unknown_syscalls']"
}

# Where clone3 is missing (an old kernel, or a filter such as this one), every
# layer is made with clone(): sandboxtime run inside such a sandbox says so in
# its report (JSON host.clone and a table line), and a plain run says clone3.
t_clone3_hidden() {
	local mode=$1 file bin=$ST_BIN inner=$REPORTS/clone-$mode.json
	[ "$mode" = nobody ] && bin=$ST_NOBODY_BIN
	file=$(profile noclone3 '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38}]}') || return 1
	rm -f "$inner"
	st_run "$mode" --repeat=0 -q --seccomp="$file" -- \
		"$bin" layers --ns=user,uts --repeat=2 --deferred-repeat=0 -J -o "$inner" || return 1
	expect_rc 0 && expect_clean || return 1
	json_check "$inner" "
assert d['host']['clone'] == 'clone', 'host.clone: %r' % d['host']['clone']
assert [l['layer'] for l in d['layers']] == ['base', 'user', 'uts'], d['layers']" || return 1
	st_run "$mode" --repeat=0 -q --seccomp="$file" -- \
		"$bin" layers --ns=user,uts --repeat=2 --deferred-repeat=0 || return 1
	expect_rc 0 || return 1
	grep -q "clone3 is missing here" "$ST_ERR" || { st_show; return 1; }
	st_run "$mode" layers --ns=uts --repeat=2 --deferred-repeat=0 -J -o "$inner" || return 1
	expect_rc 0 && json_check "$inner" "assert d['host']['clone'] == 'clone3', d['host']"
}

# "name": the single-name form of older runtime-spec versions.
t_custom_profile_name() {
	local file
	file=$(profile name99 '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"name": "getppid", "action": "SCMP_ACT_ERRNO", "errnoRet": 99}]}') || return 1
	probe "$1" --seccomp="$file" || return 1
	want getppid "errno 99"
}

# A name this libseccomp does not know: skipped, said once, listed in JSON.
t_unknown_syscall() {
	local mode=$1 file report
	file=$(profile unknown '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["no_such_call", "getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 99}]}') || return 1
	report=$REPORTS/unknown-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" --seccomp="$file" -- "$ST_PY" "$PROBE" || return 1
	expect_rc 0 && expect_clean && want getppid "errno 99" || return 1
	if [ "$(wc -l <"$ST_ERR")" -ne 1 ] || ! grep -q 'warning.*no_such_call' "$ST_ERR"; then
		echo "expected one warning line naming no_such_call"; st_show; return 1
	fi
	json_check "$report" "
sc = d['security']['seccomp']
assert sc['unknown_syscalls'] == ['no_such_call'], 'unknown_syscalls: %r' % sc['unknown_syscalls']
assert sc['rules'] == 1, 'rules: %r' % sc['rules']"
}

# runc skips a rule whose action is the default action (it is redundant);
# libseccomp refuses to add one, so a runtime must skip it to accept the
# profiles that runc accepts.
t_rule_same_as_default() {
	local file
	file=$(profile redundant '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getpid"], "action": "SCMP_ACT_ALLOW"}, {"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 99}]}') || return 1
	probe "$1" --seccomp="$file" || return 1
	want getppid "errno 99"
}

# Docker's profile format makes rules conditional ("includes"/"excludes" of
# capabilities, architectures, kernel versions). A rule that applies only
# with CAP_SYS_ADMIN must not apply without it: either it is honoured, or the
# profile is refused, naming the key; ignoring the condition gives another
# filter than the profile asks for (with Docker's own profile, mount, unshare
# and setns would be allowed without CAP_SYS_ADMIN).
t_docker_conditions() {
	local file
	file=$(profile includes '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 99, "includes": {"caps": ["CAP_SYS_ADMIN"]}}]}') || return 1
	st_run "$1" --repeat=0 -q --seccomp="$file" -- "$ST_PY" "$PROBE" || return 1
	if [ "$ST_RC" = 125 ]; then
		expect_clean && expect_one_error "$file" includes
		return
	fi
	expect_rc 0 && expect_clean && want getppid ok
}

# The filter binds the workload, not sandboxtime: what sandboxtime does in
# the workload's process after loading it (telling the parent that exec is
# next, restoring the signal mask) must not depend on what the profile allows.
t_profile_denies_write() {
	local file
	file=$(profile nowrite '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["write", "writev"], "action": "SCMP_ACT_ERRNO"}]}') || return 1
	st_run "$1" --repeat=0 -q --seccomp="$file" -- true || return 1
	expect_rc 0 && expect_clean
}

# The workload starts with no signal blocked, whatever the profile allows
# (sandboxtime blocks the signals it forwards, and must unblock them).
t_profile_denies_sigprocmask() {
	local file
	file=$(profile nosigmask '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["rt_sigprocmask"], "action": "SCMP_ACT_ERRNO"}]}') || return 1
	st_run "$1" --repeat=0 -q --seccomp="$file" -- grep SigBlk /proc/self/status || return 1
	expect_rc 0 && expect_clean || return 1
	[ "$(awk '{ print $2 }' "$ST_OUT")" = 0000000000000000 ] || { echo "the workload starts with signals blocked"; st_show; return 1; }
}

# A profile that denies execve: the command cannot be executed: 126.
t_profile_denies_execve() {
	local file
	file=$(profile noexec '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["execve", "execveat"], "action": "SCMP_ACT_ERRNO"}]}') || return 1
	st_run "$1" --repeat=0 -q --seccomp="$file" -- true || return 1
	expect_rc 126 && expect_clean && expect_one_error true
}

# --no-init: the workload is the sandbox's first process, and gives up the same.
t_no_init_status() {
	probe "$1" --no-init || return 1
	want_caps "$DOCKER_CAPS" && want NoNewPrivs 1 && want Seccomp 2 && want keyctl "errno 1"
}

each_mode "default profile: keyctl, mount, unshare and clone with CLONE_NEWUSER fail with EPERM, clone3 with ENOSYS; getppid, fork, threads work" t_default_filter
each_mode "--seccomp=none: Seccomp 0, keyctl EINVAL, unshare(CLONE_NEWUSER) works" t_no_filter
each_mode "--seccomp=none --ns=none: the same without namespaces" t_no_filter --ns=none
each_mode "--no-init: the same capabilities, no_new_privs and filter" t_no_init_status
each_mode "a profile that denies write(2): the workload still runs (true exits 0)" t_profile_denies_write
each_mode "a profile that denies rt_sigprocmask(2): the workload starts with no signal blocked" t_profile_denies_sigprocmask
each_mode "a profile that denies execve(2): 126, one error line naming the command" t_profile_denies_execve
each_mode "custom profile: getppid fails with errno 99 inside; JSON security.seccomp.profile is its path" t_custom_profile
each_mode "clone3 hidden by a filter: a nested run reports host.clone \"clone\" and says so in the table; a plain one \"clone3\"" t_clone3_hidden
each_mode "custom profile with the single-name form \"name\"" t_custom_profile_name
each_mode "unknown syscall name: the run works, one warning names it, JSON unknown_syscalls lists it" t_unknown_syscall
each_mode "a rule whose action is the default action is skipped, as runc does" t_rule_same_as_default
each_mode "Docker's \"includes\" condition is honoured or refused, never ignored" t_docker_conditions

# ---------------------------------------------------------------------------
# Bad profiles: one line naming the file and the JSON path, 125, before
# measuring, nothing on stdout, no report file, no process left.

t_bad_profile() {
	local mode=$1 name=$2 json=$3 report file; shift 3
	file=$(profile "bad-$name" "$json") || return 1
	report=$REPORTS/report-$RANDOM$RANDOM.json
	# before measuring: 100,000 rounds would outlast the 30 s timeout
	ST_TIMEOUT=30 st_run "$mode" --repeat=100000 -o "$report" --seccomp="$file" -- true || return 1
	expect_rc 125 && expect_clean && expect_one_error "$file" "$@" || return 1
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
	[ ! -e "$report" ] || { echo "the report file was created"; return 1; }
}

t_missing_profile() {
	st_run "$1" --repeat=0 -q --seccomp="$ST_TMP/no-such-profile.json" -- true || return 1
	expect_rc 125 && expect_clean && expect_one_error "$ST_TMP/no-such-profile.json"
}

each_mode "bad profile: not JSON" t_bad_profile notjson 'this is not {json' ':1:'
each_mode "bad profile: defaultAction missing" t_bad_profile nodefault '{"syscalls": []}' ': .defaultAction: '
each_mode "bad profile: defaultAction not a string" t_bad_profile defaulttype '{"defaultAction": 1}' ': .defaultAction: '
each_mode "bad profile: unknown action at .syscalls[0].action" t_bad_profile action \
	'{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_FOO"}]}' \
	': .syscalls[0].action: ' 'SCMP_ACT_FOO'
each_mode "bad profile: unknown architecture" t_bad_profile arch \
	'{"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_VAX"]}' \
	': .architectures[1]: ' 'SCMP_ARCH_VAX'
each_mode "bad profile: args with a bad op" t_bad_profile op \
	'{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO"}, {"names": ["personality"], "action": "SCMP_ACT_ERRNO", "args": [{"index": 0, "value": 8, "op": "SCMP_CMP_EQ"}, {"index": 1, "value": 0, "op": "SCMP_CMP_FOO"}]}]}' \
	': .syscalls[1].args[1]: ' 'SCMP_CMP_FOO'
each_mode "bad profile: names not an array" t_bad_profile names \
	'{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": "getppid", "action": "SCMP_ACT_ERRNO"}]}' \
	': .syscalls[0]: ' names
each_mode "bad profile: a file that does not exist" t_missing_profile

# ---------------------------------------------------------------------------
# State that outlives a run: none that a later sandbox trusts. The default
# profile's program is built into the binary, every other profile is
# compiled by its run; a workload that writes where a cache of compiled
# programs used to be changes nothing for the next sandbox.

# The places a cache once was, for MODE; every one a run of MODE can reach.
old_cache_dirs() {
	echo "/tmp/sandboxtime-$(mode_uid "$1")"
	if [ "$1" = nobody ]; then echo "$XDG/sandboxtime"; else echo /var/cache/sandboxtime; fi
}

# cache_dirs_listing MODE: the old cache directories' entries and times, the
# directory's own included ("."); not "..", which is /tmp for one of them,
# where every other suite running beside this one makes files.
cache_dirs_listing() {
	local d
	for d in $(old_cache_dirs "$1"); do ls -la --time-style=+%s.%N "$d" 2>&1 | grep -v ' \.\.$'; done
}

# Removes what poison.py wrote (and the directories it made) after the test,
# and puts back the files it rewrote.
unpoison() {
	local d f
	for f in "$BACKUP"/*; do
		[ -f "$f" ] && cp "$f" "/$(basename "$f" | tr % /)"
	done
	for d in $(old_cache_dirs "$1"); do
		rm -f "$d/seccomp-0000000000000000.bpf" "$d/seccomp-ffffffffffffffff.bpf"
		[[ " $MADE " == *" $d "* ]] && rmdir "$d" 2>/dev/null
	done
	return 0
}

# The workload writes allow-all programs wherever a cache was (and would
# have rewritten the cached program of its own run, which the first run of
# b879246 stored: this test fails there); the next
# sandbox's workload still finds the default filter (a call it refuses is
# refused, an unshare(CLONE_NEWUSER) too) and the report the same program.
t_poison_next() {
	local mode=$1 d first second rc=0
	XDG=$(mktemp -d "$ST_TMP/xdg.XXXXXX") && chown nobody "$XDG" || return 1
	BACKUP=$(st_scratch) || return 1
	MADE=
	for d in $(old_cache_dirs "$mode"); do [ -e "$d" ] || MADE="$MADE $d"; done
	first=$REPORTS/poison-1-$mode.json second=$REPORTS/poison-2-$mode.json
	XDG_CACHE_HOME=$XDG st_run "$mode" --repeat=0 -J -o "$first" -- \
		"$ST_PY" "$ST_PYDIR/poison.py" "$(mode_uid "$mode")" "$BACKUP" || rc=1
	[ $rc -ne 0 ] || { expect_rc 0 && expect_clean; } || rc=1
	[ $rc -ne 0 ] || grep -q '^wrote [1-9]' "$ST_OUT" || { echo "the workload wrote nothing"; st_show; rc=1; }
	[ $rc -ne 0 ] || XDG_CACHE_HOME=$XDG st_run "$mode" --repeat=0 -J -o "$second" -- "$ST_PY" "$PROBE" || rc=1
	[ $rc -ne 0 ] || { expect_rc 0 && expect_clean; } || rc=1
	[ $rc -ne 0 ] || { want Seccomp 2 && want keyctl "errno 1" && want clone_newuser "errno 1"; } || rc=1
	[ $rc -ne 0 ] || json_check "$second" "
first = json.load(open('$first'))['security']['seccomp']
sc = d['security']['seccomp']
assert sc['program'] == 'built-in', sc
assert sc['digest'] == first['digest'] and sc['instructions'] == first['instructions'], (first, sc)" || rc=1
	unpoison "$mode"
	return $rc
}

# The report's count and digest are the kernel's: the workload's filter read
# back with ptrace(PTRACE_SECCOMP_GET_FILTER) while it sleeps.
t_digest_is_kernels() {
	local want=$1 report pid dump i; shift
	report=$REPORTS/kernel-digest-$RANDOM.json
	st_start root --repeat=0 -J -o "$report" "$@" -- sleep 30 || return 1
	for ((i = 0; i < 100; i++)); do
		pid=$(st_session_procs "$ST_PID" | awk '$4 == "sleep" { print $1 }')
		[ -n "$pid" ] && grep -q '^Seccomp:[[:space:]]*2' "/proc/$pid/status" 2>/dev/null && break
		pid=
		sleep 0.05
	done
	[ -n "$pid" ] || { echo "no filtered sleep in the sandbox"; kill "$ST_PID"; st_finish; return 1; }
	dump=$("$ST_PY" -B "$ST_PYDIR/seccomp_dump.py" "$pid") || { kill "$pid"; st_finish; return 1; }
	kill "$pid"
	st_finish
	expect_clean || return 1
	json_check "$report" "
sc = d['security']['seccomp']
dump = dict(kv.split('=', 1) for kv in '$dump'.split())
assert dump['filters'] == '1', dump
assert int(dump['instructions']) == sc['instructions'], (dump, sc)
assert dump['digest'] == sc['digest'], (dump, sc)
assert sc['program'] == '$want', sc"
}

# No run leaves a file for a later run: the places a cache was stay as they were.
t_writes_nothing() {
	local mode=$1 d before after
	XDG=$(mktemp -d "$ST_TMP/xdg.XXXXXX") && chown nobody "$XDG" || return 1
	before=$(cache_dirs_listing "$mode")
	XDG_CACHE_HOME=$XDG st_run "$mode" --repeat=0 -q -- true && expect_rc 0 || return 1
	XDG_CACHE_HOME=$XDG st_run "$mode" --repeat=0 -q --seccomp="$(profile "nothing-$mode" "$ALLOW_GETPPID")" -- true &&
		expect_rc 0 || return 1
	after=$(cache_dirs_listing "$mode")
	expect_eq "$after" "$before"
}

# Where the program came from, in the report and the steps.
t_program_origin() {
	local mode=$1 report
	report=$REPORTS/origin-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" -- true && expect_rc 0 || return 1
	json_check "$report" "
assert d['security']['seccomp']['program'] == 'built-in', d['security']
assert 'seccomp_builtin' in [x['step'] for x in d['steps']], d['steps']" || return 1
	st_run "$mode" --repeat=0 -J -o "$report" --cap-add=NET_ADMIN -- true && expect_rc 0 || return 1
	json_check "$report" "
assert d['security']['seccomp']['program'] == 'compiled', d['security']
assert d['security']['seccomp']['digest'].startswith('sha256:'), d['security']
assert 'seccomp_compile' in [x['step'] for x in d['steps']], d['steps']"
}

ALLOW_GETPPID='{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 96}]}'
each_mode "state: a workload writes allow-all programs where a cache was; the next sandbox keeps its filter, same digest" t_poison_next
each_mode "state: a run, default or --seccomp=FILE, writes no file where a cache was" t_writes_nothing
each_mode "state: the default program is built in (step seccomp_builtin); --cap-add compiles (seccomp_compile)" t_program_origin
if is_root; then
	ok "the report's instructions and digest are the kernel's (PTRACE_SECCOMP_GET_FILTER): built-in [root]" \
		t_digest_is_kernels built-in
	ok "the report's instructions and digest are the kernel's (PTRACE_SECCOMP_GET_FILTER): compiled [root]" \
		t_digest_is_kernels compiled --cap-add=NET_ADMIN
else
	skip "the report's instructions and digest are the kernel's: built-in [root]" "needs root (CAP_SYS_ADMIN)"
	skip "the report's instructions and digest are the kernel's: compiled [root]" "needs root (CAP_SYS_ADMIN)"
fi

# ---------------------------------------------------------------------------
# The report.

t_json_security() {
	local mode=$1 report scope
	report=$REPORTS/security-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" -- true || return 1
	expect_rc 0 && expect_clean || return 1
	json_check "$report" "
s = d['security']
assert set(s) >= {'capabilities', 'capabilities_scope', 'no_new_privs', 'seccomp'}, 'keys: %s' % sorted(s)
assert s['capabilities'] == $DOCKER_NAMES, 'capabilities: %r' % s['capabilities']
# The capabilities are the user namespace's whenever user is a layer (root's default too).
scope = 'user namespace' if 'user' in d['config']['ns'] else 'host'
assert s['capabilities_scope'] == scope, 'capabilities_scope: %r, ns %r' % (s['capabilities_scope'], d['config']['ns'])
assert s['no_new_privs'] is True, 'no_new_privs: %r' % s['no_new_privs']
sc = s['seccomp']
assert isinstance(sc, dict), 'seccomp: %r' % (sc,)
assert set(sc) >= {'profile', 'rules', 'instructions', 'digest', 'unknown_syscalls', 'program'}, 'seccomp keys: %s' % sorted(sc)
assert sc['profile'] == 'default', 'profile: %r' % sc['profile']
for k in ('rules', 'instructions'):
    assert type(sc[k]) is int and sc[k] > 0, '%s: %r' % (k, sc[k])
assert sc['rules'] > 300, 'rules: %r' % sc['rules']
assert isinstance(sc['unknown_syscalls'], list) and all(isinstance(x, str) for x in sc['unknown_syscalls']), 'unknown_syscalls: %r' % sc['unknown_syscalls']
steps = d['steps']
assert sc['program'] in ('built-in', 'compiled'), 'program: %r' % sc['program']
want = 'seccomp_builtin' if sc['program'] == 'built-in' else 'seccomp_compile'
assert [x['step'] for x in steps].count(want) == 1, 'program %s without a %s step: %s' % (sc['program'], want, [x['step'] for x in steps])
assert s['from'] == 'defaults', 'from: %r' % s['from']
names = [x['step'] for x in steps]
compiled = [i for i, n in enumerate(names) if n in ('seccomp_compile', 'seccomp_builtin')]
assert compiled, 'no seccomp_compile or seccomp_builtin step: %s' % names
for n in ('no_new_privs', 'caps_drop', 'seccomp_load'):
    assert names.count(n) == 1, 'step %s %d times: %s' % (n, names.count(n), names)
for x in steps:
    if x['step'] in ('no_new_privs', 'caps_drop', 'seccomp_load') or x['step'] == names[compiled[0]]:
        assert type(x['us']) in (int, float) and x['us'] > 0, 'step %s: us %r' % (x['step'], x['us'])
order = [compiled[0], names.index('no_new_privs'), names.index('caps_drop'), names.index('seccomp_load')]
assert order == sorted(order), 'steps out of order (compile, no_new_privs, caps_drop, seccomp_load): %s' % names"
}

t_json_no_filter() {
	local mode=$1 report
	report=$REPORTS/nofilter-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" --seccomp=none --cap-drop=ALL -- true || return 1
	expect_rc 0 && expect_clean || return 1
	json_check "$report" "
s = d['security']
assert s['seccomp'] is None, 'seccomp: %r' % (s['seccomp'],)
assert s['capabilities'] == [], 'capabilities: %r' % s['capabilities']
names = [x['step'] for x in d['steps']]
assert not [n for n in names if n.startswith('seccomp')], 'seccomp steps without a filter: %s' % names
assert 'caps_drop' in names and 'no_new_privs' in names, 'steps: %s' % names"
}

# What the report says the workload has is what it has: rootless without a
# user namespace, that is no capability at all (see the --ns=none test).
t_json_ns_none_caps() {
	local mode=$1 report
	report=$REPORTS/nsnone-$mode.json
	st_run "$mode" --repeat=0 -J -o "$report" --ns=none -- true || return 1
	expect_rc 0 && expect_clean || return 1
	if [ "$mode" = root ]; then
		json_check "$report" "
s = d['security']
assert s['capabilities'] == $DOCKER_NAMES, 'capabilities: %r' % s['capabilities']
assert s['capabilities_scope'] == 'host', 'capabilities_scope: %r' % s['capabilities_scope']"
	else
		json_check "$report" "
s = d['security']
assert s['capabilities'] == [], 'the workload has no capability, the report lists %r (scope %r)' % (s['capabilities'], s['capabilities_scope'])"
	fi
}

t_table_security() {
	st_run "$1" --repeat=0 -- true || return 1
	expect_rc 0 && expect_clean || return 1
	grep -q '^security: capabilities CAP_CHOWN,.*CAP_SETFCAP.*no_new_privs on; seccomp default' "$ST_ERR" ||
		{ echo "no security line in the table"; st_show; return 1; }
}

t_layers_refuses() {
	st_run "$1" layers --repeat=1 "$2" || return 1
	expect_rc 125 && expect_clean && expect_one_error layers || return 1
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
}

each_mode "JSON: security keys and types, Docker's names; steps compile, no_new_privs, caps_drop, seccomp_load in order, us > 0" t_json_security
each_mode "JSON: --seccomp=none --cap-drop=ALL: seccomp null, capabilities [], no seccomp step" t_json_no_filter
each_mode "JSON: --ns=none: the capabilities reported are those the workload has" t_json_ns_none_caps
each_mode "table: a security line" t_table_security
each_mode "layers --seccomp=none: 125" t_layers_refuses --seccomp=none
each_mode "layers --cap-add=X: 125" t_layers_refuses --cap-add=X
each_mode "layers --no-new-privileges=false: 125" t_layers_refuses --no-new-privileges=false
