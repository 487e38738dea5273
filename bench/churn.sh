#!/usr/bin/env bash
# bench/churn.sh BIN OUTDIR: `sandboxtime bench churn` at the issue's target
# (--count=1000 --parallel=2 --ns=net: must report within 60 s on 2 cores,
# its overhead over the bare clone loops of the same run under 10%) and the
# same churn without the network namespace (the articles' other four layers)
# at 1 and 2 creators, to set SOCK's claim (network and mount namespace
# creation are what stops container start-up from scaling) and the
# articles' (a network namespace's teardown is dearer than its creation)
# beside our figures; and --net=veth and --net=bridge at 2 creators (a veth
# pair per sandbox, issue 15.1). Rounds alternate the commands' order; the wall
# time of each command is taken from outside. bench/churn_results.py then
# writes OUTDIR/churn.json in the format of bench/results/ and prints it.
#
# Environment: BENCH_CHURN_ROUNDS (3). Under a minute per round on 2 CPUs.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || bench_usage "bash bench/churn.sh BIN OUTDIR"
BIN=$(realpath "$1")
OUT=$2
ROUNDS=${BENCH_CHURN_ROUNDS:-3}

bench_raw_begin "$OUT"

# timed NAME ROUND ARGS...: one bench churn, its wall time (ms) beside its JSON.
timed() {
	local name=$1 r=$2 t0 t1; shift 2
	t0=$(date +%s%N)
	"$BIN" bench churn "$@" -J -o "$OUT/raw/$name.$r.json"
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) >"$OUT/raw/$name.$r.wall_ms"
}

net() { timed net "$1" --count=1000 --parallel=2 --ns=net; }
net1() { timed net1 "$1" --count=1000 --parallel=1 --ns=net; }
nonet() { timed nonet "$1" --count=1000 --parallel=1,2 --ns=uts,ipc,pid,mount; }
veth() { timed veth "$1" --count=1000 --parallel=2 --ns=net --net=veth; }
bridge() { timed bridge "$1" --count=1000 --parallel=2 --ns=net --net=bridge; }

for ((r = 1; r <= ROUNDS; r++)); do
	echo "bench churn: round $r of $ROUNDS" >&2
	if ((r % 2)); then
		net "$r"
		net1 "$r"
		nonet "$r"
		veth "$r"
		bridge "$r"
	else
		bridge "$r"
		veth "$r"
		nonet "$r"
		net1 "$r"
		net "$r"
	fi
done
bench_raw_end "$OUT"
python3 "$BENCH_ROOT/bench/churn_results.py" "$OUT/raw" "$OUT/churn.json"
