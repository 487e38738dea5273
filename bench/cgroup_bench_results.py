#!/usr/bin/env python3
"""OUTDIR/cgroup-bench.json (bench/results format) from bench/cgroup_bench.sh.

cgroup_bench_results.py OUTDIR [--merge RESULTS.json]

One table per mode ("bench": unpinned, runs 0, 2, ...; "bench-pinned":
pinned to CPU 0, runs 1, 3, ...): for each operation, each place's median of
the runs' medians (min-max over runs) and its ratio over the host's median
of the same runs; a flag (throttled) is shown with the figure it marks.
--merge adds the two tables to an existing results file (bench/results/
cgroup.json holds the cgroup layer's step tables too).
"""
import glob
import json
import os
import statistics
import sys

PLACES = ["host", "cgroup", "memory-limit", "cpu-quota"]


def load(out):
    runs = {}
    for p in glob.glob(os.path.join(out, "raw", "cgroup.*.json")):
        runs[int(p.rsplit(".", 2)[1])] = json.load(open(p))
    return runs


def row(d, place, op):
    return next(r for r in d["rows"] if r["place"] == place and r["op"] == op)


def fmt(x):
    return "%.0f" % x if x >= 100 else "%.1f" % x


def table(docs, meta, pinned):
    ops = [r["op"] for r in docs[0]["rows"] if r["place"] == "host"]
    rows = []
    for op in ops:
        unit = row(docs[0], "host", op)["unit"]
        cells = [op + " (" + ("µs" if unit == "us" else unit) + ")"]
        host = statistics.median(row(d, "host", op)["median"] for d in docs)
        for place in PLACES:
            meds = [row(d, place, op)["median"] for d in docs]
            if any(m is None for m in meds):
                cells.append(row(docs[0], place, op)["unavailable"] or row(docs[0], place, op)["refused"] or "–")
                continue
            med = statistics.median(meds)
            flags = sorted({row(d, place, op)["flag"] for d in docs if row(d, place, op)["flag"]})
            text = "%s (%s–%s)" % (fmt(med), fmt(min(meds)), fmt(max(meds)))
            if place != "host":
                text += ", %.2fx" % (med / host)
            if flags:
                text += "; " + flags[-1].split(":")[0] + " in a run"
            cells.append(text)
        rows.append(cells)
    c = docs[0]["config"]
    return {
        "title": "bench cgroup: " + ("pinned to CPU 0" if pinned else "unpinned"),
        "command": "bash bench/cgroup_bench.sh build/sandboxtime OUTDIR   # sandboxtime bench cgroup --repeat=%d, alternately unpinned and --cpu=0" % c["repeat"],
        "date": meta["date"], "commit": meta["commit"],
        "notes": "docs/bench-notes/25-cgroup-bench.md",
        "columns": ["op"] + PLACES,
        "align": ["---"] + ["---:"] * len(PLACES),
        "rows": rows,
        "text": ["Each cell: the median of %d runs' medians (min–max over runs; each run %d rounds after one warm-up, "
                 "the places interleaved), ratio over host's; %s; kernel %s, host memory cgroup %s, THP %s; "
                 "load %s at the start, %s at the end." % (
                     len(docs), c["repeat"], "pinned to CPU 0" if pinned else "unpinned", meta["kernel"],
                     meta.get("memcg", "?"), meta.get("thp", "?"), meta["load"], meta.get("load_end", "?"))]}


def main():
    out = sys.argv[1]
    meta = dict(l.rstrip("\n").split(": ", 1) for l in open(os.path.join(out, "raw", "meta.txt")) if ": " in l)
    runs = load(out)
    tables = {}
    for pinned in (0, 1):
        docs = [runs[k] for k in sorted(runs) if k % 2 == pinned]
        if docs:
            tables["bench-pinned" if pinned else "bench"] = table(docs, meta, pinned)
    res = {"tables": tables}
    if len(sys.argv) > 3 and sys.argv[2] == "--merge":
        res = json.load(open(sys.argv[3]))
        res["tables"].update(tables)
        dst = sys.argv[3]
    else:
        dst = os.path.join(out, "cgroup-bench.json")
    with open(dst, "w") as f:
        json.dump(res, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for t in tables.values():
        print(t["title"])
        print("| " + " | ".join(t["columns"]) + " |")
        for r in t["rows"]:
            print("| " + " | ".join(r) + " |")
        print(t["text"][0])


if __name__ == "__main__":
    main()
