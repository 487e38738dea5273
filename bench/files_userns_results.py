#!/usr/bin/env python3
"""OUTDIR/files_userns.json (bench/results format) from bench/files_userns.sh's raw runs.

files_userns_results.py OUTDIR
"""
import json
import os
import statistics
import sys

from common import load_runs, read_meta, write_results

# /work/shared/SEEDS.md section 4 (Linux rows; the macOS bind mount in brackets)
ARTICLES_FILES = {
    "create": "–",
    "write_512": "–",
    "stat": "bind = volume [macOS bind 87x]",
    "fsync": "~600 µs in 3 of 4 setups [macOS bind 5x less]",
    "unlink": "–",
    "unpack_tree": "bind +16%, noise (4,401 files) [macOS 13.3x]",
}


def cell_stats(docs, place, op):
    """Median of the runs' medians, with their min-max; None where a run has no figure."""
    meds, flags = [], set()
    for d in docs:
        for r in d["rows"]:
            if r["place"] == place and r["op"] == op:
                if r["median"] is None:
                    return None, r["unavailable"] or r["refused"]
                meds.append(r["median"])
                if r["flag"]:
                    flags.add(r["flag"].split(" (")[0])
    return (statistics.median(meds), min(meds), max(meds)), "; ".join(sorted(flags))


def fmt(s, prec):
    if s is None:
        return "–"
    return "%.*f (%.*f–%.*f)" % (prec, s[0], prec, s[1], prec, s[2])


def files_table(docs, meta):
    places = ["tmpfs", "disk", "bind", "overlay"]
    rows = []
    for op in [r["op"] for r in docs[0]["rows"] if r["place"] == "tmpfs"]:
        st = {p: cell_stats(docs, p, op) for p in places}
        ratio = "–"
        if st["bind"][0] and st["disk"][0]:
            ratio = "%.2f" % (st["bind"][0][0] / st["disk"][0][0])
        ovl = "–"
        if st["overlay"][0] and st["tmpfs"][0]:
            ovl = "%.2f" % (st["overlay"][0][0] / st["tmpfs"][0][0])
        flags = "; ".join(sorted({p + ": " + st[p][1] for p in places if st[p][1]}))
        rows.append([op] + [fmt(st[p][0], 2) for p in places] + [ratio, ovl, ARTICLES_FILES[op], flags or "–"])
    c = docs[0]["config"]
    return {
        "title": "bench files: µs per operation on tmpfs, disk, a bind mount and overlayfs, beside the articles",
        "command": ["bash bench/files_userns.sh build/sandboxtime OUTDIR   # %d runs of `sandboxtime bench files` (defaults), alternating with bench userns" % len(docs)],
        "date": meta["date"], "commit": meta["commit"],
        "notes": "docs/bench-notes/20-files-userns-where.md",
        "columns": ["op", "tmpfs µs", "disk µs", "bind µs", "overlay µs", "bind / disk",
                    "overlay / tmpfs", "articles (Linux)", "flags"],
        "align": ["---"] + ["---:"] * 6 + ["---", "---"],
        "rows": rows,
        "text": ["Medians of %d run medians (min–max over runs; each run %d rounds of %d files, tree %d files); kernel %s, disk %s, load %s at the start, %s at the end." % (
            len(docs), c["repeat"], c["files"], c["tree_files"], meta["kernel"], meta["disk"], meta["load"], meta.get("load_end", "?"))],
    }


def userns_table(docs, meta):
    places = [r["place"] for r in docs[0]["rows"] if r["op"] == "stat_mapped"]
    rows = []
    for op in [r["op"] for r in docs[0]["rows"] if r["place"] == "host"]:
        st = {p: cell_stats(docs, p, op)[0] for p in places}
        growth = "–"
        if st.get("depth1") and st.get("depth32"):
            growth = "%+.2f" % ((st["depth32"][0] - st["depth1"][0]) / 31)
        rows.append([op] + ["%.0f" % st[p][0] if st[p] else "–" for p in places] + [growth])
    return {
        "title": "bench userns: ns per call on the host and in nested user namespaces (the articles did not measure it)",
        "command": ["bash bench/files_userns.sh build/sandboxtime OUTDIR   # %d runs of `sandboxtime bench userns` (defaults)" % len(docs)],
        "date": meta["date"], "commit": meta["commit"],
        "notes": "docs/bench-notes/20-files-userns-where.md",
        "columns": ["call"] + [p + " ns" for p in places] + ["ns per level (1→32)"],
        "align": ["---"] + ["---:"] * (len(places) + 1),
        "rows": rows,
        "text": ["Medians of %d run medians, each of %d rounds of %d calls; the articles name this cost as unmeasured (SEEDS.md section 1)." % (
            len(docs), docs[0]["config"]["repeat"], docs[0]["config"]["calls"])],
    }


def all_table(out, meta):
    secs = float(open(os.path.join(out, "raw", "all.time")).read().split()[-1])
    d = json.load(open(os.path.join(out, "raw", "all.json")))
    return {
        "title": "bench all with its defaults: wall time against the 3-minute target",
        "command": ["build/sandboxtime bench all -J -o all.json   # under /usr/bin/time, in bench/files_userns.sh"],
        "date": meta["date"], "commit": meta["commit"],
        "notes": "docs/bench-notes/20-files-userns-where.md",
        "columns": ["benches", "skipped", "wall s", "target s"],
        "align": ["---", "---", "---:", "---:"],
        "rows": [[", ".join(b["bench"] for b in d["benches"]),
                  ", ".join("%s (%s)" % (s["bench"], s["reason"]) for s in d["skipped"]) or "none",
                  "%.1f" % secs, "180"]],
        "text": ["One run, on 2 CPUs shared with other builds (load %s at the start)." % meta["load"]],
    }


def main():
    out = sys.argv[1]
    meta = read_meta(os.path.join(out, "raw", "meta.txt"))
    tables = {"files": files_table(load_runs(os.path.join(out, "raw"), "files"), meta),
              "userns": userns_table(load_runs(os.path.join(out, "raw"), "userns"), meta),
              "all": all_table(out, meta)}
    write_results(os.path.join(out, "files_userns.json"), {"tables": tables})
    for t in tables.values():
        print(t["title"])
        for r in t["rows"]:
            print("  " + " | ".join(r))


main()
