#!/usr/bin/env python3
"""bench/compare_gen.py DIR [SAMPLES [SETS]]: two sandboxtime/v1 documents
shaped like `sandboxtime layers` reports (SETS sets, default 9, of 6 sampled
figures and 3 increments each) with SAMPLES raw samples per figure (default
10,000): DIR/a.json and DIR/b.json, b 5% slower. For bench/compare.sh.
"""
import json
import os
import random
import sys

LAYERS = ["base", "user", "uts", "ipc", "pid", "mount", "cgroup", "time", "net"]
FIGURES = ["setup_us", "setup_cpu_us", "ready_us", "teardown_us", "teardown_cpu_us",
           "child_cpu_us"]


def stats(v):
    s = sorted(v)
    n = len(s)
    mean = sum(s) / n
    return {"min": s[0], "median": s[n // 2], "p95": s[int(0.95 * (n - 1))],
            "p95_is_max": False, "max": s[-1], "mean": mean, "stddev": 0.0, "n": n,
            "samples": v}


def doc(seed, scale, n, sets):
    rng = random.Random(seed)
    layers = []
    for i, name in enumerate(LAYERS[:sets]):
        row = {"layer": name, "available": True}
        for j, fig in enumerate(FIGURES):
            centre = 100.0 * (i + 1) + 10 * j
            row[fig] = stats([round(scale * centre * rng.lognormvariate(0, 0.2), 3)
                              for _ in range(n)])
        row["increments"] = {f: {"median": 50.0 * scale, "ci_low": 40.0, "ci_high": 60.0,
                                 "significant": True, "n": n}
                             for f in ("setup_us", "ready_us", "teardown_us")}
        layers.append(row)
    host = {"kernel": "6.1.0-bench", "cpus": 2, "cpu_model": "bench", "rootless": False,
            "uid": 0, "pinned_cpu": None, "rcu_expedited": 0, "cgroup": "v2",
            "virtualized": True, "clone": "clone3"}
    return {"schema": "sandboxtime/v1", "tool": {"name": "sandboxtime", "version": "0.1.0"},
            "host": host, "config": {"repeat": n}, "layers": layers}


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    sets = int(sys.argv[3]) if len(sys.argv) > 3 else len(LAYERS)
    os.makedirs(out, exist_ok=True)
    for name, seed, scale in (("a.json", 1, 1.0), ("b.json", 2, 1.05)):
        with open(os.path.join(out, name), "w") as f:
            json.dump(doc(seed, scale, n, sets), f, indent=2)


if __name__ == "__main__":
    main()
