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
export LC_ALL=C

[ $# -eq 2 ] || { echo "usage: bash bench/files_userns.sh BIN OUTDIR" >&2; exit 2; }
BIN=$(realpath "$1")
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${BENCH_FU_ROUNDS:-3}

mkdir -p "$OUT/raw"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $(git -C "$ROOT" rev-parse --short HEAD)"
	echo "kernel: $(uname -r)"
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "disk: $(df -T /var/tmp | awk 'NR == 2 { print $2 " " $1 }')"
} >"$OUT/raw/meta.txt"
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
echo "load_end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/raw/meta.txt"
python3 "$ROOT/bench/files_userns_results.py" "$OUT"
