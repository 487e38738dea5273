"""What the bench scripts' Python computes alike: the facts bench/lib.sh's
bench_meta recorded, the spread over rounds, and a round's result files.

Imported by bench/*.py (and bench/lab/*.py, which put bench/ on sys.path).
"""
import glob
import json
import math
import os
import re
import statistics
import sys

_FACT = re.compile(r"([A-Za-z_][A-Za-z0-9_ ]*?)(?:: |=)(.*)")


def read_meta(path):
    """The KEY: VALUE (meta.txt) or KEY=VALUE (facts.txt) lines of PATH as a
    dict, with "steal" the share of CPU time the hypervisor took between the
    steal and steal_end counts (None where either is missing)."""
    meta = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _FACT.fullmatch(line.rstrip("\n"))
            if m:
                meta[m.group(1)] = m.group(2)
    meta["steal_share"] = steal_share(meta.get("steal"), meta.get("steal_end"))
    return meta


def steal_share(begin, end):
    """The share stolen between two "STEAL TOTAL" counts of bench_steal
    (src/base/steal.c's arithmetic), or None."""
    try:
        s0, t0 = (int(x) for x in begin.split())
        s1, t1 = (int(x) for x in end.split())
    except (AttributeError, ValueError):
        return None
    return (s1 - s0) / (t1 - t0) if t1 > t0 else 0.0


def spread(values, fmt="%.1f"):
    """median (min-max) over rounds."""
    return (fmt + " (" + fmt + "\u2013" + fmt + ")") % (statistics.median(values), min(values), max(values))


def median_interval(d, coverage=0.95):
    """The exact binomial order-statistic interval of the median of D:
    [d(k), d(n-k+1)], the narrowest whose coverage is at least COVERAGE,
    as (low, high, its coverage); None when n is too small for it (below
    6 at 95%), as the project's increments."""
    n, best = len(d), None
    for k in range(1, n // 2 + 1):
        cov = 1 - 2 * sum(math.comb(n, j) for j in range(k)) / 2 ** n
        if cov >= coverage:
            best = (k, cov)
    if best is None:
        return None
    s = sorted(d)
    k, cov = best
    return s[k - 1], s[n - k], cov


def load_runs(raw, name):
    """The JSON files RAW/NAME.*.json in name order."""
    docs = []
    for path in sorted(glob.glob(os.path.join(raw, name + ".*.json"))):
        with open(path, encoding="utf-8") as f:
            docs.append(json.load(f))
    return docs


def load_rounds(raw, name):
    """The JSON files RAW/NAME.R.json as {R: document}, R a whole number."""
    runs = {}
    for path in glob.glob(os.path.join(raw, name + ".*.json")):
        with open(path, encoding="utf-8") as f:
            runs[int(path.rsplit(".", 2)[1])] = json.load(f)
    return runs


def hyperfine_round_medians(out, prefix):
    """{command: [median of each round, ms]} from hyperfine's exports
    OUT/PREFIX-round*.json, the rounds in name order."""
    per = {}
    for path in sorted(glob.glob(os.path.join(out, "%s-round*.json" % prefix))):
        with open(path, encoding="utf-8") as f:
            results = json.load(f)["results"]
        for r in results:
            per.setdefault(r["command"], []).append(statistics.median(r["times"]) * 1e3)
    return per


def write_results(path, doc):
    """DOC in the format of bench/results/ (summary.py reads it): indented
    JSON, UTF-8 as it is, one newline at the end."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


def outdir_args(argv, script):
    """OUTDIR [--results FILE] of a bench's .py: (OUTDIR, FILE or None); exits with usage otherwise."""
    if len(argv) == 3 and argv[1] == "--results":
        return argv[0], argv[2]
    if len(argv) != 1:
        sys.exit("usage: %s OUTDIR [--results FILE]" % script)
    return argv[0], None
