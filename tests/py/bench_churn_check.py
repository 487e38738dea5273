"""Checks the JSON of sandboxtime bench churn (tests/integration/bench_churn.sh).

bench_churn_check.py FILE COUNT|duration:SECONDS PARALLEL,PARALLEL,... MAX_ALIVE NS,NS,... [NET]

NET (default none): --net's mode; wired (veth, bridge), every sandbox's pair
was timed and no lab end was left after the drain.
"""
import json
import sys


def check_series(where, s, count, max_alive):
    assert s and s[0] == {"t_s": 0.0, "created": 0, "reaped": 0, "freed": 0, "backlog": 0}, (where, s[:1])
    last = s[0]
    for p in s:
        # every count only grows; nothing is reaped before it was made, nor freed before its reap
        assert p["t_s"] >= last["t_s"], (where, last, p)
        for k in ("created", "reaped", "freed"):
            assert p[k] >= last[k], (where, k, last, p)
        assert p["freed"] <= p["created"] and p["reaped"] <= p["created"], (where, p)
        # alive + backlog is what the kernel counts: never above --max-alive
        assert p["created"] - p["reaped"] + p["backlog"] <= max_alive, (where, p)
        last = p
    # the end: all made, all reaped, all freed, nothing in the backlog
    assert last["created"] == last["reaped"] == last["freed"] == count and last["backlog"] == 0, (where, last)


def main():
    d = json.load(open(sys.argv[1]))
    duration = float(sys.argv[2][9:]) if sys.argv[2].startswith("duration:") else None
    count = None if duration else int(sys.argv[2])
    parallel = [int(p) for p in sys.argv[3].split(",")]
    max_alive = int(sys.argv[4])
    ns = sys.argv[5].split(",")
    net = sys.argv[6] if len(sys.argv) > 6 else "none"
    wired = net != "none"
    assert d["schema"] == "sandboxtime/bench/v1" and d["bench"] == "churn", (d["schema"], d["bench"])
    c = d["config"]
    assert c["count"] == count and c["duration_s"] == duration, c
    assert c["parallel"] == parallel and c["max_alive"] == max_alive, c
    # user is always in: it is how the backlog is counted
    assert set(c["ns"]) == set(ns) | {"user"}, c["ns"]
    assert c["net"] == net, c["net"]
    lim = c["limits"]
    assert lim["max_user_namespaces"] > max_alive and lim["pid_max"] > lim["need_pids"], lim
    assert lim["mem_available_mb"] >= lim["need_mb"] > 0, lim
    rows = d["rows"]
    assert [r["parallel"] for r in rows] == parallel, rows
    for r in rows:
        where = r["parallel"]
        if duration:
            # it created for the time asked (a clone3 under way at the end finishes it)
            assert duration <= r["wall_s"] < duration + 0.5 and r["created"] > 0, (where, r["wall_s"])
            count = r["created"]
        assert r["created"] == r["reaped"] == r["freed"] == count, (where, r)
        assert r["backlog_end"] == 0 and 0 <= r["backlog_max"] <= max_alive, (where, r)
        assert r["bare"]["created"] == 2 * count and r["bare"]["rate_per_s"] > 0, (where, r["bare"])
        cr = r["create_us"]
        assert cr["n"] == count, (where, cr)
        assert 0 < cr["min"] <= cr["p50"] <= cr["p99"] <= cr["p999"] <= cr["max"], (where, cr)
        cy = r["cycle_us"]
        # a cycle holds its creation
        assert cy["p50"] >= cr["min"] and cy["max"] >= cr["min"], (where, cy, cr)
        assert r["wall_s"] > 0 and abs(r["rate_per_s"] - count / r["wall_s"]) < 1e-6 * r["rate_per_s"], (where, r)
        assert r["drain_ms"] >= 0 and r["paused_ms"] >= 0 and r["throttled"] >= 0, (where, r)
        assert r["series_truncated"] is False, where
        assert r["net"] == net, (where, r["net"])
        w = r["wire_us"]
        if wired:
            # every lab end went with its sandbox's namespace, before the backlog was empty
            assert r["links_end"] == 0, (where, r["links_end"])
            assert 0 < w["p50"] <= w["p99"] <= w["max"], (where, w)
            # a cycle holds its wiring
            assert cy["max"] >= w["p50"], (where, cy, w)
        else:
            assert r["links_end"] is None and w == {"p50": None, "p99": None, "max": None}, (where, r)
        check_series(where, r["series"], count, max_alive)
    assert d["notes"][0].startswith("On this machine"), d["notes"]
    assert len(d["notes"]) == (4 if wired else 3), d["notes"]
    if wired:
        assert d["notes"][3].startswith("--net=" + net + ":"), d["notes"][3]
        assert (" veth pair each" if net == "veth" else " bridged veth pair each") in d["notes"][0], d["notes"][0]


if __name__ == "__main__":
    main()
