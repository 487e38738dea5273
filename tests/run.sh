#!/usr/bin/env bash
# Usage: tests/run.sh [BUILD[:unit]]...  (default: build)
# Runs every suite against each build directory (":unit": its unit tests
# only) and prints ONE summary line over all of them: "N passed, N failed,
# N skipped". Each suite speaks TAP: the cmocka units
# (CMOCKA_MESSAGE_OUTPUT=TAP) and the bash integration scripts (tests/lib.sh).
# A suite that dies, or whose count does not match its plan, counts as a
# failure, so a crash cannot pass.
#
# ST_SUITES="test_cli netbench ..." (names without .sh, space or comma
# separated) runs only those suites: for trying one change quickly; `make
# check` and CI run every suite.
#
# A build made with SANITIZE= (its build-flags file says so) runs with the
# sanitizers set to stop at the first report, with exit status 86, and to
# write every report to a log directory as well: a report from any process,
# even a child whose status no test looks at, fails its suite.
set -u
[ $# -gt 0 ] || set -- build
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0 failed=0 skipped=0
failures=()
label=
san_logs=

# wanted NAME [LIST]: true when ST_SUITES is empty or names NAME, and LIST
# (a build's own selection, "BUILD:SUITE,SUITE") is empty or names it too.
wanted() {
	if [ -n "${2:-}" ]; then
		case ",$2," in *",$1,"*) ;; *) return 1 ;; esac
	fi
	[ -z "${ST_SUITES:-}" ] && return 0
	case " ${ST_SUITES//,/ } " in *" $1 "*) return 0 ;; esac
	return 1
}

# Every suite has a time limit, so that a hang fails its suite instead of the
# whole run: ST_SUITE_TIMEOUT seconds (default 900), then SIGTERM, then SIGKILL.
SUITE_TIMEOUT=${ST_SUITE_TIMEOUT:-900}
times=()

# Skips that are allowed under CI=true (tests/skip-allow: SUITE<TAB>TEXT, each
# with its reason): any other skip fails the run there, so that a suite can
# not go quiet on a machine that lacks what it needs.
allowed_skip() {
	local suite=$1 line=$2 pat
	while IFS=$'\t' read -r pat text _; do
		[ -z "$pat" ] || [ "${pat#\#}" != "$pat" ] && continue
		[[ "$suite" == $pat ]] && [[ "$line" == *"$text"* ]] && return 0
	done <"$top/tests/skip-allow"
	return 1
}

run_suite() {
	local name=$1; shift
	local out rc plan ok notok skip nskip
	local report san=0
	name=$label$name
	local t0=$SECONDS line
	[ -z "$san_logs" ] || rm -f "$san_logs"/*
	out=$(timeout -k 10 "$SUITE_TIMEOUT" "$@" 2>&1)
	rc=$?
	[ "$rc" -ne 124 ] || out="$out
not ok - the suite ran past its time limit of $SUITE_TIMEOUT s (ST_SUITE_TIMEOUT)"
	printf '%s\n' "$out" | sed "s|^|[$name] |"
	times+=("$((SECONDS - t0)) s $name")
	if [ "${CI:-}" = true ]; then
		while IFS= read -r line; do
			allowed_skip "${name#*/}" "$line" && continue
			failed=$((failed + 1))
			failures+=("$name: a skip not in tests/skip-allow (CI=true): $line")
		done < <(printf '%s\n' "$out" | grep -E '^(not )?ok [0-9]+.*# ?(SKIP|skip)')
	fi
	if [ -n "$san_logs" ] && [ -n "$(ls -A "$san_logs")" ]; then
		for report in "$san_logs"/*; do
			sed "s|^|[$name] $(basename "$report"): |" "$report"
		done
		failed=$((failed + 1))
		failures+=("$name: sanitizer report (above)")
		rm -f "$san_logs"/*
		san=1
	fi
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
	elif [ "$rc" -ne 0 ] && [ "$notok" -eq 0 ] && [ "$san" -eq 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: exited $rc without a failed test")
	fi
}

# sanitize_env BUILD: exports the sanitizer options when BUILD was sanitized.
sanitize_env() {
	local sanitize
	sanitize=$(sed -n 's/.*SANITIZE=\([^ ]*\).*/\1/p' "$top/$1/build-flags" 2>/dev/null)
	unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
	san_logs=
	[ -n "$sanitize" ] || return 0
	# Integration tests run the binary as nobody: the log directory must be
	# writable by it (sticky, like /tmp).
	san_logs=$(mktemp -d /tmp/sandboxtime-san.XXXXXX) || exit 1
	chmod 1777 "$san_logs"
	local common="halt_on_error=1:abort_on_error=0:exitcode=86:log_path=$san_logs/report"
	export ASAN_OPTIONS="$common:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
	export UBSAN_OPTIONS="$common:print_stacktrace=1"
	export LSAN_OPTIONS="exitcode=86"
}

# label: the build directory in front of each suite name, once there are several.
for arg in "$@"; do
	# BUILD (everything), BUILD:unit (its unit tests) or BUILD:SUITE,SUITE (the units and those suites).
	build=${arg%%:*}
	select=
	[ "$arg" = "$build" ] || select=${arg#*:}
	[ $# -gt 1 ] && label="$build/"
	sanitize_env "$build"
	for t in "$top/$build"/tests/test_*; do
		[ -x "$t" ] && [ "${t%.d}" = "$t" ] && wanted "$(basename "$t")" || continue
		run_suite "unit/$(basename "$t")" env CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
	if [ "$select" != unit ]; then
		for t in "$top"/tests/integration/*.sh; do
			[ -f "$t" ] && wanted "$(basename "$t" .sh)" "$select" || continue
			run_suite "integration/$(basename "$t" .sh)" bash "$t" "$top/$build/sandboxtime"
		done
	fi
	[ -z "$san_logs" ] || rm -rf "$san_logs"
done

echo
echo "Time per suite, longest first:"
printf '%s\n' "${times[@]+"${times[@]}"}" | sort -rn | head -n 25 | sed 's/^/  /'
echo
for f in "${failures[@]+"${failures[@]}"}"; do
	echo "FAILED $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
