#!/usr/bin/env bash
# bench/netbench.sh BIN OUTDIR: sandboxtime netbench side by side with iperf3
# (throughput) and sockperf ping-pong (latency), on the same kinds of paths,
# in the same run, interleaved.
#
# Root or not: everything runs inside one private user, network and mount
# namespace that this script makes (unshare -Urnm); /run is a tmpfs there, so
# `ip netns add` names live only inside it and every namespace, link and
# address dies with it. The host's network namespace is never touched.
# Inside, the peers get the shapes netbench builds for itself:
#   host             127.0.0.1 in the private namespace
#   veth             two namespaces joined by a veth pair (10.218.0.1/30, .2)
#   bridge           two namespaces, each with a veth to a bridge in a third
#                    (10.218.1.1/24, .2)
#   host-to-sandbox  a bridge in the private namespace (10.218.2.254/24), the
#                    server behind a veth on it (10.218.2.1)
#   macvlan          two namespaces, each with a bridge-mode macvlan of one
#                    parent (a veth end) in the private namespace (10.218.3.1/24, .2)
# netbench runs in the same private namespace and builds its own (nested
# user namespace), so all three tools measure from the same place.
#
# Environment: BENCH_NB_RESULTS=FILE also writes the table of BENCHMARKS.md
# there (bench/results/netbench.json), BENCH_NB_ROUNDS (5), BENCH_NB_DURATION (2 s per measurement),
# BENCH_NB_PATHS (host,veth,bridge,host-to-sandbox,macvlan), BENCH_NB_PIN:
# "both" (the default: every round measures each path unpinned, as users run
# netbench, and pinned), 0 (unpinned only) or 1 (pinned only: server and client
# on CPUs 0 and 1 for every tool, --cpu-pin and taskset). Unpinned, the
# scheduler decides whether the two ends share a CPU, and that alone moves
# loopback throughput by 20% or more; pinned hides how each tool's ends are
# woken and placed. So both, in the same rounds.
# Within a round the tool that goes first alternates (netbench, then iperf3 on
# odd rounds; iperf3 first on even ones), and so does the placement mode.
#
# Writes OUTDIR/raw/MODE/* (every tool's own output, MODE unpinned or pinned)
# and OUTDIR/netbench-peers.json and .md (bench/netbench_peers.py: medians of
# per-round ratios, spread, per mode).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROUNDS=${BENCH_NB_ROUNDS:-5}
DUR=${BENCH_NB_DURATION:-2}
PATHS=${BENCH_NB_PATHS:-host,veth,bridge,host-to-sandbox,macvlan}
PIN=${BENCH_NB_PIN:-both}
IPERF_PORT=5301
SOCKPERF_PORT=11111

usage() { bench_usage "bash bench/netbench.sh BIN OUTDIR"; }

# ---------------------------------------------------------------- outside
if [ "${1:-}" != --inside ]; then
	[ $# -eq 2 ] || usage
	bench_need_tools "netbench bench" iperf3 sockperf ip unshare nsenter taskset python3 ss
	BIN=$(realpath "$1")
	case $PIN in
	both | 0 | 1) ;;
	*) echo "netbench bench: BENCH_NB_PIN must be both, 0 or 1" >&2; exit 2 ;;
	esac
	mkdir -p "$2/raw"
	OUT=$(realpath "$2")
	HERE=$(cd "$(dirname "$0")" && pwd)
	bench_meta = invocation "${BENCH_NB_INVOCATION:-bash bench/netbench.sh $1 OUTDIR}" \
		cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" cpus "$(nproc)" \
		rounds "$ROUNDS duration=$DUR pin=$PIN" iperf3 "$(iperf3 --version | head -1)" \
		sockperf "$(sockperf --version 2>&1 | head -1)" sandboxtime "$("$BIN" --version | head -1)" >"$OUT/facts.txt"
	# The private namespaces die with this process and its children.
	unshare --user --map-root-user --net --mount --fork bash "$0" --inside "$BIN" "$OUT"
	python3 "$HERE/netbench_peers.py" "$OUT" ${BENCH_NB_RESULTS:+"$BENCH_NB_RESULTS"}
	exit 0
fi

