#!/usr/bin/env bash
# Rules for the suites themselves (issue 28), so that a check cannot go
# quiet: no check run inside diag "$(...)", whose status nothing reads; the
# Python checks (assert statements) keep their asserts even where the caller's
# environment sets PYTHONOPTIMIZE; and tests/run.sh's lists of suites that run
# alone, quietly or first name suites that exist. Needs no root.
source "$(dirname "$0")/../lib.sh" "$1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)

plan 3

t_no_check_in_diag() {
	local hits
	hits=$(grep -nE 'diag "[^"]*\$\((check|"\$ST_PY"|\$ST_PY|python)' "$TOP"/tests/integration/*.sh)
	[ -z "$hits" ] && return 0
	echo "a check inside diag \"\$(...)\" can never fail (use diag_of):"
	printf '%s\n' "$hits"
	return 1
}
ok "no check runs inside diag \"\$(...)\" (diag_of keeps its status)" t_no_check_in_diag

t_asserts_stay() {
	local out
	if out=$(PYTHONOPTIMIZE=2 bash -c 'source "$1/tests/lib.sh" "$2" && "$ST_PY" -B -c "assert False, \"kept\""' \
		sh "$TOP" "$ST_BIN" 2>&1); then
		echo "an assert was dropped under PYTHONOPTIMIZE: the suites' Python checks would all pass"
		return 1
	fi
	printf '%s\n' "$out" | grep -q "AssertionError: kept" || { printf '%s\n' "$out"; return 1; }
}
ok "the suites' Python keeps its asserts where PYTHONOPTIMIZE is set" t_asserts_stay

t_run_lists() {
	local list name bad=0
	for list in EXCLUSIVE ALONE HOSTLESS QUIET LONGEST_FIRST; do
		for name in $(sed -n "s/^$list=\"\\([^\"]*\\)\".*/\\1/p" "$TOP/tests/run.sh"); do
			[ -f "$TOP/tests/integration/$name.sh" ] && continue
			echo "tests/run.sh $list names $name, which is no suite"
			bad=1
		done
	done
	[ -n "$(sed -n 's/^ALONE="\([^"]*\)".*/\1/p' "$TOP/tests/run.sh")" ] || { echo "no ALONE list in tests/run.sh"; bad=1; }
	return $bad
}
ok "tests/run.sh's lists of suites (EXCLUSIVE, ALONE, HOSTLESS, QUIET, LONGEST_FIRST) name suites that exist" t_run_lists
