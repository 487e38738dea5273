#!/usr/bin/env python3
"""OUTDIR/NAME.json (bench/results format) from bench/grid_bench.sh.

grid_bench_results.py OUTDIR NAME [--merge RESULTS.json]

One table per mode (bench-NAME: unpinned, runs 0, 2, ...; bench-NAME-pinned:
pinned to CPU 0, runs 1, 3, ...), a row per place and a column per operation: each
cell the median of the runs' medians (min-max over runs) and its ratio over
the first place's median of the same runs; a flag (bench cgroup's
"throttled") is named with the figure it marks, an unavailable place or a
refused figure with its reason. --merge adds the tables to an existing
results file instead of writing OUTDIR/NAME.json.
"""
import json
import os
import statistics
import sys

from common import load_rounds, read_meta, write_results

UNITS = {"us": "\u00b5s", "ns": "ns"}


def fmt(x):
    return "%.0f" % x if x >= 100 else "%.2f" % x if x < 10 else "%.1f" % x


def cell(docs, place, op, first):
    rows = [next(r for r in d["rows"] if r["place"] == place and r["op"] == op) for d in docs]
    meds = [r["median"] for r in rows]
    if any(m is None for m in meds):
        why = rows[0]["unavailable"] or rows[0]["refused"] or "not measured"
        return "\u2013 (%s)" % why.replace("|", "/")
    med = statistics.median(meds)
    text = "%s (%s\u2013%s)" % (fmt(med), fmt(min(meds)), fmt(max(meds)))
    if first is not None and place != docs[0]["rows"][0]["place"]:
        text += ", %.2fx" % (med / first)
    flags = sorted({r["flag"].split(":")[0] for r in rows if r["flag"]})
    if flags:
        text += "; " + flags[-1] + " in a run"
    return text


def table(docs, meta, name, pinned, nruns):
    places = list(dict.fromkeys(r["place"] for r in docs[0]["rows"]))
    ops = list(dict.fromkeys(r["op"] for r in docs[0]["rows"]))
    unit = {r["op"]: r.get("unit", docs[0]["config"]["unit"]) for r in docs[0]["rows"]}
    rows = []
    for place in places:
        cells = [place]
        for op in ops:
            first = [next(r for r in d["rows"] if r["place"] == places[0] and r["op"] == op)["median"] for d in docs]
            cells.append(cell(docs, place, op, statistics.median(first) if None not in first else None))
        rows.append(cells)
    c = docs[0]["config"]
    mode = "pinned to CPU 0" if pinned else "unpinned"
    args = meta.get("args", "").strip()
    return {
        "title": "bench %s: %s" % (name, mode),
        "command": "BENCH_GRID_ROUNDS=%d BENCH_GRID_REPEAT=%d bash bench/grid_bench.sh build/sandboxtime %s OUTDIR%s"
                   "   # sandboxtime bench %s, alternately unpinned and --cpu=0"
                   % (nruns, c["repeat"], name, " " + args if args else "", name),
        "date": meta["date"], "commit": meta["commit"],
        "notes": NOTES.get(name, "docs/bench-notes/README.md"),
        "columns": ["place"] + ["%s (%s)" % (op, UNITS.get(unit[op], unit[op])) for op in ops],
        "align": ["---"] + ["---:"] * len(ops),
        "rows": rows,
        "text": ["Each cell: the median of %d runs' medians (min\u2013max over runs; each run %d rounds after one "
                 "warm-up round, the places interleaved) and its ratio over %s's; %s; uid %s, kernel %s; load %s "
                 "at the start, %s at the end." % (len(docs), c["repeat"], places[0], mode, meta.get("uid", "?"),
                                                    meta["kernel"], meta["load"], meta.get("load_end", "?"))]
        + ["The first run's summary, as sandboxtime printed it (one run, not the medians above): "
           + d for d in docs[0]["notes"][:1]],
    }


NOTES = {
    "cgroup": "docs/bench-notes/25-grids.md",
    "launch": "docs/bench-notes/25-grids.md",
    "mounts": "docs/bench-notes/25-grids.md",
}


def main():
    out, name = sys.argv[1], sys.argv[2]
    meta = read_meta(os.path.join(out, "raw", "meta.txt"))
    runs = load_rounds(os.path.join(out, "raw"), name)
    tables = {}
    for pinned in (0, 1):
        docs = [runs[k] for k in sorted(runs) if k % 2 == pinned]
        if docs:
            tables["bench-" + name + ("-pinned" if pinned else "")] = table(docs, meta, name, pinned, len(runs))
    if len(sys.argv) > 4 and sys.argv[3] == "--merge":
        dst = sys.argv[4]
        res = json.load(open(dst)) if os.path.exists(dst) else {"tables": {}}
        res["tables"].update(tables)
    else:
        dst = os.path.join(out, name + ".json")
        res = {"tables": tables}
    write_results(dst, res)
    for t in tables.values():
        print(t["title"])
        print("| " + " | ".join(t["columns"]) + " |")
        for r in t["rows"]:
            print("| " + " | ".join(r) + " |")
        print("\n".join(t["text"]))


if __name__ == "__main__":
    main()
