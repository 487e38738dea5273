#!/usr/bin/env bash
# Issue 13.1: the bundle runc runs. The stock configs that `runc spec` and
# `runc spec --rootless` write (configs/oci/runc-spec*.json) with a busybox
# root built here from Debian's busybox-static, process.args changed and
# terminal false, run through --config as root and as nobody; checked from
# inside (mount table, devices, masked and read-only paths, the process),
# and nothing left behind.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 14
top=$(cd "$(dirname "$0")/../.." && pwd)
BUSYBOX=/bin/busybox

# The root: busybox and its applets as symlinks, the directories runc's configs mount on.
BUNDLE=$ST_TMP/bundle
make_rootfs() {
	local a
	mkdir -p "$BUNDLE/rootfs/bin" "$BUNDLE/rootfs/proc" "$BUNDLE/rootfs/sys" \
		"$BUNDLE/rootfs/dev" "$BUNDLE/rootfs/tmp" "$BUNDLE/rootfs/etc" || return 1
	cp "$BUSYBOX" "$BUNDLE/rootfs/bin/busybox" || return 1
	for a in $("$BUSYBOX" --list); do
		[ "$a" = busybox ] || ln -s busybox "$BUNDLE/rootfs/bin/$a" || return 1
	done
	chmod -R a+rX "$BUNDLE"
}

# What the workload sees: the mount table ("mi" lines) and one fact per line.
# shellcheck disable=SC2016
FACTS='sed "s/^/mi /" /proc/self/mountinfo
echo "fact hostname=$(hostname)"
echo x >/dev/null && echo "fact null=written"
echo "fact zero=$(head -c 4 /dev/zero | od -An -tx1 | tr -d " ")"
echo x 2>/dev/null >/dev/full || echo "fact full=refused"
echo "fact urandom=$(head -c 16 /dev/urandom | wc -c)"
[ -c /dev/tty ] && [ -c /dev/random ] && echo "fact tty_random=char"
exec 3<>/dev/ptmx && echo "fact pts=$(ls /dev/pts | tr "\n" ,)"
for l in fd stdin stdout stderr ptmx; do echo "fact link_$l=$(readlink /dev/$l)"; done
unmasked=
for p in MASKED; do
	if [ -d "$p" ]; then [ -z "$(ls -A "$p")" ] || unmasked="$unmasked $p"
	elif [ -e "$p" ]; then [ -z "$(head -c 1 "$p")" ] || unmasked="$unmasked $p"; fi
done
echo "fact masked_unmasked=$unmasked"
echo x 2>/dev/null >/proc/sys/kernel/hostname && echo "fact proc_sys=written" || echo "fact proc_sys=refused"
echo x 2>/dev/null >/bin/x && echo "fact root=written" || echo "fact root=refused"
echo "fact cwd=$(pwd) uid=$(id -u) gid=$(id -g) groups=$(id -G | tr " " ,)"
echo "fact nofile=$(ulimit -Sn)/$(ulimit -Hn) env=$FOO,$TERM oom=$(cat /proc/self/oom_score_adj)"
echo "fact ip_forward=$(cat /proc/sys/net/ipv4/ip_forward)"
echo "fact ns_ipc=$(readlink /proc/self/ns/ipc)"; echo "fact ns_uts=$(readlink /proc/self/ns/uts)"
echo "fact pid1=$(cat /proc/1/comm)"'

# The masked paths of runc spec (the same in both configs).
MASKED=$("$ST_PY" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["linux"]["maskedPaths"]))' \
	"$top/configs/oci/runc-spec.json")
