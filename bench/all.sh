#!/usr/bin/env bash
# bench/all.sh BIN [NAME...]: every script whose figures BENCHMARKS.md and
# docs/bench-notes/results.md quote (or the NAMEs alone), with the settings
# their tables record, each one's tables merged into bench/results/
# (bench/merge_results.py), then both pages rendered again (bench/summary.py).
# `make bench` runs it. As root; hours on 2 CPUs. Not root: run and compare
# alone (the others need root), the rest named as skipped.
#
# NAMEs, in the order they run:
#   run           bench/run.sh: launch, layers, deferred, network steps (run.json)
#   oci           bench/oci_compare.sh + oci_compare.py (oci.json)
#   engines       bench/engines.sh + engines.py (engines.json)
#   cgroup        bench/cgroup_steps.py with and without idle gaps, then
#                 bench/grid_bench.sh cgroup (cgroup.json)
#   launch        bench/launch_rate.sh, then bench/grid_bench.sh launch (launch.json)
#   mounts        bench/grid_bench.sh mounts (mounts.json)
#   churn         bench/churn.sh (churn.json)
#   fork          bench/fork.sh (fork.json)
#   files_userns  bench/files_userns.sh (files_userns.json)
#   where         bench/where.sh (where.json)
#   netbench      bench/netbench.sh beside iperf3 and sockperf (netbench.json)
#   deferred      bench/deferred_check.sh twice, merged; bench/deferred_trace.sh
#                 and bench/deferred_poll.sh (deferred.json)
#   compare       bench/compare.sh: printed; compare.json is written by hand from it
#   orphans       bench/orphans.sh: its block of docs/bench-notes/10-orphans.md
# reliability.json comes from make check, make valgrind, make fuzz and
# make soak, not from a bench script.
#
# Environment: BENCH_RESULTS (bench/results: where the tables are merged;
# another folder leaves the committed results and pages alone, except what
# run writes itself: run.json, docs/bench-notes/run.md and both pages), and
# each script's own (see its header).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || bench_usage "bash bench/all.sh BIN [NAME...]"
BIN=$(realpath "$1")
shift
B=$BENCH_ROOT/bench
R=$(realpath -m "${BENCH_RESULTS:-$B/results}")
ALL=(run oci engines cgroup launch mounts churn fork files_userns where netbench deferred compare orphans)
NAMES=("${@:-${ALL[@]}}")
for name in "${NAMES[@]}"; do
	[[ " ${ALL[*]} " == *" $name "* ]] || bench_usage "bash bench/all.sh BIN [NAME...] (NAME: ${ALL[*]})"
done
ROOTLESS=" run compare "
TMP=$(mktemp -d /tmp/sandboxtime-bench-all.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$R"

merge() { python3 -B "$B/merge_results.py" "$@"; }

# grid NAME ROUNDS REPEAT: bench/grid_bench.sh NAME into NAME's results.
grid() {
	BENCH_GRID_ROUNDS=$2 BENCH_GRID_REPEAT=$3 bash "$B/grid_bench.sh" "$BIN" "$1" "$TMP/grid-$1"
}

run_one() {
	case $1 in
	run) bash "$B/run.sh" "$BIN" ;;
	oci)
		bash "$B/oci_compare.sh" "$BIN" "$TMP/oci"
		python3 -B "$B/oci_compare.py" "$TMP/oci" --results "$R/oci.json"
		;;
	engines)
		bash "$B/engines.sh" "$BIN" "$TMP/engines"
		python3 -B "$B/engines.py" "$TMP/engines" --results "$R/engines.json"
		;;
	cgroup)
		python3 -B "$B/cgroup_steps.py" "$BIN" 30 --gap-ms 200 --results "$TMP/cgroup-isolated.json"
		merge "$R/cgroup.json" "$TMP/cgroup-isolated.json" steps=isolated
		python3 -B "$B/cgroup_steps.py" "$BIN" 30 --results "$TMP/cgroup-b2b.json"
		merge "$R/cgroup.json" "$TMP/cgroup-b2b.json" steps=back-to-back
		grid cgroup 4 10
		merge "$R/cgroup.json" "$TMP/grid-cgroup/cgroup.json"
		;;
	launch)
		bash "$B/launch_rate.sh" "$BIN" "$TMP/launch"
		merge "$R/launch.json" "$TMP/launch/launch.json"
		grid launch 4 5
		merge "$R/launch.json" "$TMP/grid-launch/launch.json"
		;;
	mounts)
		grid mounts 2 10
		merge "$R/mounts.json" "$TMP/grid-mounts/mounts.json"
		;;
	churn | fork | files_userns | where)
		bash "$B/$1.sh" "$BIN" "$TMP/$1"
		merge "$R/$1.json" "$TMP/$1/$1.json"
		;;
	netbench)
		BENCH_NB_RESULTS=$TMP/netbench.json BENCH_NB_ROUNDS=7 BENCH_NB_PATHS=host,veth,bridge \
			BENCH_NB_INVOCATION="bash bench/all.sh build/sandboxtime netbench" \
			bash "$B/netbench.sh" "$BIN" "$TMP/netbench"
		merge "$R/netbench.json" "$TMP/netbench.json"
		;;
	deferred)
		# A check that fails is a result too: both runs go into the table.
		RESULTS=$TMP/deferred-1.json CHECKS=ab bash "$B/deferred_check.sh" "$BIN" || true
		RESULTS=$TMP/deferred-2.json CHECKS=ab bash "$B/deferred_check.sh" "$BIN" || true
		python3 -B "$B/deferred_check.py" --merge "$TMP/deferred.json" "$TMP/deferred-1.json" "$TMP/deferred-2.json"
		merge "$R/deferred.json" "$TMP/deferred.json"
		bash "$B/deferred_trace.sh" "$BIN" "$TMP/trace" || true
		python3 -B "$B/deferred_trace.py" "$TMP/trace" --results "$R/deferred.json"
		bash "$B/deferred_poll.sh" "$BIN" "$TMP/poll" || true
		python3 -B "$B/deferred_poll.py" "$TMP/poll" --results "$R/deferred.json" || true
		;;
	compare) bash "$B/compare.sh" "$BIN" 3 10 ;;
	orphans) bash "$B/orphans.sh" "$BIN" ;;
	esac
}

# A script that fails (a tool missing, a refusal) leaves its results as they
# were; the others still run, and the failures are named at the end.
failed=()
for name in "${NAMES[@]}"; do
	if [ "$(id -u)" -ne 0 ] && [[ $ROOTLESS != *" $name "* ]]; then
		echo "bench all: $name skipped (it needs root)" >&2
		continue
	fi
	echo "bench all: $name" >&2
	set +e
	(
		set -e
		run_one "$name"
	)
	rc=$?
	set -e
	[ $rc -eq 0 ] || failed+=("$name")
done
if [ "$R" = "$(realpath "$B/results")" ]; then
	python3 -B "$B/summary.py"
	python3 -B "$B/summary.py" --tables
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench all: failed: ${failed[*]} (their output is above)" >&2
	exit 1
fi
