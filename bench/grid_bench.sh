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
export LC_ALL=C

[ $# -ge 3 ] || { echo "usage: bash bench/grid_bench.sh BIN NAME OUTDIR [ARG...]" >&2; exit 2; }
BIN=$(realpath "$1")
NAME=$2
OUT=$3
shift 3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${BENCH_GRID_ROUNDS:-4}
REPEAT=${BENCH_GRID_REPEAT:-10}

mkdir -p "$OUT/raw"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)"
	echo "kernel: $(uname -r)"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "uid: $(id -u)"
	echo "memcg: $(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)"
	echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
	echo "args: $*"
} >"$OUT/raw/meta.txt"
for ((r = 0; r < ROUNDS; r++)); do
	pin=()
	((r % 2 == 1)) && pin=(--cpu=0)
	echo "bench $NAME: run $((r + 1)) of $ROUNDS ${pin[*]}" >&2
	"$BIN" bench "$NAME" --repeat="$REPEAT" "$@" "${pin[@]}" -J -o "$OUT/raw/$NAME.$r.json"
done
echo "load_end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/raw/meta.txt"
python3 "$ROOT/bench/grid_bench_results.py" "$OUT" "$NAME"
