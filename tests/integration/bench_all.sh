#!/usr/bin/env bash
# sandboxtime bench all: every bench in one document, each to its own
# schema, every figure that stands positive (as root; a table of them all as
# nobody); CSV is refused; SIGINT stops it with 130 and nothing left.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 4

SMALL=(--repeat=1 --sizes=1 --files=50)

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench all "${SMALL[@]}" -J -o "$dir/a.json" || return 1
	expect_rc 0 && expect_clean || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_all_check.py" "$dir/a.json"
}

# As nobody: the document is root's above, and each bench's own suite runs it
# as nobody too; here the rootless run of them all, in one table.
t_table_and_csv() {
	local t out rc
	st_run nobody bench all "${SMALL[@]}" || return 1
	expect_rc 0 && expect_clean || { st_show; return 1; }
	t=$(cat "$ST_OUT" "$ST_ERR")
	expect_eq "$(printf '%s\n' "$t" | grep -c '^== bench ')" 6 || return 1
	expect_eq "$(printf '%s\n' "$t" | grep -c '^On this machine')" 6 || { echo "$t"; return 1; }
	out=$("$ST_BIN" bench all --format=csv 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | head -1 | grep -q "bench all writes several tables" || { echo "$rc $out"; return 1; }
}

t_interrupted() {
	local mode=$1
	st_start "$mode" bench all --repeat=100000 --sizes=1 --files=50 -q || return 1
	sleep 1
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean || return 1
	[ -z "$(ls -d /dev/shm/sandboxtime-files-* /var/tmp/sandboxtime-files-* 2>/dev/null)" ]
}

if is_root; then
	ok "bench all: one document of every bench, every figure positive [root]" t_json root
else
	skip "bench all: one document of every bench, every figure positive [root]" "not running as root"
fi
if can_run nobody; then
	ok "bench all: a table per bench with its sentence, as nobody; CSV refused" t_table_and_csv
else
	skip "bench all: a table per bench with its sentence, as nobody; CSV refused" "needs root to switch to nobody, and unprivileged user namespaces"
fi
each_mode "bench all: SIGINT exits 130 and leaves nothing" t_interrupted
