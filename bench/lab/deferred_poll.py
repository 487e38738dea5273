"""bench/lab/deferred_poll.py CMP.json POLL_US: the deferred_by_type rows of a
`sandboxtime compare -J` of the 20 us run (A) against the POLL_US run (B),
one line each, and whether more of them differ than chance explains
(bench/lab/deferred_poll.sh). Exit status 1 when they do."""
import json, sys
cmp, poll = json.load(open(sys.argv[1])), int(sys.argv[2])
bad = 0
for r in cmp["figures"]:
    if ".deferred_by_type." not in r["figure"]:
        continue
    ok = r["verdict"] == "within noise"
    # A longer pause can only add up to itself to a free that lands in it.
    if not ok and poll == 1000 and r["verdict"] == "slower":
        ok = r["median_b"] - r["median_a"] <= poll
    bad += not ok
    print("%-48s %9.1f %9.1f  %s  [%s, %s]  %s" % (
        r["figure"], r["median_a"], r["median_b"], r["verdict"],
        "%.3f" % r["ci_low"] if r["ci_low"] is not None else "-",
        "%.3f" % r["ci_high"] if r["ci_high"] is not None else "-", "ok" if ok else "DIFFERS"))
n = sum(".deferred_by_type." in r["figure"] for r in cmp["figures"])
# Each 95% interval misses by chance one time in twenty: that many may differ.
chance = 0.05 * n
print("poll %d us against 20 us: %d of %d figures differ, %.1f expected by chance: %s" % (
    poll, bad, n, chance, "agree" if bad <= chance else "DEPEND ON THE POLL"))
sys.exit(1 if bad > chance else 0)
