#!/usr/bin/env bash
# Usage: tests/run.sh [BUILD[:unit|:SUITE,SUITE...]]...  (default: build)
# Runs every suite against each build directory (":unit": its unit tests
# only; ":SUITE,...": its unit tests and those integration suites) and prints
# ONE summary line over all of them: "N passed, N failed, N skipped". Each
# suite speaks TAP: the cmocka units (CMOCKA_MESSAGE_OUTPUT=TAP) and the bash
# integration scripts (tests/lib.sh). A suite that dies, or whose count does
# not match its plan, counts as a failure, so a crash cannot pass.
#
# ST_SUITES="test_cli netbench ..." (names without .sh, space or comma
# separated) runs only those suites: for trying one change quickly; `make
# check` and CI run every suite.
#
# ST_JOBS suites run at once (default 2: the machines CI runs on have two
# cores). Each suite's output is printed as one block when it ends. Which
# suites may share the machine is written below (ALONE, QUIET).
#
# ST_WAIT_BUILDS="BUILD ...": builds that the caller is still making; their
# suites start once BUILD/make-status holds make's exit status (see below).
#
# A build made with SANITIZE= (its build-flags file says so) runs with the
# sanitizers set to stop at the first report, with exit status 86, and to
# write every report to a log directory of the suite's own: a report from any
# process, even a child whose status no test looks at, fails its suite.
set -u
[ $# -gt 0 ] || set -- build
# As another user than root nearly every integration test would skip (no
# nobody runs, no namespaces of its own) and the run would still pass: it is
# refused, unless asked for (ST_NONROOT=1, to try the suites that need no root).
if [ "$(id -u)" -ne 0 ] && [ "${ST_NONROOT:-}" != 1 ]; then
	echo "tests/run.sh: run it as root (uid $(id -u) here): the suites run sandboxtime as root and as nobody; ST_NONROOT=1 runs them anyway, with what needs root skipped" >&2
	exit 2
fi
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0 failed=0 skipped=0
failures=()

# Which suites may share the machine (suites run two at a time):
# EXCLUSIVE: they scan every network namespace for orphans, or run `cleanup`
#   over the whole host: nothing runs beside them but QUIET suites.
# ALONE: they compare every host link before and after, or scan every
#   sandboxtime-* cgroup (and run `cleanup`): another suite's link or cgroup,
#   made or freed meanwhile, would read as their leak. Beside them only QUIET
#   and HOSTLESS suites, and never another of them.
# HOSTLESS: they make no host link and no cgroup and run no cleanup (their
#   namespaces, processes and links stay their own: each suite runs its own
#   copy of the binary, tests/lib.sh, and netbench's links live in its own
#   namespace). They run beside anything but EXCLUSIVE.
# QUIET: they make no namespace, link, cgroup or process beyond their
#   temporary files: beside anything.
# Every other suite (and the unit tests) runs beside any but EXCLUSIVE and ALONE.
EXCLUSIVE=" orphans orphans_cleanup orphans_watch cleanup "
ALONE=" faults net_steps bench_cgroup cgroup "
HOSTLESS=" bad_input bench csv_sections bench_all bench_files bench_fork bench_launch bench_mounts bench_userns bench_where deferred degrade exit_codes golden kill_after layers_prom privilege references report_json rootfs sandbox_inside security signals_and_leaks signals_random steal "
QUIET=" lint layout help_man build compare suite_rules "
# The longest suites start first, so that two at a time end together
# (seconds on an idle two-core machine, from tests/run.sh's own times).
LONGEST_FIRST=" bench_where steal bench_all bench_launch netbench net render bench oci_bundle bench_cgroup security faults bench_churn signals_and_leaks engines bench_userns layers_prom "

JOBS=${ST_JOBS:-2}
# Every suite has a time limit, so that a hang fails its suite instead of the
# whole run: ST_SUITE_TIMEOUT seconds (default 900), then SIGTERM, then SIGKILL.
SUITE_TIMEOUT=${ST_SUITE_TIMEOUT:-900}
times=()
work=$(mktemp -d /tmp/sandboxtime-run.XXXXXX) || exit 1
chmod 755 "$work"

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

# class_of SUITE: exclusive, alone, hostless, quiet or shared (see above).
class_of() {
	case "$EXCLUSIVE" in *" $1 "*) echo exclusive; return ;; esac
	case "$ALONE" in *" $1 "*) echo alone; return ;; esac
	case "$HOSTLESS" in *" $1 "*) echo hostless; return ;; esac
	case "$QUIET" in *" $1 "*) echo quiet; return ;; esac
	echo shared
}

