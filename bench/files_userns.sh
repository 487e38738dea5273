#!/usr/bin/env bash
# bench/files_userns.sh BIN OUTDIR: `sandboxtime bench files` and `bench
# userns` with their defaults, ROUNDS times alternating, then `bench all`
# with its defaults once under /usr/bin/time (the 3-minute target of issue
# 14); bench/files_userns_results.py writes OUTDIR/files_userns.json in the
# format of bench/results/ beside the articles' figures (/work/shared/
# SEEDS.md section 4; the user namespace they did not measure).
#
# Environment: BENCH_FU_ROUNDS (3).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || bench_usage "bash bench/files_userns.sh BIN OUTDIR"
BIN=$(realpath "$1")
OUT=$2
ROUNDS=${BENCH_FU_ROUNDS:-3}

bench_raw_begin "$OUT" disk "$(df -T /var/tmp | awk 'NR == 2 { print $2 " " $1 }')"
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2 == 0)); then
		"$BIN" bench files -J -o "$OUT/raw/files.$r.json"
		"$BIN" bench userns -J -o "$OUT/raw/userns.$r.json"
	else
		"$BIN" bench userns -J -o "$OUT/raw/userns.$r.json"
		"$BIN" bench files -J -o "$OUT/raw/files.$r.json"
	fi
done
/usr/bin/time -f "%e" -o "$OUT/raw/all.time" "$BIN" bench all -J -o "$OUT/raw/all.json"
bench_raw_end "$OUT"
python3 "$BENCH_ROOT/bench/files_userns_results.py" "$OUT"
