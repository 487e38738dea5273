#!/usr/bin/env python3
# bench/launch_rounds.py OUTDIR ROUNDS RUNS NAME=CMD...: docs/bench-notes/12-launch-cuts.md. One hyperfine
# call per round (-N, warmup 5), the commands in an order rotated each round, so that old and new
# binaries share the machine's load; prints median of round medians, p5, min, p95. Ratios and CPU:
# python3 bench/lab/launch_ratios.py OUTDIR A/B ...
import json, os, subprocess, sys, statistics as s
out, rounds, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
specs = [a.split("=", 1) for a in sys.argv[4:]]
os.makedirs(out, exist_ok=True)
for r in range(rounds):
    order = specs[r % len(specs):] + specs[:r % len(specs)]
    args = ["hyperfine", "-N", "--style", "none", "--warmup", "5", "--runs", str(runs),
            "--export-json", f"{out}/r{r}.json"]
    for n, c in order:
        args += ["-n", n, c]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
res = {n: {"rounds": [], "all": []} for n, _ in specs}
for r in range(rounds):
    for x in json.load(open(f"{out}/r{r}.json"))["results"]:
        res[x["command"]]["rounds"].append(s.median(x["times"]) * 1e3)
        res[x["command"]]["all"].extend(t * 1e3 for t in x["times"])
json.dump(res, open(f"{out}/summary.json", "w"))
def p(v, q): v = sorted(v); return v[min(len(v) - 1, int(q * len(v)))]
for n, _ in specs:
    d = res[n]; m = s.median(d["rounds"])
    print(f"{n:22s} median {m:6.3f}  rounds [{min(d['rounds']):.2f}..{max(d['rounds']):.2f}]  min {min(d['all']):.2f}  p5 {p(d['all'],.05):.2f}  p95 {p(d['all'],.95):.2f}")
