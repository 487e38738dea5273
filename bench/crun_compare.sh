#!/usr/bin/env bash
# crun against sandboxtime, side by side, with the same OCI bundle (issue 6):
#   1. setup: `crun run` and `sandboxtime --repeat=0 --config` of the same
#      config.json whose workload does (almost) nothing, timed by hyperfine;
#   2. the workload's syscall cost: bench/syscall_loop (1,000,000 getppid
#      calls, built static) run by each, and on the host, interleaved.
# The config: a root of its own (read-only, pivot_root), proc and two tmpfs
# mounts, pid/ipc/uts/mount/network namespaces, Docker's capability set,
# no_new_privs, and sandboxtime's default seccomp profile as linux.seccomp
# (without the capability-conditional rules, which crun 1.8 does not read).
#
# Root only. On a host with hybrid cgroups whose cgroup2 tree holds a
# controller, crun 1.8 refuses to start ("cgroups in hybrid mode not
# supported") before it looks at --cgroup-manager; both tools then run in a
# private mount namespace where an empty file is bound over
# /sys/fs/cgroup/unified/cgroup.controllers. Nothing on the host changes;
# crun runs with --cgroup-manager=disabled (sandboxtime makes no cgroup
# either).
#
#   bash bench/crun_compare.sh path/to/sandboxtime [OUT_DIR]
# RUNS (hyperfine runs, default 40) and LOOPS (syscall samples, default 15).
set -euo pipefail
BIN=$(realpath "${1:?usage: bench/crun_compare.sh path/to/sandboxtime [OUT_DIR]}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-40}
LOOPS=${LOOPS:-15}
[ "$(id -u)" -eq 0 ] || { echo "crun_compare: needs root" >&2; exit 1; }
command -v crun >/dev/null || { echo "crun_compare: crun is not installed (sh .ci/install-deps bench)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/st-crun.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
OUT=${2:-$TMP/out}
mkdir -p "$OUT" "$TMP/rootfs/proc" "$TMP/rootfs/dev" "$TMP/rootfs/tmp" "$TMP/setup" "$TMP/loop" "$TMP/state"
gcc -O2 -Wall -Wextra -static -o "$TMP/rootfs/syscall_loop" "$ROOT/bench/syscall_loop.c"
cp "$BIN" "$TMP/sandboxtime"

# bundle DIR ARGS...: DIR/config.json running ARGS in the shared root.
bundle() {
	python3 - "$ROOT/configs/seccomp/default.json" "$TMP/rootfs" "$1/config.json" "${@:2}" <<'PY'
import json, sys
prof = json.load(open(sys.argv[1]))
prof.pop("comment", None)
prof["syscalls"] = [r for r in prof["syscalls"] if "includes" not in r and "excludes" not in r]
caps = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW",
        "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
        "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"]
c = {"ociVersion": "1.0.2",
     "process": {"terminal": False, "user": {"uid": 0, "gid": 0}, "args": sys.argv[4:],
                 "env": ["PATH=/"], "cwd": "/", "noNewPrivileges": True,
                 "capabilities": {k: caps for k in ("bounding", "effective", "permitted")}},
     "root": {"path": sys.argv[2], "readonly": True},
     "hostname": "crun-compare",
     "mounts": [{"destination": "/proc", "type": "proc", "source": "proc"},
                {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755", "size=64k"]},
                {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "size=1m"]}],
     "linux": {"namespaces": [{"type": t} for t in ("pid", "ipc", "uts", "mount", "network")],
               "seccomp": prof}}
json.dump(c, open(sys.argv[3], "w"), indent=1)
PY
}
bundle "$TMP/setup" /syscall_loop 1
bundle "$TMP/loop" /syscall_loop 1000000
CRUN="crun --cgroup-manager=disabled --root $TMP/state"
ST="$TMP/sandboxtime --repeat=0 -q"

# Everything below runs in one private mount namespace (see the top).
cat >"$TMP/inner.sh" <<EOF2
set -eu
f=/sys/fs/cgroup/unified/cgroup.controllers
if [ -n "\$(cat "\$f" 2>/dev/null)" ]; then : >"$TMP/empty"; mount --bind "$TMP/empty" "\$f"; fi
$CRUN run --bundle "$TMP/setup" st-check >/dev/null
hyperfine -N --style basic --warmup 3 --runs $RUNS --export-json "$OUT/setup.json" \
	-n crun "$CRUN run --bundle $TMP/setup st-setup" \
	-n sandboxtime "$ST --config=$TMP/setup/config.json" >"$OUT/hyperfine.log" 2>&1
: >"$OUT/loop.txt"
for i in \$(seq $LOOPS); do
	echo "host \$("$TMP/rootfs/syscall_loop" 1000000)" >>"$OUT/loop.txt"
	echo "crun \$($CRUN run --bundle $TMP/loop st-loop)" >>"$OUT/loop.txt"
	echo "sandboxtime \$($ST --config=$TMP/loop/config.json)" >>"$OUT/loop.txt"
done
$TMP/sandboxtime --repeat=0 -J -o "$OUT/steps.json" --config=$TMP/setup/config.json >/dev/null
EOF2
unshare --mount --propagation private sh "$TMP/inner.sh"
{
	echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "kernel=$(uname -r)"
	echo "crun=$(crun --version | head -1)"
	echo "sandboxtime=$("$BIN" --version)"
	echo "loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/facts.txt"

python3 - "$OUT" <<'PY'
import json, statistics, sys
out = sys.argv[1]
facts = dict(l.strip().split("=", 1) for l in open(out + "/facts.txt"))
print(f"crun_compare, {facts['date']}: kernel {facts['kernel']}, {facts['crun']}, {facts['sandboxtime']}, load {facts['loadavg']}")
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
PY