# The queue: one "NAME<TAB>CLASS<TAB>BUILD<TAB>KIND<TAB>PATH" per suite,
# over every build: the long suites first (LONGEST_FIRST's order, each with
# its builds side by side: a sanitized build's run is the longer one), then
# the other integration suites, the units last.
queue=() long=() rest=() units=()
enqueue_build() {
	local arg=$1 build select t label= name entry
	build=${arg%%:*}
	select=
	[ "$arg" = "$build" ] || select=${arg#*:}
	[ "$nbuilds" -gt 1 ] && label="$build/"
	for t in "$top/$build"/tests/test_*; do
		[ -x "$t" ] && [ "${t%.d}" = "$t" ] && wanted "$(basename "$t")" || continue
		units+=("${label}unit/$(basename "$t")"$'\t'shared$'\t'"$build"$'\t'unit$'\t'"$t")
	done
	[ "$select" != unit ] || return 0
	for t in "$top"/tests/integration/*.sh; do
		name=$(basename "$t" .sh)
		[ -f "$t" ] && wanted "$name" "$select" || continue
		entry="${label}integration/$name"$'\t'"$(class_of "$name")"$'\t'"$build"$'\t'integration$'\t'"$t"
		case "$LONGEST_FIRST" in *" $name "*) long+=("$entry") ;; *) rest+=("$entry") ;; esac
	done
}

# A build that the caller is still making (ST_WAIT_BUILDS: `make check`
# makes the sanitized one beside the normal build's suites) joins the queue
# once BUILD/make-status holds make's exit status: its long suites first,
# then what is queued, then its others. A build that failed is one failure,
# with the end of its BUILD/make.log.
waiting=()
is_waited() { case " ${ST_WAIT_BUILDS:-} " in *" $1 "*) return 0 ;; esac; return 1; }
take_made_builds() {
	local i arg build status old
	for i in "${!waiting[@]}"; do
		arg=${waiting[$i]} build=${arg%%:*}
		[ -s "$top/$build/make-status" ] || continue
		unset 'waiting[i]'
		status=$(cat "$top/$build/make-status")
		if [ "$status" != 0 ]; then
			tail -n 30 "$top/$build/make.log" 2>/dev/null | sed "s|^|[$build/make] |"
			failed=$((failed + 1))
			failures+=("$build: the build failed (make exited $status; $build/make.log)")
			continue
		fi
		old=("${queue[@]+"${queue[@]}"}")
		queue=() long=() rest=() units=()
		enqueue_build "$arg"
		queue_long
		queue+=("${old[@]+"${old[@]}"}" "${rest[@]+"${rest[@]}"}" "${units[@]+"${units[@]}"}")
	done
}

# queue_long: appends the long suites to the queue, in LONGEST_FIRST's order.
queue_long() {
	local want e
	for want in $LONGEST_FIRST; do
		for e in "${long[@]+"${long[@]}"}"; do
			[[ "$(cut -f1 <<<"$e")" == *"integration/$want" ]] && queue+=("$e")
		done
	done
}

# give_up_waiting: true, with one failure per build, once nothing else runs
# and a waited build has written no make-status for SUITE_TIMEOUT seconds
# (its make was killed before it could say): the run ends instead of waiting.
give_up_waiting() {
	local arg
	[ "$SECONDS" -ge $((waiting_since + SUITE_TIMEOUT)) ] || return 1
	for arg in "${waiting[@]}"; do
		failed=$((failed + 1))
		failures+=("${arg%%:*}: no make-status after $SUITE_TIMEOUT s with nothing else to run")
	done
	waiting=()
}

# order_queue: fills the queue from long, rest and units.
order_queue() {
	queue_long
	queue+=("${rest[@]+"${rest[@]}"}" "${units[@]+"${units[@]}"}")
}

# sanitizer_of BUILD: the sanitizers BUILD was made with (its build-flags), or nothing.
sanitizer_of() { sed -n 's/.*SANITIZE=\([^ ]*\).*/\1/p' "$top/$1/build-flags" 2>/dev/null; }

# run_job DIR BUILD KIND PATH: runs one suite, its output in DIR/out, its exit
# status in DIR/rc, its sanitizer reports in DIR/san.
run_job() {
	local dir=$1 build=$2 kind=$3 path=$4 common
	unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
	if [ -n "$(sanitizer_of "$build")" ]; then
		# Integration tests run the binary as nobody: the log directory
		# must be writable by it (sticky, like /tmp).
		mkdir -m 1777 "$dir/san" && chmod 1777 "$dir/san"
		common="halt_on_error=1:abort_on_error=0:exitcode=86:log_path=$dir/san/report"
		export ASAN_OPTIONS="$common:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
		export UBSAN_OPTIONS="$common:print_stacktrace=1"
		export LSAN_OPTIONS="exitcode=86"
	fi
	if [ "$kind" = unit ]; then
		timeout -k 10 "$SUITE_TIMEOUT" env CMOCKA_MESSAGE_OUTPUT=TAP "$path" >"$dir/out" 2>&1
	else
		timeout -k 10 "$SUITE_TIMEOUT" bash "$path" "$top/$build/sandboxtime" >"$dir/out" 2>&1
	fi
	echo $? >"$dir/rc"
}

# collect NAME DIR SECONDS: prints a finished suite's output and counts it.
collect() {
	local name=$1 dir=$2 secs=$3
	local out rc plan ok notok skip nskip report san=0 line
	out=$(cat "$dir/out")
	rc=$(cat "$dir/rc" 2>/dev/null || echo 255)
	[ "$rc" -ne 124 ] || out="$out
not ok - the suite ran past its time limit of $SUITE_TIMEOUT s (ST_SUITE_TIMEOUT)"
	printf '%s\n' "$out" | sed "s|^|[$name] |"
	times+=("$secs s $name")
	if [ "${CI:-}" = true ]; then
		while IFS= read -r line; do
			allowed_skip "${name#*/}" "$line" && continue
			failed=$((failed + 1))
			failures+=("$name: a skip not in tests/skip-allow (CI=true): $line")
		done < <(printf '%s\n' "$out" | grep -E '^(not )?ok [0-9]+.*# ?(SKIP|skip)')
	fi
	if [ -d "$dir/san" ] && [ -n "$(ls -A "$dir/san")" ]; then
		for report in "$dir/san"/*; do
			sed "s|^|[$name] $(basename "$report"): |" "$report"
		done
		failed=$((failed + 1))
		failures+=("$name: sanitizer report (above)")
		san=1
	fi
	rm -rf "$dir"
	plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' | head -n1)
	ok=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+')
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
	elif [ -z "$plan" ]; then
		failed=$((failed + 1))
		failures+=("$name: no TAP plan (exit $rc)")
	elif [ "$rc" -ne 0 ] && [ "$notok" -eq 0 ] && [ "$san" -eq 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: exited $rc without a failed test")
	fi
}

# The running suites, by the pid of their job.
declare -A job_name=() job_dir=() job_class=() job_t0=()

# may_start CLASS: whether a suite of CLASS may start beside the running ones.
may_start() {
	local c n=${#job_name[@]}
	[ "$n" -eq 0 ] && return 0
	[ "$n" -ge "$JOBS" ] && return 1
	[ "$1" = quiet ] && return 0
	for c in "${job_class[@]}"; do
		case $1/$c in
		*/quiet) ;;
		exclusive/* | */exclusive) return 1 ;;
		alone/hostless | hostless/* ) ;;
		alone/* | */alone) return 1 ;;
		esac
	done
	return 0
}

