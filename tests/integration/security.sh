#!/usr/bin/env bash
# The security layers: what the workload gives up (capabilities, no_new_privs,
# a seccomp filter), checked from INSIDE the sandbox: /proc/self/status and
# syscalls made by a python3 probe (ctypes: libc.syscall and get_errno), as
# root and as nobody. Then bad input (capability names, profiles), the cache
# of compiled programs, the JSON `security` object and steps, and `layers`
# refusing these options. x86_64 syscall numbers; elsewhere every test skips.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

PLAN=97
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
# The cache of compiled programs: as nobody, in a cache directory of the
# test's own (XDG_CACHE_HOME), so that every test starts empty.

# cache_home [MODE]: a fresh XDG_CACHE_HOME for nobody; with MODE, its
# sandboxtime directory is made already, with that mode.
cache_home() {
	local d
	d=$(mktemp -d "$ST_TMP/xdg.XXXXXX") && chown nobody "$d" && chmod 700 "$d" || return 1
	if [ -n "${1:-}" ]; then
		mkdir "$d/sandboxtime" && chown nobody "$d/sandboxtime" && chmod "$1" "$d/sandboxtime" || return 1
	fi
	echo "$d"
}

# cache_run XDG ARG...: the probe as nobody with XDG_CACHE_HOME=XDG and a
# JSON report in $REPORT.
cache_run() {
	local xdg=$1; shift
	REPORT=$REPORTS/cache-$RANDOM$RANDOM.json
	XDG_CACHE_HOME=$xdg st_run nobody --repeat=0 -J -o "$REPORT" "$@" -- "$ST_PY" "$PROBE" || return 1
	expect_rc 0 && expect_clean
}

# want_cache STATE STEP: the report says cache STATE, and the first step is STEP.
want_cache() {
	json_check "$REPORT" "
sc = d['security']['seccomp']
assert sc.get('cache') == '$1', 'cache: %r' % sc.get('cache')
steps = [x['step'] for x in d['steps']]
assert steps[0] == '$2', 'first step: %s' % steps
assert d['steps'][0]['us'] > 0, 'step %s: us %r' % (steps[0], d['steps'][0]['us'])"
}

t_cache_hit() {
	local xdg
	xdg=$(cache_home) || return 1
	cache_run "$xdg" || return 1
	want_cache miss seccomp_compile && want keyctl "errno 1" || return 1
	[ "$(find "$xdg/sandboxtime" -name 'seccomp-*.bpf' | wc -l)" -eq 1 ] ||
		{ echo "expected one program in the cache:"; ls -la "$xdg/sandboxtime"; return 1; }
	cache_run "$xdg" || return 1
	want_cache hit seccomp_cache_read && want Seccomp 2 && want keyctl "errno 1" && want clone3 "errno 38" &&
		want getppid ok
}

# Read back, a program keeps what the report says of it: rules, unknown names.
t_cache_unknown_names() {
	local xdg file
	xdg=$(cache_home) || return 1
	file=$(profile cache-unknown '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["no_such_call", "getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 97}]}') || return 1
	cache_run "$xdg" --seccomp="$file" && want_cache miss seccomp_compile || return 1
	cache_run "$xdg" --seccomp="$file" && want_cache hit seccomp_cache_read && want getppid "errno 97" || return 1
	grep -q 'warning.*no_such_call' "$ST_ERR" || { echo "no warning on a cache hit"; st_show; return 1; }
	json_check "$REPORT" "
sc = d['security']['seccomp']
assert sc['unknown_syscalls'] == ['no_such_call'], 'unknown_syscalls: %r' % sc['unknown_syscalls']
assert sc['rules'] == 1 and sc['profile'] == '$file', 'seccomp: %r' % sc"
}

# The key is the profile's bytes, not its name: a changed file is compiled anew.
t_cache_changed_profile() {
	local xdg file
	xdg=$(cache_home) || return 1
	file=$(profile cache-changing '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 99}]}') || return 1
	cache_run "$xdg" --seccomp="$file" && want getppid "errno 99" || return 1
	profile cache-changing '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 98}]}' >/dev/null || return 1
	cache_run "$xdg" --seccomp="$file" && want_cache miss seccomp_compile && want getppid "errno 98"
}

# A directory that others may enter or write is not trusted: no cache at all.
t_cache_open_dir() {
	local xdg
	xdg=$(cache_home 0777) || return 1
	cache_run "$xdg" && want_cache off seccomp_compile || return 1
	cache_run "$xdg" && want_cache off seccomp_compile && want keyctl "errno 1" || return 1
	[ -z "$(ls -A "$xdg/sandboxtime")" ] || { echo "written to a directory open to others:"; ls -la "$xdg/sandboxtime"; return 1; }
}

# Nor one that is not the user's own (root's, here).
t_cache_foreign_dir() {
	local xdg
	xdg=$(cache_home 0700) && chown root "$xdg/sandboxtime" || return 1
	cache_run "$xdg" && want_cache off seccomp_compile
}

# A cache file cut short (a crash, a full disk) is a miss, never a bad filter.
t_cache_truncated() {
	local xdg f
	xdg=$(cache_home) || return 1
	cache_run "$xdg" || return 1
	for f in "$xdg"/sandboxtime/seccomp-*.bpf; do
		truncate -s 300 "$f" || return 1
	done
	cache_run "$xdg" && want_cache miss seccomp_compile && want keyctl "errno 1" && want Seccomp 2 || return 1
	cache_run "$xdg" && want_cache hit seccomp_cache_read && want keyctl "errno 1"
}

