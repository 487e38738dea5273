#!/usr/bin/env bash
# sandboxtime bench fork: every size has every method, every figure positive,
# the JSON to schema, as root and as nobody; a size the machine cannot spare
# and a bad --sizes are refused before measuring, leaving nothing behind.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 10

SIZES=1,16

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench fork --sizes=$SIZES --repeat=3 -J -o "$dir/f.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/f.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_fork_check.py" "$dir/f.json" "$SIZES" 3
}

t_table_and_csv() {
	local t c
	t=$("$ST_BIN" bench fork --sizes=$SIZES --repeat=1 2>&1) || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^SIZE_MB METHOD  *call  *min  *max  *total" || { echo "$t"; return 1; }
	expect_eq "$(printf '%s\n' "$t" | grep -cE '^ +(1|16) (fork|vfork_exec|posix_spawn|clone_vm_vfork|clone3_ns) ')" 10 || return 1
	# the sentence of what the numbers mean and do not show
	printf '%s\n' "$t" | grep -q "^On this machine fork() took .* not shown: " || { echo "$t"; return 1; }
	c=$("$ST_BIN" bench fork --sizes=$SIZES --repeat=1 --format=csv 2>&1) || { echo "$c"; return 1; }
	expect_eq "$(printf '%s\n' "$c" | head -1)" \
		"size_mb,method,call_min_us,call_median_us,call_p95_us,call_mean_us,call_stddev_us,call_n,total_min_us,total_median_us,total_p95_us,total_mean_us,total_stddev_us,total_n,call_per_mb_us,call_slope_per_mb_us,call_refused,total_refused" || return 1
	expect_eq "$(printf '%s\n' "$c" | wc -l)" 11
}

# More than MemAvailable: refused with 125 and one line, before -o is made or a worker runs.
t_too_large() {
	local mode=$1 dir big
	dir=$(st_scratch) || return 1
	big=$(awk '/^MemAvailable:/ { print int($2 / 1024) + 1 }' /proc/meminfo)
	st_run "$mode" bench fork --sizes=1,"$big" --repeat=3 -o "$dir/f.json" || return 1
	expect_rc 125 && expect_error_line && expect_clean || return 1
	expect_error_names "$big MB cannot be spared" "MemAvailable is" || return 1
	[ ! -e "$dir/f.json" ] || { echo "-o file left behind"; return 1; }
}

t_bad_sizes() {
	local args out rc
	for args in "--sizes=" "--sizes=1,,2" "--sizes=0" "--sizes=1,1" "--sizes=ten" "--sizes=2000000"; do
		out=$("$ST_BIN" bench fork "$args" 2>&1); rc=$?
		[ "$rc" = 125 ] || { echo "'$args': exit $rc"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: --sizes: " || { echo "'$args': $out"; return 1; }
	done
	out=$("$ST_BIN" bench syscall --sizes=1 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "applies to bench fork and all only" || { echo "$rc $out"; return 1; }
}

# SIGINT while measuring: 130, and no worker or child left behind.
t_interrupted() {
	local mode=$1
	st_start "$mode" bench fork --sizes=$SIZES --repeat=100000 -q || return 1
	sleep 1
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean
}

# A worker killed while measuring (as the OOM killer would): 125, one line, nothing left.
t_worker_killed() {
	local mode=$1 kids i
	st_start "$mode" bench fork --sizes=$SIZES --repeat=100000 || return 1
	for ((i = 0; i < 100; i++)); do
		kids=$(cat "/proc/$ST_PID/task/$ST_PID/children" 2>/dev/null)
		[ "$(echo $kids | wc -w)" -ge 2 ] && break
		sleep 0.02
	done
	sleep 0.5
	# A worker read before the pause may have ended meanwhile (a round ends
	# its workers): the one killed is read again, and a kill that finds it
	# gone is tried on the next one read.
	for ((i = 0; i < 50; i++)); do
		kids=$(cat "/proc/$ST_PID/task/$ST_PID/children" 2>/dev/null)
		[ -n "$kids" ] && kill -KILL "${kids%% *}" 2>/dev/null && break
		sleep 0.02
	done
	[ "$i" -lt 50 ] || { echo "no worker to kill"; give_up; return 1; }
	st_finish
	expect_rc 125 && expect_error_line && expect_clean || return 1
	expect_error_names "worker"
}

each_mode "bench fork: JSON has every size and method, every figure positive" t_json
ok "bench fork: table and CSV" t_table_and_csv
each_mode "bench fork: a size beyond MemAvailable is refused with 125, nothing left" t_too_large
ok "bench fork: bad --sizes is one line and 125" t_bad_sizes
each_mode "bench fork: SIGINT while measuring exits 130 and leaves no process" t_interrupted
each_mode "bench fork: a worker killed while measuring: 125, one line, nothing left" t_worker_killed
