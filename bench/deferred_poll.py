#!/usr/bin/env python3
"""bench/deferred_poll.py OUTDIR [--results FILE]: the reports
raw/r<R>-b<B>-<mode>-poll<P>.json that bench/deferred_poll.sh wrote, judged
per mode (unpinned, pinned), set and type: per round, the median of the
round's samples at P minus the one at 20 us (P = 0 and 1000), and over the
rounds the median of those differences with its exact binomial
order-statistic interval. Prints one line per figure, then per mode and
pause whether more differ than chance explains, and how much the check can
see per type. With --results, merges its tables ("poll", "poll-types")
into FILE (bench/results/deferred.json). Exit status 1 when the figures
depend on the poll, or no interval could be formed."""
import glob
import math
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import median_interval, outdir_args, read_meta, write_results  # noqa: E402

POLLS = (0, 1000)
MODES = ("unpinned", "pinned")
NAME = re.compile(r"r(\d+)-b(\d+)-(\w+)-poll(\d+)\.json")
TYPE_GROUPS = (("pid", ("pid",)), ("net", ("net",)), ("ipc", ("ipc",)),
               ("uts, mount, cgroup, time", ("uts", "mount", "cgroup", "time")))


def load(raw):
    """{(round, mode, poll): {"set.type": [samples]}}, the blocks pooled;
    and the steal the reports recorded, in ms."""
    runs, steal_ms = {}, 0.0
    for path in sorted(glob.glob(os.path.join(raw, "r*-b*-*-poll*.json"))):
        r, _, mode, poll = NAME.fullmatch(os.path.basename(path)).groups()
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        got = doc["measurement"]["deferred"]["poll_us"]
        if got != int(poll):
            sys.exit("%s: poll_us %r, not %s" % (path, got, poll))
        if (doc["host"].get("pinned_cpu") is not None) != (mode == "pinned"):
            sys.exit("%s: pinned_cpu %r in a %s run" % (path, doc["host"].get("pinned_cpu"), mode))
        steal_ms += (doc["host"].get("steal") or {}).get("ms") or 0.0
        pool = runs.setdefault((int(r), mode, int(poll)), {})
        for el in doc["layers"]:
            for typ, st in (el.get("deferred_by_type") or {}).items():
                pool.setdefault("%s.%s" % (el["layer"], typ), []).extend(st["samples"])
    return runs, steal_ms


def allowed_by_chance(figs, misses):
    """The smallest count of differing figures that chance reaches less than
    5% of the time, the intervals taken as independent."""
    q = statistics.mean(misses) if misses else 0
    allowed = 0
    while allowed < figs and sum(math.comb(figs, j) * q ** j * (1 - q) ** (figs - j)
                                 for j in range(allowed + 1, figs + 1)) >= 0.05:
        allowed += 1
    return allowed


def judge(runs, rounds, mode, p):
    """One mode and pause against 20 us: the per-figure lines, the count that
    differ, the count allowed, and per type the widest end of the intervals
    as a share of the 20 us median (median over the sets)."""
    lines, bad, misses, widths = [], 0, [], {}
    names = sorted(runs[(rounds[0], mode, 20)])
    for name in names:
        ref = [statistics.median(runs[(r, mode, 20)][name]) for r in rounds]
        d = [statistics.median(runs[(r, mode, p)][name]) - x for r, x in zip(rounds, ref)]
        iv = median_interval(d)
        base = statistics.median(ref)
        if iv is None:
            lines.append("%-8s %-20s poll %4d: n=%d rounds, 95%% needs 6" % (mode, name, p, len(rounds)))
            continue
        lo, hi, cov = iv
        ok = lo <= 0 <= hi or (p == 1000 and lo <= 1000 and hi >= 0)
        bad += not ok
        misses.append(1 - cov)
        widths.setdefault(name.split(".")[1], []).append(
            max(abs(lo), abs(hi)) / base if base > 0 else math.inf)
        lines.append("%-8s %-20s poll %4d: 20 us median %9.1f us, difference %+9.1f [%+9.1f, %+9.1f] %s" % (
            mode, name, p, base, statistics.median(d), lo, hi, "ok" if ok else "DIFFERS"))
    return lines, bad, len(misses), allowed_by_chance(len(misses), misses), widths


