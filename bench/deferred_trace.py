#!/usr/bin/env python3
"""bench/deferred_trace.py OUTDIR [--results FILE]: sandboxtime's deferred figures against the
kernel's free events, from what bench/deferred_trace.sh left in OUTDIR/raw
(TYPE.R.json and TYPE.R.pid per run, trace.txt, meta.txt).

Each deferred sample is a task three forks below the run's sandboxtime
(sandboxtime -> lab -> helper -> sample); the namespaces allocated by the
helper just before that fork are the sample's. Per sample and type:

The first sample of a run is sandboxtime's unrecorded round and is skipped.

  start   the helper's wait4() returning that task (sys_exit_wait4), the
          moment sandboxtime stamps as "reaped";
  kernel  the first event after the allocation that frees the same pointer:
          net  kmem_cache_free (cleanup_net, after the count drops there),
          pid  kmem_cache_free (rcu_do_batch: delayed_free_pidns, one RCU
               grace period after destroy_pid_namespace dropped the count),
          ipc  kfree in free_ipc (right after the count drops),
          user the free_user_ns work item starting on it (the count drops
               there; the memory goes later through kfree_rcu, untraced);
  ours    the sample's figure in deferred_by_type (the same order).

Prints per type the medians, their spread, the per-sample ratio ours/kernel
with its exact binomial interval, and whether the median ratio is within
10%; writes OUTDIR/deferred_trace.json, and with --results merges the
table "trace" into FILE (bench/results/deferred.json). Exit status 1 when a sample has no
traced free (the trace missed it) or the pairing fails.
"""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import median_interval, outdir_args, read_meta, write_results  # noqa: E402

# "comm-pid [cpu] flags ts: event: text"; a syscall's exit reads "sys_wait4 -> 0xRET".
LINE = re.compile(r"\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+)(?:: | -> )(.*)")
ALLOC = {  # event, what in its text says the type
    "kmem_cache_alloc": {"name=net_namespace": "net", "name=pid_namespace": "pid",
                         "name=user_namespace": "user"},
    "kmalloc": {"call_site=copy_ipcs": "ipc"},
}
USER_NS_SIZE = 4096  # the work item lies inside the namespace, well below this
TOLERANCE = 0.10


