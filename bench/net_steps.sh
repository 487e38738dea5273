#!/usr/bin/env bash
# bench/net_steps.sh BIN OUTDIR: sandboxtime's netlink steps against ip(8).
#
# As root. Creates one network namespace, stb-$$, and the links stbv$$ (a veth
# whose peer, eth0, lives in stb-$$) and stbb$$ (a bridge), over and over;
# deletes them at the end and on any exit (trap). Uses 10.216.0.0/16 only
# after checking that no route or address of this host is in it. No traffic.
# Touches no other interface: sandboxtime's own links (stv<pid>, stbr<pid>)
# are deleted by sandboxtime; bench/net_steps.py checks they are gone.
#
# Environment: BENCH_NET_RUNS (50 iterations; each runs sandboxtime once per
# mode and the ip sequence once per mode), BENCH_NET_WARMUP (3 iterations,
# not kept), BENCH_NET_GAP_MS (100: idle before every item, see net_steps.py).
#
# Writes OUTDIR/net-facts.txt, OUTDIR/net-steps.json; bench/analyze.py turns
# them into the section "Network steps" of docs/bench-notes/run.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || bench_usage "bash bench/net_steps.sh BIN OUTDIR"
BIN=$(realpath "$1")
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${BENCH_NET_RUNS:-50}
WARMUP=${BENCH_NET_WARMUP:-3}
GAP_MS=${BENCH_NET_GAP_MS:-100}

bench_need_root net_steps "links in the host's namespace"
bench_need_tools net_steps ip python3 strace

NS=stb-$$
V=stbv$$
B=stbb$$

# Nothing of ours may exist already, and 10.216.0.0/16 must be free.
if ip netns list | grep -qw "$NS"; then
	echo "net_steps: network namespace $NS exists already" >&2
	exit 1
fi
for name in "$V" "$B"; do
	if ip link show dev "$name" >/dev/null 2>&1; then
		echo "net_steps: interface $name exists already" >&2
		exit 1
	fi
done
if ip -4 route show table all | grep -E '(^|[[:space:]])10\.216\.' >&2 ||
	ip -4 -o addr show | grep -E 'inet 10\.216\.' >&2; then
	echo "net_steps: 10.216.0.0/16 is in use on this host (above); not running" >&2
	exit 1
fi

NS_MADE=0
cleanup() {
	local rc=$?
	for name in "$V" "$B"; do
		if ip link show dev "$name" >/dev/null 2>&1; then
			ip link del "$name" || true
		fi
	done
	if [ $NS_MADE = 1 ]; then
		ip netns del "$NS" || true
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$OUT"
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "invocation=${BENCH_NET_INVOCATION:-bash bench/net_steps.sh $1 OUTDIR}"
	bench_run_facts "$BIN"
	echo "git_branch=$(git -C "$BENCH_ROOT" rev-parse --abbrev-ref HEAD 2>/dev/null || echo none)"
	echo "iproute2=$(ip -V)"
	echo "libmnl=$(dpkg-query -W -f '${Version}' libmnl0 2>/dev/null || echo unknown)"
	echo "python=$(python3 --version)"
	echo "strace=$(strace -V | head -1)"
	echo "runs=$RUNS"
	echo "warmup=$WARMUP"
	echo "gap_ms=$GAP_MS"
	echo "netns=$NS"
	echo "veth=$V"
	echo "bridge=$B"
} >"$OUT/net-facts.txt"

ip netns add "$NS"
NS_MADE=1
echo "net_steps: namespace $NS, links $V and $B; $WARMUP+$RUNS iterations" >&2
python3 "$HERE/net_steps.py" --bin "$BIN" --out "$OUT" --netns "$NS" --veth "$V" --bridge "$B" \
	--runs "$RUNS" --warmup "$WARMUP" --gap-ms "$GAP_MS"
{
	echo "loadavg_end=$(bench_load)"
	echo "steal_end=$(bench_steal)"
} >>"$OUT/net-facts.txt"
left=$(ip -br link | awk '{print $1}' | grep -E "^(stv|stbr)[0-9]+$" || true)
echo "leftover_links=${left//$'\n'/ }" >>"$OUT/net-facts.txt"
