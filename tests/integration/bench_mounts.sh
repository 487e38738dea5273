#!/usr/bin/env bash
# sandboxtime bench mounts: every place (the host's table, N private and
# shared bind mounts, N idle sandboxes) has every operation measured and
# checked, as root and as nobody; nothing is left on the host's mount table
# or as a process, also after SIGINT; a background beyond --max-alive is
# refused with one line, before anything is made.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 6

MOUNTS=10,300
BACKGROUND=0,20

t_json() {
	local mode=$1 dir before
	dir=$(st_scratch) || return 1
	before=$(st_host_mounts)
	st_run "$mode" bench mounts --mounts=$MOUNTS --background=$BACKGROUND --repeat=2 -J \
		-o "$dir/m.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/m.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || { st_show; return 1; }
	expect_eq "$(st_host_mounts)" "$before" || return 1
	! grep -q sandboxtime-mounts /proc/self/mountinfo || { echo "a bench tmpfs is left"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_mounts_check.py" "$dir/m.json" 2 $MOUNTS $BACKGROUND
}

t_table() {
	local t
	t=$("$ST_BIN" bench mounts --mounts=10 --background=0,5 --repeat=1 2>&1) || { echo "$t"; return 1; }
	expect_eq "$(printf '%s\n' "$t" | grep -cE '^(base|private-10|shared-10|bg-5) ')" 12 || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^On this machine a new mount namespace copying the host's [0-9]* mounts .* not shown: " ||
		{ echo "$t"; return 1; }
}

t_interrupted() {
	local mode=$1 before
	before=$(st_host_mounts)
	st_start "$mode" bench mounts --mounts=2000 --background=0,200 --repeat=100000 -q || return 1
	sleep 2
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean || return 1
	expect_eq "$(st_host_mounts)" "$before"
}

t_beyond_max_alive() {
	st_run root bench mounts --background=0,20 --max-alive=10 -q || return 1
	expect_rc 125 && expect_error_line || return 1
	grep -q "^sandboxtime: bench mounts: --background=20 is more than --max-alive=10 sandboxes alive: raise --max-alive" "$ST_ERR" ||
		{ st_show; return 1; }
}

if userns_works; then
	each_mode "bench mounts: JSON has every place and operation, every figure checked and positive" t_json
	ok "bench mounts: table and its summary" t_table
	each_mode "bench mounts: SIGINT while measuring exits 130 and leaves nothing" t_interrupted
else
	skip "bench mounts: JSON [root]" "no unprivileged user namespaces here"
	skip "bench mounts: JSON [nobody]" "no unprivileged user namespaces here"
	skip "bench mounts: table" "no unprivileged user namespaces here"
	skip "bench mounts: SIGINT [root]" "no unprivileged user namespaces here"
	skip "bench mounts: SIGINT [nobody]" "no unprivileged user namespaces here"
fi
ok "bench mounts: a background beyond --max-alive is refused in one line" t_beyond_max_alive
