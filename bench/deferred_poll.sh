#!/usr/bin/env bash
# bench/deferred_poll.sh BIN [OUTDIR]: do the deferred figures depend on the
# probe's poll pause? (issue 27.5) The probe spins for 200 us, then pauses
# between its passes over the pending types: 20 us by default. If the
# figures measured the poll rather than the kernel, a pause of 0 (yield
# only) or 1000 us would move them.
#
# Runs taken one after the other drift by more than any such effect on a
# shared machine (docs/bench-notes/deferred-poll.md), so every pause sees
# the same drift: ROUNDS rounds, each of BLOCKS blocks, each block one short
# `layers` run (N deferred samples) of every pause, 0, 20 and 1000 us, both
# unpinned and pinned to CPU (--cpu), the six in an order drawn from SEED
# (printed; SEED=... replays it). Per round, mode, set and type, the median
# of the round's samples at 0 and at 1000 us minus the one at 20 us: the
# round's drift cancels. Over the rounds, the exact binomial order-statistic
# interval of the median difference (ROUNDS >= 6 for 95%). A figure agrees
# when its interval holds 0, or at 1000 us reaches into [0, 1000] us (a
# longer pause can add at most itself to a free that lands in it). Fails
# when more figures differ than their intervals' misses explain at 95%
# (bench/deferred_poll.py). The load and the hypervisor's steal over the
# runs are recorded (raw/meta.txt, and each report's host.steal).
#
#   bash bench/deferred_poll.sh build/sandboxtime            (9 rounds of 2 blocks, N=3)
#   ROUNDS=6 BLOCKS=1 bash bench/deferred_poll.sh build/sandboxtime /tmp/dp
#
# Exit status: 0 the figures agree, 1 they do not, 2 a run failed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then bench_usage "bash bench/deferred_poll.sh BIN [OUTDIR]"; fi
BIN=$1
OUT=${2:-$(mktemp -d /tmp/sandboxtime-poll.XXXXXX)}
ROUNDS=${ROUNDS:-9}
BLOCKS=${BLOCKS:-2}
N=${N:-3}
CPU=${CPU:-1}
NS=${NS:-uts,ipc,pid,mount,cgroup,time,net}
IDLE_S=${IDLE_S:-1}
SEED=${SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
UNITS=("unpinned 0" "unpinned 20" "unpinned 1000" "pinned 0" "pinned 20" "pinned 1000")

bench_raw_begin "$OUT" seed "$SEED" rounds "$ROUNDS" blocks "$BLOCKS" n "$N" cpu "$CPU" ns "$NS"
echo "deferred_poll: $ROUNDS rounds of $BLOCKS blocks of 0, 20, 1000 us, unpinned and on CPU $CPU" \
	"(order from SEED=$SEED), N=$N, --ns=$NS; $(nproc) CPUs, load $(bench_load)" >&2
RANDOM=$SEED
for r in $(seq "$ROUNDS"); do
	for b in $(seq "$BLOCKS"); do
		order=("${UNITS[@]}")
		# Fisher-Yates with bash's seeded RANDOM.
		for ((i = ${#order[@]} - 1; i > 0; i--)); do
			j=$((RANDOM % (i + 1)))
			t=${order[i]} order[i]=${order[j]} order[j]=$t
		done
		echo "round $r block $b: ${order[*]}" >&2
		for unit in "${order[@]}"; do
			read -r mode poll <<<"$unit"
			pin=()
			[ "$mode" = pinned ] && pin=(--cpu="$CPU")
			sleep "$IDLE_S"
			SANDBOXTIME_DEFERRED_POLL_US=$poll "$BIN" layers "${pin[@]}" --ns="$NS" --repeat=1 \
				--warmup=0 --deferred-repeat="$N" -J \
				-o "$OUT/raw/r$r-b$b-$mode-poll$poll.json" || exit 2
		done
	done
done
bench_raw_end "$OUT"
status=0
python3 -B "$BENCH_ROOT/bench/deferred_poll.py" "$OUT" || status=$?
echo "reports in $OUT" >&2
exit $status
