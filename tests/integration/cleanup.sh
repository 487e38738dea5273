#!/usr/bin/env bash
# sandboxtime cleanup: removes stv<pid>/stbr<pid> links whose sandboxtime is
# gone, keeps those of a running one, and touches nothing else.
#
# As root the suite re-runs itself in a network namespace of its own: the
# links it compares are then only those of its own runs (another job's,
# made meanwhile, are elsewhere), and its `sandboxtime cleanup` cannot delete
# another job's stv/stbr links (orphans.sh leaves one on purpose). Root's
# sandboxtime wires into the namespace it runs in, so every link the runs
# make or leave is in the suite's namespace, whatever its name: the
# comparisons below see them all.
if [ "$(id -u)" = 0 ] && [ -z "${ST_CLEANUP_NETNS:-}" ]; then
	ST_CLEANUP_NETNS=1 exec unshare --net bash "$0" "$@"
fi
source "$(dirname "$0")/../lib.sh" "$1"
plan 7

# A pid that surely belongs to no process now: one that just exited.
dead_pid() {
	local p
	sleep 0 & p=$!
	wait "$p"
	echo "$p"
}

links() { ip -o link | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | sort; }
suite_before=$(links)

t_removes_leftovers() {
	local p out before
	p=$(dead_pid)
	before=$(links)
	ip link add "stbr$p" type bridge || return 1
	ip link add "stv$p" type veth peer name "stvpeer$p" || { ip link del "stbr$p"; return 1; }
	ip link set "stv$p" master "stbr$p"
	out=$("$ST_BIN" cleanup 2>&1) || { echo "$out"; return 1; }
	printf '%s\n' "$out" | grep -q "deleted stv$p" || { echo "$out"; return 1; }
	printf '%s\n' "$out" | grep -q "deleted stbr$p" || { echo "$out"; return 1; }
	expect_eq "$(links)" "$before"
}

t_dry_run_deletes_nothing() {
	local p out
	p=$(dead_pid)
	ip link add "stbr$p" type bridge || return 1
	out=$("$ST_BIN" cleanup --dry-run 2>&1)
	ip -o link show "stbr$p" >/dev/null 2>&1 || { echo "dry run deleted stbr$p"; return 1; }
	ip link del "stbr$p"
	printf '%s\n' "$out" | grep -q "would delete stbr$p" || { echo "$out"; return 1; }
}

t_keeps_running_sandbox() {
	local dir pid out rc=0
	dir=$(mktemp -d)
	"$ST_BIN" --repeat=0 -q --net=bridge -- sh -c ": > $dir/ready; sleep 3" &
	pid=$!
	for _ in $(seq 100); do [ -e "$dir/ready" ] && break; sleep 0.05; done
	out=$("$ST_BIN" cleanup 2>&1)
	printf '%s\n' "$out" | grep -q "kept stv$pid" || { echo "$out"; rc=1; }
	printf '%s\n' "$out" | grep -q "kept stbr$pid" || { echo "$out"; rc=1; }
	ip -o link show "stv$pid" >/dev/null 2>&1 || { echo "stv$pid was deleted under a running sandbox"; rc=1; }
	wait "$pid" || { echo "the sandbox failed"; rc=1; }
	rm -rf "$dir"
	return $rc
}

t_ignores_other_names() {
	local p before
	p=$(dead_pid)
	before=$(links)
	# Our prefix, not our pattern or not our kind: a bridge named stv<pid>.
	ip link add "stv${p}x" type bridge || return 1
	ip link add "stv$p" type bridge || { ip link del "stv${p}x"; return 1; }
	"$ST_BIN" cleanup >/dev/null 2>&1
	local rc=0
	ip -o link show "stv${p}x" >/dev/null 2>&1 || { echo "deleted stv${p}x"; rc=1; }
	ip -o link show "stv$p" >/dev/null 2>&1 || { echo "deleted the bridge stv$p (not a veth)"; rc=1; }
	ip link del "stv${p}x" 2>/dev/null
	ip link del "stv$p" 2>/dev/null
	[ $rc -eq 0 ] && expect_eq "$(links)" "$before"
}

t_nobody_needs_root() {
	local out rc
	out=$(as_nobody "$ST_NOBODY_BIN" cleanup 2>&1); rc=$?
	expect_eq "$rc" 125 || return 1
	expect_eq "$(printf '%s\n' "$out" | wc -l)" 1 || return 1
	printf '%s\n' "$out" | grep -q "needs root" || { echo "$out"; return 1; }
	as_nobody "$ST_NOBODY_BIN" cleanup --dry-run >/dev/null 2>&1
}

t_dry_run_elsewhere() {
	local rc
	"$ST_BIN" --dry-run --repeat=0 -- true 2>/dev/null; rc=$?
	expect_eq "$rc" 125 || return 1
	"$ST_BIN" cleanup extra 2>/dev/null; rc=$?
	expect_eq "$rc" 125
}

if is_root; then
	ok "cleanup deletes the veth and bridge of a sandboxtime that is gone" t_removes_leftovers
	ok "cleanup --dry-run lists, deletes nothing" t_dry_run_deletes_nothing
	ok "cleanup keeps the links of a running sandboxtime" t_keeps_running_sandbox
	ok "cleanup ignores names and kinds that are not its own" t_ignores_other_names
else
	for d in deletes dry-run keeps ignores; do skip "cleanup $d" "needs root"; done
fi
ok "as nobody, cleanup says it needs root; --dry-run works" t_nobody_needs_root
ok "--dry-run outside cleanup, and an argument to cleanup: 125" t_dry_run_elsewhere
ok "the links are the same after the suite (the suite's network namespace, as root)" eval 'expect_eq "$(links)" "$suite_before"'