def parse(path):
    """The trace's events as (ts_us, pid, event, text), in time order."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                out.append((float(m.group(3)) * 1e6, int(m.group(2)), m.group(4), m.group(5)))
    out.sort(key=lambda e: e[0])
    return out


def field(text, name):
    m = re.search(r"\b%s=(\S+)" % name, text)
    return m.group(1) if m else None


class Trace:
    """The process tree, the namespaces each fork made, and every free."""

    def __init__(self, events):
        self.parent, self.children, self.fork_ts = {}, {}, {}
        self.made = {}  # child pid -> {type: (alloc ts, ptr)}
        self.exit_ts, self.reaped = {}, {}  # pid -> ts
        self.frees = []  # (ts, type, ptr or work address)
        self.cleanup_net = []  # (start, end) of each cleanup_net run
        running = None
        pending = {}  # pid -> {type: (ts, ptr)} allocated since its last fork
        for ts, pid, ev, text in events:
            if ev in ALLOC:
                for key, typ in ALLOC[ev].items():
                    if key in text:
                        pending.setdefault(pid, {})[typ] = (ts, int(field(text, "ptr"), 16))
            elif ev == "sched_process_fork":
                p, c = int(field(text, "pid")), int(field(text, "child_pid"))
                self.parent[c] = p
                self.children.setdefault(p, []).append(c)
                self.fork_ts[c] = ts
                self.made[c] = pending.pop(p, {})
            elif ev == "sched_process_exit":
                self.exit_ts.setdefault(int(field(text, "pid")), ts)
            elif ev == "sys_wait4":
                ret = int(text, 16)
                if ret > 0 and self.parent.get(ret) == pid:
                    self.reaped.setdefault(ret, ts)
            elif ev == "kmem_cache_free":
                typ = "net" if "name=net_namespace" in text else "pid"
                self.frees.append((ts, typ, int(field(text, "ptr"), 16)))
            elif ev == "kfree":
                self.frees.append((ts, "ipc", int(field(text, "ptr"), 16)))
            elif ev == "workqueue_execute_start" and text.endswith("free_user_ns"):
                work = int(re.search(r"work struct (\w+)", text).group(1), 16)
                self.frees.append((ts, "user", work))
            elif ev == "workqueue_execute_start" and text.endswith("cleanup_net"):
                running = ts
            elif ev == "workqueue_execute_end" and text.endswith("cleanup_net") and running:
                self.cleanup_net.append((running, ts))
                running = None

    def samples(self, root):
        """The deferred samples under ROOT (depth 3), in fork order."""
        out = []
        for lab in self.children.get(root, []):
            for helper in self.children.get(lab, []):
                out.extend(self.children.get(helper, []))
        return sorted(out, key=lambda c: self.fork_ts[c])

    def net_released_at(self, exit_ts):
        """The end of the first cleanup_net run that began after EXIT_TS: the
        run that took the sample's netns off the cleanup list dropped its
        count at its end (dec_net_namespaces), but freed its memory only in
        the next run (after one more rcu_barrier)."""
        return next((end for start, end in self.cleanup_net if start > exit_ts), None)

    def freed_at(self, typ, alloc_ts, ptr):
        """The first free of the namespace at PTR after ALLOC_TS, or None."""
        for ts, t, p in self.frees:
            if ts <= alloc_ts or t != typ:
                continue
            if p == ptr or (typ == "user" and ptr <= p < ptr + USER_NS_SIZE):
                return ts
        return None


def run_samples(trace, raw, typ, rnd):
    """[(ours, kernel free, kernel count release, exit to reap)] in µs for
    one run, or an error text."""
    with open(os.path.join(raw, "%s.%d.pid" % (typ, rnd)), encoding="utf-8") as f:
        root = int(f.read())
    with open(os.path.join(raw, "%s.%d.json" % (typ, rnd)), encoding="utf-8") as f:
        doc = json.load(f)
    el = next(l for l in doc["layers"] if l["layer"] == typ)
    ours = el["deferred_by_type"][typ]["samples"]
    # The lab's first round is not recorded (measure.c, deferred_rounds).
    kids = [c for c in trace.samples(root) if typ in trace.made.get(c, {})][1:]
    if len(kids) != len(ours):
        return "%s round %d: %d samples in the report, %d traced" % (typ, rnd, len(ours), len(kids))
    out = []
    for c, mine in zip(kids, ours):
        alloc_ts, ptr = trace.made[c][typ]
        start, freed = trace.reaped.get(c), trace.freed_at(typ, alloc_ts, ptr)
        exited = trace.exit_ts.get(c)
        released = trace.net_released_at(exited) if typ == "net" and exited else freed
        if start is None or freed is None or released is None:
            return "%s round %d: sample task %d has no traced %s" % (
                typ, rnd, c, "reap" if start is None else "free")
        out.append((mine, freed - start, released - start, start - (exited or start)))
    return out


def interval_text(iv, fmt):
    return "n<6: none" if iv is None else ("[" + fmt + ", " + fmt + "]") % (iv[0], iv[1])


def against(ours, kern):
    """ours against one kernel mark: medians, spread, the per-sample ratio
    and difference with their exact intervals, and the 10% verdict."""
    ratios = [o / k for o, k in zip(ours, kern) if k > 0]
    diffs = [o - k for o, k in zip(ours, kern)]
    med = statistics.median(ratios) if ratios else None
    riv, div = median_interval(ratios), median_interval(diffs)
    return {
        "kernel_us": statistics.median(kern), "kernel_range": [min(kern), max(kern)],
        "ratio": med, "ratio_ci": riv[:2] if riv else None,
        "kernel_not_after_start": len(ours) - len(ratios),
        "diff_us": statistics.median(diffs), "diff_ci": div[:2] if div else None,
        "within_10pct": med is not None and abs(med - 1) <= TOLERANCE,
    }


def summarise(typ, rows):
    ours, freed, released, gap = ([r[i] for r in rows] for i in range(4))
    return {
        "type": typ, "n": len(rows), "ours_us": statistics.median(ours),
        "ours_range": [min(ours), max(ours)],
        "freed": against(ours, freed), "released": against(ours, released),
        "exit_to_reap_us": statistics.median(gap),
        "samples": [{"ours_us": o, "freed_us": f, "released_us": rl, "exit_to_reap_us": g}
                    for o, f, rl, g in rows],
    }


def verdict(r):
    """What the comparison says, in a few words."""
    early = r["freed"]["kernel_not_after_start"]
    tail = "; %d of %d freed before the reap" % (early, r["n"]) if early else ""
    if r["freed"]["within_10pct"]:
        return "agrees with the free within 10%" + tail
    if r["released"]["within_10pct"]:
        return "agrees with the count release within 10%; the memory goes later" + tail
    d = r["freed"]
    return "differs: %+.0f µs %s%s" % (d["diff_us"], interval_text(d["diff_ci"], "%+.0f"), tail)


def ms_range(med, rng):
    return "%.2f (%.2f–%.2f)" % (med / 1e3, rng[0] / 1e3, rng[1] / 1e3)


def ratio_text(k):
    return "%.3f %s" % (k["ratio"], interval_text(k["ratio_ci"], "%.3f"))


def save(path, meta, rows):
    """Merges the table "trace" into PATH (bench/results/ format)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    steal = meta.get("steal_share")
    doc["tables"]["trace"] = {
        "title": "deferred figures against the kernel's free events (tracepoints), per sample",
        "command": "sudo bash bench/deferred_trace.sh build/sandboxtime OUTDIR && python3 "
                   "bench/deferred_trace.py OUTDIR --results bench/results/deferred.json   # SEED=%s, "
                   "%s rounds, N=%s" % (meta.get("seed"), meta.get("rounds"), meta.get("n")),
        "date": meta.get("date"), "commit": meta.get("commit"),
        "notes": "docs/bench-notes/deferred-trace.md",
        "columns": ["type", "n", "sandboxtime ms", "kernel free ms", "ratio [95%]",
                    "kernel count release ms", "ratio [95%]", "verdict"],
        "rows": [[r["type"], str(r["n"]), ms_range(r["ours_us"], r["ours_range"]),
                  ms_range(r["freed"]["kernel_us"], r["freed"]["kernel_range"]), ratio_text(r["freed"]),
                  ms_range(r["released"]["kernel_us"], r["released"]["kernel_range"]),
                  ratio_text(r["released"]), verdict(r)] for r in rows],
        "text": ["From the reap of each sample's last task, both sides on CLOCK_MONOTONIC; ratio: "
                 "the median of the per-sample ratios with its exact binomial interval. Load %s at "
                 "the start, %s at the end; steal %s." % (
                     meta.get("load"), meta.get("load_end"),
                     "unknown" if steal is None else "%.2f%%" % (100 * steal))],
    }
    write_results(path, doc)


