#!/usr/bin/env bash
# sandboxtime bench syscall: every place measured, figures plausible, JSON to
# schema, as root and as nobody.
source "$(dirname "$0")/../lib.sh" "$1"
plan 7

check_json() {
	python3 -B "$ST_PYDIR/bench_check.py" syscall "$1"
}

# As root, through st_run: the figures, and no process of the run left behind.
t_bench_json() {
	local dir
	dir=$(st_scratch) || return 1
	st_run root bench syscall --repeat=2 -J -o "$dir/b.json" "$@" || return 1
	expect_rc 0 && expect_clean || { st_show; return 1; }
	check_json "$dir/b.json"
}

t_bench_nobody() {
	local dir
	dir=$(mktemp -d); chmod 777 "$dir"
	as_nobody "$ST_NOBODY_BIN" bench syscall --repeat=2 -J -o "$dir/b.json" || { rm -rf "$dir"; return 1; }
	check_json "$dir/b.json"; local rc=$?
	rm -rf "$dir"
	return $rc
}

t_table_and_csv() {
	local t c
	t=$("$ST_BIN" bench syscall --repeat=1 2>&1) || return 1
	printf '%s\n' "$t" | grep -q "^getppid  *seccomp:default" || { echo "$t"; return 1; }
	c=$("$ST_BIN" bench syscall --repeat=1 --format=csv 2>&1) || return 1
	expect_eq "$(printf '%s\n' "$c" | head -1)" "op,where,median_us,p95_us,min_us,mean_us,stddev_us,n,refused" || return 1
	expect_eq "$(printf '%s\n' "$c" | wc -l)" 13
}

t_bad_input() {
	local out rc
	for args in "bench" "bench nosuch" "bench syscall --repeat=0" "bench syscall --seccomp=none" "bench syscall extra" \
		"bench cpu --repeat=0" "bench cpu --seccomp=none"; do
		# shellcheck disable=SC2086
		out=$("$ST_BIN" $args 2>&1); rc=$?
		[ "$rc" = 125 ] || { echo "'$args': exit $rc"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: " || { echo "'$args': $out"; return 1; }
	done
}

# bench cpu: work without syscalls, under a filter loaded without and with SPEC_ALLOW.
check_cpu_json() {
	python3 -B "$ST_PYDIR/bench_check.py" cpu "$1"
}

t_bench_cpu() {
	local dir
	dir=$(mktemp -d); chmod 777 "$dir"
	if [ "$1" = nobody ]; then
		as_nobody "$ST_NOBODY_BIN" bench cpu --repeat=1 -J -o "$dir/b.json"
	else
		"$ST_BIN" bench cpu --repeat=1 -J -o "$dir/b.json"
	fi || { rm -rf "$dir"; return 1; }
	check_cpu_json "$dir/b.json"; local rc=$?
	rm -rf "$dir"
	return $rc
}

ok "bench syscall: JSON rows for every place and op, plausible figures, no process left [root]" t_bench_json
each_mode "bench cpu: every place, SPEC_ALLOW leaves speculation as on the host" t_bench_cpu
ok "bench syscall: the same as nobody (rootless sandbox)" t_bench_nobody
ok "bench syscall: table and CSV" t_table_and_csv
ok "bench: bad input is one line and 125" t_bad_input
ok "bench syscall --ns=uts works with a smaller sandbox, no process left [root]" t_bench_json --ns=uts