# A user with no home of its own and no XDG_CACHE_HOME caches in
# /tmp/sandboxtime-UID, made 0700 and its own; a profile of this test's own
# makes the first run a miss whatever other runs left there.
t_cache_tmp_fallback() (
	local file d owner mode
	d=/tmp/sandboxtime-$(id -u nobody)
	file=$(profile "tmpfallback-$$-$RANDOM" '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO", "errnoRet": 96}]}') || exit 1
	unset XDG_CACHE_HOME
	export HOME=/nonexistent
	REPORT=$REPORTS/tmpcache-$RANDOM$RANDOM.json
	st_run nobody --repeat=0 -J -o "$REPORT" --seccomp="$file" -- "$ST_PY" "$PROBE" || exit 1
	expect_rc 0 && expect_clean && want_cache miss seccomp_compile && want getppid "errno 96" || exit 1
	st_run nobody --repeat=0 -J -o "$REPORT" --seccomp="$file" -- "$ST_PY" "$PROBE" || exit 1
	expect_rc 0 && want_cache hit seccomp_cache_read && want getppid "errno 96" || exit 1
	owner=$(stat -c %u "$d") mode=$(stat -c %a "$d")
	expect_eq "$owner:$mode" "$(id -u nobody):700"
)

# The same place made first by someone else (root here) is not used.
t_cache_tmp_foreign() (
	local d
	d=/tmp/sandboxtime-$(id -u nobody)
	rm -rf "$d" && mkdir -m 700 "$d" || exit 1
	trap 'rm -rf "$d"' EXIT
	unset XDG_CACHE_HOME
	export HOME=/nonexistent
	REPORT=$REPORTS/tmpcache-$RANDOM$RANDOM.json
	st_run nobody --repeat=0 -J -o "$REPORT" -- "$ST_PY" "$PROBE" || exit 1
	expect_rc 0 && want_cache off seccomp_compile && want keyctl "errno 1" || exit 1
	[ -z "$(ls -A "$d")" ] || { echo "written to root's directory:"; ls -la "$d"; exit 1; }
)

# root's cache: /var/cache/sandboxtime, root's own, closed to others.
t_cache_root_dir() {
	local mode owner
	st_run root --repeat=0 -q -- true || return 1
	expect_rc 0 || return 1
	[ -d /var/cache/sandboxtime ] || { echo "no /var/cache/sandboxtime after a run as root"; return 1; }
	mode=$(stat -c %a /var/cache/sandboxtime) owner=$(stat -c %u /var/cache/sandboxtime)
	expect_eq "$owner:$mode" "0:700" || return 1
	if find /var/cache/sandboxtime -name 'seccomp-*.bpf' -perm /077 | grep -q .; then
		echo "cache files open to others:"; ls -la /var/cache/sandboxtime; return 1
	fi
}

for t in "t_cache_hit|cache: a private directory: miss, then hit (seccomp_cache_read); the program read back still filters" \
	"t_cache_unknown_names|cache: a hit keeps the rules, the unknown names, their warning" \
	"t_cache_changed_profile|cache: a profile changed at the same path is compiled again" \
	"t_cache_open_dir|cache: a directory of mode 0777 is not used (cache off), nothing written" \
	"t_cache_foreign_dir|cache: a directory that is not the user's is not used" \
	"t_cache_truncated|cache: a file cut short is a miss and is written anew" \
	"t_cache_tmp_fallback|cache: no home and no XDG_CACHE_HOME: /tmp/sandboxtime-UID, 0700, miss then hit" \
	"t_cache_tmp_foreign|cache: /tmp/sandboxtime-UID made by another user is not used (cache off)"; do
	if can_run nobody; then
		ok "${t#*|} [nobody]" "${t%%|*}"
	else
		skip "${t#*|} [nobody]" "needs root to switch to nobody"
	fi
done
if is_root; then
	ok "cache: root's /var/cache/sandboxtime is root's, mode 0700, its files closed to others [root]" t_cache_root_dir
else
	skip "cache: root's /var/cache/sandboxtime is root's, mode 0700, its files closed to others [root]" "not running as root"
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
assert set(sc) >= {'profile', 'rules', 'instructions', 'unknown_syscalls'}, 'seccomp keys: %s' % sorted(sc)
assert sc['profile'] == 'default', 'profile: %r' % sc['profile']
for k in ('rules', 'instructions'):
    assert type(sc[k]) is int and sc[k] > 0, '%s: %r' % (k, sc[k])
assert sc['rules'] > 300, 'rules: %r' % sc['rules']
assert isinstance(sc['unknown_syscalls'], list) and all(isinstance(x, str) for x in sc['unknown_syscalls']), 'unknown_syscalls: %r' % sc['unknown_syscalls']
steps = d['steps']
# With the cache of compiled programs: its state matches the step.
if 'cache' in sc:
    assert sc['cache'] in ('off', 'miss', 'hit'), 'cache: %r' % sc['cache']
    want = 'seccomp_cache_read' if sc['cache'] == 'hit' else 'seccomp_compile'
    assert [x['step'] for x in steps].count(want) == 1, 'cache %s without a %s step: %s' % (sc['cache'], want, [x['step'] for x in steps])
names = [x['step'] for x in steps]
# The compile step, or a step of the cache of compiled programs.
compiled = [i for i, n in enumerate(names) if n == 'seccomp_compile' or n.startswith('seccomp_cache')]
assert compiled, 'no seccomp_compile or seccomp_cache* step: %s' % names
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
