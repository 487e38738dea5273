"""compare_check.py: checks a `sandboxtime compare --format=json` document
(schema sandboxtime/compare/v1) against the reports it compared
(tests/integration/compare.sh).

  figures A.json B.json CMP.json   every figure of A with raw samples is
                                   compared with B, with its sample counts,
                                   and with 6 or more a side an interval
                                   (increments: of B - A, never of B/A);
                                   increments are among them
  known CMP.json FACTOR VERDICT    every figure with an interval has FACTOR in
                                   it and the verdict VERDICT ("within noise",
                                   "slower", ...); the others: ratio FACTOR
  markdown A.json MD_FILE          the markdown has one table row per figure
                                   of A that has raw samples
  drain CMP.json                   drain_a.json against drain_b.json: the
                                   drains slower but never gating, the user
                                   teardown (a 0 in A) no ratio, with why
"""
import json
import sys

VERDICTS = {"within noise", "slower", "faster", "no interval", "no ratio"}
ID_KEYS = ("layer", "set", "path", "op", "where", "name", "step")
SKIPPED = {"schema", "tool", "host", "config"}


def fail(msg):
    print("compare check failed:", msg)
    sys.exit(1)


def sampled_figures(node, prefix="", top=True, out=None):
    """Paths of the objects with a median and raw samples, named as the
    man page says: keys joined by '.', array elements by their id keys."""
    out = {} if out is None else out
    for key, v in node.items():
        if top and key in SKIPPED:
            continue
        name = prefix + "." + key if prefix else key
        if isinstance(v, dict) and ("median" in v or "p50" in v):
            if isinstance(v.get("samples"), list):
                out[name] = len(v["samples"])
        elif isinstance(v, dict):
            sampled_figures(v, name, False, out)
        elif isinstance(v, list):
            for i, el in enumerate(v):
                if isinstance(el, dict):
                    ident = "/".join(el[k] for k in ID_KEYS if isinstance(el.get(k), str))
                    sampled_figures(el, "%s[%s]" % (name, ident or i), False, out)
    return out


def load(path):
    with open(path) as f:
        return json.load(f)


def check_doc(cmp):
    if cmp.get("schema") != "sandboxtime/compare/v1":
        fail("schema %r" % cmp.get("schema"))
    for key in ("tool", "seed", "resamples", "files", "host_differences", "figures",
                "over_limit"):
        if key not in cmp:
            fail("no key %r" % key)
    for row in cmp["figures"]:
        if row["verdict"] not in VERDICTS:
            fail("verdict %r" % row["verdict"])


def figures(a_path, b_path, cmp_path):
    a, cmp = load(a_path), load(cmp_path)
    check_doc(cmp)
    rows = {r["figure"]: r for r in cmp["figures"] if r["file"] == b_path}
    want = sampled_figures(a)
    if not want:
        fail("%s has no figure with samples" % a_path)
    for name, n in want.items():
        row = rows.get(name)
        if row is None:
            fail("figure %s of %s is not compared" % (name, a_path))
        if row["samples_a"] != n:
            fail("%s: samples_a %r, the file has %d" % (name, row["samples_a"], n))
        increment = ".increments." in name
        # An increment's ratio is null where A's median is 0 or below; its shift never is.
        if increment and not isinstance(row["shift"], float):
            fail("%s: shift %r" % (name, row["shift"]))
        if not increment and row["verdict"] != "no ratio" and not isinstance(row["ratio"], float):
            fail("%s: ratio %r" % (name, row["ratio"]))
        # Six samples a side or more, and a ratio: an interval (issue 27); an increment's
        # is of B - A, from each file's rounds, and never of the ratio.
        key = "shift_ci_low" if increment else "ci_low"
        if (key == "shift_ci_low" or row["verdict"] != "no ratio") \
                and min(n, row["samples_b"]) >= 6 and not isinstance(row[key], float):
            fail("%s: no %s with %d and %d samples" % (name, key, n, row["samples_b"]))
        if key == "shift_ci_low" and row["ci_low"] is not None:
            fail("%s: an increment with a ratio interval" % name)
    # Increments carry their paired differences: compared from samples too.
    if not any(".increments." in name for name in want):
        fail("no increment with samples in %s" % a_path)
    print("# %d figures of %s compared" % (len(want), a_path))


def known(cmp_path, factor, verdict):
    cmp = load(cmp_path)
    check_doc(cmp)
    factor = float(factor)
    with_interval = 0
    for row in cmp["figures"]:
        if abs(row["ratio"] - factor) > 1e-6:
            fail("%s: ratio %r, expected %g" % (row["figure"], row["ratio"], factor))
        if row["ci_low"] is None:
            if row["verdict"] != "no interval":
                fail("%s: no interval but verdict %r" % (row["figure"], row["verdict"]))
            continue
        with_interval += 1
        if not row["ci_low"] <= factor <= row["ci_high"]:
            fail("%s: %g outside [%g, %g]" % (row["figure"], factor, row["ci_low"],
                                              row["ci_high"]))
        if row["verdict"] != verdict:
            fail("%s: verdict %r, expected %r" % (row["figure"], row["verdict"], verdict))
    if not with_interval:
        fail("no figure with an interval")


def markdown(a_path, md_path):
    want = sampled_figures(load(a_path))
    with open(md_path) as f:
        lines = f.read().splitlines()
    rows = [ln for ln in lines if ln.startswith("| ") and not ln.startswith("| figure ")
            and not ln.startswith("| ---")]
    if not any(ln.startswith("| figure | A | B | B/A |") for ln in lines):
        fail("no table header")
    names = {ln.split(" | ")[0][2:] for ln in rows}
    missing = set(want) - names
    if missing:
        fail("not in the markdown: %s" % sorted(missing)[:5])


def drain(cmp_path):
    cmp = load(cmp_path)
    seen = 0
    for r in cmp["figures"]:
        name = r["figure"]
        if name.endswith("deferred_drain_us"):
            seen += 1
            if r["verdict"] != "slower" or r["ci_low"] <= 9:
                fail("%s: want slower by ~10x, got %s %s" % (name, r["verdict"], r["ci_low"]))
            if r["gates"] is not False or r["over_limit"] is not False \
                    or "never gates" not in (r["why"] or ""):
                fail("%s: gates %s, over_limit %s, why %r" % (name, r["gates"],
                                                                 r["over_limit"], r["why"]))
        elif name == "layers[user].teardown_us":
            seen += 1
            if r["verdict"] != "no ratio" or "sample <= 0" not in (r["why"] or ""):
                fail("%s: %s, why %r" % (name, r["verdict"], r["why"]))
        elif r["gates"] is not True or r["why"] is not None:
            fail("%s: gates %s, why %r" % (name, r["gates"], r["why"]))
    if seen != 3:
        fail("want 2 drains and the user teardown, saw %d" % seen)
    if cmp["over_limit"] != 0:
        fail("over_limit %s" % cmp["over_limit"])


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"figures": figures, "known": known, "markdown": markdown, "drain": drain}[cmd](*args)


if __name__ == "__main__":
    main()