# start_next: starts the first queued suite that may start; false if none.
start_next() {
	local i name class build kind path dir pid
	for i in "${!queue[@]}"; do
		IFS=$'\t' read -r name class build kind path <<<"${queue[$i]}"
		may_start "$class" || continue
		unset 'queue[i]'
		dir=$(mktemp -d "$work/job.XXXXXX") && chmod 755 "$dir" || exit 1
		run_job "$dir" "$build" "$kind" "$path" &
		pid=$!
		job_name[$pid]=$name job_dir[$pid]=$dir job_class[$pid]=$class job_t0[$pid]=$SECONDS
		return 0
	done
	return 1
}

# On an interrupt, the running suites end too (each is a job of this shell).
stop_jobs() {
	local pid
	for pid in "${!job_name[@]}"; do pkill -TERM -P "$pid" 2>/dev/null; kill -TERM "$pid" 2>/dev/null; done
}
trap 'stop_jobs; rm -rf "$work"; exit 130' INT
trap 'stop_jobs; rm -rf "$work"; exit 143' TERM

nbuilds=$#
for arg in "$@"; do
	if is_waited "${arg%%:*}"; then waiting+=("$arg"); else enqueue_build "$arg"; fi
done
order_queue
waiting_since=$SECONDS
while [ "${#queue[@]}" -gt 0 ] || [ "${#job_name[@]}" -gt 0 ] || [ "${#waiting[@]}" -gt 0 ]; do
	take_made_builds
	while start_next; do :; done
	if [ "${#job_name[@]}" -eq 0 ]; then
		[ "${#waiting[@]}" -gt 0 ] || continue
		give_up_waiting || sleep 0.5
		continue
	fi
	wait -n -p done_pid
	[ -n "${done_pid:-}" ] && [ -n "${job_name[$done_pid]+x}" ] || continue
	collect "${job_name[$done_pid]}" "${job_dir[$done_pid]}" $((SECONDS - job_t0[$done_pid]))
	unset "job_name[$done_pid]" "job_dir[$done_pid]" "job_class[$done_pid]" "job_t0[$done_pid]"
done
rm -rf "$work"

echo
echo "Time per suite, longest first ($JOBS at a time, $SECONDS s in all):"
printf '%s\n' "${times[@]+"${times[@]}"}" | sort -rn | head -n 30 | sed 's/^/  /'
echo
for f in "${failures[@]+"${failures[@]}"}"; do
	echo "FAILED $f"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
