"""Checks the JSON of sandboxtime bench cgroup (tests/integration/bench_cgroup.sh).

bench_cgroup_check.py FILE REPEAT MODE

MODE: "all" (every place measured: root, or nobody in a delegated cgroup)
or "host-only" (nobody without a delegated cgroup: the three cgroup places
unavailable, with the reason and what to do). Every place has every
operation, in order; every measured figure is positive with REPEAT samples
and none is refused (each page faulted once, each populated page resident).
What the limits must show: under the cpu quota the cgroup was throttled
(the kernel's own count, cpu.stat's nr_throttled, flagged), and no other
place was. How late a sleep woke under the quota is a timing, left to
bench/ (docs/bench-notes/results.md): on a loaded machine the spinner may not use up its
quota before the sleeper wakes (a fresh Debian 12 saw 549 us), so a test
cannot ask for a figure.
"""
import json
import sys

from grid_rows import check_measured

PLACES = ["host", "cgroup", "memory-limit", "cpu-quota"]
OPS = ["fault", "populate", "unmap", "wakeup_p50", "wakeup_p99", "wakeup_max"]
UNITS = {"fault": "ns", "populate": "ns", "unmap": "ns"}


def main():
    d = json.load(open(sys.argv[1]))
    repeat = int(sys.argv[2])
    mode = sys.argv[3]
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "cgroup", d["bench"]
    c = d["config"]
    assert c["repeat"] == repeat and c["working_set_mb"] == 64 and c["memory_limit_mb"] == 256, c
    assert c["cpu_quota_us"] == 50000 and c["cpu_period_us"] == 100000, c
    rows = d["rows"]
    assert [(r["place"], r["op"]) for r in rows] == [(p, o) for p in PLACES for o in OPS], rows
    by = {(r["place"], r["op"]): r for r in rows}
    for r in rows:
        where = (r["place"], r["op"])
        assert r["unit"] == UNITS.get(r["op"], "us"), (where, r["unit"])
        if mode == "host-only" and r["place"] != "host":
            u = r["unavailable"]
            assert u and "not writable" in u and "--cgroup=PARENT" in u, (where, u)
            assert r["median"] is None, where
            continue
        check_measured(r, repeat)
    if mode == "all":
        q = by[("cpu-quota", "wakeup_max")]
        assert q["flag"] and q["flag"].startswith("throttled "), q["flag"]
        for p in ("host", "cgroup", "memory-limit"):
            assert by[(p, "wakeup_max")]["flag"] is None, (p, by[(p, "wakeup_max")]["flag"])
        assert d["notes"][0].startswith("On this machine a page fault took"), d["notes"][0]


if __name__ == "__main__":
    main()
