#!/usr/bin/env bash
# bench/run.sh BIN: every benchmark of sandboxtime; its full report goes to
# docs/bench-notes/run.md (bench/analyze.py), its headline tables to
# bench/results/run.json, and BENCHMARKS.md, the headline tables, and
# docs/bench-notes/results.md, every table, are rendered from
# bench/summary.md.in, bench/results.md.in and bench/results/*.json
# (bench/summary.py). `make bench` (bench/all.sh) runs this and every other
# script whose figures those pages quote.
#
#   bash bench/run.sh build/sandboxtime        (or: make bench)
#
# What it runs (about 3 to 5 minutes on 2 CPUs):
#   1. launch, as root: sandboxtime --repeat=0 vs unshare vs bwrap vs the
#      floor (bench/clone_loop --exec), hyperfine, 3 rounds in rotated order;
#   2. the same launch comparison rootless (as nobody), if nobody exists;
#   3. where sandboxtime's launch time goes: its options, its exec, the
#      availability probe, the steps it times itself, strace -c counts;
#   4. accuracy: sandboxtime layers --cpu=0 against bench/clone_loop on the
#      same cumulative flag sets, alternated 3 times in the same session;
#   5. the cost of measuring: sandboxtime layers --ns=all with defaults under
#      /usr/bin/time (wall, peak RSS) and its own elapsed/deferred figures;
#   6. deferred teardown: sandboxtime's figures against clone_loop --deferred
#      (own code, same method) and one RCU grace period (membarrier).
#   7. only with BENCH_RCU_EXPEDITED=1, as root: 6. again with
#      /sys/kernel/rcu_expedited=1, restored to its previous value on exit.
#
#   8. only with BENCH_COMMITS="sha sha ...": those commits are built from
#      `git archive` in the temporary directory and their launch is timed
#      beside BIN's, to say which change helped and by how much.
#   9. as root: the network steps, sandboxtime --net=veth|bridge's netlink
#      steps against the same steps done by ip(8) (bench/net_steps.sh; about
#      a minute). Section 7 of docs/bench-notes/run.md.
#
# BENCH_ONLY=net runs 9. alone (plus its own machine facts) and rewrites only
# the block of section 7 and its row of the Targets table; every other line
# of docs/bench-notes/run.md stays as the last full run wrote it. A full run that cannot
# run 9. (not root) keeps the previous block.
#
# Environment: BENCH_ROUNDS (3), BENCH_RUNS (hyperfine runs per command and
# round, 150), BENCH_WARMUP (10), BENCH_NOTES (the full report,
# docs/bench-notes/run.md), BENCH_OUT (the summary, BENCHMARKS.md at the top
# of the tree), BENCH_KEEP=1 keeps the raw results (their directory is printed),
# BENCH_COMMITS, BENCH_RCU_EXPEDITED (see above), BENCH_ONLY=net (see above),
# BENCH_NET_RUNS (50), BENCH_NET_WARMUP (3), BENCH_NET_GAP_MS (100): see
# bench/net_steps.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || bench_usage "bash bench/run.sh BIN"
BIN=$(realpath "$1")
ROOT=$BENCH_ROOT
BUILD=$(dirname "$BIN")
OUT_MD=${BENCH_NOTES:-$ROOT/docs/bench-notes/run.md}
SUMMARY_MD=${BENCH_OUT:-$ROOT/BENCHMARKS.md}
ROUNDS=${BENCH_ROUNDS:-3}
RUNS=${BENCH_RUNS:-150}
WARMUP=${BENCH_WARMUP:-10}
ONLY=${BENCH_ONLY:-}
case "$ONLY" in
"" | net) ;;
*)
	echo "bench: BENCH_ONLY=$ONLY: the only partial run is BENCH_ONLY=net" >&2
	exit 2
	;;
esac
# A fixed PATH: unshare runs "true" through execvp, which tries every entry.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

