#!/usr/bin/env python3
"""bench/engines.sh's tables: engines.py OUT prints the conformance table and,
per pinning, the median wall time of each command over its round medians,
their spread (min..max of the round medians), and sandboxtime's ratio to
runc and crun in the same rounds (markdown on stdout)."""
import glob
import os
import statistics
import sys


def load(out, pin):
    import json
    per = {}
    for path in sorted(glob.glob(os.path.join(out, "%s-round*.json" % pin))):
        for r in json.load(open(path))["results"]:
            per.setdefault(r["command"], []).append(statistics.median(r["times"]) * 1e3)
    return per


def main():
    out = sys.argv[1]
    facts = dict(l.strip().split("=", 1) for l in open(os.path.join(out, "facts.txt")) if "=" in l)
    print("engines, %s at %s: kernel %s; %s; load %s; %s" % (facts["date"], facts["commit"], facts["kernel"],
                                                          facts["versions"], facts["loadavg"], facts["rounds"]))
    print()
    print(open(os.path.join(out, "conformance.md")).read().rstrip())
    for pin in ("unpinned", "pinned"):
        per = load(out, pin)
        if not per:
            continue
        print()
        print("| %s | median (ms) | round medians (ms) | sandboxtime / runc | sandboxtime / crun |" % pin)
        print("|---|---:|---|---:|---:|")
        for kind in ("podman",):
            st = per.get("%s-sandboxtime" % kind)
            for tool in ("runc", "crun", "sandboxtime"):
                v = per.get("%s-%s" % (kind, tool))
                if not v:
                    continue
                ratio = lambda peer: ("%.2f" % (statistics.median(st) / statistics.median(per["%s-%s" % (kind, peer)]))
                                      if st and per.get("%s-%s" % (kind, peer)) else "")
                print("| %s-%s | %.1f | %s | %s | %s |" % (kind, tool, statistics.median(v),
                                                       ", ".join("%.1f" % x for x in v),
                                                       ratio("runc") if tool == "sandboxtime" else "",
                                                       ratio("crun") if tool == "sandboxtime" else ""))


if __name__ == "__main__":
    main()
