#!/usr/bin/env python3
"""bench/netbench_peers.py OUTDIR [RESULTS.json]: the side-by-side of bench/netbench.sh.

Reads OUTDIR/raw/MODE/{netbench,iperf3}-PATH-ROUND.json and
sockperf-PATH-ROUND.txt (MODE: unpinned, pinned; a run of an older
bench/netbench.sh has them in OUTDIR/raw itself, read as "pinned") and writes
OUTDIR/netbench-peers.json and OUTDIR/netbench-peers.md: per mode, path and
tool the median and spread (min-max) over the rounds, the median of the
per-round ratios sandboxtime/peer (the figure to read: a round's tools ran
back to back, so load that drifts slower than a round cancels) with the 95%
bootstrap interval of that median over the rounds in brackets (seeded; from
3 rounds), and each tool's host/veth and host/bridge ratios.

Placement: unpinned, whether the two ends shared a CPU moves loopback and
veth throughput by 20% or more on a small VM, and the scheduler decides it
afresh in every run, for either tool. Each round's placement is read for both
tools: sandboxtime's own same_cpu_share (of the stream's 10 ms slots, the
share with both ends on one CPU) and, for iperf3, bench/placement.py's
sample of the same from outside (iperf3-PATH-ROUND.place.json: the CPU each
end last ran on, every 10 ms). iperf3's own CPU figures cannot tell: on veth
and bridge the softirq work is not charged to either end, and pinned apart
the two summed to 85-121% of one CPU. A round is of "like placement" when
both tools ran apart (share < 0.5) or both together (>= 0.5); the per-round
ratio is given over those rounds too.

With RESULTS.json, also writes both modes as the table "peers" of
bench/results/ (see bench/summary.py); its date, command and commit come from
the environment (NB_DATE, NB_COMMAND, NB_COMMIT).
"""
import glob
import json
import os
import random
import re
import statistics
import sys

from common import read_meta

BOOTSTRAP = 2000
SEED = 12

PATHS = ["host", "veth", "bridge", "host-to-sandbox", "macvlan"]


def rounds(raw, tool, path, ext):
    # Exactly PATH and a round number: "host-*" would take host-to-sandbox's files too.
    want = re.compile(re.escape(f"{tool}-{path}-") + r"(\d+)\." + re.escape(ext) + "$")
    files = [f for f in glob.glob(os.path.join(raw, f"{tool}-*.{ext}"))
             if want.match(os.path.basename(f))]
    return sorted(files, key=lambda f: int(want.match(os.path.basename(f)).group(1)))


def netbench(f):
    p = json.load(open(f))["paths"][0]
    share = p.get("same_cpu_share") or {}
    return {"gbps": p["throughput_gbps"]["median"], "p50_us": p["latency_us"]["p50"],
            "p99_us": p["latency_us"]["p99"], "retransmits": p["retransmits"], "mtu": p["mtu"],
            "same_cpu": share.get("median")}


def iperf3(f):
    end = json.load(open(f))["end"]
    place = f[:-len(".json")] + ".place.json"
    share = json.load(open(place))["same_cpu_share"] if os.path.exists(place) else None
    return {"gbps": end["sum_received"]["bits_per_second"] / 1e9,
            "retransmits": end["sum_sent"].get("retransmits"), "same_cpu": share}


def placement(nb, ip):
    """A round's placement: "apart" or "together" when both tools' agree, else "unlike" or "unknown"."""
    if nb["same_cpu"] is None or ip["same_cpu"] is None:
        return "unknown"
    nb_apart, ip_apart = nb["same_cpu"] < 0.5, ip["same_cpu"] < 0.5
    if nb_apart != ip_apart:
        return "unlike"
    return "apart" if nb_apart else "together"


LIKE = ("apart", "together")


def sockperf(f):
    text = open(f).read()
    p50 = re.search(r"percentile 50\.000 =\s*([0-9.]+)", text)
    p99 = re.search(r"percentile 99\.000 =\s*([0-9.]+)", text)
    if not p50 or "avg-rtt" not in text:
        raise SystemExit(f"{f}: no round-trip percentiles (was --full-rtt given?)")
    return {"p50_us": float(p50.group(1)), "p99_us": float(p99.group(1)) if p99 else None}


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "n": len(values), "samples": values}


def with_interval(s):
    """Adds the 95% bootstrap interval of the median over the rounds (seeded) to a spread."""
    if not s or s["n"] < 3:
        return s
    rng = random.Random(SEED)
    meds = sorted(statistics.median(rng.choices(s["samples"], k=s["n"])) for _ in range(BOOTSTRAP))
    s["ci"] = [meds[int(0.025 * BOOTSTRAP)], meds[int(0.975 * BOOTSTRAP) - 1]]
    return s


