"""deferred_check.py FILE SETTLE SAMPLES [TRACE]: the layers report FILE has deferred
figures for every available layer but the base, each drained before all of
its SAMPLES samples, and measurement.drain_settle is SETTLE ("rcu" or
"sleep"). With "sleep", every drain lasted at least the 50 ms sleep. Every
type's figure names what it marks: "count released" for uts, mount, cgroup
time and net, "freed" for pid, ipc and user (tests/integration/deferred.sh).
TRACE, strace's record of the run's membarrier calls: with "rcu", every drain
asked the kernel for its two grace periods (a drain that returned at once
would have asked for none)."""
import json
import sys

SLEEP_US = 50000
MARKS = {"uts": "count released", "mount": "count released", "cgroup": "count released",
         "time": "count released", "pid": "freed", "ipc": "freed", "net": "count released",
         "user": "freed"}


def main():
    d = json.load(open(sys.argv[1]))
    settle, samples = sys.argv[2], int(sys.argv[3])
    m = d["measurement"]
    assert m["drain_settle"] == settle, f"drain_settle {m['drain_settle']!r}, expected {settle!r}"
    assert m["deferred"]["available"], m["deferred"]
    sets = [l for l in d["layers"] if l["available"] and l["layer"] != "base"]
    assert sets, "no measured set"
    total = 0.0
    for s in sets:
        name = s["layer"]
        drain = s["deferred_drain_us"]
        assert drain["n"] == samples, f"{name}: {drain['n']} drains, expected {samples}"
        assert s["deferred_us"]["n"] == samples, f"{name}: {s['deferred_us']['n']} deferred samples"
        assert s["deferred_by_type"] and name in s["deferred_by_type"], \
            f"{name}: no freed time of its own type: {s['deferred_by_type']}"
        for t, fig in s["deferred_by_type"].items():
            assert fig.get("marks") == MARKS[t], f"{name}: {t} marks {fig.get('marks')!r}"
        if settle == "sleep":
            assert drain["min"] >= SLEEP_US, f"{name}: a drain of {drain['min']} us, under the sleep"
        total += sum(drain["samples"])
    assert m["drain_wait_us"] >= total, f"drain_wait_us {m['drain_wait_us']} < the sets' {total}"
    if len(sys.argv) > 4:
        drains = sum(s["deferred_drain_us"]["n"] for s in sets)
        calls = sum(1 for line in open(sys.argv[4]) if "membarrier(MEMBARRIER_CMD_GLOBAL, 0) = 0" in line)
        assert calls >= 2 * drains, f"{calls} grace periods (membarrier) for {drains} drains: expected 2 each"


if __name__ == "__main__":
    main()
