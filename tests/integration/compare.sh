#!/usr/bin/env bash
# sandboxtime compare: two real `layers` runs compared, as root and as nobody
# (the JSON parses back and every figure of the first run is there); the
# fixtures of tests/fixtures/compare/ with known ratios (B = A x 1.25, A
# shuffled); --fail-if-slower's exit status; --seed replays; bad input
# exits 125 with one line and leaves no -o file behind.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 14

CHECK=$ST_PYDIR/compare_check.py
check() { "$ST_PY" -B "$CHECK" "$@"; }

# The fixtures, where nobody can read them too (the tree may not be).
FIX=$(st_scratch)
cp "$(dirname "$0")"/../fixtures/compare/*.json "$FIX"/ && chmod 644 "$FIX"/*.json || exit 1

# Two real measurements, then compare them: stdout has the JSON, no stderr.
t_real_runs() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	for run in a b; do
		st_run "$mode" layers --repeat=6 --deferred-repeat=0 -J -o "$dir/$run.json" || return 1
		expect_rc 0 && expect_clean || return 1
	done
	st_run "$mode" compare "$dir/a.json" "$dir/b.json" --format=json || return 1
	expect_rc 0 && expect_clean || return 1
	[ ! -s "$ST_ERR" ] || { echo "stderr not empty"; st_show; return 1; }
	check figures "$dir/a.json" "$dir/b.json" "$ST_OUT" || return 1
	# The same comparison as markdown: a table row for every figure.
	st_run "$mode" compare "$dir/a.json" "$dir/b.json" --format=markdown -o "$dir/cmp.md" || return 1
	expect_rc 0 || return 1
	check markdown "$dir/a.json" "$dir/cmp.md"
}
each_mode "two real layers runs compared: every figure of A, JSON and markdown" t_real_runs

# A comparison of fixtures as root; MODE nobody runs the same as nobody.
cmp_run() { st_run root compare "$@"; }

t_known_factor() {
	cmp_run "$FIX/base.json" "$FIX/shifted.json" -J --seed=11 || return 1
	expect_rc 0 || return 1
	check known "$ST_OUT" 1.25 slower
}
ok "B = A x 1.25: ratio 1.25, inside every interval, slower" t_known_factor

t_same() {
	cmp_run "$FIX/base.json" "$FIX/same.json" -J --seed=12 || return 1
	expect_rc 0 || return 1
	check known "$ST_OUT" 1 "within noise"
}
ok "the same samples shuffled: ratio 1, within noise" t_same

t_fail_if_slower() {
	cmp_run "$FIX/base.json" "$FIX/shifted.json" --fail-if-slower=10 -q || return 1
	expect_rc 1 || return 1
	[ ! -s "$ST_OUT" ] && [ ! -s "$ST_ERR" ] || { echo "-q printed something"; st_show; return 1; }
	# 25% slower is within a 30% budget; the identical pair within any.
	cmp_run "$FIX/base.json" "$FIX/shifted.json" --fail-if-slower=30 || return 1
	expect_rc 0 || return 1
	cmp_run "$FIX/base.json" "$FIX/same.json" --fail-if-slower=0 || return 1
	expect_rc 0 || return 1
	grep -q '^--fail-if-slower=0: 0 figure' "$ST_OUT" || { echo "no summary line"; st_show; return 1; }
}
ok "--fail-if-slower: 1 on the shifted pair past its budget, 0 within it and on the same pair" t_fail_if_slower

# Throughput halved: slower although B/A < 1.
t_throughput() {
	cmp_run "$FIX/netbench_a.json" "$FIX/netbench_b.json" --fail-if-slower=20 || return 1
	expect_rc 1 || return 1
	cmp_run "$FIX/netbench_b.json" "$FIX/netbench_a.json" --fail-if-slower=20 || return 1
	expect_rc 0
}
ok "throughput: a smaller B is slower, a larger one is not" t_throughput

t_seed_replays() {
	local first
	cmp_run "$FIX/base.json" "$FIX/same.json" "$FIX/shifted.json" --seed=4242 || return 1
	first=$(cat "$ST_OUT")
	grep -q 'seed 4242 (--seed=4242' "$ST_OUT" || { echo "seed not printed"; st_show; return 1; }
	cmp_run "$FIX/base.json" "$FIX/same.json" "$FIX/shifted.json" --seed=4242 || return 1
	expect_eq "$(cat "$ST_OUT")" "$first" || return 1
	# Without --seed, the printed seed replays the run.
	cmp_run "$FIX/base.json" "$FIX/shifted.json" -J || return 1
	first=$("$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["seed"])' "$ST_OUT")
	cp "$ST_OUT" "$FIX/unseeded.out"
	cmp_run "$FIX/base.json" "$FIX/shifted.json" -J --seed="$first" || return 1
	# Only where the seed came from differs.
	expect_eq "$(grep -v seed_from "$ST_OUT")" "$(grep -v seed_from "$FIX/unseeded.out")" || return 1
	grep -q '"seed_from": "option"' "$ST_OUT" && grep -q '"seed_from": "files"' "$FIX/unseeded.out"
}
ok "--seed replays the intervals, and the printed seed is the one used" t_seed_replays

# No --seed: the seed comes from the files' bytes, so the output is the same, byte for byte.
t_same_files_same_output() {
	local fmt
	for fmt in table json csv; do
		cmp_run "$FIX/base.json" "$FIX/shifted.json" --format=$fmt || return 1
		cp "$ST_OUT" "$FIX/first.$fmt"
		cmp_run "$FIX/base.json" "$FIX/shifted.json" --format=$fmt || return 1
		cmp "$ST_OUT" "$FIX/first.$fmt" || return 1
	done
	grep -q "from the files' bytes" "$FIX/first.table" || { echo "seed's origin not printed"; return 1; }
	# One byte more in B: another seed.
	cp "$FIX/shifted.json" "$FIX/shifted2.json" && echo >>"$FIX/shifted2.json" || return 1
	cmp_run "$FIX/base.json" "$FIX/shifted2.json" -J || return 1
	! grep -q "$(grep '"seed"' "$FIX/first.json")" "$ST_OUT"
}
ok "without --seed the same files give byte-identical output (table, JSON, CSV)" t_same_files_same_output

# deferred_drain_us x10 is an untimed wait, not a cost: shown as slower, never over the gate.
t_drain_never_gates() {
	st_run root compare "$FIX/drain_a.json" "$FIX/drain_b.json" -J --fail-if-slower=10
	expect_eq "$ST_RC" 0 || { st_show; return 1; }
	check drain "$ST_OUT"
}
ok "a drain x10 passes --fail-if-slower=10; a base sample of 0 says why there is no ratio" t_drain_never_gates

t_host_differences() {
	cmp_run "$FIX/base.json" "$FIX/shifted.json" || return 1
	expect_rc 0 || return 1
	# The differences come first, before any table.
	sed -n 2p "$ST_OUT" | grep -q "host kernel differs: $FIX/base.json 6.1.0-fixture, $FIX/shifted.json 6.12.0-fixture" ||
		{ echo "no kernel line before the table"; st_show; return 1; }
	cmp_run "$FIX/base.json" "$FIX/same.json" || return 1
	sed -n 2p "$ST_OUT" | grep -q '^hosts: same' || { echo "no 'hosts: same' line"; st_show; return 1; }
}
ok "host differences are printed before the table" t_host_differences

# bad FILE TEXT...: compare base.json FILE exits 125, one line naming FILE and TEXT, no -o left.
bad() {
	local file=$1 out=$FIX/never.txt; shift
	cmp_run "$FIX/base.json" "$file" -o "$out" || return 1
	expect_rc 125 && expect_error_line && expect_error_names "$file" "$@" || return 1
	[ ! -e "$out" ] || { echo "-o file left behind"; return 1; }
}

t_bad_input() {
	printf '{"schema": "sandboxtime/v1", "layers": [' >"$FIX/cut.json"
	printf '{"schema": "sandboxtime/orphans/v1", "namespaces": []}' >"$FIX/orphans.json"
	printf '{"schema": "hyperfine/v1"}' >"$FIX/other.json"
	printf 'not json\n' >"$FIX/text.json"
	bad "$FIX/missing.json" "cannot read" "No such file" || return 1
	bad "$FIX/text.json" "not JSON" || return 1
	bad "$FIX/cut.json" "not JSON" || return 1
	bad "$FIX/other.json" "unknown schema 'hyperfine/v1'" || return 1
	bad "$FIX/orphans.json" "no measured figures" || return 1
	bad "$FIX/netbench_a.json" "netbench report" "nothing to compare"
}
ok "bad input: missing, not JSON, cut short, other schema, orphans, other kind: 125, one line" t_bad_input

t_usage() {
	cmp_run "$FIX/base.json" || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "two reports" || return 1
	cmp_run "$FIX/base.json" "$FIX/same.json" --fail-if-slower=abc || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "--fail-if-slower" || return 1
	st_run root bench syscall --format=prometheus || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "prometheus"
}
ok "usage: one file, a bad percentage, prometheus elsewhere" t_usage

t_output_file() {
	local out=$FIX/cmp.csv
	cmp_run "$FIX/base.json" "$FIX/shifted.json" --format=csv -o "$out" || return 1
	expect_rc 0 || return 1
	[ ! -s "$ST_OUT" ] || { echo "stdout not empty with -o"; st_show; return 1; }
	head -n1 "$out" | grep -q '^file,figure,median_a,median_b,ratio,shift,ci_low,ci_high,shift_ci_low,shift_ci_high,verdict,' ||
		{ echo "CSV header:"; head -n1 "$out"; return 1; }
	# A header and a line per figure of base.json.
	expect_eq "$(wc -l <"$out")" 7
}
ok "-o FILE gets the report (CSV: a header, a line per figure)" t_output_file

t_nobody_fixtures() {
	st_run nobody compare "$FIX/base.json" "$FIX/shifted.json" -J --seed=11 || return 1
	expect_rc 0 || return 1
	check known "$ST_OUT" 1.25 slower
}
if can_run nobody; then
	ok "as nobody: the known factor too" t_nobody_fixtures
else
	skip "as nobody: the known factor too" "needs root to switch to nobody"
fi