# ---------------------------------------------------------------- inside
shift
BIN=$1
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
PIN_MODES=$PIN
PIDS=()
SERVER=

cleanup() {
	local rc=$? pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# /run of this mount namespace only: ip netns keeps its names there.
mount -t tmpfs -o mode=0755 nbbench /run
ip link set lo up

# Server and client namespaces of each path ("" = this private namespace).
declare -A SRV_NS CLI_NS ADDR
ns() { ip netns add "$1"; ip -n "$1" link set lo up; }

build_host() { SRV_NS[host]=""; CLI_NS[host]=""; ADDR[host]=127.0.0.1; }
build_veth() {
	ns vs; ns vc
	ip -n vs link add v0 type veth peer name v1 netns vc
	ip -n vs addr add 10.218.0.1/30 dev v0 && ip -n vs link set v0 up
	ip -n vc addr add 10.218.0.2/30 dev v1 && ip -n vc link set v1 up
	SRV_NS[veth]=vs; CLI_NS[veth]=vc; ADDR[veth]=10.218.0.1
}
build_bridge() {
	ns bb; ns bs; ns bc
	ip -n bb link add br0 type bridge && ip -n bb link set br0 up
	ip -n bb link add s0 type veth peer name eth0 netns bs
	ip -n bb link add c0 type veth peer name eth0 netns bc
	ip -n bb link set s0 master br0 up && ip -n bb link set c0 master br0 up
	ip -n bs addr add 10.218.1.1/24 dev eth0 && ip -n bs link set eth0 up
	ip -n bc addr add 10.218.1.2/24 dev eth0 && ip -n bc link set eth0 up
	SRV_NS[bridge]="bs"; CLI_NS[bridge]="bc"; ADDR[bridge]=10.218.1.1
}
build_host_to_sandbox() {
	ns hs
	ip link add br1 type bridge
	ip link add h0 type veth peer name eth0 netns hs
	ip link set h0 master br1 up
	ip addr add 10.218.2.254/24 dev br1 && ip link set br1 up
	ip -n hs addr add 10.218.2.1/24 dev eth0 && ip -n hs link set eth0 up
	SRV_NS[host-to-sandbox]=hs; CLI_NS[host-to-sandbox]=""; ADDR[host-to-sandbox]=10.218.2.1
}

build_macvlan() {
	ns ms; ns mc
	ip link add m0 type veth peer name m1
	ip link set m0 up && ip link set m1 up
	ip link add link m0 name eth0 netns ms type macvlan mode bridge
	ip link add link m0 name eth0 netns mc type macvlan mode bridge
	ip -n ms addr add 10.218.3.1/24 dev eth0 && ip -n ms link set eth0 up
	ip -n mc addr add 10.218.3.2/24 dev eth0 && ip -n mc link set eth0 up
	SRV_NS[macvlan]="ms"; CLI_NS[macvlan]="mc"; ADDR[macvlan]=10.218.3.1
}

# run_in NS CPU CMD...: CMD in namespace NS ("" = here), pinned to CPU unless PIN=0.
run_in() {
	local nsname=$1 cpu=$2; shift 2
	local pin=()
	[ "$PIN" = 1 ] && pin=(taskset -c "$cpu")
	if [ -n "$nsname" ]; then
		nsenter --net="/run/netns/$nsname" "${pin[@]}" "$@"
	else
		"${pin[@]}" "$@"
	fi
}

# serve NS CMD...: CMD in the background in NS, on CPU 0 unless PIN=0; its pid
# (nsenter and taskset exec it) in SERVER.
serve() {
	local nsname=$1; shift
	local pin=() enter=()
	[ "$PIN" = 1 ] && pin=(taskset -c 0)
	[ -n "$nsname" ] && enter=(nsenter --net="/run/netns/$nsname")
	"${enter[@]}" "${pin[@]}" "$@" >/dev/null 2>&1 &
	SERVER=$!
	PIDS=("$SERVER")
}

# Waits (at most 5 s) for a TCP listener on PORT in NS.
listening() {
	local nsname=$1 port=$2
	for _ in $(seq 100); do
		if run_in "$nsname" 0 ss -Hltn "sport = :$port" | grep -q .; then
			return 0
		fi
		sleep 0.05
	done
	echo "netbench bench: nothing listens on port $port" >&2
	return 1
}

run_netbench() {
	local path=$1 file=$2 pin=()
	[ "$PIN" = 1 ] && pin=(--cpu-pin)
	"$BIN" netbench --paths="$path" --duration="$DUR" --repeat=1 "${pin[@]}" -J -o "$file"
}

# iperf3: one test per server (-1), 1 s omitted like netbench's warm-up, 128 KiB writes.
# bench/placement.py samples where its two ends ran (FILE less .json, .place.json):
# iperf3 does not say, and unpinned it decides the figure (netbench_peers.py).
run_iperf3() {
	local path=$1 file=$2 client iperf
	serve "${SRV_NS[$path]}" iperf3 -s -1 -B "${ADDR[$path]}" -p $IPERF_PORT
	listening "${SRV_NS[$path]}" $IPERF_PORT
	run_in "${CLI_NS[$path]}" 1 timeout 60 iperf3 -c "${ADDR[$path]}" -p $IPERF_PORT -t "$DUR" -O 1 \
		-l 128K -J >"$file" &
	client=$! # timeout (nsenter and taskset exec it); iperf3 is its child
	PIDS+=("$client")
	for _ in $(seq 100); do
		iperf=$(cat "/proc/$client/task/$client/children" 2>/dev/null) && [ -n "$iperf" ] && break
		sleep 0.01
	done
	python3 "$HERE/placement.py" "${file%.json}.place.json" "$SERVER" "${iperf:-0}"
	wait "$client"
	wait "$SERVER"
	PIDS=()
}

# sockperf ping-pong over TCP: the smallest message it sends (14 bytes), round-trip times.
run_sockperf() {
	local path=$1 file=$2
	serve "${SRV_NS[$path]}" sockperf server --tcp -i "${ADDR[$path]}" -p $SOCKPERF_PORT
	listening "${SRV_NS[$path]}" $SOCKPERF_PORT
	run_in "${CLI_NS[$path]}" 1 timeout 60 sockperf ping-pong --tcp -i "${ADDR[$path]}" -p $SOCKPERF_PORT \
		-t "$DUR" -m 14 --full-rtt >"$file" 2>&1
	kill "$SERVER"
	wait "$SERVER" 2>/dev/null || true
	PIDS=()
}

IFS=, read -r -a paths <<<"$PATHS"
for p in "${paths[@]}"; do
	case $p in
	host) build_host ;;
	veth) build_veth ;;
	bridge) build_bridge ;;
	host-to-sandbox) build_host_to_sandbox ;;
	macvlan) build_macvlan ;;
	*) echo "netbench bench: unknown path '$p'" >&2; exit 2 ;;
	esac
