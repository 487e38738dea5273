"""What every measured row of a places x operations bench must show
(bench files, userns, mounts, cgroup, launch: src/bench/bench_grid.c)."""


def check_measured(r, repeat):
    """A figure that stands: not unavailable, not refused, REPEAT positive samples, its median."""
    where = (r["place"], r["op"])
    assert r["unavailable"] is None, (where, r["unavailable"])
    assert r["refused"] is None, (where, r["refused"])
    s = r["per_op"]
    assert s["n"] == len(s["samples"]) == repeat, (where, s)
    assert all(x > 0 for x in s["samples"]), (where, s["samples"])
    assert r["median"] == s["median"] > 0, where
