#!/usr/bin/env python3
"""bench/fork.sh's results in the format of bench/results/ (see summary.py).

usage: fork_results.py RAWDIR OUT.json

RAWDIR holds sandboxtime.R.json (sandboxtime bench fork -J), fork_loop.R.jsonl
(bench/fork_loop) and meta.txt for every round R. The table has, per size, the
articles' fork() (SEEDS.md section 3: median of 31 forks), the median over
rounds of sandboxtime's fork call median, of fork_loop's, their ratios to the
articles', and sandboxtime's posix_spawn and vfork_exec calls and +us/MB.
"""
import glob
import json
import os
import statistics
import sys

from common import load_runs, read_meta, spread, write_results

# /work/shared/SEEDS.md section 3: parent memory (MB) -> fork() in us.
ARTICLE = {1: 32.8, 10: 37.6, 100: 166.2, 500: 898.0, 1000: 1613.2}


def main():
    raw, out = sys.argv[1], sys.argv[2]
    meta = read_meta(os.path.join(raw, "meta.txt"))
    st_runs = load_runs(raw, "sandboxtime")
    loops = [json.loads(line) for p in sorted(glob.glob(os.path.join(raw, "fork_loop.*.jsonl")))
             for line in open(p)]
    assert st_runs and loops, "no results in " + raw
    assert all(x["checksum_ok"] for x in loops), "fork_loop: a checksum failed"

    def ours(size, method, key="call_median_us"):
        vals = [r[key] for d in st_runs for r in d["rows"] if r["size_mb"] == size and r["method"] == method]
        assert None not in vals, (size, method, key, "refused")
        return vals

    rows = []
    for size, theirs in sorted(ARTICLE.items()):
        fork = ours(size, "fork")
        peer = [x["call_median_us"] for x in loops if x["size_mb"] == size and not x["huge"]]
        slope = ours(size, "fork", "call_slope_us_per_mb") if size > 1 else None
        rows.append([
            str(size), "%.1f" % theirs, spread(fork), "%.1f" % (statistics.median(fork) / theirs),
            spread(peer), "%.1f" % (statistics.median(peer) / theirs),
            spread(slope, "%.2f") if slope else "\u2013",
            spread(ours(size, "posix_spawn")), spread(ours(size, "vfork_exec")),
        ])
    huge = [x["call_median_us"] for x in loops if x["huge"]]
    rows.append(["1000, huge pages (fork_loop --huge)", "%.1f" % ARTICLE[1000], "\u2013", "\u2013",
                 spread(huge), "%.1f" % (statistics.median(huge) / ARTICLE[1000]), "\u2013", "\u2013", "\u2013"])
    fork1000 = statistics.median(ours(1000, "fork"))
    table = {
        "title": "fork() against the parent's memory, beside the articles' table",
        "command": ["bash bench/fork.sh build/sandboxtime OUTDIR   # %d rounds of `sandboxtime bench fork`"
                    " (defaults) and bench/fork_loop, interleaved" % len(st_runs)],
        "date": meta["date"], "commit": meta["commit"],
        "notes": "docs/bench-notes/15-fork.md",
        "columns": ["parent MB", "articles' fork() \u00b5s", "sandboxtime fork call \u00b5s",
                    "ours / theirs", "fork_loop \u00b5s", "fork_loop / theirs", "sandboxtime +\u00b5s/MB",
                    "posix_spawn \u00b5s", "vfork_exec \u00b5s"],
        "align": ["---:"] + ["---"] * 8,
        "rows": rows,
        "text": [
            "Medians of %d round medians (min\u2013max over rounds; each round 20 samples of sandboxtime, 31 of"
            " fork_loop); kernel %s, THP %s, load %s at the start." % (
                len(st_runs), meta["kernel"], meta["thp"], meta["load"]),
            "On this VM a fork copies 4 KiB page tables at ~%.0f \u00b5s per MB (sandboxtime), %.1fx the"
            " articles' 1000 MB figure (fork_loop: %.1fx); fork_loop with huge pages takes %.2fx it." % (
                statistics.median(ours(1000, "fork", "call_slope_us_per_mb")), fork1000 / ARTICLE[1000],
                statistics.median([x["call_median_us"] for x in loops if x["size_mb"] == 1000 and not x["huge"]])
                / ARTICLE[1000], statistics.median(huge) / ARTICLE[1000]),
            "posix_spawn and vfork_exec do not grow with the parent (their call times are bimodal here: the"
            " parent resumes when the child's exec releases the memory, if a CPU is free).",
        ],
    }
    write_results(out, {"tables": {"fork": table}})
    print(json.dumps(table, indent=1, ensure_ascii=False))


main()
