"""deferred_trace_check.py FILE ROUNDS SAMPLES: bench/deferred_trace.py's
FILE (deferred_trace.json) paired every deferred sample of net, pid, ipc and
user with the kernel's free of that sample's namespace (ROUNDS runs of
SAMPLES samples per type, none left unpaired), and sandboxtime's figure
falls on the traced mark: net on its count release (the end of its
cleanup_net run), pid and user on their free, each sample within 10% or
500 µs (tests/integration/deferred.sh). ipc's figure is a probe's length
near zero, so only its pairing is checked."""
import json
import sys

TYPES = ("net", "pid", "ipc", "user")
MARK = {"net": "released", "pid": "freed", "user": "freed"}
SLACK_US = 500.0


def main():
    d = json.load(open(sys.argv[1]))
    rounds, samples = int(sys.argv[2]), int(sys.argv[3])
    assert not d["unpaired"], d["unpaired"]
    got = {r["type"]: r for r in d["types"]}
    assert sorted(got) == sorted(TYPES), f"types traced: {sorted(got)}"
    for t in TYPES:
        r = got[t]
        assert r["n"] == rounds * samples, f"{t}: {r['n']} samples paired, expected {rounds * samples}"
        if t not in MARK:
            continue
        k = r[MARK[t]]
        for name, ours, kern in (("median", r["ours_us"], k["kernel_us"]),
                                 ("min", r["ours_range"][0], k["kernel_range"][0]),
                                 ("max", r["ours_range"][1], k["kernel_range"][1])):
            assert abs(ours - kern) <= max(0.1 * kern, SLACK_US), \
                f"{t} {name}: sandboxtime {ours:.1f} us, kernel {MARK[t]} {kern:.1f} us"


if __name__ == "__main__":
    main()