def mode_results(raw):
    res = {}
    for path in PATHS:
        nb = [netbench(f) for f in rounds(raw, "netbench", path, "json")]
        if not nb:
            continue
        ip = [iperf3(f) for f in rounds(raw, "iperf3", path, "json")]
        sp = [sockperf(f) for f in rounds(raw, "sockperf", path, "txt")]
        res[path] = {
            "sandboxtime_gbps": spread([r["gbps"] for r in nb]),
            "iperf3_gbps": spread([r["gbps"] for r in ip]),
            "sandboxtime_p50_us": spread([r["p50_us"] for r in nb]),
            "sockperf_p50_us": spread([r["p50_us"] for r in sp]),
            "sandboxtime_p99_us": spread([r["p99_us"] for r in nb]),
            "sockperf_p99_us": spread([r["p99_us"] for r in sp]),
            "sandboxtime_retransmits": spread([r["retransmits"] for r in nb]),
            "iperf3_retransmits": spread([r["retransmits"] for r in ip]),
            "mtu": nb[0]["mtu"],
        }
        r = res[path]
        # Paired: each round's tools ran back to back, so a round's ratio cancels
        # load that drifts slower than a round (other work on the machine).
        r["paired_throughput_over_iperf3"] = with_interval(spread(
            [a["gbps"] / b["gbps"] for a, b in zip(nb, ip) if b["gbps"] > 0]))
        like = [(a, b) for a, b in zip(nb, ip) if placement(a, b) in LIKE and b["gbps"] > 0]
        r["sandboxtime_same_cpu_share"] = spread([a["same_cpu"] for a in nb])
        r["iperf3_same_cpu_share"] = spread([b["same_cpu"] for b in ip])
        r["paired_throughput_like_placement"] = with_interval(spread(
            [a["gbps"] / b["gbps"] for a, b in like]))
        r["like_placement_rounds"] = [placement(a, b) for a, b in zip(nb, ip)]
        r["paired_latency_over_sockperf"] = spread(
            [a["p50_us"] / b["p50_us"] for a, b in zip(nb, sp) if b["p50_us"] > 0])
        r["throughput_over_iperf3"] = r["sandboxtime_gbps"]["median"] / r["iperf3_gbps"]["median"]
        r["latency_over_sockperf"] = r["sandboxtime_p50_us"]["median"] / r["sockperf_p50_us"]["median"]

    ratios = {}
    if "host" in res and "veth" in res:
        h, v = res["host"], res["veth"]
        ratios["throughput_host_over_veth"] = {
            "sandboxtime": h["sandboxtime_gbps"]["median"] / v["sandboxtime_gbps"]["median"],
            "iperf3": h["iperf3_gbps"]["median"] / v["iperf3_gbps"]["median"]}
    if "host" in res and "bridge" in res:
        h, b = res["host"], res["bridge"]
        ratios.update({
            "throughput_host_over_bridge": {
                "sandboxtime": h["sandboxtime_gbps"]["median"] / b["sandboxtime_gbps"]["median"],
                "iperf3": h["iperf3_gbps"]["median"] / b["iperf3_gbps"]["median"]},
            "latency_bridge_over_host": {
                "sandboxtime": b["sandboxtime_p50_us"]["median"] / h["sandboxtime_p50_us"]["median"],
                "sockperf": b["sockperf_p50_us"]["median"] / h["sockperf_p50_us"]["median"]},
        })
    return res, ratios


def modes(out, facts):
    """{mode: raw directory}: raw/unpinned and raw/pinned, or raw itself (older runs, one mode)."""
    found = {m: os.path.join(out, "raw", m) for m in ("unpinned", "pinned")
             if os.path.isdir(os.path.join(out, "raw", m))}
    old = "unpinned" if re.search(r"\bpin=0\b", facts.get("rounds", "")) else "pinned"
    return found or {old: os.path.join(out, "raw")}


