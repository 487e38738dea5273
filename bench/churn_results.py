#!/usr/bin/env python3
"""bench/churn.sh's results in the format of bench/results/ (see summary.py).

usage: churn_results.py RAWDIR OUT.json

RAWDIR holds net.R.json, net1.R.json and nonet.R.json (sandboxtime bench churn -J), their
.wall_ms (the command's wall time from outside) and meta.txt. Two tables:
the figures per configuration (median over rounds, min-max), and the claims
of SOCK and of the articles (/work/shared/SEEDS.md) beside what we saw.
"""
import glob
import json
import os
import statistics
import sys

from common import read_meta, spread, write_results


def load(raw, name):
    """NAME's runs, each with the wall time taken from outside."""
    runs = []
    for p in sorted(glob.glob(os.path.join(raw, name + ".*.json"))):
        with open(p) as f:
            d = json.load(f)
        with open(p[:-5] + ".wall_ms") as f:
            d["wall_ms"] = int(f.read())
        runs.append(d)
    assert runs, "no %s results in %s" % (name, raw)
    return runs


def rows_of(runs, parallel):
    return [r for d in runs for r in d["rows"] if r["parallel"] == parallel]


def figures(label, runs, parallel, wall=True):
    rs = rows_of(runs, parallel)
    assert all(r["created"] == r["freed"] == r["config_count"] for r in rs), label
    return [
        label, str(parallel),
        spread([d["wall_ms"] / 1000 for d in runs]) if wall else "\u2013",
        spread([r["rate_per_s"] for r in rs], "%.0f"),
        spread([r["create_us"]["p50"] for r in rs]),
        spread([r["create_us"]["p99"] for r in rs]),
        spread([r["create_us"]["p999"] for r in rs]),
        spread([r["create_us"]["max"] for r in rs], "%.0f"),
        spread([r["backlog_max"] for r in rs], "%.0f"),
        spread([r["backlog_growth_per_s"] for r in rs], "%.0f"),
        spread([r["drain_ms"] for r in rs]),
        spread([r["bare"]["rate_per_s"] for r in rs], "%.0f"),
        spread([r["overhead_pct"] for r in rs]),
    ]


def main():
    raw, out = sys.argv[1], sys.argv[2]
    meta = read_meta(os.path.join(raw, "meta.txt"))
    net, net1, nonet = load(raw, "net"), load(raw, "net1"), load(raw, "nonet")
    veth, bridge = load(raw, "veth"), load(raw, "bridge")
    for d in net + net1 + nonet + veth + bridge:
        for r in d["rows"]:
            r["config_count"] = d["config"]["count"]
    ns_net = ",".join(net[0]["config"]["ns"])
    ns_nonet = ",".join(nonet[0]["config"]["ns"])
    cols = ["ns", "creators", "command wall s", "sandboxes/s", "clone3 p50 \u00b5s", "p99 \u00b5s",
            "p99.9 \u00b5s", "max \u00b5s", "backlog max", "backlog growth /s", "drain ms",
            "bare loop /s", "overhead %"]
    rows = [figures(ns_net, net, 2), figures(ns_net, net1, 1), figures(ns_nonet, nonet, 1, False),
            figures(ns_nonet, nonet, 2, False), figures(ns_net + " --net=veth", veth, 2),
            figures(ns_net + " --net=bridge", bridge, 2)]
    walls = [d["wall_ms"] / 1000 for d in net]
    over = [r["overhead_pct"] for r in rows_of(net, 2)]
    p50 = lambda runs, p: statistics.median(r["create_us"]["p50"] for r in rows_of(runs, p))
    rate = lambda runs, p: statistics.median(r["rate_per_s"] for r in rows_of(runs, p))
    drain = statistics.median(r["drain_ms"] for r in rows_of(net, 2))
    bmax = statistics.median(r["backlog_max"] for r in rows_of(net, 2))
    growth = statistics.median(r["backlog_growth_per_s"] for r in rows_of(net, 2))
    text = [
        "Medians of %d rounds (min\u2013max over rounds); 1000 sandboxes per row, every one with a user "
        "namespace (how the backlog is counted); uid %s, kernel %s, load %s at the start, %s after."
        % (len(net), meta["uid"], meta["kernel"], meta["load"], meta["load_end"]),
        "Targets: `bench churn --count=1000 --parallel=2 --ns=net` reports within 60 s on 2 cores: "
        "%.1f s (max %.1f s); its overhead per sandbox over the bare clone loops of the same run under "
        "10%%: %.1f%% (min %.1f%%, max %.1f%%)." % (statistics.median(walls), max(walls), statistics.median(over),
                                                     min(over), max(over)),
    ]
    claims = [
        ["SOCK (USENIX ATC 2018): network and mount namespace creation are the scalability bottlenecks "
         "of container start-up under concurrency",
         "clone3 p50 with net: %.0f \u00b5s at 1 creator, %.0f \u00b5s at 2 (%.0f/s and %.0f/s); without net "
         "(uts,ipc,pid,mount): %.0f \u00b5s at 1, %.0f \u00b5s at 2 (%.0f/s and %.0f/s)"
         % (p50(net1, 1), p50(net, 2), rate(net1, 1), rate(net, 2), p50(nonet, 1), p50(nonet, 2), rate(nonet, 1),
            rate(nonet, 2))],
        ["Articles (SEEDS.md section 1): net alone adds ~540 \u00b5s to create + reap, six times uts, ipc, "
         "pid and mount together",
         "one creator, clone3 p50 (creation only, every sandbox with a user namespace): user,net %.0f \u00b5s, "
         "user,uts,ipc,pid,mount %.0f \u00b5s: not net alone, but net is %.1fx the other four"
         % (p50(net1, 1), p50(nonet, 1), p50(net1, 1) / p50(nonet, 1))],
        ["Articles: a network namespace's teardown is dearer than its creation; deleting in bulk is "
         "slower than creating",
         "at 2 creators the backlog (reaped, not freed) peaked at %.0f sandboxes and grew at %.0f/s while "
         "creating; the kernel had freed the last %.1f ms after the last reap" % (bmax, growth, drain)],
    ]
    doc = {"tables": {
        "churn": {
            "title": "bench churn: sandboxes made and destroyed per second, and the kernel's backlog",
            "command": ["bash bench/churn.sh build/sandboxtime OUTDIR   # %d rounds of: sandboxtime bench churn "
                        "--count=1000 --parallel=2 --ns=net; the same with --parallel=1; sandboxtime bench churn --count=1000 "
                        "--parallel=1,2 --ns=uts,ipc,pid,mount; --count=1000 --parallel=2 --ns=net --net=veth, "
                        "and --net=bridge" % len(net)],
            "date": meta["date"], "commit": meta["commit"], "notes": "docs/bench-notes/19-scale.md",
            "columns": cols, "align": ["---"] + ["---:"] * (len(cols) - 1), "rows": rows, "text": text,
        },
        "claims": {
            "title": "SOCK's and the articles' claims beside bench churn",
            "command": ["bash bench/churn.sh build/sandboxtime OUTDIR"],
            "date": meta["date"], "commit": meta["commit"], "notes": "docs/bench-notes/19-scale.md",
            "columns": ["claim", "bench churn on this machine"], "rows": claims,
        },
    }}
    write_results(out, doc)
    print(json.dumps(doc, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
