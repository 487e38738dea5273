#!/usr/bin/env bash
# A run's CSV has its own sections after the layers (steps, network,
# net_steps, security, cgroup, workload; issue 29): read back with Python's
# csv module and checked against JSON. The golden pair is one fixture run
# written in both formats, so every field must agree; a live run (as root
# and as nobody) is checked against the JSON of a second run with the same
# options, on the fields no clock or pid decides. Makes no host link: the
# runs have no network (--net=none) or a rootless one (its host side is a
# namespace of the run's own).
source "$(dirname "$0")/../lib.sh" "$1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
GOLDEN=$TOP/tests/fixtures/report

plan 5

check() { "$ST_PY" -B "$ST_PYDIR/csv_sections.py" "$@"; }

ok "golden run.csv: every section's field is what run.json (the same run) says" \
	check same "$GOLDEN/run.csv" "$GOLDEN/run.json"

# The checker fails on a field that differs: a test that cannot fail proves nothing.
t_checker_fails() {
	local bad=$ST_TMP/bad.csv out
	sed 's/^workload,\(.*\),0,,/workload,\1,1,,/' "$GOLDEN/run.csv" >"$bad"
	cmp -s "$bad" "$GOLDEN/run.csv" && { echo "the fixture has no workload row to change"; return 1; }
	out=$(check same "$bad" "$GOLDEN/run.json") && { echo "a changed exit_code passed"; return 1; }
	printf '%s\n' "$out" | grep -q "workload\[0\].exit_code" || { printf '%s\n' "$out"; return 1; }
}
ok "the check fails when a section's field differs from the JSON" t_checker_fails

t_live() {
	local mode=$1 dir net=--net=none
	dir=$(st_scratch) || return 1
	[ "$mode" = nobody ] && net=--net=veth
	local args=(--repeat=0 --ns=uts,net "$net" -- sh -c 'exit 3')
	st_run "$mode" --format=csv -o "$dir/run.csv" "${args[@]}" || return 1
	expect_rc 3 && expect_clean || return 1
	st_run "$mode" -J -o "$dir/run.json" "${args[@]}" || return 1
	expect_rc 3 && expect_clean || return 1
	check live "$dir/run.csv" "$dir/run.json" || return 1
	# What the run did, as CSV says it: sh's words, exit 3, no signal.
	grep -qx 'workload,"\[""sh"",""-c"",""exit 3""\]",3,,.*' "$dir/run.csv" ||
		{ echo "no workload row of sh -c 'exit 3', exit 3, no signal:"; cat "$dir/run.csv"; return 1; }
}
each_mode "a live run's CSV sections agree with a JSON run of the same options" t_live

t_layers_plain() {
	local dir
	dir=$(st_scratch) || return 1
	st_run "$1" layers --format=csv --repeat=1 --warmup=0 --deferred-repeat=0 --ns=uts -o "$dir/l.csv" || return 1
	expect_rc 0 && expect_clean || return 1
	! grep -q '^$' "$dir/l.csv" || { echo "layers CSV has a section:"; cat "$dir/l.csv"; return 1; }
}
ok "layers CSV stays one table: the sections are a run's" t_layers_plain root