done

case $PIN_MODES in
both) modes=(unpinned pinned) ;;
0) modes=(unpinned) ;;
1) modes=(pinned) ;;
esac
for m in "${modes[@]}"; do mkdir -p "$OUT/raw/$m"; done

# One path in one placement mode: the three tools, the first one alternating by round.
measure() {
	local p=$1 m=$2 r=$3 dir=$OUT/raw/$2
	PIN=0
	[ "$m" = pinned ] && PIN=1
	echo "round $r/$ROUNDS: $p $m" >&2
	if ((r % 2)); then
		run_netbench "$p" "$dir/netbench-$p-$r.json"
		run_iperf3 "$p" "$dir/iperf3-$p-$r.json"
	else
		run_iperf3 "$p" "$dir/iperf3-$p-$r.json"
		run_netbench "$p" "$dir/netbench-$p-$r.json"
	fi
	run_sockperf "$p" "$dir/sockperf-$p-$r.txt"
}

# Rounds interleave paths, modes and tools, each round starting one path later
# and, with both modes, alternating which mode goes first.
n=${#paths[@]}
for ((r = 1; r <= ROUNDS; r++)); do
	for ((k = 0; k < n; k++)); do
		p=${paths[$(((k + r) % n))]}
		if ((${#modes[@]} == 2 && r % 2 == 0)); then
			order=("${modes[1]}" "${modes[0]}")
		else
			order=("${modes[@]}")
		fi
		for m in "${order[@]}"; do
			measure "$p" "$m" "$r"
		done
	done
done