if [ -z "$ONLY" ]; then
	for tool in hyperfine bwrap unshare gcc python3 setpriv strace; do
		command -v "$tool" >/dev/null || { echo "bench: $tool is missing (make bench installs it)" >&2; exit 1; }
	done
	[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (Debian package time)" >&2; exit 1; }
fi

TMP=$(mktemp -d /tmp/sandboxtime-bench.XXXXXX)
RCU_OLD=""
cleanup() {
	if [ -n "$RCU_OLD" ]; then
		echo "$RCU_OLD" >/sys/kernel/rcu_expedited || true
		echo "bench: /sys/kernel/rcu_expedited restored to $(cat /sys/kernel/rcu_expedited)" >&2
	fi
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "bench: raw results kept in $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

chmod 755 "$TMP"
mkdir -p "$TMP/bin" "$TMP/out"

# summary: the headline tables of the report in OUT_MD into
# bench/results/run.json, then BENCHMARKS.md and docs/bench-notes/results.md
# from it.
summary() {
	echo "bench: writing $SUMMARY_MD" >&2
	python3 "$ROOT/bench/summary.py" --extract "$OUT_MD"
	python3 "$ROOT/bench/summary.py" -o "$SUMMARY_MD"
	python3 "$ROOT/bench/summary.py" --tables
}

# ---- BENCH_ONLY=net: 9. alone, then only section 7 of OUT_MD ---------------
if [ "$ONLY" = net ]; then
	[ "$(id -u)" -eq 0 ] || { echo "bench: BENCH_ONLY=net needs root" >&2; exit 1; }
	cp "$BIN" "$TMP/bin/sandboxtime"
	chmod 755 "$TMP/bin" "$TMP/bin/sandboxtime"
	echo "bench: network steps" >&2
	BENCH_NET_INVOCATION="BENCH_ONLY=net bash bench/run.sh $1" \
		bash "$ROOT/bench/net_steps.sh" "$TMP/bin/sandboxtime" "$TMP/out"
	echo "bench: rewriting the network section of $OUT_MD" >&2
	python3 "$ROOT/bench/analyze.py" --only=net "$TMP/out" "$OUT_MD"
	summary
	echo "bench: done" >&2
	exit 0
fi
echo "bench: compiling bench/clone_loop.c" >&2
gcc -O2 -Wall -Wextra -o "$BUILD/clone_loop" "$ROOT/bench/clone_loop.c"
# The same loop, linked with the shared libraries sandboxtime loads: a clone
# copies the caller's address space, so the measuring process's own size is
# part of every setup figure. This copy shows how much.
BIN_LIBS=$(ldd "$BIN" | sed -n 's/^[[:space:]]*lib\([a-z0-9_+-]*\)\.so.*/\1/p' | grep -vx 'c' | sed 's/^/-l/' | tr '\n' ' ')
# shellcheck disable=SC2086
gcc -O2 -Wall -Wextra -o "$BUILD/clone_loop_libs" "$ROOT/bench/clone_loop.c" -Wl,--no-as-needed $BIN_LIBS
# Copies that nobody can reach (the tree may sit under a private directory).
cp "$BIN" "$TMP/bin/sandboxtime"
cp "$BUILD/clone_loop" "$TMP/bin/clone_loop"
cp "$BUILD/clone_loop_libs" "$TMP/bin/clone_loop_libs"
chmod 755 "$TMP/bin" "$TMP/bin/"*
ST=$TMP/bin/sandboxtime
CL=$TMP/bin/clone_loop
O=$TMP/out
cd "$TMP"

IS_ROOT=0
[ "$(id -u)" -eq 0 ] && IS_ROOT=1
ROOTLESS_OK=0
if [ $IS_ROOT = 1 ] && id nobody >/dev/null 2>&1; then
	ROOTLESS_OK=1
	mkdir -p "$TMP/nobody"
	chown nobody "$TMP/nobody"
fi
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups --reset-env -- \
		env PATH="$PATH" LC_ALL=C "$@"
}

NS=uts,ipc,pid,mount,net
BWRAP_ROOT="bwrap --unshare-all --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 --proc /proc"

# ---- facts -----------------------------------------------------------------
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	inv="bash bench/run.sh $1"
	[ -n "${BENCH_COMMITS:-}" ] && inv="BENCH_COMMITS=\"$BENCH_COMMITS\" $inv"
	[ "${BENCH_RCU_EXPEDITED:-0}" = 1 ] && inv="BENCH_RCU_EXPEDITED=1 $inv"
	echo "invocation=$inv"
	bench_run_facts "$BIN"
	echo "hz=$( (zcat /proc/config.gz 2>/dev/null || true) | sed -n 's/^CONFIG_HZ=//p')"
	echo "hyperfine=$(hyperfine --version)"
	echo "bwrap=$(bwrap --version)"
	echo "unshare=$(unshare --version)"
	echo "crun=$(crun --version 2>/dev/null | head -1 || true)"
	echo "gcc=$(gcc --version | head -1)"
	echo "bin_libs=$BIN_LIBS"
	echo "rounds=$ROUNDS"
	echo "runs=$RUNS"
	echo "warmup=$WARMUP"
	echo "tmp=$TMP"
	echo "rootless_ok=$ROOTLESS_OK"
	echo "is_root=$IS_ROOT"
} >"$O/facts.txt"

