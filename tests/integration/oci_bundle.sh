#!/usr/bin/env bash
# Issue 13.1: the bundle runc runs. The stock configs that `runc spec` and
# `runc spec --rootless` write (configs/oci/runc-spec*.json) with a busybox
# root built here from Debian's busybox-static, process.args changed and
# terminal false, run through --config as root and as nobody; checked from
# inside (mount table, devices, masked and read-only paths, the process),
# and nothing left behind.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 3
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
for l in fd stdin stdout stderr ptmx; do echo "fact link_$l=$(readlink /dev/$l)"; done'

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
link_stderr=/proc/self/fd/2 link_ptmx=pts/ptmx"

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
	before=$(cut -d' ' -f5 /proc/self/mountinfo | sort)
	run_bundle "$mode" "$BUNDLE/stock-$mode.json" "$dir/out" || return 1
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" check "$fixture" "$dir/out" hostname=runc $DEVICES || { cat "$dir/out"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" steps "$dir/out.json" mount_apply dev_populate pivot_root || return 1
	expect_eq "$(cut -d' ' -f5 /proc/self/mountinfo | sort)" "$before" || return 1
	expect_eq "$(bundle_procs)" ""
}

if [ ! -x "$BUSYBOX" ]; then
	for i in 1 2 3; do skip "the runc spec bundle" "no $BUSYBOX (Debian's busybox-static: sh .ci/install-deps test)"; done
	exit 0
fi
make_rootfs || exit 1
each_mode "the stock runc spec bundle runs: every mount with its options, the default devices, nothing left behind" t_stock

# A mount type sandboxtime does not know: 125, one line naming the file and the key (then the --help hint).
t_bad_type() {
	local out rc
	config badtype "$top/configs/oci/runc-spec.json" root 'c["mounts"][4]["type"] = "overlay"' || return 1
	out=$("$ST_BIN" --repeat=0 -q --config="$BUNDLE/badtype.json" 2>&1); rc=$?
	[ $rc -eq 125 ] || { echo "exit $rc: $out"; return 1; }
	printf '%s\n' "$out" | head -1 | grep -qF "$BUNDLE/badtype.json: .mounts[4].type: type \"overlay\" is not supported" || { echo "$out"; return 1; }
}
ok "an unknown mount type: one line naming .mounts[4].type, 125" t_bad_type
