"""Writes the fixtures of tests/fixtures/compare/ (run from the top, then
review the diff): sandboxtime/v1 and sandboxtime/netbench/v1 documents with
known samples.

base.json       two layers with 201 samples per figure from a fixed generator
same.json       base.json's samples, shuffled: the same distribution
shifted.json    base.json's samples times 1.25, and another kernel
netbench_a.json, netbench_b.json  throughput halved in b (higher is better);
                each run's latency p50 the same in both
drain_a.json, drain_b.json  the same setup; b's deferred_drain_us (an untimed
                wait, not a cost) ten times a's; a's user teardown has a 0;
                b had 2.5% hypervisor steal
paired_a.json, paired_b.json  20 rounds; the user layer's increments carry
                each round's paired difference: setup around 10 us, b's
                a's shuffled plus SHIFT (medians exactly SHIFT apart);
                teardown around 0 with negatives, b's a's shuffled
paired3_a.json, paired3_b.json  the same with 3 rounds: too few for 95%

Usage: python3 -B tests/py/compare_fixtures.py [DIR]
"""
import json
import os
import random
import sys

FACTOR = 1.25
N = 201
SHIFT = 5.0


def host(kernel, steal=None):
    h = {"kernel": kernel, "cpus": 2, "cpu_model": "fixture", "rootless": False,
         "uid": 0, "pinned_cpu": None, "rcu_expedited": 0, "cgroup": "v2",
         "virtualized": True, "clone": "clone3"}
    if steal is not None:
        h["steal"] = steal
    return h


def stats(samples):
    s = sorted(samples)
    n = len(s)
    mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    mean = sum(s) / n
    return {"min": s[0], "median": mid, "p95": s[int(0.95 * (n - 1))],
            "p95_is_max": n < 41, "max": s[-1], "mean": mean,
            "stddev": (sum((x - mean) ** 2 for x in s) / (n - 1)) ** 0.5,
            "n": n, "samples": samples}


def base_samples(seed, centre):
    rng = random.Random(seed)
    return [round(centre * (1 + rng.uniform(-0.1, 0.1)), 3) for _ in range(N)]


def layers_doc(kernel, scale, shuffle_seed=None):
    layers = []
    for i, name in enumerate(["base", "user"]):
        fig = {}
        for j, key in enumerate(["setup_us", "teardown_us"]):
            v = [round(x * scale, 6) for x in base_samples(10 * i + j, 100.0 * (i + 1))]
            if shuffle_seed is not None:
                random.Random(shuffle_seed + i + j).shuffle(v)
            fig[key] = stats(v)
        # An increment: a median without raw samples (ratio only).
        fig["increments"] = {"setup_us": {"median": 50.0 * scale, "ci_low": 40.0 * scale,
                                          "ci_high": 60.0 * scale, "significant": True,
                                          "n": N}}
        layers.append({"layer": name, "available": True, **fig})
    return {"schema": "sandboxtime/v1", "tool": {"name": "sandboxtime", "version": "0.1.0"},
            "host": host(kernel), "config": {"repeat": N, "seed": "1"}, "layers": layers}


def drain_doc(drain_scale):
    layers = []
    for i, name in enumerate(["base", "user"]):
        teardown = base_samples(200 + i, 50.0)
        if name == "user":
            teardown[0] = 0.0
        layers.append({"layer": name, "available": True,
                       "setup_us": stats(base_samples(300 + i, 100.0)),
                       "teardown_us": stats(teardown),
                       "deferred_drain_us": stats([round(x * drain_scale, 6) for x in
                                                   base_samples(400 + i, 1000.0)])})
    return {"schema": "sandboxtime/v1", "tool": {"name": "sandboxtime", "version": "0.1.0"},
            "host": host("6.1.0-fixture", None if drain_scale == 1.0 else
                         {"ms": 1520.0, "share": 0.025, "flagged": True}),
            "config": {"repeat": N, "seed": "1"}, "layers": layers}


def netbench_doc(scale):
    paths = []
    for i, name in enumerate(["host", "veth"]):
        v = [round(x * scale, 6) for x in base_samples(100 + i, 40.0 / (i + 1))]
        lat = base_samples(110 + i, 20.0)
        paths.append({"path": name, "throughput_gbps": stats(v),
                      "latency_us": {"p50": 20.0, "p99": 40.0, "mean": 22.0, "n": 1000,
                                     "min": 10.0, "max": 90.0},
                      "latency_rounds_p50_us": stats(lat)})
    return {"schema": "sandboxtime/netbench/v1",
            "tool": {"name": "sandboxtime", "version": "0.1.0"},
            "host": host("6.1.0-fixture"), "config": {}, "paths": paths}


def increment(diffs):
    """An increment as reports write it, with its rounds' differences (no interval here:
    compare makes its own)."""
    s = sorted(diffs)
    n = len(s)
    mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return {"median": mid, "ci_low": None, "ci_high": None, "significant": None, "n": n,
            "coverage": None, "ci_why": None, "samples": diffs}


def paired_doc(n, shift):
    rng = random.Random(500 + n)
    setup = [round(10.0 + rng.uniform(-2, 2), 3) for _ in range(n)]
    teardown = [round(rng.uniform(-3, 3), 3) for _ in range(n)]
    if shift is not None:
        random.Random(600 + n).shuffle(setup)
        random.Random(700 + n).shuffle(teardown)
        setup = [round(x + shift, 3) for x in setup]
    layers = [{"layer": "base", "available": True,
               "setup_us": stats(base_samples(800 + n, 100.0)[:n])},
              {"layer": "user", "available": True,
               "setup_us": stats(base_samples(900 + n, 110.0)[:n]),
               "increments": {"setup_us": increment(setup), "teardown_us": increment(teardown)}}]
    return {"schema": "sandboxtime/v1", "tool": {"name": "sandboxtime", "version": "0.1.0"},
            "host": host("6.1.0-fixture"), "config": {"repeat": n, "seed": "1"},
            "layers": layers}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/compare"
    docs = {
        "base.json": layers_doc("6.1.0-fixture", 1.0),
        "same.json": layers_doc("6.1.0-fixture", 1.0, shuffle_seed=7),
        "shifted.json": layers_doc("6.12.0-fixture", FACTOR),
        "netbench_a.json": netbench_doc(1.0),
        "netbench_b.json": netbench_doc(0.5),
        "drain_a.json": drain_doc(1.0),
        "drain_b.json": drain_doc(10.0),
        "paired_a.json": paired_doc(20, None),
        "paired_b.json": paired_doc(20, SHIFT),
        "paired3_a.json": paired_doc(3, None),
        "paired3_b.json": paired_doc(3, SHIFT),
    }
    for name, doc in docs.items():
        with open(os.path.join(out, name), "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