FACTS=${FACTS//MASKED/$MASKED}

# config NAME FIXTURE MODE [PYTHON]: $BUNDLE/NAME.json, FIXTURE for MODE's ids, edited by PYTHON.
config() {
	local uid gid
	uid=$(mode_uid "$3"); gid=$(if [ "$3" = nobody ]; then id -g nobody; else id -g; fi)
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" config "$2" "$BUNDLE/$1.json" "$uid" "$gid" "$FACTS" "${4:-}" &&
		chmod 644 "$BUNDLE/$1.json"
}

# Our own processes whose root is in the bundle: none may be left.
bundle_procs() {
	local p
	for p in /proc/[0-9]*; do
		[[ "$(readlink "$p/root" 2>/dev/null)" == "$BUNDLE"* ]] && echo "${p#/proc/}"
	done
}

# The facts every stock bundle shows, as the runtime spec's default devices say.
DEVICES="null=written zero=00000000 full=refused urandom=16 tty_random=char pts=0,ptmx,
link_fd=/proc/self/fd link_stdin=/proc/self/fd/0 link_stdout=/proc/self/fd/1
link_stderr=/proc/self/fd/2 link_ptmx=pts/ptmx proc_sys=refused root=refused"

# run_bundle MODE CONFIG OUT: runs it (root: from /, so root.path is the file's), out in
# OUT, the JSON report in OUT.json.
run_bundle() {
	local mode=$1 cfg=$2 out=$3 rc
	if [ "$mode" = nobody ]; then
		as_nobody "$ST_NOBODY_BIN" --repeat=0 -J -o "$out.json" --config="$cfg" >"$out" 2>"$out.err"; rc=$?
	else
		(cd / && "$ST_BIN" --repeat=0 -J -o "$out.json" --config="$cfg") >"$out" 2>"$out.err"; rc=$?
	fi
	[ $rc -eq 0 ] || { echo "exit $rc"; cat "$out.err"; return 1; }
}

t_stock() {
	local mode=$1 fixture before dir
	fixture=$top/configs/oci/runc-spec.json
	[ "$mode" = nobody ] && fixture=$top/configs/oci/runc-spec-rootless.json
	config "stock-$mode" "$fixture" "$mode" || return 1
	dir=$(st_scratch)
	before=$(st_host_mounts)
	run_bundle "$mode" "$BUNDLE/stock-$mode.json" "$dir/out" || return 1
	# shellcheck disable=SC2086
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" check "$fixture" "$dir/out" hostname=runc $DEVICES \
		"cwd=/ uid=0 gid=0 groups=0" "nofile=1024/1024 env=,xterm oom=0" || { cat "$dir/out"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" steps "$dir/out.json" mount_apply dev_populate pivot_root \
		masked_paths readonly_paths rlimits user_ids || return 1
	expect_eq "$(st_host_mounts)" "$before" || return 1
	expect_eq "$(bundle_procs)" ""
}

if [ ! -x "$BUSYBOX" ]; then
	for i in $(seq 14); do skip "the runc spec bundle" "no $BUSYBOX (Debian's busybox-static: sh .ci/install-deps test)"; done
	exit 0
fi
make_rootfs || exit 1
each_mode "the stock runc spec bundle runs: mounts, default devices, masked and read-only paths, the process, nothing left behind" t_stock

# The process and linux keys with other values than runc spec's: what the config says is what the
# workload sees. Rootless, the one mapped id stays 0, and the sandbox gets a network namespace for
# its sysctl.
EDIT='c["hostname"] = "edited"; c["process"]["cwd"] = "/tmp"; c["process"]["env"].append("FOO=bar")
c["process"]["rlimits"] = [{"type": "RLIMIT_NOFILE", "soft": 512, "hard": 800}]
c["process"]["oomScoreAdj"] = 500; c["linux"]["sysctl"] = {"net.ipv4.ip_forward": "1"}'
t_edited() {
	local mode=$1 fixture=$top/configs/oci/runc-spec.json edit=$EDIT user="uid=1000 gid=1000 groups=1000,5,20" dir
	if [ "$mode" = nobody ]; then
		fixture=$top/configs/oci/runc-spec-rootless.json user="uid=0 gid=0 groups=0"
		edit="$edit"$'\n''c["linux"]["namespaces"].append({"type": "network"})'
	else
		# A uid other than 0 gets no ambient capabilities from sandboxtime: the config says so.
		edit="$edit"$'\n''c["process"]["user"] = {"uid": 1000, "gid": 1000, "additionalGids": [5, 20]}'
		edit="$edit"$'\n''c["process"]["capabilities"]["ambient"] = []'
	fi
	config "edited-$mode" "$fixture" "$mode" "$edit" || return 1
	dir=$(st_scratch)
	run_bundle "$mode" "$BUNDLE/edited-$mode.json" "$dir/out" || return 1
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" check "$fixture" "$dir/out" hostname=edited \
		"cwd=/tmp $user" "nofile=512/800 env=bar,xterm oom=500" ip_forward=1 || { cat "$dir/out"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" steps "$dir/out.json" sysctl rlimits oom_score_adj user_ids
}
each_mode "process.user, cwd, env, rlimits, oomScoreAdj, hostname and linux.sysctl as configured" t_edited

# The config decides the hardening, as with runc: runc spec's bundle has no
# linux.seccomp, so no filter; its three capabilities; its noNewPrivileges.
# The same bundle with a linux.seccomp gets that filter. Read from inside,
# and, as root, from runc itself running the same bundle (the control).
HARDENING='grep -E "^(CapEff|CapBnd|NoNewPrivs|Seccomp):" /proc/self/status'
SECCOMP_EDIT='c["linux"]["seccomp"] = {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["getppid"], "action": "SCMP_ACT_ERRNO"}]}'
RUNC_SPEC_CAPS=0000000020000420 # CAP_AUDIT_WRITE, CAP_KILL, CAP_NET_BIND_SERVICE

# runc_facts CONFIG OUT: runc runs CONFIG in a bundle of its own, root.path our rootfs.
runc_facts() {
	local b
	b=$(st_scratch) || return 1
	"$ST_PY" -c 'import json, sys; c = json.load(open(sys.argv[1])); c["root"]["path"] = sys.argv[2]; json.dump(c, open(sys.argv[3], "w"))' \
		"$1" "$BUNDLE/rootfs" "$b/config.json" || return 1
	runc --root "$b/state" run --bundle "$b" "stt-hardening-$$-$RANDOM" >"$2" 2>"$2.err" </dev/null ||
		{ echo "runc: exit $?"; cat "$2.err"; return 1; }
}

t_config_decides() {
	local mode=$1 seccomp=$2 fixture=$top/configs/oci/runc-spec.json dir want edit=
	[ "$mode" = nobody ] && fixture=$top/configs/oci/runc-spec-rootless.json
	[ "$seccomp" = with ] && edit=$SECCOMP_EDIT
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" config "$fixture" "$BUNDLE/hard-$mode-$seccomp.json" "$(mode_uid "$mode")" \
		"$(if [ "$mode" = nobody ]; then id -g nobody; else id -g; fi)" "$HARDENING" "$edit" &&
		chmod 644 "$BUNDLE/hard-$mode-$seccomp.json" || return 1
	dir=$(st_scratch)
	run_bundle "$mode" "$BUNDLE/hard-$mode-$seccomp.json" "$dir/out" || return 1
	want=$(printf 'CapEff:\t%s\nCapBnd:\t%s\nNoNewPrivs:\t1\nSeccomp:\t%s' "$RUNC_SPEC_CAPS" "$RUNC_SPEC_CAPS" \
		"$([ "$seccomp" = with ] && echo 2 || echo 0)")
	expect_eq "$(cat "$dir/out")" "$want" || return 1
	json_field "$dir/out.json" "d['security']['from']" config || return 1
	if [ "$seccomp" = without ]; then
		json_field "$dir/out.json" "d['security']['seccomp']" None || return 1
	else
		json_field "$dir/out.json" "d['security']['seccomp']['program']" compiled || return 1
	fi
	[ "$mode" = root ] || return 0
	runc_facts "$BUNDLE/hard-$mode-$seccomp.json" "$dir/runc" || return 1
	expect_eq "$(cat "$dir/runc")" "$want"
}

# json_field FILE EXPR WANT: str(EXPR) over the JSON document d is WANT.
json_field() {
	local got
	got=$("$ST_PY" -c 'import json,sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2") || return 1
	expect_eq "$got" "$3"
}

if command -v runc >/dev/null; then
	each_mode "runc spec's bundle, no linux.seccomp: no filter, its capabilities and no_new_privs, as runc gives them" \
		t_config_decides without
	each_mode "runc spec's bundle with a linux.seccomp: that filter (Seccomp 2), as runc gives it" t_config_decides with
else
	for i in 1 2 3 4; do skip "the config decides the hardening" "no runc, the control (sh .ci/install-deps test)"; done
fi

# linux.namespaces with a path: uts, ipc and pid of a holder made here are joined (root);
# rootless, 125 and one line saying why (stepping back out needs root).
t_join() {
	local mode=$1 holder dir want edit rc
	dir=$(st_scratch)
	unshare --uts --ipc --pid --fork sh -c "hostname held; echo \$\$ >$dir/pid; exec sleep 60" >/dev/null 2>&1 &
	for _ in $(seq 50); do [ -s "$dir/pid" ] && break; sleep 0.1; done
	# The file says the holder is ready (it holds its pid inside, 1): its pid outside is the sleep's.
	# It is its pid namespace's init, which ignores a SIGTERM from outside (pid_namespaces(7)):
	# it is ended with SIGKILL, and its output goes nowhere, so that no pipe waits 60 s for it.
	holder=$(pgrep -n -x sleep -P "$!" || true)
	[ -n "$holder" ] || { echo "no holder"; kill "$!"; return 1; }
	edit='del c["hostname"]
c["linux"]["namespaces"] = [n for n in c["linux"]["namespaces"] if n["type"] not in ("uts", "ipc", "pid")]
c["linux"]["namespaces"] += [{"type": t, "path": "/proc/HOLDER/ns/" + t} for t in ("uts", "ipc", "pid")]'
	edit=${edit//HOLDER/$holder}
	local fixture=$top/configs/oci/runc-spec.json
	[ "$mode" = nobody ] && fixture=$top/configs/oci/runc-spec-rootless.json
	config "join-$mode" "$fixture" "$mode" "$edit" || { kill -KILL "$holder"; return 1; }
	if [ "$mode" = nobody ]; then
		out=$(as_nobody "$ST_NOBODY_BIN" --repeat=0 -q --config="$BUNDLE/join-$mode.json" 2>&1); rc=$?
		kill -KILL "$holder"
		[ $rc -eq 125 ] || { echo "exit $rc: $out"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q ".linux.namespaces: joining a uts namespace by its path needs root" || { echo "$out"; return 1; }
		return 0
	fi
	run_bundle root "$BUNDLE/join-$mode.json" "$dir/out"; rc=$?
	want="hostname=held pid1=sleep"
	for t in ipc uts; do want="$want ns_$t=$(readlink "/proc/$holder/ns/$t")"; done
	kill -KILL "$holder"
	[ $rc -eq 0 ] || return 1
	# shellcheck disable=SC2086
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" check "$fixture" "$dir/out" $want || { cat "$dir/out"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" steps "$dir/out.json" join_uts join_ipc join_pid
}
each_mode "linux.namespaces paths: uts, ipc and pid joined as root, refused rootless" t_join

# Each new step made to fail (the fault build): 125, one line naming it, nothing left behind.
t_faults() {
	local mode=$1 faults=$ST_TMP/sandboxtime-faults step out rc before cfg=$BUNDLE/edited-$1.json
	[ -f "$cfg" ] || { echo "no $cfg (the edited test did not run)"; return 1; }
	for step in dev_populate sysctl masked_paths readonly_paths rlimits oom_score_adj user_ids; do
		before=$(st_host_mounts)
		if [ "$mode" = nobody ]; then
			out=$(SANDBOXTIME_FAULT=$step as_nobody "$faults" --repeat=0 -q --config="$cfg" 2>&1); rc=$?
		else
			out=$(SANDBOXTIME_FAULT=$step "$faults" --repeat=0 -q --config="$cfg" 2>&1); rc=$?
		fi
		[ $rc -eq 125 ] || { echo "$step: exit $rc: $out"; return 1; }
		if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || ! printf '%s\n' "$out" | grep -q "$step: injected fault"; then
			echo "$step: $out"; return 1
		fi
		expect_eq "$(st_host_mounts)" "$before" || return 1
		expect_eq "$(bundle_procs)" "" || return 1
	done
}
if [ -x "$ST_BUILD_DIR/sandboxtime-faults" ]; then
	cp "$ST_BUILD_DIR/sandboxtime-faults" "$ST_TMP/sandboxtime-faults" && chmod 755 "$ST_TMP/sandboxtime-faults"
	each_mode "each new step failing: one line naming it, 125, nothing left behind" t_faults
else
	for i in 1 2; do skip "each new step failing" "no sandboxtime-faults next to $ST_BIN (make fault-bin)"; done
fi

# A mount type sandboxtime does not know: 125, one line naming the file and the key (then the --help hint).
t_bad_type() {
	local out rc
	config badtype "$top/configs/oci/runc-spec.json" root 'c["mounts"][4]["type"] = "overlay"' || return 1
	out=$("$ST_BIN" --repeat=0 -q --config="$BUNDLE/badtype.json" 2>&1); rc=$?
	[ $rc -eq 125 ] || { echo "exit $rc: $out"; return 1; }
	printf '%s\n' "$out" | head -1 | grep -qF "$BUNDLE/badtype.json: .mounts[4].type: type \"overlay\" is not supported" || { echo "$out"; return 1; }
}
ok "an unknown mount type: one line naming .mounts[4].type, 125" t_bad_type

# --ns replaces the config's namespaces: a sysctl whose namespace is then gone would reach the
# host's, and is refused before anything runs (and the host's value stays).
t_sysctl_host() {
	local out rc before
	config sysctl-host "$top/configs/oci/runc-spec.json" root 'c["linux"]["sysctl"] = {"net.ipv4.ip_forward": "1"}' || return 1
	before=$(cat /proc/sys/net/ipv4/ip_forward)
	out=$("$ST_BIN" --repeat=0 -q --ns=pid,ipc,uts,mount --config="$BUNDLE/sysctl-host.json" 2>&1); rc=$?
	[ $rc -eq 125 ] || { echo "exit $rc: $out"; return 1; }
	printf '%s\n' "$out" | head -1 | grep -qF ".linux.sysctl.net.ipv4.ip_forward: needs the net namespace" || { echo "$out"; return 1; }
	expect_eq "$(cat /proc/sys/net/ipv4/ip_forward)" "$before"
}
ok "a sysctl whose namespace --ns took away: 125, one line, the host's value untouched" t_sysctl_host
