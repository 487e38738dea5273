#!/usr/bin/env python3
"""OUTDIR/where.json (bench/results format) from bench/where.sh's raw runs.

where_results.py OUTDIR

One table per mode (unpinned: runs 0, 2, ...; pinned to CPU 0: runs 1, 3,
...): each cell the median of the runs' medians with their min-max, each
ratio over the host's median of the same runs, and the articles' figures
(/work/shared/SEEDS.md section 2) beside them.
"""
import os
import statistics
import sys

from common import load_rounds, read_meta, write_results

MIB64 = 64 * 1024 * 1024
ARTICLES = {
    "call": "0.70 ns container vs 0.69 ns host (1.01x)",
    "write_devnull": "114.69 ns in the container; qemu-user 1.76x",
    "getppid": "–",
    "memset_64mib": "72.97 vs 73.16 GB/s (container vs host); qemu-user 174x (0.42 GB/s)",
    "memcpy_64mib": "–",
    "fork_100mb": "–",
    "start": "–",
}


def cell(docs, place, op):
    meds = []
    for d in docs:
        r = next(r for r in d["rows"] if r["place"] == place and r["op"] == op)
        if r["median"] is None:
            return None, r["unavailable"] or r["refused"]
        meds.append(r["median"])
    return (statistics.median(meds), min(meds), max(meds)), None


def fmt(st, op, unit):
    if st is None:
        return "–"
    prec = 2 if unit == "ns" and st[0] < 100 else 0 if st[0] >= 100 else 2
    s = "%.*f (%.*f–%.*f) %s" % (prec, st[0], prec, st[1], prec, st[2], "µs" if unit == "us" else unit)
    if op in ("memset_64mib", "memcpy_64mib"):
        s += ", %.1f GB/s" % (MIB64 / (st[0] * 1e3))
    return s


def ratio(a, b):
    return "%.2fx" % (a[0] / b[0]) if a and b else "–"


def table(docs_kvm, docs_tcg, mode, meta):
    rows, why = [], {}
    units = {r["op"]: r["unit"] for r in docs_kvm[0]["rows"]}
    for op in units:
        host = cell(docs_kvm + docs_tcg, "host", op)[0]
        sandbox = cell(docs_kvm + docs_tcg, "sandbox", op)[0]
        kvm, kvm_why = cell(docs_kvm, "vm-kvm", op)
        tcg, tcg_why = cell(docs_tcg, "vm-tcg", op)
        emu, emu_why = cell(docs_kvm + docs_tcg, "qemu-aarch64", op)
        for k, w in (("vm-kvm", kvm_why), ("vm-tcg", tcg_why), ("qemu-aarch64", emu_why)):
            if w:
                why[k] = w
        rows.append([op, fmt(host, op, units[op]), fmt(sandbox, op, units[op]), ratio(sandbox, host),
                     fmt(kvm, op, units[op]) if kvm else "unavailable",
                     fmt(tcg, op, units[op]), ratio(tcg, host), fmt(emu, op, units[op]), ratio(emu, host),
                     ARTICLES[op]])
    text = ["Each cell: the median of the runs' medians (min–max over runs; each run %d rounds after one "
            "warm-up, the places interleaved): host, sandbox and qemu-aarch64 over %d runs (%d of bench "
            "where, %d with --vm-accel=tcg), vm-tcg over %d; %s; kernel %s, the VM's kernel %s; load %s "
            "at the start, %s at the end." % (
                docs_kvm[0]["config"]["repeat"], len(docs_kvm) + len(docs_tcg), len(docs_kvm),
                len(docs_tcg), len(docs_tcg), mode,
                meta["kernel"], meta["vm_kernel"], meta["load"], meta.get("load_end", "?"))]
    for k in sorted(why):
        text.append("%s unavailable: %s" % (k, why[k]))
    return {
        "title": "bench where (%s): the same probe on the host, in the sandbox, in a microVM and under "
                 "qemu-aarch64, beside the articles" % mode,
        "command": ["bash bench/where.sh build/sandboxtime OUTDIR   # bench where, then --vm-accel=tcg, "
                    "alternately unpinned and --cpu=0"],
        "date": meta["date"], "commit": meta["commit"],
        "notes": "docs/bench-notes/22-where.md",
        "columns": ["op", "host", "sandbox", "sandbox / host", "vm-kvm", "vm-tcg", "vm-tcg / host",
                    "qemu-aarch64", "qemu-aarch64 / host", "articles (M4, Docker Desktop)"],
        "align": ["---"] + ["---:"] * 8 + ["---"],
        "rows": rows,
        "text": text,
    }


def main():
    out = sys.argv[1]
    meta = read_meta(os.path.join(out, "raw", "meta.txt"))
    kvm, tcg = load_rounds(os.path.join(out, "raw"), "kvm"), load_rounds(os.path.join(out, "raw"), "tcg")
    tables = {}
    for mode, parity in (("unpinned", 0), ("pinned to CPU 0", 1)):
        idx = sorted(i for i in kvm if i % 2 == parity and i in tcg)
        if idx:
            key = "where-pinned" if parity else "where"
            tables[key] = table([kvm[i] for i in idx], [tcg[i] for i in idx], mode, meta)
    all_time = float(open(os.path.join(out, "raw", "all.time")).read().split()[-1])
    tables["where"]["text"].append(
        "`sandboxtime bench all` with every default (the microVM on KVM, where included): %.1f s wall "
        "(target: under 180 s)." % all_time)
    write_results(os.path.join(out, "where.json"), {"tables": tables})
    print(os.path.join(out, "where.json"))


if __name__ == "__main__":
    main()
