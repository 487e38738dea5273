#!/usr/bin/env bash
# bench/cgroup_bench.sh BIN OUTDIR: `sandboxtime bench cgroup` (issue 13.4)
# ROUNDS times, alternating unpinned and pinned (--cpu=0), each with
# --repeat=REPEAT. bench/cgroup_bench_results.py merges the table "bench"
# into bench/results/cgroup.json's format as OUTDIR/cgroup-bench.json.
#
# Environment: BENCH_CGROUP_ROUNDS (4), BENCH_CGROUP_REPEAT (10). Root (the
# cgroup places need a writable cgroup: root, or a delegated one).
set -euo pipefail
export LC_ALL=C

[ $# -eq 2 ] || { echo "usage: bash bench/cgroup_bench.sh BIN OUTDIR" >&2; exit 2; }
BIN=$(realpath "$1")
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${BENCH_CGROUP_ROUNDS:-4}
REPEAT=${BENCH_CGROUP_REPEAT:-10}

mkdir -p "$OUT/raw"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)"
	echo "kernel: $(uname -r)"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "memcg: $(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)"
	echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
} >"$OUT/raw/meta.txt"
for ((r = 0; r < ROUNDS; r++)); do
	pin=()
	((r % 2 == 1)) && pin=(--cpu=0)
	echo "bench cgroup: run $((r + 1)) of $ROUNDS ${pin[*]}" >&2
	"$BIN" bench cgroup --repeat="$REPEAT" "${pin[@]}" -J -o "$OUT/raw/cgroup.$r.json"
done
echo "load_end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/raw/meta.txt"
python3 "$ROOT/bench/cgroup_bench_results.py" "$OUT"
