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
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || bench_usage "bash bench/fork.sh BIN OUTDIR"
BIN=$(realpath "$1")
OUT=$2
ROUNDS=${BENCH_FORK_ROUNDS:-3}
SIZES=(1 10 100 500 1000)

bench_raw_begin "$OUT" thp "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
gcc -O2 -Wall -Wextra -o "$OUT/fork_loop" "$BENCH_ROOT/bench/fork_loop.c"

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
bench_raw_end "$OUT"
python3 "$BENCH_ROOT/bench/fork_results.py" "$OUT/raw" "$OUT/fork.json"
