#!/usr/bin/env python3
"""merge_results.py DST SRC [ID=NEWID]...: SRC's tables into DST (both in the
format of bench/results/, see summary.py), each replacing DST's table of the
same ID, or of NEWID where an ID=NEWID renames it (bench/cgroup_steps.py's
"steps" is cgroup.json's "isolated" or "back-to-back"). DST's other tables
stay as they are; a DST that does not exist yet is made. bench/all.sh uses
it to put each script's fresh tables into bench/results/.
"""
import json
import os
import sys

from common import write_results


def main(argv):
    if len(argv) < 2 or not all("=" in a for a in argv[2:]):
        raise SystemExit(__doc__)
    dst, src = argv[0], argv[1]
    rename = dict(a.split("=", 1) for a in argv[2:])
    doc = {"tables": {}}
    if os.path.exists(dst):
        with open(dst, encoding="utf-8") as f:
            doc = json.load(f)
    with open(src, encoding="utf-8") as f:
        new = json.load(f)["tables"]
    for tid, table in new.items():
        doc["tables"][rename.get(tid, tid)] = table
    write_results(dst, doc)
    print("merge_results: %s: %s" % (dst, ", ".join(rename.get(t, t) for t in new)), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
