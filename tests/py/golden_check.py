"""golden_check.py FILE...: every summary in these JSON reports agrees with
its own samples, recomputed by Python's statistics module (not by the code
that wrote them): n, min, max, median, mean, the sample standard deviation and
p95 (linear interpolation between order statistics, statistics.quantiles'
"inclusive" method); and every increment's median and interval bounds its
median. Used on the golden files (tests/integration/golden.sh), so that a
golden file that a writer made wrong once cannot stay wrong.
"""
import json
import math
import statistics
import sys


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)


def p95(xs):
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=20, method="inclusive")[18]


def check_summary(where, s):
    xs = s["samples"]
    assert s["n"] == len(xs) > 0, (where, s["n"], len(xs))
    want = {"min": min(xs), "max": max(xs), "median": statistics.median(xs),
            "mean": statistics.fmean(xs), "p95": p95(xs)}
    if len(xs) > 1:
        want["stddev"] = statistics.stdev(xs)
    for k, v in want.items():
        assert s[k] is not None and close(s[k], v), f"{where}.{k}: {s[k]}, recomputed {v}"


def check_increment(where, s):
    xs = s["samples"]
    assert s["n"] == len(xs), (where, s["n"], len(xs))
    if xs:
        assert close(s["median"], statistics.median(xs)), f"{where}.median: {s['median']}"
    if s["ci_low"] is not None:
        assert s["ci_low"] <= s["median"] <= s["ci_high"], (where, s)


def walk(where, o, counts):
    if isinstance(o, dict):
        if isinstance(o.get("samples"), list) and "p95" in o:
            check_summary(where, o)
            counts[0] += 1
        elif isinstance(o.get("samples"), list) and "ci_low" in o:
            check_increment(where, o)
            counts[1] += 1
        for k, v in o.items():
            walk(f"{where}.{k}", v, counts)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            walk(f"{where}[{i}]", v, counts)


def main():
    for path in sys.argv[1:]:
        counts = [0, 0]
        walk(path, json.load(open(path)), counts)
        print(f"# {path}: {counts[0]} summaries, {counts[1]} increments recomputed")


if __name__ == "__main__":
    main()
