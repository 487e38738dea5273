#!/usr/bin/env python3
"""bench/deferred_check.py TMPDIR [RESULTS.json]: the checks of
bench/deferred_check.sh over the reports it left in TMPDIR.

(a) the net namespace's freed time (deferred_by_type.net, median) with
    --ns=all and with --alone against --ns=net: within 15%;
(b) sandboxtime's per-type figure of a --ns=TYPE run against
    clone_loop --deferred (idle gaps): within 20% for pid, net and user; ipc
    inside clone_loop's bracket of its blocking call (+-20%).

Prints one line per check; with RESULTS.json also writes them as a table of
bench/results/ (see bench/summary.py), its date, command and commit taken
from the environment (DC_DATE, DC_COMMAND, DC_COMMIT). Exit status 1 when a
check is out of tolerance.
"""
import json
import os
import sys


def load(tmp, name):
    with open(os.path.join(tmp, name), encoding="utf-8") as f:
        return json.load(f)


def layer(doc, name):
    return next(l for l in doc["layers"] if l["layer"] == name)


def freed(obj, t):
    return obj["deferred_by_type"][t]["median"]


def ms(us):
    return f"{us / 1000:.2f}"


class Checks:
    def __init__(self):
        self.rows, self.fails = [], 0

    def ratio(self, what, got, ref, tol):
        r = got / ref if ref else float("inf")
        ok = abs(r - 1) <= tol
        self.fails += not ok
        verdict = "ok" if ok else "FAIL"
        print(f"  {what:<38} {got / 1000:9.2f} ms  vs {ref / 1000:9.2f} ms  ratio {r:5.2f}  "
              f"{verdict} (within {tol:.0%})")
        self.rows.append([what, f"{ms(got)} ms", f"{ms(ref)} ms", f"{r:.2f}",
                          f"{tol:.0%}: {'ok' if ok else '**out**'}"])

    def bracket(self, what, got, lo, hi):
        ok = lo <= got <= hi
        self.fails += not ok
        print(f"  {what:<38} {got / 1000:9.2f} ms  in [{lo / 1000:.2f}, {hi / 1000:.2f}] ms"
              f"  {'ok' if ok else 'FAIL'}")
        self.rows.append([what, f"{ms(got)} ms", f"[{ms(lo)}, {ms(hi)}] ms", "-",
                          f"inside: {'ok' if ok else '**out**'}"])


def run(tmp):
    c = Checks()
    print("(a) the net namespace's freed time, three ways (medians):")
    ref = freed(layer(load(tmp, "net.json"), "net"), "net")
    c.ratio("net: --ns=all vs --ns=net", freed(layer(load(tmp, "all.json"), "net"), "net"),
            ref, 0.15)
    alone = layer(load(tmp, "alone.json"), "net").get("alone")
    c.ratio("net: --alone vs --ns=net", freed(alone, "net"), ref, 0.15)
    print("(b) one type's freed time against clone_loop --deferred (idle gaps):")
    for t in ("ipc", "pid", "net", "user"):
        st = freed(layer(load(tmp, f"st-{t}.json"), t), t)
        cl = load(tmp, f"ref-{t}.json")
        end = cl["deferred_us"]["median"]
        if t != "ipc":
            c.ratio(f"{t}: sandboxtime vs clone_loop", st, end, 0.20)
            continue
        # ipc waits inside unshare(): clone_loop brackets the free by the
        # start and the end of that call; sandboxtime's figure must fall inside.
        c.bracket("ipc: sandboxtime in clone_loop's bracket", st,
                  cl["attempt_start_us"]["median"] * 0.8, end * 1.2)
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
        "columns": ["check", "sandboxtime", "reference", "ratio", "tolerance"],
        "rows": c.rows,
        "text": [f"Drain waits of the --ns=all run: {drain:.0f} ms in all (untimed, reported as "
                 "measurement.drain_wait_us)."],
    }}}


def main():
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
