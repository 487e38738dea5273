"""Checks the JSON of sandboxtime bench launch (tests/integration/bench_launch.sh).

bench_launch_check.py FILE REPEAT [UNAVAILABLE=REASON...]

Every place (sandboxtime, sandboxtime-bare, unshare, bwrap, true) has every
operation (mean, p50, p99), in order. A place named UNAVAILABLE=REASON is
unavailable and its reason holds REASON; every other figure is measured,
positive, with REPEAT samples, and p50 <= p99 in each round of each place.
The summary names launches per second. Each round made LAUNCHES launches
per place (the suite's --launches).
"""
import json
import sys

from grid_rows import check_measured

PLACES = ["sandboxtime", "sandboxtime-bare", "unshare", "bwrap", "true"]
OPS = ["mean", "p50", "p99"]
# tests/integration/bench_launch.sh runs every bench launch with --launches=10.
LAUNCHES = 10


def main():
    d = json.load(open(sys.argv[1]))
    repeat = int(sys.argv[2])
    gone = dict(a.split("=", 1) for a in sys.argv[3:])
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "launch", d["bench"]
    c = d["config"]
    assert c["repeat"] == repeat and c["unit"] == "us" and c["launches_per_round"] == LAUNCHES, c
    rows = d["rows"]
    assert [(r["place"], r["op"]) for r in rows] == [(p, o) for p in PLACES for o in OPS], rows
    by = {(r["place"], r["op"]): r for r in rows}
    for r in rows:
        where = (r["place"], r["op"])
        if r["place"] in gone:
            assert r["unavailable"] and gone[r["place"]] in r["unavailable"], (where, r["unavailable"])
            assert r["median"] is None, where
            continue
        check_measured(r, repeat)
    for p in PLACES:
        if p in gone:
            continue
        p50, p99 = (by[(p, o)]["per_op"]["samples"] for o in ("p50", "p99"))
        for a, b in zip(p50, p99):
            assert a <= b, (p, a, b)
    # A sandbox costs more than /bin/true alone, whichever launcher makes it.
    floor = by[("true", "p50")]["median"]
    for p in PLACES[:-1]:
        if p not in gone:
            assert by[(p, "p50")]["median"] > floor, (p, by[(p, "p50")]["median"], floor)
    assert d["notes"][0].startswith("On this machine sandboxtime launched "), d["notes"][0]
    assert " sandboxes per second " in d["notes"][0], d["notes"][0]


if __name__ == "__main__":
    main()
