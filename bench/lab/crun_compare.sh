#!/usr/bin/env bash
# crun against sandboxtime, side by side, with the same OCI bundle (issue 6):
#   1. setup: `crun run` and `sandboxtime --repeat=0 --config` of the same
#      config.json whose workload does (almost) nothing, timed by hyperfine;
#   2. the workload's syscall cost: bench/lab/syscall_loop (1,000,000 getppid
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
#   bash bench/lab/crun_compare.sh path/to/sandboxtime [OUT_DIR]
# RUNS (hyperfine runs, default 40) and LOOPS (syscall samples, default 15).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
BIN=$(realpath "${1:?usage: bench/lab/crun_compare.sh path/to/sandboxtime [OUT_DIR]}")
RUNS=${RUNS:-40}
LOOPS=${LOOPS:-15}
bench_need_root crun_compare
bench_need_tools crun_compare crun
TMP=$(mktemp -d /tmp/st-crun.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
OUT=${2:-$TMP/out}
mkdir -p "$OUT" "$TMP/rootfs/proc" "$TMP/rootfs/dev" "$TMP/rootfs/tmp" "$TMP/setup" "$TMP/loop" "$TMP/state"
gcc -O2 -Wall -Wextra -static -o "$TMP/rootfs/syscall_loop" "$BENCH_ROOT/bench/lab/syscall_loop.c"
cp "$BIN" "$TMP/sandboxtime"

# bundle DIR ARGS...: DIR/config.json running ARGS in the shared root.
bundle() {
	python3 -B "$BENCH_ROOT/bench/lab/crun_compare.py" bundle "$BENCH_ROOT/configs/seccomp/default.json" "$TMP/rootfs" \
		"$1/config.json" "${@:2}"
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
bench_meta = crun "$(crun --version | head -1)" sandboxtime "$("$BIN" --version)" >"$OUT/facts.txt"

python3 -B "$BENCH_ROOT/bench/lab/crun_compare.py" report "$OUT"
