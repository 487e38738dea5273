#!/usr/bin/env bash
# sandboxtime bench churn: the counts add up (created = reaped = freed, the
# backlog ends at 0, never more counted than --max-alive), as root and as
# nobody; a request beyond the machine's limits is refused with the numbers
# before anything is made; SIGINT in the middle leaves no process and no
# namespace (counted by the kernel in a user namespace of the test's own).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 12

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --count=20 --parallel=1,2 --ns=net -J -o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" 20 1,2 1000 net
}

# --max-alive=2 with two creators of net namespaces: the kernel refuses a third
# counted sandbox, so the backlog stays within the bound (throttled meanwhile).
t_max_alive() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --count=40 --parallel=2 --max-alive=2 --ns=uts,ipc,net -J \
		-o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" 40 2 2 uts,ipc,net
}

# --duration instead of --count: the measured run goes first, the bare loops make as many.
t_duration() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --duration=0.3 --parallel=2 --ns=uts,net -J -o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" duration:0.3 2 1000 uts,net
}

t_table_and_csv() {
	local t c
	t=$("$ST_BIN" bench churn --count=10 --ns=uts 2>&1) || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^PARALLEL  *CREATED  *WALL_s  *PER_S  *p50_us  *p99_us  *p99.9_us  *max_us" || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^On this machine 1 creator made and destroyed .* over a bare clone loop.$" || { echo "$t"; return 1; }
	c=$("$ST_BIN" bench churn --count=10 --parallel=1,2 --ns=uts --format=csv 2>&1) || { echo "$c"; return 1; }
	printf '%s\n' "$c" | head -1 | grep -q "^parallel,created,reaped,freed,wall_s,rate_per_s,create_p50_us," || { echo "$c"; return 1; }
	expect_eq "$(printf '%s\n' "$c" | wc -l)" 3
}

# Beyond max_user_namespaces: refused with 125, one line naming both numbers, before -o is made.
t_limits() {
	local mode=$1 dir max
	dir=$(st_scratch) || return 1
	max=$(cat /proc/sys/user/max_user_namespaces)
	st_run "$mode" bench churn --max-alive=$((max + 1)) --ns=uts -o "$dir/c.json" || return 1
	expect_rc 125 && expect_error_line && expect_clean || return 1
	expect_error_names "needs $((max + 2)) user namespaces" "max_user_namespaces is $max" || return 1
	[ ! -e "$dir/c.json" ] || { echo "-o file left behind"; return 1; }
	st_run "$mode" bench churn --parallel=4 --max-alive=2 || return 1
	expect_rc 125 && expect_error_line && expect_error_names "more than --max-alive=2"
}

t_bad_options() {
	local args out rc
	for args in "--count=0" "--count=x" "--parallel=" "--parallel=0" "--parallel=65" "--parallel=1,1" \
		"--parallel=1,2,3,4,5,6,7,8,9" "--max-alive=0"; do
		out=$("$ST_BIN" bench churn "$args" 2>&1); rc=$?
		[ "$rc" = 125 ] || { echo "'$args': exit $rc"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: ${args%%=*}" || { echo "'$args': $out"; return 1; }
	done
	out=$("$ST_BIN" bench fork --count=3 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --count applies to bench churn only" || { echo "$rc $out"; return 1; }
	out=$("$ST_BIN" bench churn --sizes=1 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --sizes applies to bench fork and all only" || { echo "$rc $out"; return 1; }
	out=$("$ST_BIN" bench churn --count=5 --duration=1 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: bench churn: --count and --duration: choose one" || { echo "$rc $out"; return 1; }
	out=$("$ST_BIN" bench churn --repeat=3 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --repeat applies to bench syscall, cpu, fork, files, userns, where, mounts, cgroup and all only" || { echo "$rc $out"; return 1; }
}

# The script run in a user namespace of the test's own (unshare -Ur): churn,
# SIGINT after a while, then ask the kernel whether any user namespace below
# ours is still counted (every sandbox has one, freed last): with our limit
# at 1, unshare -U succeeds only when none is.
# shellcheck disable=SC2016
INTERRUPT_SCRIPT='
	"$1" "$2/pid" "$3" bench churn --count=1000000 --parallel=2 --ns=net -q 2>"$2/stderr" &
	job=$!
	sleep 1.5
	kill -INT "$(cat "$2/pid")"
	wait "$job"
	echo "rc=$?"
	echo 1 >/proc/sys/user/max_user_namespaces || exit 1
	i=0
	while [ $i -lt 100 ]; do
		unshare -U true 2>/dev/null && { echo "nothing counted"; exit 0; }
		sleep 0.02
		i=$((i + 1))
	done
	echo "user namespaces still counted after 2 s"
	exit 1'

t_interrupted() {
	local mode=$1 dir out
	dir=$(st_scratch) || return 1
	if [ "$mode" = nobody ]; then
		out=$(as_nobody unshare -Ur sh -c "$INTERRUPT_SCRIPT" sh "$ST_EXEC" "$dir" "$ST_NOBODY_BIN" 2>&1)
	else
		out=$(unshare -Ur sh -c "$INTERRUPT_SCRIPT" sh "$ST_EXEC" "$dir" "$ST_BIN" 2>&1)
	fi
	printf '%s\n' "$out" | grep -qx "rc=130" || { echo "$out"; cat "$dir/stderr"; return 1; }
	printf '%s\n' "$out" | grep -qx "nothing counted" || { echo "$out"; return 1; }
	grep -q "^sandboxtime: interrupted by SIGINT while churning" "$dir/stderr" || { cat "$dir/stderr"; return 1; }
	ST_PID=$(cat "$dir/pid") && st_leftovers "$ST_PID" && expect_clean
}

each_mode "bench churn: K=20, parallel 1 and 2: created = reaped = freed, backlog ends at 0" t_json
each_mode "bench churn: --max-alive=2 bounds what the kernel counts" t_max_alive
each_mode "bench churn: --duration: the counts add up, the bare loops make as many" t_duration
ok "bench churn: table and CSV" t_table_and_csv
each_mode "bench churn: beyond the machine's limits: 125 with the numbers, nothing made" t_limits
ok "bench churn: bad options are one line and 125, bench options per bench" t_bad_options
each_mode "bench churn: SIGINT mid-run: 130, no process, no namespace counted" t_interrupted
