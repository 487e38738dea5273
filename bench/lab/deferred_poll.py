"""bench/lab/deferred_poll.py DIR ROUNDS: the reports r<R>-poll<P>.json that
bench/lab/deferred_poll.sh wrote, judged per set and type: the median over the
rounds of (median at P) - (median at 20 us), P = 0 and 1000, with the exact
binomial order-statistic interval of that median. Prints one line per figure,
then whether more differ than chance explains. Exit status 1 when they do."""
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import median_interval  # noqa: E402

POLLS = (0, 1000)


def medians(path, poll):
    doc = json.load(open(path))
    got = doc["measurement"]["deferred"]["poll_us"]
    if got != poll:
        sys.exit("%s: poll_us %r, not %d" % (path, got, poll))
    out = {}
    for el in doc["layers"]:
        for typ, st in (el.get("deferred_by_type") or {}).items():
            out["%s.%s" % (el["layer"], typ)] = st["median"]
    return out


def main():
    out, rounds = sys.argv[1], int(sys.argv[2])
    runs = {p: [medians("%s/r%d-poll%d.json" % (out, r, p), p) for r in range(1, rounds + 1)]
            for p in POLLS + (20,)}
    status = 0
    for p in POLLS:
        bad = figs = 0
        misses = []
        widths = {}
        for name in sorted(runs[20][0]):
            ref = [runs[20][r][name] for r in range(rounds)]
            d = [runs[p][r][name] - ref[r] for r in range(rounds)]
            iv = median_interval(d)
            base = statistics.median(ref)
            if iv is None:
                print("%-20s poll %4d: n=%d rounds, 95%% needs 6" % (name, p, rounds))
                continue
            lo, hi, cov = iv
            ok = lo <= 0 <= hi or (p == 1000 and lo <= 1000 and hi >= 0)
            figs += 1
            bad += not ok
            misses.append(1 - cov)
            typ = name.split(".")[1]
            widths.setdefault(typ, []).append(max(abs(lo), abs(hi)) / base if base > 0 else math.inf)
            print("%-20s poll %4d: 20 us median %9.1f us, difference %+9.1f [%+9.1f, %+9.1f] %s" % (
                name, p, base, statistics.median(d), lo, hi, "ok" if ok else "DIFFERS"))
        # How many may differ by chance: the smallest count that chance reaches less than 5%
        # of the time, the intervals taken as independent.
        q = statistics.mean(misses) if misses else 0
        allowed = 0
        while allowed < figs and sum(math.comb(figs, j) * q ** j * (1 - q) ** (figs - j)
                                     for j in range(allowed + 1, figs + 1)) >= 0.05:
            allowed += 1
        verdict = "agree" if bad <= allowed else "DEPEND ON THE POLL"
        if not figs:
            verdict = "NOT SHOWN (no interval: 6 rounds or more needed)"
        print("poll %d us against 20 us: %d of %d figures differ, up to %d by chance: %s" % (
            p, bad, figs, allowed, verdict))
        for typ, w in sorted(widths.items()):
            print("  %-7s the intervals reach at most %.0f%% of the 20 us median (median over sets)"
                  % (typ, 100 * statistics.median(w)))
        status |= bad > allowed or not figs
    sys.exit(status)


if __name__ == "__main__":
    main()