def main():
    out, results = outdir_args(sys.argv[1:], "deferred_trace.py")
    raw = os.path.join(out, "raw")
    trace = Trace(parse(os.path.join(raw, "trace.txt")))
    per, errors = {}, []
    for path in sorted(glob.glob(os.path.join(raw, "*.*.json"))):
        typ, rnd = os.path.basename(path).split(".")[:2]
        got = run_samples(trace, raw, typ, int(rnd))
        if isinstance(got, str):
            errors.append(got)
        else:
            per.setdefault(typ, []).extend(got)
    meta = read_meta(os.path.join(raw, "meta.txt"))
    rows = [summarise(t, per[t]) for t in ("net", "pid", "ipc", "user") if t in per]
    print("µs from the reap; medians (min-max); ratio = sandboxtime / kernel per sample, "
          "median [95% interval]")
    for r in rows:
        print("%-4s n=%-3d sandboxtime %9.1f (%.1f-%.1f); exit->reap %.1f" % (
            r["type"], r["n"], r["ours_us"], *r["ours_range"], r["exit_to_reap_us"]))
        for mark in ("freed", "released"):
            k = r[mark]
            print("     %-8s %9.1f (%.1f-%.1f)  ratio %5.3f %-16s diff %+8.1f %-20s "
                  "within 10%%: %s%s" % (
                      mark, k["kernel_us"], *k["kernel_range"], k["ratio"] or float("nan"),
                      interval_text(k["ratio_ci"], "%.3f"), k["diff_us"],
                      interval_text(k["diff_ci"], "%+.1f"), "yes" if k["within_10pct"] else "NO",
                      "; %d samples freed before the reap" % k["kernel_not_after_start"]
                      if k["kernel_not_after_start"] else ""))
    for e in errors:
        print("unpaired: " + e)
    steal = meta.get("steal_share")
    print("load %s -> %s; steal %s" % (meta.get("load"), meta.get("load_end"),
                                       "unknown" if steal is None else "%.2f%%" % (100 * steal)))
    write_results(os.path.join(out, "deferred_trace.json"),
                  {"meta": dict(meta), "types": rows, "unpaired": errors})
    if results and rows and not errors:
        save(results, meta, rows)
    sys.exit(1 if errors or not rows else 0)


if __name__ == "__main__":
    main()