def type_bound(widths, types):
    got = [statistics.median(widths[t]) for t in types if t in widths]
    return "%.0f%%" % (100 * max(got)) if got else "-"


def wider(a, b):
    """The larger of two bounds as type_bound prints them ("-" for none)."""
    nums = [int(x[:-1]) for x in (a, b) if x.endswith("%")]
    return "%d%%" % max(nums) if nums else "-"


def twenty_medians(runs, rounds, mode):
    """Per type group, the range over sets of the 20 us median (µs)."""
    out = {}
    for label, types in TYPE_GROUPS:
        meds = [statistics.median([statistics.median(runs[(r, mode, 20)][n]) for r in rounds])
                for n in runs[(rounds[0], mode, 20)] if n.split(".")[1] in types]
        out[label] = "%.0f-%.0f" % (min(meds), max(meds)) if meds else "-"
    return out


def main():
    outdir, results = outdir_args(sys.argv[1:], "deferred_poll.py")
    raw = os.path.join(outdir, "raw")
    runs, steal_ms = load(raw)
    rounds = sorted({k[0] for k in runs})
    meta = read_meta(os.path.join(raw, "meta.txt"))
    status, rows, type_rows = 0, [], []
    for mode in MODES:
        widths_by_poll, row, verdicts = {}, [mode], []
        for p in POLLS:
            lines, bad, figs, allowed, widths = judge(runs, rounds, mode, p)
            print("\n".join(lines))
            verdict = "agree" if figs and bad <= allowed else (
                "DEPEND ON THE POLL" if figs else "NOT SHOWN (6 rounds or more needed)")
            print("%s, poll %d us against 20 us: %d of %d figures differ, up to %d by chance: %s" % (
                mode, p, bad, figs, allowed, verdict))
            status |= bad > allowed or not figs
            widths_by_poll[p] = widths
            row.append("%d of %d (%d by chance)" % (bad, figs, allowed))
            verdicts.append(verdict)
        # One row per placement: the wider bound of the two pauses.
        row.append(verdicts[0] if verdicts[0] == verdicts[1] else " / ".join(verdicts))
        rows.append(row + [wider(type_bound(widths_by_poll[0], types),
                                 type_bound(widths_by_poll[1000], types))
                           for _, types in TYPE_GROUPS])
        meds = twenty_medians(runs, rounds, mode)
        for label, types in TYPE_GROUPS:
            type_rows.append([mode, label, meds[label], type_bound(widths_by_poll[0], types),
                              type_bound(widths_by_poll[1000], types)])
    steal = meta.get("steal_share")
    facts = "load %s at the start, %s at the end; steal %s of the CPU time (%.0f ms over the reports)" % (
        meta.get("load"), meta.get("load_end"),
        "unknown" if steal is None else "%.2f%%" % (100 * steal), steal_ms)
    print(facts)
    if results:
        save(results, meta, rows, type_rows, len(rounds), facts)
    sys.exit(status)


def save(path, meta, rows, type_rows, rounds, facts):
    """Merges the "poll" and "poll-types" tables into PATH."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    common = {
        "command": "bash bench/deferred_poll.sh build/sandboxtime OUTDIR && python3 bench/deferred_poll.py "
                   "OUTDIR --results bench/results/deferred.json   # as root, SEED=%s" % meta.get("seed"),
        "date": meta.get("date"), "commit": meta.get("commit"),
        "notes": "docs/bench-notes/deferred-poll.md",
    }
    doc["tables"]["poll"] = dict(common, **{
        "title": "deferred figures against the poll pause, %d paired rounds" % rounds,
        "columns": ["placement", "differing at 0 µs", "differing at 1000 µs", "verdict"]
        + ["bound: " + label for label, _ in TYPE_GROUPS],
        "rows": rows,
        "text": ["Differing: figures whose interval of the per-round difference to 20 µs excludes "
                 "agreement, and how many chance allows at 5%. Bound: the widest end of those "
                 "intervals as a share of the 20 µs median (median over the sets holding the "
                 "type; the wider of the two pauses). " + facts + "."]})
    doc["tables"]["poll-types"] = dict(common, **{
        "title": "deferred figures against the poll pause, per type",
        "columns": ["mode", "type", "20 µs median over sets (µs)", "bound at 0 µs", "bound at 1000 µs"],
        "rows": type_rows})
    write_results(path, doc)


if __name__ == "__main__":
    main()
