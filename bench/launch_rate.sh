#!/usr/bin/env bash
# bench/launch_rate.sh BIN OUTDIR: issue 15's launch figures, end to end:
# sandboxes started and completed per second one after another, with p50
# and p99 per launch, for sandboxtime's default hardened launch, sandboxtime
# doing only what unshare does (--no-init --seccomp=none --cap-add=ALL
# --no-new-privileges=false), unshare and bwrap, each running /bin/true, and
# /bin/true alone (the floor of any launch, and of each clock), in
# the same hyperfine rounds (the commands' order rotating per round). Each
# round then runs `sandboxtime bench launch --repeat=1`, which times the
# same four launches with its own clock: the two must agree.
# bench/launch_rate_results.py writes OUTDIR/launch.json and prints it.
#
# Environment: BENCH_LAUNCH_ROUNDS (3), BENCH_LAUNCH_RUNS (200 per command
# and round). As root: the root launches of bench/run.sh's section 2.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || bench_usage "bash bench/launch_rate.sh BIN OUTDIR"
ST=$(realpath "$1")
OUT=$2
ROUNDS=${BENCH_LAUNCH_ROUNDS:-3}
RUNS=${BENCH_LAUNCH_RUNS:-200}
NS=uts,ipc,pid,mount,net
BWRAP="bwrap --unshare-all --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --proc /proc"

SPECS=(
	"sandboxtime=$ST --repeat=0 --quiet --ns=$NS -- /bin/true"
	"sandboxtime like unshare=$ST --repeat=0 --quiet --no-init --seccomp=none --cap-add=ALL --no-new-privileges=false --ns=$NS -- /bin/true"
	"unshare=unshare --fork --pid --mount-proc --uts --ipc --net --mount true"
	"bwrap=$BWRAP /bin/true"
	"true=/bin/true"
)
bench_raw_begin "$OUT"
for ((r = 1; r <= ROUNDS; r++)); do
	echo "launch rate: round $r of $ROUNDS" >&2
	args=()
	n=${#SPECS[@]}
	for ((i = 0; i < n; i++)); do
		spec=${SPECS[$(((i + r) % n))]}
		args+=(-n "${spec%%=*}" "${spec#*=}")
	done
	hyperfine -N --style basic --warmup 10 --runs "$RUNS" --export-json "$OUT/raw/launch.$r.json" \
		"${args[@]}" >"$OUT/raw/launch.$r.log" 2>&1
	"$ST" bench launch --repeat=1 -J -o "$OUT/raw/bl.$r.json"
done
bench_raw_end "$OUT"
python3 "$BENCH_ROOT/bench/launch_rate_results.py" "$OUT/raw" "$OUT/launch.json"
