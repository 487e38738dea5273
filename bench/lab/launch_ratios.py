#!/usr/bin/env python3
# bench/lab/launch_ratios.py OUTDIR A/B ...: per-round ratios of medians, p5/p5, min/min, and CPU
# (user+sys) per command, from the rounds bench/launch_rounds.py wrote.
import json, sys, glob, statistics as s
d = sys.argv[1]; pairs = [p.split("/") for p in sys.argv[2:]]
rs = [json.load(open(f)) for f in sorted(glob.glob(f"{d}/r*.json"))]
med = lambda v: s.median(v)
def p(v, q): v = sorted(v); return v[min(len(v)-1, int(q*len(v)))]
cpu = {}
for r in rs:
    for x in r["results"]:
        cpu.setdefault(x["command"], []).append((x["user"] + x["system"]) * 1e3)
print("CPU ms (user+sys, median of round means):", {k: round(med(v), 2) for k, v in cpu.items()})
for a, b in pairs:
    per = []
    pa, pb = [], []
    for r in rs:
        m = {x["command"]: x["times"] for x in r["results"]}
        per.append(med(m[a]) / med(m[b])); pa += m[a]; pb += m[b]
    print(f"{a} / {b}: median of per-round ratios {med(per):.2f} [{min(per):.2f}..{max(per):.2f}]; p5/p5 {p(pa,.05)/p(pb,.05):.2f}; min/min {min(pa)/min(pb):.2f}")
