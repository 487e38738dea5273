#!/usr/bin/env python3
"""bench/oci_compare.sh's helper.

oci_compare.py --config FIXTURE DST ID   DST: the runc spec FIXTURE with args
                                         ["true"], terminal false and its id
                                         mappings (if any) on host id ID
oci_compare.py OUT [--results FILE]      the setup table from OUT (markdown on
                                         stdout), and as FILE a bench/results
                                         table file for bench/summary.py
"""
import json
import os
import statistics
import sys

from common import hyperfine_round_medians, read_meta, write_results

TOOLS = ("sandboxtime", "sandboxtime-cgroup", "sandboxtime-runtime", "crun", "runc")


def make_config(fixture, dst, host_id):
    c = json.load(open(fixture))
    c["process"]["terminal"] = False
    c["process"]["args"] = ["true"]
    for key in ("uidMappings", "gidMappings"):
        for m in c["linux"].get(key, []):
            m["hostID"] = int(host_id)
    json.dump(c, open(dst, "w"), indent=1)


def rows(out):
    facts = read_meta(os.path.join(out, "facts.txt"))
    refused = [l.strip() for l in open(os.path.join(out, "refused.txt")) if l.strip()]
    table = []
    for mode in ("root", "nobody"):
        per = hyperfine_round_medians(out, mode)
        st = statistics.median(per["sandboxtime"]) if "sandboxtime" in per else None
        stc = statistics.median(per["sandboxtime-cgroup"]) if "sandboxtime-cgroup" in per else None
        for tool in TOOLS:
            if tool not in per:
                why = next((r.split("refused: ", 1)[1] for r in refused if r.startswith("%s %s " % (mode, tool))), "not run")
                table.append([mode, tool, "refused: " + why.replace("|", "/")[:120], "", "", ""])
                continue
            med = statistics.median(per[tool])
            ratio = "%.2f" % (st / med) if st else ""
            ratio_cg = "%.2f" % (stc / med) if stc else ""
            table.append([mode, tool, "%.2f" % med, ", ".join("%.2f" % x for x in per[tool]), ratio, ratio_cg])
    return facts, table


def main():
    if sys.argv[1] == "--config":
        make_config(*sys.argv[2:5])
        return
    out = sys.argv[1]
    facts, table = rows(out)
    cols = ["mode", "tool", "setup+teardown median (ms)", "round medians (ms)", "sandboxtime / tool",
            "sandboxtime-cgroup / tool"]
    print("oci_compare, %s: kernel %s, %s, %s, %s, load %s, %s" % (
        facts["date"], facts["kernel"], facts["crun"], facts["runc"], facts["sandboxtime"],
        facts["load"], facts["rounds"]))
    print()
    print("| " + " | ".join(cols) + " |")
    print("|---|---|---:|---|---:|---:|")
    for r in table:
        print("| " + " | ".join(r) + " |")
    steps = json.load(open(os.path.join(out, "steps-root.json")))["steps"]
    print("\nsandboxtime's steps, root (one run, µs): " + ", ".join("%s %.0f" % (s["step"], s["us"]) for s in steps))
    if len(sys.argv) > 3 and sys.argv[2] == "--results":
        res = {"tables": {"setup": {
            "title": "The stock runc spec bundle: sandboxtime, crun and runc",
            "command": "bash bench/oci_compare.sh build/sandboxtime OUT && python3 bench/oci_compare.py OUT --results bench/results/oci.json",
            "date": facts["date"], "commit": facts["commit"],
            "notes": "docs/bench-notes/17-oci-compare.md",
            "columns": cols, "align": ["---", "---", "---:", "---", "---:", "---:"], "rows": table,
            "text": ["Machine: kernel %s, load %s at the end; %s; %s, %s." % (
                facts["kernel"], facts["load"], facts["rounds"], facts["crun"], facts["runc"])]}}}
        write_results(sys.argv[3], res)


main()
