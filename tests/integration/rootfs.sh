#!/usr/bin/env bash
# --config's root and mounts (issue 6): pivot_root into root.path, and
# mounts of type proc, tmpfs and bind, checked from inside the sandbox, as
# root and as nobody. The root is built here: a marker file, and the host's
# /usr bound read-only by the config itself (bin, lib, lib64 are symlinks
# into it, as on a merged-/usr Debian). Then bad input: one line naming the
# file and the JSON path, 125, and nothing mounted or created anywhere.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 9

BUNDLE=$ST_TMP/bundle
mkdir -p "$BUNDLE/rootfs/usr" "$BUNDLE/rootfs/proc" "$BUNDLE/rootfs/etc"
for l in bin lib lib64 sbin; do [ -e "/$l" ] && ln -s "usr/$l" "$BUNDLE/rootfs/$l"; done
echo "the new root" >"$BUNDLE/rootfs/marker"
# A symlink that points out of the root: resolved inside it, it is the root's /etc.
ln -s /etc "$BUNDLE/rootfs/evil"
chmod -R a+rX "$BUNDLE"

# What the workload sees, one fact per line (expanded by the sandbox's sh).
# shellcheck disable=SC2016
FACTS='cat /marker
read -r pid _ </proc/self/stat; [ "$pid" = $$ ] && echo "proc=own"
stat -f -c "tmp=%T" /tmp; set -- $(df -k /tmp | tail -n 1); echo "tmp_kb=$2"
touch /usr/x 2>/tmp/e || echo usr=ro
touch /y 2>/tmp/e || echo root=ro
touch /tmp/w && echo tmp=rw
stat -f -c "evil=%T" /etc
[ -e BUNDLE ] || echo host=gone'
FACTS=${FACTS//BUNDLE/$BUNDLE}

# config NAME PYTHON: writes $BUNDLE/NAME.json, the test config edited by PYTHON (c is the dict).
config() {
	python3 -B "$ST_PYDIR/rootfs_tool.py" config "$BUNDLE/$1.json" "$FACTS" "$2"
	chmod 644 "$BUNDLE/$1.json"
}
config good ''

# From a directory other than the bundle's: root.path is relative to the file.
t_inside() {
	local mode=$1 dir out want
	dir=$(st_scratch)
	if [ "$mode" = nobody ]; then
		out=$(as_nobody "$ST_NOBODY_BIN" --repeat=0 -J -o "$dir/r.json" --config="$BUNDLE/good.json")
	else
		out=$(cd / && "$ST_BIN" --repeat=0 -J -o "$dir/r.json" --config="$BUNDLE/good.json")
	fi || { echo "exit $?: $out"; return 1; }
	want=$(printf '%s\n' "the new root" proc=own tmp=tmpfs tmp_kb=512 usr=ro root=ro tmp=rw evil=tmpfs host=gone)
	expect_eq "$out" "$want" || return 1
	python3 -B "$ST_PYDIR/rootfs_tool.py" steps "$dir/r.json"
}
each_mode "root.path and mounts: new root, own /proc, sized tmpfs, read-only bind and root, symlinks stay inside" t_inside

# Bad input: 125, one line naming the file and the JSON path, nothing mounted
# in the caller's namespace, nothing created in the root.
t_bad() {
	local name=$1 edit=$2 where=$3 out rc before after tree
	config "$name" "$edit"
	before=$(st_host_mounts)
	tree=$(find "$BUNDLE/rootfs" | sort)
	out=$("$ST_BIN" --repeat=0 -q --config="$BUNDLE/$name.json" 2>&1); rc=$?
	after=$(st_host_mounts)
	rm -f "$BUNDLE/$name.json"
	[ $rc -eq 125 ] || { echo "exit $rc: $out"; return 1; }
	printf '%s\n' "$out" | head -1 | grep -qF "sandboxtime: $BUNDLE/$name.json: $where" || { echo "$out"; return 1; }
	expect_eq "$after" "$before" || return 1
	expect_eq "$(find "$BUNDLE/rootfs" | sort)" "$tree"
}
ok "a missing root: 125, file and .root.path" t_bad noroot 'c["root"]["path"] = "nowhere"' '.root.path: '
ok "an unsupported mount type: 125, file and .mounts[1].type" t_bad overlay 'c["mounts"][1]["type"] = "overlay"' '.mounts[1].type: type "overlay" is not supported'
ok "a destination that escapes: 125, file and .mounts[3].destination" t_bad escape \
	'c["mounts"][3]["destination"] = "/tmp/../../etc"' '.mounts[3].destination: "/tmp/../../etc"'
ok "an unknown option: 125, file and .mounts[2].options[3]" t_bad badopt \
	'c["mounts"][2]["options"].append("size=1m")' '.mounts[2].options[3]: option "size=1m" is not supported for a bind mount'
ok "root and mounts without a mount namespace: 125, says which layer" t_bad nomount \
	'c["linux"]["namespaces"] = [{"type": "pid"}]' '.mounts: needs a mount namespace'

# A failure while mounting (in the sandbox) is one line, 125, and the caller's mounts are untouched.
t_mount_fails() {
	local out rc before
	config badsrc 'c["mounts"][2]["source"] = "/nonexistent"'
	before=$(st_host_mounts)
	out=$("$ST_BIN" --repeat=0 -q --config="$BUNDLE/badsrc.json" 2>&1); rc=$?
	[ $rc -eq 125 ] || { echo "exit $rc: $out"; return 1; }
	if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] ||
		! printf '%s\n' "$out" | grep -qF "$BUNDLE/badsrc.json: .mounts[2]: bind source /nonexistent"; then
		echo "$out"; return 1
	fi
	expect_eq "$(st_host_mounts)" "$before"
}
ok "a bind source that does not exist: one line, 125, nothing mounted outside" t_mount_fails

# Each mount step made to fail (the fault build): 125, one line naming it, the caller's mounts untouched.
t_faults() {
	local faults=$ST_BUILD_DIR/sandboxtime-faults step out rc before
	for step in root_bind mount_apply pivot_root old_root_detach root_readonly; do
		before=$(st_host_mounts)
		out=$(SANDBOXTIME_FAULT=$step "$faults" --repeat=0 -q --config="$BUNDLE/good.json" 2>&1); rc=$?
		[ $rc -eq 125 ] || { echo "$step: exit $rc: $out"; return 1; }
		if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ] || ! printf '%s\n' "$out" | grep -q "$step: injected fault"; then
			echo "$step: $out"; return 1
		fi
		expect_eq "$(st_host_mounts)" "$before" || return 1
	done
}
if [ -x "$ST_BUILD_DIR/sandboxtime-faults" ]; then
	ok "each mount step failing: one line naming it, 125, nothing mounted outside" t_faults
else
	skip "each mount step failing" "no sandboxtime-faults next to $ST_BIN (make fault-bin)"
fi
