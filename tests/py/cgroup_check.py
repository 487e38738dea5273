"""cgroup_check.py WHAT ARG... (tests/integration/cgroup.sh):

  steps FILE          the step names of a sandboxtime/v1 report, one line
  unavailable FILE    the report says the cgroup layer was unavailable and
                      made no cgroup step
  layers FILE MODE    layers --cgroup --repeat=5: the figures and their
                      statistics (root), or unavailable with why (nobody)
  run FILE PID [v1]   a run's "cgroup": every path ends in sandboxtime-PID,
                      the unified one (if any) is the one born into; steps
                      cgroup_mkdir before clone, then cgroup_attach (v1),
                      cgroup_rmdir last
  forks N             forks up to N children that sleep 2 s; prints EAGAIN
                      when a fork is refused so, then how many worked
"""
import errno
import json
import os
import sys
import time


def steps(path):
    print(" ".join(s["step"] for s in json.load(open(path))["steps"]))


def unavailable(path):
    d = json.load(open(path))
    assert any("cgroup layer unavailable" in e for e in d["errors"]), d["errors"]
    assert not any(s["step"].startswith("cgroup") for s in d["steps"]), d["steps"]


def layers(path, mode):
    d = json.load(open(path))
    c = d["cgroup_layer"]
    if mode == "nobody":
        assert c["available"] is False and "not writable" in c["reason"], c
        assert any("cgroup layer unavailable" in e for e in d["errors"]), d["errors"]
        return
    assert c["available"] is True and c["mode"] in ("v1", "v2", "hybrid"), c
    f = c["figures"]
    for k in ("mkdir_us", "attach_us", "rmdir_us"):
        s = f[k]
        assert s["n"] == 5 and s["median"] > 0 and s["min"] <= s["median"] <= s["max"], (k, s)
    freed = [k for k in ("released_v2_us", "freed_v1_us") if k in c["unobserved"]]
    assert freed, c
    for k in freed:
        n = f[k]["n"] if f.get(k) else 0
        assert n + c["unobserved"][k] == 5, (k, n, c["unobserved"])
    # Seen at least once: the deferred part is observed, not assumed.
    assert any(f.get(k) and f[k]["n"] > 0 for k in freed), c


def layers_csv(path, mode, plain):
    """layers --cgroup --format=csv: the cgroup layer's columns, filled on its own row only."""
    import csv
    rows = list(csv.DictReader(open(path)))
    figs = ["mkdir", "limits", "attach", "rmdir", "released_v2", "freed_v1"]
    stats = ["min", "median", "p95", "mean", "stddev"]
    cols = [f"cgroup_{f}_{s}_us" for f in figs for s in stats] + [f"cgroup_{f}_n" for f in figs]
    header = list(rows[0].keys())
    assert all(c in header for c in cols), [c for c in cols if c not in header]
    assert header[-len(figs) * 6:] == [c for f in figs for c in
                                       [f"cgroup_{f}_{s}_us" for s in stats] + [f"cgroup_{f}_n"]], header
    cg = [r for r in rows if r["layer"] == "cgroup_layer"]
    assert len(cg) == 1 and rows[-1] is cg[0], [r["layer"] for r in rows]
    for r in rows[:-1]:
        assert all(r[c] == "" for c in cols), r
    r = cg[0]
    assert r["setup_median_us"] == "" and r["incremental_setup_us"] == "", r
    if mode == "nobody":
        assert r["available"] == "0" and "not writable" in r["reason"], r
        assert all(r[c] == "" for c in cols), r
    else:
        assert r["available"] == "1" and r["reason"] == "", r
        for f in ("mkdir", "limits", "attach", "rmdir"):
            assert r[f"cgroup_{f}_n"] == "3", (f, r)
            lo, med, hi = (float(r[f"cgroup_{f}_{s}_us"]) for s in ("min", "median", "p95"))
            assert 0 < lo <= med <= hi, (f, lo, med, hi)
    # Without --cgroup the header has no cgroup columns.
    plain_header = next(csv.reader(open(plain)))
    assert not [c for c in plain_header if c.startswith("cgroup_")], plain_header


def run(path, pid, v1):
    d = json.load(open(path))
    c = d["cgroup"]
    assert c["mode"] in ("v1", "v2", "hybrid") and c["paths"], c
    assert all(p.endswith("/sandboxtime-" + pid) for p in c["paths"]), c
    if c["mode"] != "v1":
        assert c["born_into"] in c["paths"], c
    s = [x["step"] for x in d["steps"]]
    assert s.index("cgroup_mkdir") < s.index("clone") and s[-1] == "cgroup_rmdir", s
    if v1:
        assert s[s.index("clone") + 1] == "cgroup_attach", s


def forks(n):
    made = 0
    for _ in range(n):
        try:
            pid = os.fork()
        except OSError as e:
            print("EAGAIN" if e.errno == errno.EAGAIN else e)
            break
        if pid == 0:
            time.sleep(2)
            os._exit(0)
        made += 1
    print(made)


def main():
    what, args = sys.argv[1], sys.argv[2:]
    try:
        if what == "steps":
            steps(args[0])
        elif what == "unavailable":
            unavailable(args[0])
        elif what == "layers":
            layers(args[0], args[1])
        elif what == "layers-csv":
            layers_csv(args[0], args[1], args[2])
        elif what == "run":
            run(args[0], args[1], args[2] if len(args) > 2 else "")
        elif what == "forks":
            forks(int(args[0]))
        else:
            raise SystemExit(__doc__)
    except AssertionError as e:
        print("cgroup check failed:", e)
        sys.exit(1)


if __name__ == "__main__":
    main()
