#!/usr/bin/env bash
# sandboxtime bench files: every place has every operation, every figure
# positive, fsync on memory flagged, the JSON to schema, as root and as
# nobody; the scratch directories and mounts are gone afterwards, also after
# SIGINT; a bad --files is refused before anything is made.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 6

FILES=200

# The scratch directories of every bench files run: none may outlive it.
scratch_left() { ls -d /dev/shm/sandboxtime-files-* /var/tmp/sandboxtime-files-* 2>/dev/null; }

expect_no_scratch() {
	local left
	left=$(scratch_left)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	# the namespaces' mounts went with the children: none on the host
	! grep -q "sandboxtime-files-" /proc/self/mountinfo || { echo "a mount is left"; return 1; }
}

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench files --files=$FILES --repeat=2 -J -o "$dir/f.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/f.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean && expect_no_scratch || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/bench_grid_check.py" "$dir/f.json" files 2 "$mode"
}

t_table_and_csv() {
	local t c
	t=$("$ST_BIN" bench files --files=$FILES --repeat=1 2>&1) || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^PLACE  *OP  *median  *min  *max  *x_first NOTE" || { echo "$t"; return 1; }
	expect_eq "$(printf '%s\n' "$t" | grep -cE '^(tmpfs|disk|bind|overlay) ')" 24 || return 1
	printf '%s\n' "$t" | grep -q "^tmpfs  *fsync .*suspiciously fast: durability not proven" || { echo "$t"; return 1; }
	# the sentence of what the numbers mean and do not show
	printf '%s\n' "$t" | grep -q "^On this machine .* not shown: " || { echo "$t"; return 1; }
	c=$("$ST_BIN" bench files --files=$FILES --repeat=1 --format=csv 2>&1) || { echo "$c"; return 1; }
	expect_eq "$(printf '%s\n' "$c" | head -1)" \
		"place,op,per_op_min,per_op_median,per_op_p95,per_op_mean,per_op_stddev,per_op_n,vs_first,unavailable,refused,flag" || return 1
	expect_eq "$(printf '%s\n' "$c" | wc -l)" 25 && expect_no_scratch
}

t_bad_files() {
	local args out rc
	for args in "--files=" "--files=0" "--files=ten" "--files=100001"; do
		out=$("$ST_BIN" bench files "$args" 2>&1); rc=$?
		[ "$rc" = 125 ] || { echo "'$args': exit $rc"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: --files" || { echo "'$args': $out"; return 1; }
	done
	out=$("$ST_BIN" bench userns --files=10 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "applies to bench files and all only" || { echo "$rc $out"; return 1; }
	expect_no_scratch
}

# SIGINT while measuring: 130, no child, no file, no directory, no mount left.
t_interrupted() {
	local mode=$1
	st_start "$mode" bench files --files=2000 --repeat=100000 -q || return 1
	sleep 1.5
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean && expect_no_scratch
}

each_mode "bench files: JSON has every place and operation, every figure positive" t_json
ok "bench files: table and CSV, fsync on tmpfs flagged" t_table_and_csv
ok "bench files: bad --files is one line and 125" t_bad_files
each_mode "bench files: SIGINT while measuring exits 130 and leaves nothing" t_interrupted
