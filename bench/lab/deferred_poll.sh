#!/usr/bin/env bash
# bench/lab/deferred_poll.sh BIN: do the deferred figures depend on the probe's
# poll pause? (issue 27.5) The probe spins for 200 us, then pauses between
# its passes over the pending types: 20 us by default. If the figures
# measured the poll rather than the kernel, a pause of 0 (yield only) or
# 1000 us would move them.
#
# Interleaved, because runs taken one after the other drift by more than any
# such effect on a shared machine (docs/bench-notes/deferred-poll.md): ROUNDS
# rounds, each one `layers` run (every type but user, N deferred samples) at
# each pause in an order drawn from SEED (printed; SEED=... replays it).
# Per round, per set and type, the median at 0 and at 1000 us minus the one
# at 20 us: the drift of that round cancels. Over the rounds, the exact
# binomial order-statistic interval of the median difference (ROUNDS >= 6
# for 95%, as the project's increments). A figure agrees when its interval
# holds 0, or at 1000 us reaches into [0, 1000] us (a longer pause can add
# at most itself to a free that lands in it). Fails when more figures differ
# than their intervals' misses explain at 95% (bench/lab/deferred_poll.py).
#
#   bash bench/lab/deferred_poll.sh build/sandboxtime                  (6 rounds of 10 samples)
#   ROUNDS=10 OUT=dir bash bench/lab/deferred_poll.sh build/sandboxtime   (keeps the reports)
#
# Exit status: 0 the figures agree, 1 they do not, 2 a run failed.
set -u
BIN=${1:?usage: $0 path/to/sandboxtime}
ROUNDS=${ROUNDS:-6}
N=${N:-10}
NS=${NS:-uts,ipc,pid,mount,cgroup,time,net}
IDLE_S=${IDLE_S:-1}
SEED=${SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
OUT=${OUT:-$(mktemp -d /tmp/sandboxtime-poll.XXXXXX)}
mkdir -p "$OUT" || exit 2

echo "deferred_poll: $ROUNDS rounds of 0, 20, 1000 us (order from SEED=$SEED), N=$N, --ns=$NS;" \
	"$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
RANDOM=$SEED
for r in $(seq "$ROUNDS"); do
	order=(0 20 1000)
	# Fisher-Yates with bash's seeded RANDOM.
	for i in 2 1; do
		j=$((RANDOM % (i + 1)))
		t=${order[i]} order[i]=${order[j]} order[j]=$t
	done
	echo "round $r: ${order[*]}" >&2
	for poll in "${order[@]}"; do
		sleep "$IDLE_S"
		SANDBOXTIME_DEFERRED_POLL_US=$poll "$BIN" layers --ns="$NS" --repeat=1 --warmup=0 \
			--deferred-repeat="$N" -J -o "$OUT/r$r-poll$poll.json" || exit 2
	done
done
python3 -B "$(dirname "$0")/deferred_poll.py" "$OUT" "$ROUNDS"
status=$?
echo "reports in $OUT"
exit $status
