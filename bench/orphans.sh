#!/usr/bin/env bash
# bench/orphans.sh BIN: the scan time of `sandboxtime orphans` against
# `lsns -t net --json` and `ip netns list` on the same host state, at the
# host's natural size and with extra namespaces and processes made here:
#
#   sudo bash bench/orphans.sh build/sandboxtime
#
# The extra state (defaults): 1,000 network namespaces, half orphaned (held
# only by a bind mount under /run/netns, as `ip netns add` makes them), half
# lived in by a process (`unshare -n sleep`), and 2,000 processes in all
# (those 500 plus 1,500 `sleep` in the host's namespace). Everything is made
# by this script and removed by pid on exit (trap), and it all happens in a
# private mount namespace with a tmpfs on /run/netns: the bind mounts and
# the names are invisible to the rest of the host and vanish with the script
# even if it is killed.
#
# Each size: BENCH_ORPHANS_ROUNDS rounds of hyperfine (warm-up, then
# BENCH_ORPHANS_RUNS runs, no shell) of the three commands, in rotated order;
# medians over all runs, spread (min..max, stddev), the ratio of each round
# and their median, CPU time (user + system) per run; peak RSS of each from /usr/bin/time (the worst of 5 runs); time
# per (process + namespace). The results go to standard output and, unless
# BENCH_OUT=-, into docs/bench-notes/10-orphans.md (its "BEGIN hand" block).
#
# Environment: BENCH_ORPHANS_NS (1000), BENCH_ORPHANS_PROCS (2000),
# BENCH_ORPHANS_RUNS (20), BENCH_ORPHANS_ROUNDS (3), BENCH_ORPHANS_WARMUP (3),
# BENCH_OUT.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || bench_usage "bash bench/orphans.sh BIN"
if [ "$(id -u)" != 0 ]; then
	echo "bench/orphans.sh: needs root (namespaces, bind mounts, every process readable)" >&2
	exit 2
fi
if [ -z "${ST_BENCH_PRIVATE:-}" ]; then
	ST_BENCH_PRIVATE=1 exec unshare --mount --propagation private bash "$0" "$@"
fi
BIN=$(realpath "$1")
OUT_MD=${BENCH_OUT:-$BENCH_ROOT/docs/bench-notes/10-orphans.md}
NS=${BENCH_ORPHANS_NS:-1000}
PROCS=${BENCH_ORPHANS_PROCS:-2000}
RUNS=${BENCH_ORPHANS_RUNS:-20}
ROUNDS=${BENCH_ORPHANS_ROUNDS:-3}
WARMUP=${BENCH_ORPHANS_WARMUP:-3}
for tool in hyperfine lsns ip unshare python3; do
	command -v "$tool" >/dev/null || { echo "bench/orphans.sh: $tool is missing" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench/orphans.sh: /usr/bin/time is missing (Debian package time)" >&2; exit 1; }
HALF=$((NS / 2))
PLAIN=$((PROCS - (NS - HALF)))
[ "$PLAIN" -ge 0 ] || { echo "bench/orphans.sh: BENCH_ORPHANS_PROCS must be at least half of BENCH_ORPHANS_NS" >&2; exit 2; }

TMP=$(mktemp -d /tmp/sandboxtime-bench-orphans.XXXXXX)
PIDS=()
cleanup() {
	trap - EXIT INT TERM
	if [ ${#PIDS[@]} -gt 0 ]; then
		kill -KILL "${PIDS[@]}" 2>/dev/null || true
		wait 2>/dev/null || true
	fi
	# The bind mounts and the tmpfs die with this private mount namespace.
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

count_procs() { local d=(/proc/[0-9]*); echo "${#d[@]}"; }

# measure LABEL: ROUNDS hyperfine runs of the three commands, the order rotated
# each round (so that a busy spell of the host does not fall on one command
# only), RSS, counts; into $TMP/LABEL.*
measure() {
	local label=$1 i r
	local -a cmds=("sandboxtime" "$BIN orphans -J -o /dev/null" "lsns" "lsns -t net --json" "ip netns list" "ip netns list")
	"$BIN" orphans -J >"$TMP/$label.scan.json" 2>/dev/null || true
	count_procs >"$TMP/$label.procs"
	for r in $(seq "$ROUNDS"); do
		local -a args=()
		for i in 0 1 2; do
			local k=$(((i + r - 1) % 3))
			args+=(-n "${cmds[$((2 * k))]}" "${cmds[$((2 * k + 1))]}")
		done
		hyperfine -N -i --style basic --warmup "$WARMUP" --runs "$RUNS" \
			--export-json "$TMP/$label.hyperfine.$r.json" "${args[@]}" >>"$TMP/$label.hyperfine.txt" 2>&1
	done
	for i in 1 2 3 4 5; do
		/usr/bin/time -f %M -o "$TMP/$label.rss.st.$i" "$BIN" orphans -J -o /dev/null 2>/dev/null || true
		/usr/bin/time -f %M -o "$TMP/$label.rss.lsns.$i" lsns -t net --json >/dev/null 2>&1 || true
	done
}

bench_load >"$TMP/load.start"
echo "bench/orphans.sh: natural size" >&2
measure natural

echo "bench/orphans.sh: making $HALF orphans, $((NS - HALF)) lived-in namespaces, $PLAIN more processes" >&2
mount -t tmpfs -o mode=755,size=4m sandboxtime-bench /run/netns
: >"$TMP/batch"
for i in $(seq "$HALF"); do echo "netns add stbench-$i" >>"$TMP/batch"; done
ip -batch "$TMP/batch"
for i in $(seq $((NS - HALF))); do
	unshare -n sleep 3600 &
	PIDS+=($!)
done
for i in $(seq "$PLAIN"); do
	sleep 3600 &
	PIDS+=($!)
done
# Until every unshare has made its namespace and exec'd sleep.
host_ino=$(stat -L -c %i /proc/self/ns/net)
for i in $(seq 300); do
	n=$(stat -L -c %i /proc/[0-9]*/ns/net 2>/dev/null | sort -u | grep -vcx "$host_ino" || true)
	[ "$n" -ge $((NS - HALF)) ] && break
	sleep 0.1
done
echo "bench/orphans.sh: extra size" >&2
measure extra
bench_load >"$TMP/load.end"

python3 -B "$BENCH_ROOT/bench/orphans_report.py" "$TMP" "$NS" "$HALF" "$PROCS" "$RUNS" "$WARMUP" "$OUT_MD" "$BIN" "$ROUNDS"
