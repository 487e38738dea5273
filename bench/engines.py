#!/usr/bin/env python3
"""bench/engines.sh's tables: engines.py OUT [--results FILE] prints the
conformance table and, per pinning, the median wall time of each command over
its round medians, the round medians themselves (the spread), and
sandboxtime's ratio to runc and crun in the same rounds (markdown on
stdout); with --results, the same tables as a bench/results file for
bench/summary.py."""
import os
import statistics
import sys

from common import hyperfine_round_medians, read_meta, write_results


def conformance_rows(out):
    rows = []
    for line in open(os.path.join(out, "conformance.md")).read().splitlines()[2:]:
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def timing_rows(out):
    rows = []
    for pin in ("unpinned", "pinned"):
        per = hyperfine_round_medians(out, pin)
        st = per.get("podman-sandboxtime")
        for tool in ("runc", "crun", "sandboxtime"):
            v = per.get("podman-%s" % tool)
            if not v:
                continue
            ratio = lambda peer: "%.2f" % (statistics.median(st) / statistics.median(per["podman-%s" % peer]))
            rows.append([pin, tool, "%.1f" % statistics.median(v), ", ".join("%.1f" % x for x in v),
                         ratio("runc") if tool == "sandboxtime" and st else "",
                         ratio("crun") if tool == "sandboxtime" and st else ""])
    return rows


def results_doc(out):
    facts = read_meta(os.path.join(out, "facts.txt"))
    common = {"command": "bash bench/engines.sh build/sandboxtime OUT && python3 bench/engines.py OUT --results bench/results/engines.json",
              "date": facts["date"], "commit": facts["commit"], "notes": "docs/bench-notes/26-runtime.md"}
    res = {"tables": {
        "conformance": dict(common, title="Engine commands with runc, crun and sandboxtime as the runtime",
                            columns=["engine command", "runc", "crun", "sandboxtime"], rows=conformance_rows(out)),
        "podman": dict(common, title="podman run --rm IMAGE true, wall time",
                       columns=["placement", "runtime", "median (ms)", "round medians (ms)", "sandboxtime / runc",
                                "sandboxtime / crun"],
                       align=["---", "---", "---:", "---", "---:", "---:"], rows=timing_rows(out),
                       text=["Machine: kernel %s, load %s at the end; %s; %s." % (
                           facts["kernel"], facts["load"], facts["rounds"], facts["versions"])])}}
    return res


def main():
    out = sys.argv[1]
    if len(sys.argv) > 3 and sys.argv[2] == "--results":
        write_results(sys.argv[3], results_doc(out))
    facts = read_meta(os.path.join(out, "facts.txt"))
    print("engines, %s at %s: kernel %s; %s; load %s; %s" % (facts["date"], facts["commit"], facts["kernel"],
                                                          facts["versions"], facts["load"], facts["rounds"]))
    print()
    print(open(os.path.join(out, "conformance.md")).read().rstrip())
    for pin in ("unpinned", "pinned"):
        per = hyperfine_round_medians(out, pin)
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
