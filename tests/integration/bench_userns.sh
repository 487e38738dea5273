#!/usr/bin/env bash
# sandboxtime bench userns: every depth has every call, every figure
# positive, every call's result checked inside (the owner the namespace
# shows, capable() refused there), as root and as nobody; a depth the kernel
# refuses is unavailable with its reason and the rest runs.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 6

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench userns --repeat=2 -J -o "$dir/u.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/u.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_grid_check.py" "$dir/u.json" userns 2 "$mode" --all-places
}

t_table() {
	local t
	t=$("$ST_BIN" bench userns --repeat=1 2>&1) || { echo "$t"; return 1; }
	expect_eq "$(printf '%s\n' "$t" | grep -cE '^(host|depth[0-9]+) ')" 49 || return 1
	printf '%s\n' "$t" | grep -q "^depth32  *capable_swapoff .*refused (EPERM)" || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^On this machine stat() .* not shown: " || { echo "$t"; return 1; }
}

# Started 28 user namespaces deep, depths 8, 16 and 32 go past the kernel's
# 32 levels: they are unavailable with its reason (ENOSPC), the rest runs.
# Unprivileged outside (nobody when root runs the suite), so that root's
# files are an id the namespaces do not map.
t_too_deep() {
	local dir cmd i out
	command -v unshare >/dev/null || { echo "no unshare(1)"; return 1; }
	dir=$(st_scratch) || return 1
	if is_root; then
		cmd=("$ST_NOBODY_BIN" bench userns --repeat=1 -J -o "$dir/u.json")
	else
		cmd=("$ST_BIN" bench userns --repeat=1 -J -o "$dir/u.json")
	fi
	for ((i = 0; i < 28; i++)); do cmd=(unshare --user --map-root-user "${cmd[@]}"); done
	if is_root; then
		out=$(as_nobody "${cmd[@]}" 2>&1) || { echo "$out"; return 1; }
	else
		out=$("${cmd[@]}" 2>&1) || { echo "$out"; return 1; }
	fi
	"$ST_PY" -B "$ST_PYDIR/bench_userns_deep_check.py" "$dir/u.json"
}

t_interrupted() {
	local mode=$1 left
	st_start "$mode" bench userns --repeat=100000 -q || return 1
	sleep 1
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean || return 1
	# its scratch directory (the mapped and unmapped files) went too
	left=$(ls -d "${TMPDIR:-/tmp}"/sandboxtime-userns-* /tmp/sandboxtime-userns-* 2>/dev/null)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
}

each_mode "bench userns: JSON has every depth and call, every figure positive" t_json
ok "bench userns: table, capable() refused in the namespaces" t_table
if userns_works; then
	ok "bench userns: depths past the kernel's 32 levels are unavailable, the rest runs" t_too_deep
else
	skip "bench userns: depths past the kernel's 32 levels" "no unprivileged user namespaces here"
fi
each_mode "bench userns: SIGINT while measuring exits 130 and leaves nothing" t_interrupted