# crun: tried once; on a v1/v2 hybrid cgroup host it refuses to start (the
# side-by-side that works around it, same config.json: bench/lab/crun_compare.sh).
if command -v crun >/dev/null; then
	mkdir -p "$TMP/crun/rootfs/bin" "$TMP/crun/rootfs/proc" "$TMP/crun/rootfs/dev" "$TMP/crun/rootfs/sys"
	for f in /bin/true $(ldd /bin/true | grep -o '/[^ ]*'); do
		mkdir -p "$TMP/crun/rootfs$(dirname "$f")"
		cp -L "$f" "$TMP/crun/rootfs$f"
	done
	(cd "$TMP/crun" && crun spec && python3 -B "$ROOT/bench/oci_args.py" config.json /bin/true)
	if crun run --bundle "$TMP/crun" "stbench-$$" >"$O/crun.txt" 2>&1; then
		echo ok >"$O/crun.status"
	else
		echo "refused" >"$O/crun.status"
	fi
else
	echo "not installed" >"$O/crun.status"
fi
CRUN_OK=0
[ "$(cat "$O/crun.status")" = ok ] && CRUN_OK=1

# ---- 1./2. launch ----------------------------------------------------------
# hyperfine runs all runs of one command, then the next: each round rotates
# the order, and the report takes the median of the round medians.
launch() { # tag runner name=cmd...
	local tag=$1 runner=$2
	shift 2
	local specs=("$@")
	local n=${#specs[@]}
	for r in $(seq 1 "$ROUNDS"); do
		local args=() order=()
		for i in $(seq 0 $((n - 1))); do
			local s=${specs[$(((i + r - 1) % n))]}
			args+=(-n "${s%%=*}" "${s#*=}")
			order+=("${s%%=*}")
		done
		local dir=$O
		[ "$runner" = nobody ] && dir=$TMP/nobody
		echo "bench: $tag round $r/$ROUNDS" >&2
		local cmd=(hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS"
			--export-json "$dir/$tag-$r.json" "${args[@]}")
		if [ "$runner" = nobody ]; then
			as_nobody "${cmd[@]}" >"$O/$tag-$r.log" 2>&1
		else
			"${cmd[@]}" >"$O/$tag-$r.log" 2>&1
		fi
		[ "$runner" = nobody ] && cp "$dir/$tag-$r.json" "$O/"
	done
	printf '%s\n' "${specs[@]}" >"$O/$tag.commands"
}

ROOT_SPECS=(
	"sandboxtime=$ST --repeat=0 --ns=$NS -- /bin/true"
	"unshare=unshare --fork --pid --mount-proc --uts --ipc --net --mount true"
	"bwrap=$BWRAP_ROOT /bin/true"
	"floor=$CL --exec $NS -- /bin/true"
)
[ $CRUN_OK = 1 ] && ROOT_SPECS+=("crun=crun run --bundle $TMP/crun stbench-$$")
if [ $IS_ROOT = 1 ]; then
	launch launch-root root "${ROOT_SPECS[@]}"
fi
if [ $ROOTLESS_OK = 1 ] || [ $IS_ROOT = 0 ]; then
	RL_SPECS=(
		"sandboxtime=$ST --repeat=0 --ns=$NS -- /bin/true"
		"unshare=unshare -Ur --fork --pid --mount-proc --uts --ipc --net --mount true"
		"bwrap=$BWRAP_ROOT /bin/true"
		"floor=$CL --exec user,$NS -- /bin/true"
	)
	if [ $IS_ROOT = 1 ]; then
		launch launch-rootless nobody "${RL_SPECS[@]}"
	else
		launch launch-rootless self "${RL_SPECS[@]}"
	fi
fi

# ---- 3. where the launch time goes -----------------------------------------
if [ $IS_ROOT = 1 ]; then
	launch parts root \
		"sandboxtime=$ST --repeat=0 --ns=$NS -- /bin/true" \
		"st --quiet=$ST --repeat=0 --quiet --ns=$NS -- /bin/true" \
		"st --no-init=$ST --repeat=0 --no-init --ns=$NS -- /bin/true" \
		"st --quiet --no-init=$ST --repeat=0 --quiet --no-init --ns=$NS -- /bin/true" \
		"unshare=unshare --fork --pid --mount-proc --uts --ipc --net --mount true" \
		"st like unshare=$ST --repeat=0 --quiet --no-init --seccomp=none --cap-add=ALL --no-new-privileges=false --ns=$NS -- /bin/true" \
		"st no seccomp=$ST --repeat=0 --quiet --seccomp=none --ns=$NS -- /bin/true" \
		"bwrap=$BWRAP_ROOT /bin/true" \
		"st no net=$ST --repeat=0 --ns=uts,ipc,pid,mount -- /bin/true" \
		"unshare no net=unshare --fork --pid --mount-proc --uts --ipc --mount true" \
		"st --version=$ST --version" \
		"/bin/true=/bin/true"
	echo "bench: in-process probe, floor and steps" >&2
	"$CL" --probe -n 300 -w 20 "$NS" >"$O/probe-net.json"
	"$CL" --probe -n 300 -w 20 none >"$O/probe-none.json"
	"$CL" --floor -n 300 -w 20 "$NS" >"$O/floor-root.json"
	for i in $(seq 1 30); do
		"$ST" --repeat=0 --ns=$NS -J -o "$O/steps-$i.json" -- /bin/true
	done
	strace -f -c -o "$O/strace-sandboxtime.txt" "$ST" --repeat=0 --ns=$NS -q -- /bin/true
	strace -f -c -o "$O/strace-unshare.txt" unshare --fork --pid --mount-proc --uts --ipc --net --mount true
	strace -f -c -o "$O/strace-floor.txt" "$CL" --exec "$NS" -- /bin/true
fi
if [ $ROOTLESS_OK = 1 ]; then
	as_nobody "$CL" --floor -n 300 -w 20 "user,$NS" >"$O/floor-rootless.json"
	as_nobody "$CL" --probe -n 300 -w 20 "user,$NS" >"$O/probe-rootless.json"
fi

# ---- 8. earlier commits: which change helped ------------------------------
if [ -n "${BENCH_COMMITS:-}" ] && [ $IS_ROOT = 1 ]; then
	VSPECS=("BIN=$ST --repeat=0 --ns=$NS -- /bin/true")
	: >"$O/versions.txt"
	for c in $BENCH_COMMITS; do
		sha=$(git -C "$ROOT" rev-parse --short "$c")
		echo "bench: building $sha" >&2
		mkdir -p "$TMP/src-$sha"
		git -C "$ROOT" archive "$sha" | tar -x -C "$TMP/src-$sha"
		make -C "$TMP/src-$sha" BUILD=build WERROR=0 -j"$(nproc)" >"$O/build-$sha.log" 2>&1
		cp "$TMP/src-$sha/build/sandboxtime" "$TMP/bin/sandboxtime-$sha"
		printf '%s\t%s\t%s\n' "$sha" "$(git -C "$ROOT" log -1 --format=%cI "$sha")" \
			"$(git -C "$ROOT" log -1 --format=%s "$sha")" >>"$O/versions.txt"
		VSPECS+=("$sha=$TMP/bin/sandboxtime-$sha --repeat=0 --ns=$NS -- /bin/true")
	done
	VSPECS+=("unshare=unshare --fork --pid --mount-proc --uts --ipc --net --mount true")
	launch versions root "${VSPECS[@]}"
fi

# ---- 4. accuracy: sandboxtime layers vs clone_loop, same session -----------
SETS="none user user,uts user,uts,ipc user,uts,ipc,pid user,uts,ipc,pid,mount"
SETS="$SETS user,uts,ipc,pid,mount,cgroup user,uts,ipc,pid,mount,cgroup,time"
SETS="$SETS user,uts,ipc,pid,mount,cgroup,time,net"
ACC_N=200
accuracy() { # tag runner
	local tag=$1 runner=$2 pre=() dir=$O
	if [ "$runner" = nobody ]; then
		pre=(as_nobody)
		dir=$TMP/nobody
	fi
	for r in $(seq 1 "$ROUNDS"); do
		echo "bench: $tag round $r/$ROUNDS" >&2
		"${pre[@]}" "$ST" layers --format=json --cpu=0 --ns=all --repeat=$ACC_N --warmup=5 \
			--deferred-repeat=0 -o "$dir/$tag-st-$r.json"
		# shellcheck disable=SC2086
		"${pre[@]}" "$CL" -c 0 -n $ACC_N -w 5 $SETS >"$O/$tag-cl-$r.json"
		# shellcheck disable=SC2086
		"${pre[@]}" "$CL"_libs -c 0 -n $ACC_N -w 5 $SETS >"$O/$tag-cllibs-$r.json"
		[ "$runner" = nobody ] && cp "$dir/$tag-st-$r.json" "$O/"
	done
	return 0
}
if [ $IS_ROOT = 1 ]; then
	accuracy acc-root root
	[ $ROOTLESS_OK = 1 ] && accuracy acc-rootless nobody
else
	accuracy acc-rootless self
fi

# ---- 5. the cost of measuring ----------------------------------------------
cost() { # tag runner
	local tag=$1 runner=$2 pre=() dir=$O
	if [ "$runner" = nobody ]; then
		pre=(as_nobody)
		dir=$TMP/nobody
	fi
	for r in $(seq 1 "$ROUNDS"); do
		echo "bench: $tag round $r/$ROUNDS" >&2
		"${pre[@]}" /usr/bin/time -f '%e %M' -o "$dir/$tag-table-$r.time" \
			"$ST" layers --ns=all 2>"$dir/$tag-table-$r.txt"
		"${pre[@]}" /usr/bin/time -f '%e %M' -o "$dir/$tag-json-$r.time" \
			"$ST" layers --ns=all --format=json -o "$dir/$tag-json-$r.json"
		if [ "$runner" = nobody ]; then
			cp "$dir/$tag-table-$r.time" "$dir/$tag-table-$r.txt" \
				"$dir/$tag-json-$r.time" "$dir/$tag-json-$r.json" "$O/"
		fi
	done
	return 0
}
if [ $IS_ROOT = 1 ]; then
	cost cost-root root
	[ $ROOTLESS_OK = 1 ] && cost cost-rootless nobody
else
	cost cost-rootless self
fi

# ---- 6. deferred teardown ---------------------------------------------------
deferred() { # tag
	local tag=$1
	echo "bench: $tag" >&2
	"$CL" --rcu -n 50 -w 3 >"$O/$tag-rcu.json"
	for f in uts pid user net "$NS" "user,$NS"; do
		"$CL" --deferred -n 10 -w 1 -s 0 "$f" >>"$O/$tag-cl-s0.json"
		"$CL" --deferred -n 10 -w 1 -s 100 "$f" >>"$O/$tag-cl-s100.json"
	done
	"$ST" layers --ns=net --repeat=10 --format=json -o "$O/$tag-st-net.json"
	"$ST" layers --ns=pid --repeat=10 --format=json -o "$O/$tag-st-pid.json"
	"$ST" layers --ns=user --repeat=10 --format=json -o "$O/$tag-st-user.json"
}
deferred deferred

# ---- 9. network steps: netlink against ip(8) -------------------------------
# Before 7.: at the machine's own rcu_expedited. A failure (10.216.0.0/16 in
# use, say) costs this section only: analyze.py then keeps the previous block.
if [ $IS_ROOT = 1 ]; then
	echo "bench: network steps" >&2
	BENCH_NET_INVOCATION=$(sed -n 's/^invocation=//p' "$O/facts.txt") \
		bash "$ROOT/bench/net_steps.sh" "$ST" "$O" ||
		echo "bench: network steps failed; section 7 keeps its previous block" >&2
fi

# ---- 7. optional: rcu_expedited=1 ------------------------------------------
if [ "${BENCH_RCU_EXPEDITED:-0}" = 1 ] && [ $IS_ROOT = 1 ] && [ -w /sys/kernel/rcu_expedited ]; then
	RCU_OLD=$(cat /sys/kernel/rcu_expedited)
	echo "rcu_old=$RCU_OLD" >>"$O/facts.txt"
	echo 1 >/sys/kernel/rcu_expedited
	deferred deferred-exp
	"$ST" layers --ns=all --repeat=10 --format=json -o "$O/deferred-exp-st-all.json"
	echo "$RCU_OLD" >/sys/kernel/rcu_expedited
	echo "rcu_restored=$(cat /sys/kernel/rcu_expedited)" >>"$O/facts.txt"
	RCU_OLD=""
fi

{
	echo "loadavg_end=$(bench_load)"
	echo "steal_end=$(bench_steal)"
} >>"$O/facts.txt"
echo "bench: writing $OUT_MD" >&2
python3 "$ROOT/bench/analyze.py" "$O" "$OUT_MD"
summary
echo "bench: done" >&2
