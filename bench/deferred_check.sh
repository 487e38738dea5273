#!/usr/bin/env bash
# bench/deferred_check.sh BIN: are sandboxtime's deferred figures consistent
# with themselves and with an independent reference? (issue 12)
#
#   bash bench/deferred_check.sh build/sandboxtime          (N=20 samples each)
#   N=3 GAP_MS=200 bash bench/deferred_check.sh build/sandboxtime   (a short try)
#   RESULTS=bench/results/deferred.json bash bench/deferred_check.sh ...
#       also writes the checks as the table of docs/bench-notes/results.md (bench/deferred_check.py)
#
# (a) Consistency: the network namespace's freed time (deferred_by_type.net,
#     median) measured with --ns=net, inside --ns=all, and with --ns=all
#     --alone (the alone net set) agree within 15% of the --ns=net figure.
# (b) Reference: bench/clone_loop --deferred (code of its own, no
#     libsandboxtime) times one type's free with GAP_MS idle before every
#     sample, so that no earlier sample's frees are pending; sandboxtime's
#     per-type figure of a --ns=TYPE run must agree within 20% for ipc, pid,
#     net and user. clone_loop's figure ends after the successful unshare()
#     (deferred_us) and sandboxtime's at its start (ipc: at its end, less the
#     calibrated creation cost); for a type of tens of milliseconds the
#     difference is well under 1%. ipc waits for its free inside unshare(),
#     and both stamp the end of the successful call.
#
# (c) Poll pause (issue 27.5): bench/deferred_poll.sh runs the probe's poll
#     at 0, 20 and 1000 us, unpinned and pinned, interleaved in paired
#     rounds, and checks that every per-type figure agrees with the 20 us
#     one within its interval. CHECKS=poll runs only (c), CHECKS=ab all but (c).
#
# Each ratio comes with a 95% bootstrap interval from both tools' samples.
# ipc's free is about one RCU grace period and its samples spread from 0.1 to
# 15 ms (was a grace period already running?), so its runs take N_IPC samples
# (80): at N=20 its median moved by +-1.5 ms from run to run, as much as the
# tolerance.
# One run of each in the same session, alternating the tools per type. Run it
# on a quiet machine: other load delays the kernel's work queues and RCU, for
# both tools but not alike. Exit status: 0 all checks passed, 1 one failed.
set -u
BIN=${1:?usage: $0 path/to/sandboxtime}
N=${N:-20}
N_IPC=${N_IPC:-80}
GAP_MS=${GAP_MS:-300}
# Idle before every run of either tool: a run's last frees (after its last
# sample, and its lab's own namespace) must not fall into the next run's
# first samples, which no drain of the next run can see.
IDLE_S=${IDLE_S:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ "${CHECKS:-all}" = poll ] && exec bash "$ROOT/bench/deferred_poll.sh" "$BIN"
TMP=$(mktemp -d /tmp/sandboxtime-deferred.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
PY=$(command -v python3)

gcc -O2 -Wall -Wextra -o "$TMP/clone_loop" "$ROOT/bench/clone_loop.c" || exit 2
common=(layers -J --repeat=3 --warmup=1 --deferred-repeat="$N")

echo "deferred_check: N=$N samples each (ipc $N_IPC), clone_loop idle gap ${GAP_MS} ms; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
st() { sleep "$IDLE_S"; "$BIN" "${common[@]}" "$@"; }
cl() { sleep "$IDLE_S"; "$TMP/clone_loop" --deferred -n "$N" -w 1 -s "$GAP_MS" "$@"; }
# st_ipc/cl_ipc: the same with N_IPC samples (the later option wins).
st_ipc() { st --deferred-repeat="$N_IPC" "$@"; }
cl_ipc() { sleep "$IDLE_S"; "$TMP/clone_loop" --deferred -n "$N_IPC" -w 1 -s "$GAP_MS" "$@"; }
st --ns=net -o "$TMP/net.json" || exit 2
st --ns=all -o "$TMP/all.json" || exit 2
st --ns=all --alone -o "$TMP/alone.json" || exit 2
for t in ipc pid net user; do
	# Alternate which tool goes first, type by type.
	if [ "$t" = pid ] || [ "$t" = user ]; then
		cl "$t" >"$TMP/ref-$t.json" || exit 2
		st --ns="$t" -o "$TMP/st-$t.json" || exit 2
	elif [ "$t" = ipc ]; then
		st_ipc --ns="$t" -o "$TMP/st-$t.json" || exit 2
		cl_ipc "$t" >"$TMP/ref-$t.json" || exit 2
	else
		st --ns="$t" -o "$TMP/st-$t.json" || exit 2
		cl "$t" >"$TMP/ref-$t.json" || exit 2
	fi
done

"$PY" -B "$ROOT/bench/deferred_check.py" "$TMP" ${RESULTS:+"$RESULTS"}
status=$?
[ "${CHECKS:-all}" = ab ] || bash "$ROOT/bench/deferred_poll.sh" "$BIN" || status=1
exit $status
