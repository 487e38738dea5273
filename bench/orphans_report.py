"""bench/orphans.sh's report: the markdown block of docs/bench-notes/10-orphans.md.

usage: orphans_report.py TMP NS HALF PROCS RUNS WARMUP OUT_MD BIN ROUNDS

TMP holds what orphans.sh measured at each size (natural, extra): the
hyperfine exports per round, the scan, the process count, peak RSS, and the
load at the start and the end. The block goes to standard output and, unless
OUT_MD is "-", replaces the "BEGIN hand: orphans scan" block of OUT_MD.
"""
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
