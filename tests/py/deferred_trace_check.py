"""deferred_trace_check.py FILE ROUNDS SAMPLES: bench/deferred_trace.py's
FILE (deferred_trace.json) paired every deferred sample of net, pid, ipc and
user with the kernel's free of that sample's namespace (ROUNDS runs of
SAMPLES samples per type, none left unpaired), and sandboxtime's figure
falls on the traced mark: net on its count release (the end of its
cleanup_net run), pid and user on their free. No sample's figure comes
before its mark (the probe cannot succeed before the count drops; 500 µs of
slack for the count dropping just before the traced event), and the median
over the samples of the difference is within 10% or 500 µs (one sample's
probe may wait for a CPU on a loaded machine). ipc's figure is a probe's
length near zero, so only its pairing is checked
(tests/integration/deferred.sh)."""
import json
import statistics
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
        diffs = []
        for x in r["samples"]:
            ours, mark = x["ours_us"], x[MARK[t] + "_us"]
            assert ours >= mark - SLACK_US, \
                f"{t}: sandboxtime {ours:.1f} us, before the kernel's {MARK[t]} at {mark:.1f} us"
            diffs.append(ours - mark)
        med = statistics.median(diffs)
        kern = r[MARK[t]]["kernel_us"]
        assert med <= max(0.1 * kern, SLACK_US), \
            f"{t}: sandboxtime later than the kernel's {MARK[t]} by {med:.1f} us (median), " \
            f"the kernel's median {kern:.1f} us"


if __name__ == "__main__":
    main()
