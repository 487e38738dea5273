#!/usr/bin/env bash
# The golden files of tests/unit/test_report_golden.c were made by the writers
# they test, so they are checked from outside too: each still has the
# checksum it had when a person last read it (tests/fixtures/report/SHA256SUMS,
# every file listed, nothing listed that is gone), every summary in the JSON
# ones agrees with its samples as Python's statistics module computes them
# (tests/py/golden_check.py), and the unit test refuses to rewrite them under
# CI=true. The same recomputation runs on live layers reports.
source "$(dirname "$0")/../lib.sh" "$1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
GOLDEN=$TOP/tests/fixtures/report
UNIT=$ST_BUILD_DIR/tests/test_report_golden

plan 5

t_checksums() {
	local listed present
	(cd "$GOLDEN" && sha256sum --quiet -c SHA256SUMS) || return 1
	listed=$(awk '{ print $2 }' "$GOLDEN/SHA256SUMS" | sort)
	present=$(cd "$GOLDEN" && ls | grep -vx SHA256SUMS | sort)
	[ "$listed" = "$present" ] && return 0
	echo "SHA256SUMS and the files differ (< listed only, > present only):"
	diff <(printf '%s\n' "$listed") <(printf '%s\n' "$present")
	return 1
}
ok "every golden file has the checksum it had when last read by hand, and is listed" t_checksums

ok "the golden JSON files' summaries agree with their samples (Python's statistics)" \
	"$ST_PY" -B "$ST_PYDIR/golden_check.py" "$GOLDEN"/*.json

t_update_refused() {
	local out
	[ -x "$UNIT" ] || { echo "no $UNIT (make unit-bins)"; return 1; }
	if out=$(cd "$TOP" && CI=true SANDBOXTIME_GOLDEN_UPDATE=1 CMOCKA_MESSAGE_OUTPUT=TAP "$UNIT" 2>&1); then
		echo "the update ran under CI=true"
		return 1
	fi
	printf '%s\n' "$out" | grep -q "SANDBOXTIME_GOLDEN_UPDATE is refused under CI=true" || { printf '%s\n' "$out" | tail -5; return 1; }
	t_checksums
}
ok "SANDBOXTIME_GOLDEN_UPDATE is refused under CI=true, and no golden file moved" t_update_refused

t_live() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" layers --ns=uts,ipc --repeat=7 --deferred-repeat=2 -J -o "$dir/l.json" || return 1
	expect_rc 0 && expect_clean || return 1
	st_run "$mode" --ns=uts --repeat=6 --deferred-repeat=0 -J -o "$dir/r.json" -- true || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/golden_check.py" "$dir/l.json" "$dir/r.json"
}
each_mode "live layers and run reports: every summary agrees with its samples (Python's statistics)" t_live
