#!/usr/bin/env bash
# bench/where.sh BIN OUTDIR: `sandboxtime bench where` ROUNDS times with its
# defaults (the microVM on KVM), then ROUNDS times with --vm-accel=tcg where
# KVM is unavailable, alternating unpinned and pinned (--cpu=0); then `bench
# all` with its defaults once under /usr/bin/time (issue 14's 3 minutes,
# microVM included). bench/where_results.py writes OUTDIR/where.json in the
# format of bench/results/ beside the articles' figures (/work/shared/
# SEEDS.md section 2).
#
# Environment: BENCH_WHERE_ROUNDS (3), KERNEL (default: .ci/tools/vmlinuz-*),
# PATH gets .ci/tools for qemu-aarch64-static.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || bench_usage "bash bench/where.sh BIN OUTDIR"
BIN=$(realpath "$1")
OUT=$2
ROUNDS=${BENCH_WHERE_ROUNDS:-3}
KERNEL=${KERNEL:-$(ls "$BENCH_ROOT"/.ci/tools/vmlinuz-* 2>/dev/null | tail -n 1)}
export PATH="$PATH:$BENCH_ROOT/.ci/tools"
kargs=()
[ -n "$KERNEL" ] && kargs=(--kernel="$KERNEL")

bench_raw_begin "$OUT" vm_kernel "$(basename "${KERNEL:-none}")" \
	kvm "$(ls /sys/module | grep -E '^kvm' | tr '\n' ' ')"
for ((r = 0; r < ROUNDS; r++)); do
	pin=()
	((r % 2 == 1)) && pin=(--cpu=0)
	"$BIN" bench where "${kargs[@]}" "${pin[@]}" -J -o "$OUT/raw/kvm.$r.json"
	"$BIN" bench where "${kargs[@]}" "${pin[@]}" --vm-accel=tcg -J -o "$OUT/raw/tcg.$r.json"
done
/usr/bin/time -f "%e" -o "$OUT/raw/all.time" "$BIN" bench all "${kargs[@]}" -J -o "$OUT/raw/all.json"
bench_raw_end "$OUT"
python3 "$BENCH_ROOT/bench/where_results.py" "$OUT"
