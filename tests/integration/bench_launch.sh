#!/usr/bin/env bash
# sandboxtime bench launch (issue 15.3): sandboxtime's default launch, its
# unshare-like launch, unshare, bwrap and /bin/true alone (the floor: every
# sandbox costs more), each measured in the same rounds,
# as root and as nobody; a peer missing from PATH, or one that fails, is
# unavailable with the reason and the rest runs; SIGINT exits 130 and leaves
# no process.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 6

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench launch --launches=10 --repeat=2 -J -o "$dir/l.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/l.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_launch_check.py" "$dir/l.json" 2
}

# No peer on PATH: both unavailable with what to install; sandboxtime's own
# places run. (Only sandboxtime gets the empty PATH: the harness needs its own.)
t_no_peers() {
	local dir ST_BIN=$ST_BIN
	dir=$(st_scratch) || return 1
	printf '#!/bin/sh\nPATH=/nonexistent exec "%s" "$@"\n' "$ST_BIN" >"$dir/st" && chmod 755 "$dir/st"
	ST_BIN=$dir/st
	st_run root bench launch --launches=10 --repeat=1 -J -o "$dir/l.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_launch_check.py" "$dir/l.json" 1 \
		"unshare=no unshare on PATH: install Debian's util-linux" \
		"bwrap=no bwrap on PATH: install Debian's bubblewrap"
}

# A peer that fails: unavailable, with its exit status and what it said first.
t_failing_peer() {
	local dir
	dir=$(st_scratch) || return 1
	printf '#!/bin/sh\necho "bwrap: no permission to make namespaces" >&2\nexit 1\n' >"$dir/bwrap"
	chmod 755 "$dir/bwrap"
	PATH="$dir:$PATH" st_run root bench launch --launches=10 --repeat=1 -J -o "$dir/l.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_launch_check.py" "$dir/l.json" 1 \
		"bwrap=$dir/bwrap exited with 1 (it said: bwrap: no permission to make namespaces)"
}

t_interrupted() {
	st_start root bench launch --repeat=100000 -q || return 1
	sleep 1.5
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean
}

if ! command -v unshare >/dev/null || ! command -v bwrap >/dev/null; then
	for t in json-root json-nobody no-peers failing-peer sigint table; do
		skip "bench launch: $t" "unshare and bwrap are needed: sh .ci/install-deps test"
	done
	exit 0
fi
each_mode "bench launch: JSON has every place and operation, each measured in the same rounds" t_json
ok "bench launch: no peer on PATH: unavailable with what to install, sandboxtime's places run" t_no_peers
ok "bench launch: a failing peer is unavailable with its status and its first words" t_failing_peer
ok "bench launch: SIGINT while launching exits 130 and leaves no process" t_interrupted
t_table() {
	local t
	t=$("$ST_BIN" bench launch --launches=10 --repeat=1 2>&1) || { echo "$t"; return 1; }
	expect_eq "$(printf '%s\n' "$t" | grep -cE '^(sandboxtime|sandboxtime-bare|unshare|bwrap|true) +(mean|p50|p99) ')" 15 ||
		{ echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^On this machine sandboxtime launched [0-9]* sandboxes per second" || { echo "$t"; return 1; }
}
ok "bench launch: the table and its summary" t_table
