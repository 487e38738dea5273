#!/usr/bin/env python3
"""bench/launch_rate.sh's results in the format of bench/results/ (see summary.py).

usage: launch_rate_results.py RAWDIR OUT.json

RAWDIR holds launch.R.json (hyperfine --export-json, every run's time) and
meta.txt. Per command: launches per second (runs over their summed time),
p50 and p99 of one launch, medians over rounds with the spread, and each
round's ratio to unshare and to bwrap (the issue's targets: 1.1x unshare for
sandboxtime like unshare, 0.7x bwrap for the default launch). Where RAWDIR
has bl.R.json (sandboxtime bench launch in the same round): its launches per
second for the same command, and its rate over hyperfine's, round by round.
"""
import glob
import json
import os
import statistics
import sys

from common import read_meta, spread, write_results


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q * len(xs) + 0.5)) - 1))]


def main():
    raw, out = sys.argv[1], sys.argv[2]
    meta = read_meta(os.path.join(raw, "meta.txt"))
    rounds = []
    for p in sorted(glob.glob(os.path.join(raw, "launch.*.json"))):
        with open(p) as f:
            rounds.append({r["command"]: r["times"] for r in json.load(f)["results"]})
    assert rounds, "no results in " + raw
    names = ["sandboxtime", "sandboxtime like unshare", "unshare", "bwrap"]
    # /bin/true alone (rounds before it was measured lack it): both clocks' floor.
    if all("true" in rd for rd in rounds):
        names.append("true")
    place = {"sandboxtime": "sandboxtime", "sandboxtime like unshare": "sandboxtime-bare",
             "unshare": "unshare", "bwrap": "bwrap", "true": "true"}
    per = {n: {"rate": [], "p50": [], "p99": [], "unshare": [], "bwrap": [], "own": [], "agree": []} for n in names}
    for i, p in enumerate(sorted(glob.glob(os.path.join(raw, "launch.*.json")))):
        own = p.replace("launch.", "bl.")
        if not os.path.exists(own):
            continue
        d = json.load(open(own))
        for n in names:
            r = next(r for r in d["rows"] if r["place"] == place[n] and r["op"] == "mean")
            if r["median"]:
                t = rounds[i][n]
                per[n]["own"].append(1e6 / r["median"])
                per[n]["agree"].append((1e6 / r["median"]) / (len(t) / sum(t)))
    for rd in rounds:
        med = {n: statistics.median(rd[n]) for n in names}
        for n in names:
            t = rd[n]
            per[n]["rate"].append(len(t) / sum(t))
            per[n]["p50"].append(quantile(t, 0.5) * 1e6)
            per[n]["p99"].append(quantile(t, 0.99) * 1e6)
            per[n]["unshare"].append(med[n] / med["unshare"])
            per[n]["bwrap"].append(med[n] / med["bwrap"])
    own = all(per[n]["own"] for n in names)
    rows = [[n, spread(per[n]["rate"], "%.0f"), spread(per[n]["p50"], "%.0f"), spread(per[n]["p99"], "%.0f"),
             spread(per[n]["unshare"], "%.2f"), spread(per[n]["bwrap"], "%.2f")] +
            ([spread(per[n]["own"], "%.0f"), spread(per[n]["agree"], "%.2f")] if own else []) for n in names]
    like = statistics.median(per["sandboxtime like unshare"]["unshare"])
    hard = statistics.median(per["sandboxtime"]["bwrap"])
    runs = len(rounds[0]["unshare"])
    table = {
        "title": "Launches per second, end to end, one after another",
        "command": ["bash bench/launch_rate.sh build/sandboxtime OUTDIR   # %d hyperfine rounds of %d runs each, "
                    "the order rotating" % (len(rounds), runs)],
        "date": meta["date"], "commit": meta["commit"], "notes": "docs/bench-notes/19-scale.md",
        "columns": ["command (/bin/true)", "launches/s", "p50 \u00b5s", "p99 \u00b5s", "median / unshare",
                    "median / bwrap"] + (["bench launch /s", "bench launch / hyperfine"] if own else []),
        "align": ["---", "---:", "---:", "---:", "---:", "---:"] + (["---:", "---:"] if own else []),
        "rows": rows,
        "text": [
            "Medians over %d rounds (min\u2013max); ratios are of medians within one round. uid %s, kernel %s, "
            "load %s at the start, %s after." % (len(rounds), meta["uid"], meta["kernel"], meta["load"],
                                               meta["load_end"]),
            "Issue 15's targets: sandboxtime like unshare within 1.1x unshare: %.3fx (%s); the default hardened "
            "launch at most 0.7x bwrap: %.3fx (%s). Not an optimisation: measured as the code stands."
            % (like, "met" if round(like, 3) <= 1.1 else "not met", hard, "met" if round(hard, 3) <= 0.7 else "not met"),
        ],
    }
    doc = {"tables": {"launch": table}}
    write_results(out, doc)
    print(json.dumps(doc, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
