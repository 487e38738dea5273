"""Checks bench userns started 28 user namespaces deep (tests/integration/bench_userns.sh):
the depths past the kernel's limit are unavailable with the reason, the rest measured.

bench_userns_deep_check.py FILE
"""
import json
import sys


def main():
    d = json.load(open(sys.argv[1]))
    una = {r["place"]: r["unavailable"] for r in d["rows"]}
    for p in ("depth8", "depth16", "depth32"):
        assert una[p] and "nested user namespaces" in una[p], (p, una[p])
    for p in ("host", "depth1", "depth2", "depth4"):
        assert una[p] is None, (p, una[p])
        assert all(r["median"] > 0 for r in d["rows"] if r["place"] == p), p


main()
