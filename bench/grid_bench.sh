#!/usr/bin/env bash
# bench/grid_bench.sh BIN NAME OUTDIR [ARG...]: `sandboxtime bench NAME ARG...`
# for a places x operations bench (cgroup, launch, mounts, files, userns)
# ROUNDS times, alternating unpinned and pinned (--cpu=0), each with
# --repeat=REPEAT. bench/grid_bench_results.py writes OUTDIR/NAME.json in the
# format of bench/results/ (tables bench-NAME and bench-NAME-pinned), or merges them into
# an existing results file with --merge.
#
# Environment: BENCH_GRID_ROUNDS (4), BENCH_GRID_REPEAT (10). Root where the
# bench needs it (bench cgroup's cgroup places: root or a delegated cgroup).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || bench_usage "bash bench/grid_bench.sh BIN NAME OUTDIR [ARG...]"
BIN=$(realpath "$1")
NAME=$2
OUT=$3
shift 3
ROUNDS=${BENCH_GRID_ROUNDS:-4}
REPEAT=${BENCH_GRID_REPEAT:-10}

bench_raw_begin "$OUT" memcg "$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)" \
	thp "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)" args "$*"
for ((r = 0; r < ROUNDS; r++)); do
	pin=()
	((r % 2 == 1)) && pin=(--cpu=0)
	echo "bench $NAME: run $((r + 1)) of $ROUNDS ${pin[*]}" >&2
	"$BIN" bench "$NAME" --repeat="$REPEAT" "$@" "${pin[@]}" -J -o "$OUT/raw/$NAME.$r.json"
done
bench_raw_end "$OUT"
python3 "$BENCH_ROOT/bench/grid_bench_results.py" "$OUT" "$NAME"
