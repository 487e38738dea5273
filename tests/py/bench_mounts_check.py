"""Checks the JSON of sandboxtime bench mounts (tests/integration/bench_mounts.sh).

bench_mounts_check.py FILE REPEAT MOUNTS BACKGROUND

MOUNTS and BACKGROUND as the run's --mounts and --background. Every place
(base, private-N and shared-N per mount count, bg-N per nonzero background)
has every operation, once, in order; every figure is measured here, positive,
with REPEAT samples, and none is refused (each copy held its parent's mounts,
each setns() came back, each network namespace was new). The copy of the
largest table costs more than the copy of the host's own.
"""
import json
import sys

from grid_rows import check_measured

OPS = ["mount_ns", "mount_ns_free", "net_ns"]


def main():
    d = json.load(open(sys.argv[1]))
    repeat = int(sys.argv[2])
    counts = [int(x) for x in sys.argv[3].split(",")]
    background = [int(x) for x in sys.argv[4].split(",") if int(x) > 0]
    places = ["base"] + [f"{p}-{n}" for n in counts for p in ("private", "shared")] + \
        [f"bg-{n}" for n in background]
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "mounts", d["bench"]
    c = d["config"]
    assert c["repeat"] == repeat and c["unit"] == "us" and c["host_mounts"] > 0, c
    assert c["calls_per_round"] == 3 and c["max_alive"] >= max(background + [0]), c
    rows = d["rows"]
    assert [(r["place"], r["op"]) for r in rows] == [(p, o) for p in places for o in OPS], rows
    by = {(r["place"], r["op"]): r for r in rows}
    for r in rows:
        check_measured(r, repeat)
    big = f"private-{max(counts)}"
    assert by[(big, "mount_ns")]["median"] > by[("base", "mount_ns")]["median"], \
        (by[(big, "mount_ns")]["median"], by[("base", "mount_ns")]["median"])
    assert d["notes"][0].startswith("On this machine a new mount namespace"), d["notes"][0]


if __name__ == "__main__":
    main()
