"""Checks the JSON of sandboxtime bench files and bench userns
(tests/integration/bench_files.sh, bench_userns.sh).

bench_grid_check.py FILE BENCH REPEAT [MODE [--all-places]]

Every place has every operation, once, in order; every figure that stands is
positive with REPEAT samples; nothing is refused on a real machine; a place
is unavailable only with a reason. BENCH-specific: the facts each must show.
"""
import json
import statistics
import sys

# The documented floor of a durable fsync on a disk (sandboxtime(1), bench
# files: "on a disk below 50 microseconds"), written here, not read back from
# the report's own config.
FSYNC_FLOOR_US = 50.0

PLACES = {
    "files": ["tmpfs", "disk", "bind", "overlay"],
    "userns": ["host", "depth1", "depth2", "depth4", "depth8", "depth16", "depth32"],
}
OPS = {
    "files": ["create", "write_512", "stat", "fsync", "unlink", "unpack_tree"],
    "userns": ["stat_mapped", "stat_unmapped", "open_mapped", "open_unmapped",
               "access_mapped", "access_unmapped", "capable_swapoff"],
}


def check_rows(d, bench, repeat):
    rows = d["rows"]
    assert [(r["place"], r["op"]) for r in rows] == \
        [(p, o) for p in PLACES[bench] for o in OPS[bench]], rows
    for r in rows:
        where = (r["place"], r["op"])
        if r["unavailable"] is not None:
            assert len(r["unavailable"]) > 10 and r["median"] is None and r["per_op"] is None, r
            continue
        assert r["refused"] is None, (where, r["refused"])
        s = r["per_op"]
        assert s["n"] == len(s["samples"]) == repeat, (where, s)
        assert all(x > 0 for x in s["samples"]), (where, s["samples"])
        # the median, recomputed from the samples by Python's statistics module
        want = statistics.median(s["samples"])
        assert abs(r["median"] - want) <= 1e-8 * max(1.0, want) and want > 0, (where, r["median"], want)
    return {(r["place"], r["op"]): r for r in rows}


def check_files(d, rows):
    c = d["config"]
    assert c["unit"] == "us" and c["bytes"] == 512 and c["tree_files"] >= c["files"], c
    # only the overlay may be refused (a kernel before 5.11), and it says why
    for p in ("tmpfs", "disk", "bind"):
        assert rows[(p, "create")]["unavailable"] is None, rows[(p, "create")]
    ovl = rows[("overlay", "create")]["unavailable"]
    assert ovl is None or "overlay" in ovl, ovl
    # fsync on memory can never be durable: always flagged
    for p in ("tmpfs", "overlay"):
        if rows[(p, "fsync")]["unavailable"] is None:
            assert rows[(p, "fsync")]["flag"].startswith("suspiciously fast: durability not proven"), p
    disk = rows[("disk", "fsync")]
    assert c["fsync_floor_us"] == FSYNC_FLOOR_US, c
    disk_median = statistics.median(disk["per_op"]["samples"])
    assert (disk["flag"] is not None) == (disk_median < FSYNC_FLOOR_US), disk


def check_userns(d, rows, mode):
    assert d["config"]["unit"] == "ns" and d["config"]["calls"] > 0, d["config"]
    for p in PLACES["userns"]:
        r = rows[(p, "capable_swapoff")]
        if r["unavailable"] is not None:
            assert p != "host" and p != "depth1", r
            continue
        # capable() is never granted in a user namespace; on the host only to root
        want = "granted" if p == "host" and mode == "root" else "refused (EPERM)"
        assert r["flag"].startswith(want), (p, mode, r["flag"])


def main():
    d = json.load(open(sys.argv[1]))
    bench, repeat = sys.argv[2], int(sys.argv[3])
    mode = sys.argv[4] if len(sys.argv) > 4 else "root"
    all_places = "--all-places" in sys.argv[5:]
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == bench, (d["schema"], d["bench"])
    assert d["config"]["repeat"] == repeat and d["config"]["clock_resolution_us"] > 0, d["config"]
    rows = check_rows(d, bench, repeat)
    if all_places:
        assert all(r["unavailable"] is None for r in rows.values()), \
            sorted({(p, r["unavailable"]) for (p, _), r in rows.items() if r["unavailable"]})
    assert len(d["notes"]) == 3 and d["notes"][0].startswith("On this machine"), d["notes"]
    assert "not shown" in d["notes"][0], d["notes"][0]
    if bench == "files":
        check_files(d, rows)
    else:
        check_userns(d, rows, mode)


main()
