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

if [ $# -ne 1 ]; then
	echo "usage: bash bench/orphans.sh BIN" >&2
	exit 2
fi
if [ "$(id -u)" != 0 ]; then
	echo "bench/orphans.sh: needs root (namespaces, bind mounts, every process readable)" >&2
	exit 2
fi
if [ -z "${ST_BENCH_PRIVATE:-}" ]; then
	ST_BENCH_PRIVATE=1 exec unshare --mount --propagation private bash "$0" "$@"
fi
BIN=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT_MD=${BENCH_OUT:-$ROOT/docs/bench-notes/10-orphans.md}
NS=${BENCH_ORPHANS_NS:-1000}
PROCS=${BENCH_ORPHANS_PROCS:-2000}
RUNS=${BENCH_ORPHANS_RUNS:-20}
ROUNDS=${BENCH_ORPHANS_ROUNDS:-3}
WARMUP=${BENCH_ORPHANS_WARMUP:-3}
export LC_ALL=C
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

cut -d' ' -f1-3 /proc/loadavg >"$TMP/load.start"
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
cut -d' ' -f1-3 /proc/loadavg >"$TMP/load.end"

python3 - "$TMP" "$NS" "$HALF" "$PROCS" "$RUNS" "$WARMUP" "$OUT_MD" "$BIN" "$ROUNDS" <<'PY'
import json, os, statistics, sys, time
tmp, ns, half, procs, runs, warmup, out_md, binary, rounds = sys.argv[1:]
ns, half, procs, runs, warmup, rounds = int(ns), int(half), int(procs), int(runs), int(warmup), int(rounds)
NAMES = ("sandboxtime", "lsns", "ip netns list")

def load(label):
    per_round = []
    for r in range(1, rounds + 1):
        h = json.load(open(f"{tmp}/{label}.hyperfine.{r}.json"))["results"]
        per_round.append({x["command"]: x for x in h})
    res = {}
    for n in NAMES:
        t = [v for pr in per_round for v in pr[n]["times"]]
        res[n] = {"median": statistics.median(t), "min": min(t), "max": max(t),
                  "stddev": statistics.stdev(t) if len(t) > 1 else 0.0,
                  "cpu": statistics.mean(pr[n]["user"] + pr[n]["system"] for pr in per_round),
                  "rounds": [pr[n]["median"] for pr in per_round]}
    scan = json.load(open(f"{tmp}/{label}.scan.json"))
    rss = lambda who: max(int(open(f"{tmp}/{label}.rss.{who}.{i}").read().split()[-1]) for i in range(1, 6))
    return {"r": res, "procs": int(open(f"{tmp}/{label}.procs").read()),
            "ns": scan["summary"]["total"], "orphans": scan["summary"]["orphans"],
            "rss_st": rss("st"), "rss_lsns": rss("lsns")}

def ms(x): return x * 1000
def cell(x): return "%.2f (%.2f..%.2f, %.2f)" % (ms(x["median"]), ms(x["min"]), ms(x["max"]), ms(x["stddev"]))
def round_ratios(d, other):
    return [a / b for a, b in zip(d["r"]["sandboxtime"]["rounds"], d["r"][other]["rounds"])]
nat, ext = load("natural"), load("extra")
lines = []
o = lines.append
o("<!-- BEGIN hand: orphans scan; written by bench/orphans.sh, bench/analyze.py keeps this block as it is -->")
o("## 10. orphans: scan time against lsns and ip netns list (%s UTC)" % time.strftime("%Y-%m-%d %H:%M", time.gmtime()))
o("")
o("Command: `sudo bash bench/orphans.sh build/sandboxtime`: %d rounds in rotated order of hyperfine -N, warm-up %d," % (rounds, warmup))
o("%d runs per command and round. Extra state, made and removed by the script in a private mount namespace:" % runs)
o("%d network namespaces (%d held only by a bind mount under a tmpfs /run/netns, made by `ip -batch` netns add;" % (ns, half))
o("%d lived in by `unshare -n sleep`) and %d processes in all. Commands: `sandboxtime orphans -J -o /dev/null`" % (ns - half, procs))
o("(every thread, fd, socket and mount namespace read; every namespace described: nsid, interfaces),")
o("`lsns -t net --json` (util-linux 2.38: processes only), `ip netns list` (names under /run/netns, and each")
o("one's nsid). Times in ms over all runs: median (min..max, stddev). Load average (1, 5, 15 min) %s at the start," % open(f"{tmp}/load.start").read().strip())
o("%s at the end on %d CPUs: on a shared host the spread is mostly other jobs'; the per-round ratios and the CPU" % (open(f"{tmp}/load.end").read().strip(), os.cpu_count()))
o("time per run are the steadier figures.")
o("")
o("| size | processes | netns (orphans) | sandboxtime | lsns | ip netns list | sandboxtime / lsns (rounds) | sandboxtime / ip |")
o("|---|---|---|---|---|---|---|---|")
for label, d in (("natural", nat), ("extra", ext)):
    rl, ri = round_ratios(d, "lsns"), round_ratios(d, "ip netns list")
    o("| %s | %d | %d (%d) | %s | %s | %s | %.2f (%s) | %.2f |" % (
        label, d["procs"], d["ns"], d["orphans"], cell(d["r"]["sandboxtime"]), cell(d["r"]["lsns"]),
        cell(d["r"]["ip netns list"]), statistics.median(rl), ", ".join("%.2f" % x for x in rl), statistics.median(ri)))
o("")
o("| size | CPU ms per run: sandboxtime / lsns | peak RSS: sandboxtime / lsns | µs per (process + netns): sandboxtime / lsns |")
o("|---|---|---|---|")
for label, d in (("natural", nat), ("extra", ext)):
    units = d["procs"] + d["ns"]
    o("| %s | %.1f / %.1f | %d / %d KiB | %.1f / %.1f |" % (label, ms(d["r"]["sandboxtime"]["cpu"]), ms(d["r"]["lsns"]["cpu"]),
      d["rss_st"], d["rss_lsns"], d["r"]["sandboxtime"]["median"] * 1e6 / units, d["r"]["lsns"]["median"] * 1e6 / units))
o("")
grow = lambda n: (ext["r"][n]["median"] - nat["r"][n]["median"]) * 1e6 / ((ext["procs"] + ext["ns"]) - (nat["procs"] + nat["ns"]))
o("Growth: one more process or namespace costs sandboxtime %.1f µs and lsns %.1f µs between the two sizes" % (grow("sandboxtime"), grow("lsns")))
o("(linear: one pass over /proc, each mount namespace's mountinfo read once, each namespace described once).")
ratios = [statistics.median(round_ratios(d, "lsns")) for d in (nat, ext)]
o("Targets: faster than lsns at both sizes (median of the round ratios below 1): **%s** (%.2f, %.2f);" % (
  "met" if all(r < 1 for r in ratios) else "missed", ratios[0], ratios[1]))
o("peak RSS under 16 MiB at %d namespaces: **%s** (%d KiB)." % (ns, "met" if ext["rss_st"] < 16384 else "missed", ext["rss_st"]))
o("")
o("<!-- END hand -->")
block = "\n".join(lines)
print(block)
for label in ("natural", "extra"):
    sys.stderr.write(open(f"{tmp}/{label}.hyperfine.txt").read())
if out_md != "-":
    text = open(out_md).read() if os.path.exists(out_md) else "# sandboxtime benchmarks\n"
    key = "<!-- BEGIN hand: orphans scan"
    ls = text.rstrip("\n").split("\n")
    b = next((i for i, l in enumerate(ls) if l.startswith(key)), None)
    e = next((i for i, l in enumerate(ls) if b is not None and i > b and l == "<!-- END hand -->"), None)
    if b is not None and e is not None:
        ls[b:e + 1] = lines
    else:
        ls += [""] + lines
    open(out_md, "w").write("\n".join(ls) + "\n")
PY
