#!/usr/bin/env bash
# Runs every suite and prints one summary line: "N passed, N failed, N skipped".
# Each suite speaks TAP: the cmocka units (CMOCKA_MESSAGE_OUTPUT=TAP) and the
# bash integration scripts (tests/lib.sh). A suite that dies, or whose count
# does not match its plan, counts as a failure, so a crash cannot pass.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/$build/sandboxtime"
passed=0 failed=0 skipped=0
failures=()

run_suite() {
	local name=$1; shift
	local out rc plan ok notok skip nskip
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed "s|^|[$name] |"
	plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' | head -n1)
	ok=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+' )
	skip=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+.*# ?(SKIP|skip)')
	# cmocka 1.1.5 prints a skipped test as "not ok N # SKIP name": a skip, not a failure.
	nskip=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+.*# ?(SKIP|skip)')
	notok=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+')
	passed=$((passed + ok - skip))
	skipped=$((skipped + skip + nskip))
	notok=$((notok - nskip))
	ok=$((ok + nskip))
	failed=$((failed + notok))
	if [ "$notok" -gt 0 ]; then
		failures+=("$name: $notok failed")
	fi
	if [ -n "$plan" ] && [ $((ok + notok)) -ne "$plan" ]; then
		failed=$((failed + 1))
		failures+=("$name: planned $plan tests, ran $((ok + notok)) (exit $rc)")
	elif [ "$rc" -ne 0 ] && [ "$notok" -eq 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: exited $rc without a failed test")
	fi
}

for t in "$top/$build"/tests/test_*; do
	[ -x "$t" ] || continue
	run_suite "unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
done
for t in "$top"/tests/integration/*.sh; do
	[ -f "$t" ] || continue
	run_suite "integration/$(basename "$t" .sh)" bash "$t" "$bin"
done

echo
for f in "${failures[@]+"${failures[@]}"}"; do
	echo "FAILED $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