def main():
    out = sys.argv[1]
    facts = read_meta(os.path.join(out, "facts.txt"))
    doc = {"facts": facts, "modes": {}}
    md = []
    for mode, raw in modes(out, facts).items():
        res, ratios = mode_results(raw)
        doc["modes"][mode] = {"paths": res, "ratios": ratios}
        md += mode_markdown(mode, res, ratios)
    json.dump(doc, open(os.path.join(out, "netbench-peers.json"), "w"), indent=2)
    open(os.path.join(out, "netbench-peers.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md))
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            json.dump(results_table(doc), f, indent=2, ensure_ascii=False)
            f.write("\n")


def results_table(doc):
    rows, text = [], []
    for mode, m in doc["modes"].items():
        for path, r in m["paths"].items():
            rows.append([mode, path, str(r["mtu"]), sp(r["sandboxtime_gbps"]), sp(r["iperf3_gbps"]),
                         sp(r["paired_throughput_over_iperf3"]), like_cell(r),
                         sp(r["sandboxtime_p50_us"], "{:.1f}"),
                         sp(r["sockperf_p50_us"], "{:.1f}"), sp(r["paired_latency_over_sockperf"])])
        t = m["ratios"].get("throughput_host_over_veth")
        b = m["ratios"].get("throughput_host_over_bridge")
        if t and b:
            text.append(f"{mode}: host/veth throughput sandboxtime {t['sandboxtime']:.2f}, iperf3 "
                        f"{t['iperf3']:.2f}; host/bridge sandboxtime {b['sandboxtime']:.2f}, iperf3 "
                        f"{b['iperf3']:.2f}.")
    return {"tables": {"peers": {
        "title": "netbench beside iperf3 and sockperf, unpinned and pinned",
        # (from facts.txt, bench_meta's: the run's own invocation, date and commit)
        "command": doc["facts"].get("invocation", "bash bench/netbench.sh build/sandboxtime OUTDIR"),
        "date": doc["facts"].get("date", "?"), "commit": doc["facts"].get("commit", "?"),
        "notes": "docs/bench-notes/netbench-iperf3.md",
        "columns": ["mode", "path", "MTU", "sandboxtime Gbit/s", "iperf3 Gbit/s",
                    "sandboxtime / iperf3 per round", "the same, like placement (n)",
                    "sandboxtime p50 µs", "sockperf p50 µs", "sandboxtime / sockperf per round"],
        "align": ["---", "---", "---:", "---", "---", "---", "---", "---", "---", "---"],
        "rows": rows, "text": text}}}


def like_cell(r):
    like = r.get("paired_throughput_like_placement")
    return "{} ({})".format(sp(like), like["n"]) if like else "—"


def sp(s, fmt="{:.2f}"):
    """median (min–max), and [95% interval of the median] where there is one."""
    if not s:
        return "—"
    text = (fmt + " (" + fmt + "–" + fmt + ")").format(s["median"], s["min"], s["max"])
    if "ci" in s:
        text += (" [" + fmt + "–" + fmt + "]").format(*s["ci"])
    return text


def mode_markdown(mode, res, ratios):
    md = [f"### {mode}", ""]
    md.append("| path | MTU | sandboxtime Gbit/s | iperf3 Gbit/s | ratio | sandboxtime p50 µs | "
              "sockperf p50 µs | ratio | retransmits (median) sandboxtime / iperf3 |")
    md.append("|---|---:|---|---|---:|---|---|---:|---|")
    for path, r in res.items():
        md.append("| {} | {} | {} | {} | {:.2f} | {} | {} | {:.2f} | {:.0f} / {:.0f} |".format(
            path, r["mtu"], sp(r["sandboxtime_gbps"]), sp(r["iperf3_gbps"]),
            r["throughput_over_iperf3"], sp(r["sandboxtime_p50_us"], "{:.1f}"),
            sp(r["sockperf_p50_us"], "{:.1f}"), r["latency_over_sockperf"],
            r["sandboxtime_retransmits"]["median"], r["iperf3_retransmits"]["median"]))
    md.append("")
    md.append("| path | sandboxtime / iperf3 per round: median (min–max) | "
              "the same, rounds of like placement (n) | sandboxtime ends on one CPU | "
              "iperf3 ends on one CPU | "
              "sandboxtime / sockperf p50 per round: median (min–max) |")
    md.append("|---|---|---|---|---|---|")
    for path, r in res.items():
        like = r.get("paired_throughput_like_placement")
        md.append("| {} | {} | {} | {} | {} | {} |".format(
            path, sp(r["paired_throughput_over_iperf3"]),
            "{} ({})".format(sp(like), like["n"]) if like else "—",
            sp(r.get("sandboxtime_same_cpu_share")), sp(r.get("iperf3_same_cpu_share")),
            sp(r["paired_latency_over_sockperf"])))
    md.append("")
    md.append("Placement by round: " + "; ".join("{} {}".format(
        path, " ".join(r.get("like_placement_rounds", []))) for path, r in res.items()) + ".")
    md.append("")
    if "throughput_host_over_veth" in ratios:
        t = ratios["throughput_host_over_veth"]
        md.append("host/veth throughput: sandboxtime {:.2f}, iperf3 {:.2f}.".format(
            t["sandboxtime"], t["iperf3"]))
    if "throughput_host_over_bridge" in ratios:
        t, l = ratios["throughput_host_over_bridge"], ratios["latency_bridge_over_host"]
        md.append("host/bridge throughput: sandboxtime {:.2f}, iperf3 {:.2f}; bridge/host latency: "
                  "sandboxtime {:.2f}, sockperf {:.2f}.".format(t["sandboxtime"], t["iperf3"],
                                                             l["sandboxtime"], l["sockperf"]))
    md.append("")
    return md


main()
