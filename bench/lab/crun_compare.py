"""bench/lab/crun_compare.sh's Python: the shared bundle, and the report.

usage: crun_compare.py bundle PROFILE ROOTFS CONFIG ARG...
           CONFIG: a config.json running ARG... in ROOTFS, with the seccomp
           PROFILE (sandboxtime's default, less the capability-conditional
           rules crun 1.8 does not read) as linux.seccomp
       crun_compare.py report OUTDIR
           the markdown tables of OUTDIR's facts.txt, setup.json (hyperfine),
           loop.txt and steps.json
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import read_meta  # noqa: E402


def bundle(profile_path, rootfs, dst, args):
    prof = json.load(open(profile_path))
    prof.pop("comment", None)
    prof["syscalls"] = [r for r in prof["syscalls"] if "includes" not in r and "excludes" not in r]
    caps = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW",
            "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
            "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"]
    c = {"ociVersion": "1.0.2",
         "process": {"terminal": False, "user": {"uid": 0, "gid": 0}, "args": args,
                     "env": ["PATH=/"], "cwd": "/", "noNewPrivileges": True,
                     "capabilities": {k: caps for k in ("bounding", "effective", "permitted")}},
         "root": {"path": rootfs, "readonly": True},
         "hostname": "crun-compare",
         "mounts": [{"destination": "/proc", "type": "proc", "source": "proc"},
                    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755", "size=64k"]},
                    {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "size=1m"]}],
         "linux": {"namespaces": [{"type": t} for t in ("pid", "ipc", "uts", "mount", "network")],
                   "seccomp": prof}}
    json.dump(c, open(dst, "w"), indent=1)


def report(out):
    facts = read_meta(out + "/facts.txt")
    print(f"crun_compare, {facts['date']}: kernel {facts['kernel']}, {facts['crun']}, {facts['sandboxtime']}, load {facts['load']}")
    print()
    print("| setup (hyperfine -N, ms) | median | min | p95 | runs |")
    print("|---|---:|---:|---:|---:|")
    med = {}
    for r in json.load(open(out + "/setup.json"))["results"]:
        t = sorted(x * 1e3 for x in r["times"])
        med[r["command"]] = statistics.median(t)
        print(f"| {r['command']} | {med[r['command']]:.2f} | {t[0]:.2f} | {t[int(0.95 * (len(t) - 1))]:.2f} | {len(t)} |")
    print(f"\ncrun / sandboxtime (medians): {med['crun'] / med['sandboxtime']:.2f}\n")
    loops = {}
    for l in open(out + "/loop.txt"):
        w, v = l.split()
        loops.setdefault(w, []).append(float(v))
    print("| getppid in the workload (ns/call) | median | min | max | over host | n |")
    print("|---|---:|---:|---:|---:|---:|")
    h = statistics.median(loops["host"])
    for w in ("host", "crun", "sandboxtime"):
        v = loops[w]
        print(f"| {w} | {statistics.median(v):.1f} | {min(v):.1f} | {max(v):.1f} | {statistics.median(v) - h:+.1f} | {len(v)} |")
    steps = json.load(open(out + "/steps.json"))["steps"]
    print("\nsandboxtime's steps for this config (one run, µs): " + ", ".join(f"{s['step']} {s['us']:.0f}" for s in steps))


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "bundle":
        bundle(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif len(sys.argv) == 3 and sys.argv[1] == "report":
        report(sys.argv[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
