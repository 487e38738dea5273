#!/usr/bin/env bash
# bench/lab/deferred_poll.sh BIN: do the deferred figures depend on the probe's
# poll rate? (issue 27) The probe spins for 200 us, then pauses between its
# passes over the pending types: 20 us by default. If the figures measured
# the poll rather than the kernel, a pause of 0 (yield only) or 1000 us
# would move them. Runs `layers` with every type at each pause (the probe
# order is random per sample in every run), then `sandboxtime compare`s each
# against the 20 us run: a deferred_by_type figure agrees when it is within
# noise (its 95% interval of B/A holds 1) or, at 1000 us, above by no more
# than the pause itself. Each interval misses one time in twenty by chance,
# so the check fails only when more figures differ than chance explains
# (5% of them).
#
#   bash bench/lab/deferred_poll.sh build/sandboxtime          (10 samples, the most)
#   OUT=dir bash bench/lab/deferred_poll.sh build/sandboxtime  (keeps the reports)
#
# Exit status: 0 every figure agrees, 1 one does not. Run it on a quiet
# machine: other load delays the kernel's work queues for one run and not
# the other.
set -u
BIN=${1:?usage: $0 path/to/sandboxtime}
N=${N:-10}
OUT=${OUT:-$(mktemp -d)}
NS=${NS:-uts,ipc,pid,mount,cgroup,time,net}
IDLE_S=${IDLE_S:-2}
mkdir -p "$OUT" || exit 1

for poll in 20 0 1000; do
	sleep "$IDLE_S"
	SANDBOXTIME_DEFERRED_POLL_US=$poll "$BIN" layers --ns="$NS" --repeat=1 --warmup=0 \
		--deferred-repeat="$N" -J -o "$OUT/poll$poll.json" || exit 1
done
status=0
for poll in 0 1000; do
	"$BIN" compare "$OUT/poll20.json" "$OUT/poll$poll.json" -J -o "$OUT/cmp$poll.json" || exit 1
	python3 -B "$(dirname "$0")/deferred_poll.py" "$OUT/cmp$poll.json" "$poll" || status=1
done
echo "reports in $OUT"
exit $status
