#!/usr/bin/env bash
# bench/fork.sh BIN OUTDIR: `sandboxtime bench fork` (defaults) beside
# bench/fork_loop (the articles' method: median of 31 forks of one process
# with N MB touched, sharing no code with sandboxtime), in the same rounds,
# the tools' order alternating and fork_loop's sizes rotating per round; the
# last fork_loop of each round uses huge pages (MADV_HUGEPAGE) to show what
# they save. Then bench/fork_results.py writes OUTDIR/fork.json in the
# format of bench/results/ (with the articles' table of /work/shared/SEEDS.md
# section 3 beside ours) and prints it.
#
# Environment: BENCH_FORK_ROUNDS (3). About 30 s per round on 2 CPUs.
set -euo pipefail
export LC_ALL=C

[ $# -eq 2 ] || { echo "usage: bash bench/fork.sh BIN OUTDIR" >&2; exit 2; }
BIN=$(realpath "$1")
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${BENCH_FORK_ROUNDS:-3}
SIZES=(1 10 100 500 1000)

mkdir -p "$OUT/raw"
gcc -O2 -Wall -Wextra -o "$OUT/fork_loop" "$ROOT/bench/fork_loop.c"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)"
	echo "kernel: $(uname -r)"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
} >"$OUT/raw/meta.txt"

peer_round() {
	local r=$1 i n=${#SIZES[@]}
	: >"$OUT/raw/fork_loop.$r.jsonl"
	for ((i = 0; i < n; i++)); do
		"$OUT/fork_loop" "${SIZES[$(((i + r) % n))]}" 31 >>"$OUT/raw/fork_loop.$r.jsonl"
	done
	"$OUT/fork_loop" 1000 31 --huge >>"$OUT/raw/fork_loop.$r.jsonl"
}

for ((r = 1; r <= ROUNDS; r++)); do
	echo "bench fork: round $r of $ROUNDS" >&2
	if ((r % 2)); then
		"$BIN" bench fork -J -o "$OUT/raw/sandboxtime.$r.json"
		peer_round "$r"
	else
		peer_round "$r"
		"$BIN" bench fork -J -o "$OUT/raw/sandboxtime.$r.json"
	fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/raw/meta.txt"
python3 "$ROOT/bench/fork_results.py" "$OUT/raw" "$OUT/fork.json"
