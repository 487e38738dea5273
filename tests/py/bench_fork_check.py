"""Checks the JSON of sandboxtime bench fork (tests/integration/bench_fork.sh).

bench_fork_check.py FILE SIZE,SIZE,... REPEAT
"""
import json
import sys

METHODS = ("fork", "vfork_exec", "posix_spawn", "clone_vm_vfork", "clone3_ns")


def main():
    d = json.load(open(sys.argv[1]))
    sizes = sorted(int(s) for s in sys.argv[2].split(","))
    repeat = int(sys.argv[3])
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "fork", (d["schema"], d["bench"])
    c = d["config"]
    assert c["sizes_mb"] == sizes and c["repeat"] == repeat, c
    assert c["mem_available_mb"] > sum(sizes) and c["clock_resolution_us"] > 0, c
    rows = d["rows"]
    # every size has every method, once, in the table's order
    assert [(r["size_mb"], r["method"]) for r in rows] == [(s, m) for s in sizes for m in METHODS], rows
    medians = {}
    for r in rows:
        where = (r["size_mb"], r["method"])
        # a real machine gives no impossible figure: nothing refused
        assert r["call_refused"] is None and r["total_refused"] is None, (where, r)
        call, total = r["call_us"], r["total_us"]
        for s in (call, total):
            assert s["n"] == len(s["samples"]) == repeat, (where, s)
            assert all(x > 0 for x in s["samples"]), (where, s["samples"])
        # the samples are paired: the call is part of its cycle
        assert all(a <= b for a, b in zip(call["samples"], total["samples"])), (where, call, total)
        assert r["call_median_us"] == call["median"] > 0, where
        assert r["total_median_us"] == total["median"] > 0, where
        assert abs(r["call_us_per_mb"] - call["median"] / r["size_mb"]) < 1e-6 * call["median"], where
        medians[where] = call["median"]
    for r in rows:
        m0 = medians[(sizes[0], r["method"])]
        if r["size_mb"] == sizes[0]:
            assert r["call_slope_us_per_mb"] is None, r
        else:
            want = (r["call_median_us"] - m0) / (r["size_mb"] - sizes[0])
            assert abs(r["call_slope_us_per_mb"] - want) < 1e-6 * max(1.0, abs(want)), (r, want)
    assert len(d["notes"]) == 3 and d["notes"][0].startswith("On this machine"), d["notes"]


main()
