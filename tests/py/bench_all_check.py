"""Checks the JSON of sandboxtime bench all (tests/integration/bench_all.sh).

bench_all_check.py FILE
"""
import json
import sys

MEDIANS = ("median", "median_us", "call_median_us", "total_median_us")


def medians(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k in MEDIANS and v is not None:
                yield v
            else:
                yield from medians(v)
    elif isinstance(x, list):
        for v in x:
            yield from medians(v)


def main():
    d = json.load(open(sys.argv[1]))
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "all", d["bench"]
    assert [b["bench"] for b in d["benches"]] == ["syscall", "cpu", "fork", "files", "userns", "where"], d["skipped"]
    assert d["skipped"] == [], d["skipped"]
    for b in d["benches"]:
        assert b["schema"] == "sandboxtime/bench/v1", b["bench"]
        m = list(medians(b["rows"]))
        assert m and all(v > 0 for v in m), (b["bench"], m)
        assert b["notes"][0].startswith("On this machine"), (b["bench"], b["notes"][0])


main()
