#!/usr/bin/env python3
"""bench/deferred_check.py TMPDIR [RESULTS.json]: the checks of
bench/deferred_check.sh over the reports it left in TMPDIR.

(a) the net namespace's freed time (deferred_by_type.net, median) with
    --ns=all and with --alone against --ns=net: within 15%;
(b) sandboxtime's per-type figure of a --ns=TYPE run against
    clone_loop --deferred (idle gaps): within 20% for ipc, pid, net and user.

Every ratio of medians comes with a 95% interval, bootstrapped (seeded) from
both tools' stored samples: the resolution of the check. ipc's free is about
one RCU grace period, spread from 0.1 to 15 ms here (whether a grace period
was already running when the namespace went), so its median needs more
samples than the others for the same interval (deferred_check.sh: N_IPC).

Prints one line per check; with RESULTS.json also writes them as a table of
bench/results/ (see bench/summary.py), its date, command and commit taken
from the environment (DC_DATE, DC_COMMAND, DC_COMMIT). Exit status 1 when a
check is out of tolerance.

deferred_check.py --merge OUT.json RUN1.json RUN2.json...: one table of
several runs' RESULTS files side by side (ratio, interval and verdict of
each), for docs/bench-notes/results.md.
"""
import json
import os
import random
import statistics
import sys

BOOTSTRAP = 2000
SEED = 12


def load(tmp, name):
    with open(os.path.join(tmp, name), encoding="utf-8") as f:
        return json.load(f)


def layer(doc, name):
    return next(l for l in doc["layers"] if l["layer"] == name)


def freed(obj, t):
    return obj["deferred_by_type"][t]["median"]


def freed_samples(obj, t):
    return obj["deferred_by_type"][t]["samples"]


def ratio_interval(got, ref):
    """95% bootstrap interval of median(got) / median(ref), both resampled; None without samples."""
    if not got or not ref:
        return None
    rng = random.Random(SEED)
    ratios = []
    for _ in range(BOOTSTRAP):
        g = statistics.median(rng.choices(got, k=len(got)))
        r = statistics.median(rng.choices(ref, k=len(ref)))
        if r > 0:
            ratios.append(g / r)
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def ms(us):
    return f"{us / 1000:.2f}"


class Checks:
    def __init__(self):
        self.rows, self.fails = [], 0

    def ratio(self, what, got, ref, tol):
        """got and ref: lists of samples; the medians' ratio must be within tol of 1."""
        g, r0 = statistics.median(got), statistics.median(ref)
        r = g / r0 if r0 else float("inf")
        ci = ratio_interval(got, ref)
        ok = abs(r - 1) <= tol
        self.fails += not ok
        verdict = "ok" if ok else "FAIL"
        ci_text = f"{ci[0]:.2f}-{ci[1]:.2f}" if ci else "-"
        print(f"  {what:<38} {g / 1000:9.2f} ms  vs {r0 / 1000:9.2f} ms  ratio {r:5.2f} "
              f"(95% {ci_text}, n {len(got)}/{len(ref)})  {verdict} (within {tol:.0%})")
        self.rows.append([what, f"{ms(g)} ms", f"{ms(r0)} ms", f"{r:.2f}", ci_text,
                          f"{len(got)} / {len(ref)}", f"{tol:.0%}: {'ok' if ok else '**out**'}"])


def run(tmp):
    c = Checks()
    print("(a) the net namespace's freed time, three ways (medians):")
    ref = freed_samples(layer(load(tmp, "net.json"), "net"), "net")
    c.ratio("net: --ns=all vs --ns=net", freed_samples(layer(load(tmp, "all.json"), "net"), "net"),
            ref, 0.15)
    alone = layer(load(tmp, "alone.json"), "net").get("alone")
    c.ratio("net: --alone vs --ns=net", freed_samples(alone, "net"), ref, 0.15)
    print("(b) one type's freed time against clone_loop --deferred (idle gaps):")
    for t in ("ipc", "pid", "net", "user"):
        st = freed_samples(layer(load(tmp, f"st-{t}.json"), t), t)
        cl = load(tmp, f"ref-{t}.json")["deferred_us"]["samples"]
        c.ratio(f"{t}: sandboxtime vs clone_loop", st, cl, 0.20)
    drain = load(tmp, "all.json")["measurement"]["drain_wait_us"] / 1000
    print(f"drain waits in the --ns=all run: {drain:.0f} ms in all (untimed)")
    print("deferred_check:", "all agree" if not c.fails else f"{c.fails} check(s) out of tolerance")
    return c, drain


def results_table(c, drain):
    return {"tables": {"check": {
        "title": "deferred teardown: consistency and clone_loop",
        "command": os.environ.get("DC_COMMAND", "bash bench/deferred_check.sh build/sandboxtime"),
        "date": os.environ.get("DC_DATE", "?"),
        "commit": os.environ.get("DC_COMMIT", "?"),
        "notes": "docs/bench-notes/14-drain-settle.md",
        "columns": ["check", "sandboxtime", "reference", "ratio", "95% interval", "samples",
                    "tolerance"],
        "rows": c.rows,
        "text": [f"Drain waits of the --ns=all run: {drain:.0f} ms in all (untimed, reported as "
                 "measurement.drain_wait_us)."],
    }}}


def merge(out, runs):
    docs = [json.load(open(f, encoding="utf-8"))["tables"]["check"] for f in runs]
    first = docs[0]
    columns = ["check"]
    for i, _ in enumerate(docs, 1):
        columns += [f"run {i} sandboxtime", f"run {i} reference", "ratio (95%)", "verdict"]
    rows = []
    for k, row in enumerate(first["rows"]):
        merged = [row[0]]
        for d in docs:
            r = d["rows"][k]
            assert r[0] == row[0], (r[0], row[0])
            merged += [r[1], r[2], f"{r[3]} ({r[4]})", r[6]]
        rows.append(merged)
    table = dict(first, title=f"{first['title']}, {len(docs)} runs", columns=columns, rows=rows,
                 text=[t for d in docs for t in d["text"]])
    table.pop("align", None)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"tables": {"check": table}}, f, indent=2, ensure_ascii=False)
        f.write("\n")


def main():
    if len(sys.argv) > 3 and sys.argv[1] == "--merge":
        merge(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    c, drain = run(sys.argv[1])
    if len(sys.argv) == 3:
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            json.dump(results_table(c, drain), f, indent=2, ensure_ascii=False)
            f.write("\n")
    sys.exit(1 if c.fails else 0)


if __name__ == "__main__":
    main()
