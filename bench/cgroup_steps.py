#!/usr/bin/env python3
"""The cgroup layer's steps in real runs (issue 13.2), as root.

usage: cgroup_steps.py BIN [ROUNDS] [--gap-ms MS] [--results OUT.json]

Each round runs, in a random order, `BIN --repeat=0 -J --ns=pid,mount -- true`
three ways: without the layer, with --cgroup, and with --cgroup and a config
whose linux.resources sets memory, pids and cpu limits. It prints the median
and the 10th-90th percentile spread of each cgroup step, of clone (born in
the unified cgroup with CLONE_INTO_CGROUP, or not), and of the whole run's
wall time as seen from here. The runs are real ones: what they report is
what a user pays. --gap-ms sleeps that long before each recorded run, as
between the launches of a person (the runs otherwise follow each other
within milliseconds, which hides work the kernel does only after an idle
spell, such as the RCU grace period of cgroup v1's migration lock).
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

CONFIG = {"ociVersion": "1.0.2", "root": {"path": "/"},
          "linux": {"namespaces": [{"type": "pid"}, {"type": "mount"}],
                    "resources": {"memory": {"limit": 67108864}, "pids": {"limit": 100},
                                  "cpu": {"shares": 512, "quota": 50000, "period": 100000}}}}
STEPS = ["clone", "cgroup_mkdir", "cgroup_limits", "cgroup_attach", "cgroup_rmdir"]


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))]


def one(binary, args, tmp):
    out = os.path.join(tmp, "r.json")
    t0 = time.monotonic_ns()
    subprocess.run([binary, "--repeat=0", "-J", "-o", out] + args + ["--", "true"], check=True)
    wall = (time.monotonic_ns() - t0) / 1000.0
    with open(out, encoding="utf-8") as f:
        steps = {s["step"]: s["us"] for s in json.load(f)["steps"]}
    steps["wall"] = wall
    return steps


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 30
    out_json = sys.argv[sys.argv.index("--results") + 1] if "--results" in sys.argv else None
    gap = int(sys.argv[sys.argv.index("--gap-ms") + 1]) / 1000.0 if "--gap-ms" in sys.argv else 0
    tmp = tempfile.mkdtemp()
    cfg = os.path.join(tmp, "config.json")
    with open(cfg, "w", encoding="utf-8") as f:
        json.dump(CONFIG, f)
    modes = {"none": ["--ns=pid,mount"], "cgroup": ["--ns=pid,mount", "--cgroup"],
             "cgroup+limits": ["--config=" + cfg, "--cgroup"]}
    got = {m: [] for m in modes}
    for _ in range(3):
        for m, a in modes.items():
            one(binary, a, tmp)
    for _ in range(rounds):
        order = list(modes)
        random.shuffle(order)
        for m in order:
            time.sleep(gap)
            got[m].append(one(binary, modes[m], tmp))
    rows = []
    for m in modes:
        for s in STEPS + ["wall"]:
            v = [r[s] for r in got[m] if s in r]
            if not v:
                continue
            rows.append([m, s, "%.1f" % statistics.median(v), "%.1f-%.1f" % (pct(v, 0.1), pct(v, 0.9)), str(len(v))])
    print("%-14s %-14s %10s %18s %4s" % ("run", "step", "median_us", "p10-p90_us", "n"))
    for r in rows:
        print("%-14s %-14s %10s %18s %4s" % tuple(r))
    if out_json:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
        with open("/proc/loadavg", encoding="utf-8") as f:
            load = " ".join(f.read().split()[:3])
        table = {
            "title": "The cgroup layer's steps in real runs (issue 13.2)",
            "command": "python3 bench/cgroup_steps.py build/sandboxtime %d%s --results %s" % (
                rounds, " --gap-ms %d" % int(gap * 1000) if gap else "", out_json),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "commit": commit,
            "notes": "docs/bench-notes/18-cgroup.md",
            "columns": ["run", "step", "median (us)", "p10-p90 (us)", "n"],
            "align": ["---", "---", "---:", "---:", "---:"],
            "rows": rows,
            "text": ["Machine: kernel %s, load %s at the end; %d interleaved rounds after 3 unrecorded."
                     % (os.uname().release, load, rounds)],
        }
        with open(out_json, "w", encoding="utf-8") as f:
            json.dump({"tables": {"steps": table}}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
