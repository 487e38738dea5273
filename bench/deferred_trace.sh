#!/usr/bin/env bash
# bench/deferred_trace.sh BIN [OUTDIR]: sandboxtime's deferred figures for
# net, pid, ipc and user against the kernel's own free events, traced in the
# same samples (issue 27.4).
#
# This kernel has no kprobes, but its slab and workqueue tracepoints see the
# namespaces come and go: kmem_cache_alloc/kmem_cache_free of the
# net_namespace and pid_namespace caches, kmalloc in copy_ipcs and kfree in
# free_ipc, and the free_user_ns work item (the user namespace's own memory
# goes later, through kfree_rcu, which no event shows). Each namespace is
# followed by its pointer from the allocation in the sample's helper to its
# free (bench/deferred_trace.py).
#
# Per round, one `layers --ns=TYPE --repeat=1 --warmup=0 --deferred-repeat=N`
# per type, in an order drawn from SEED, all under one trace. sandboxtime's
# figure runs from its wait4() reaping the sample's last task; the trace's
# figure from the kernel's return of that same wait4 (sys_exit_wait4), so
# both start alike, on the same clock (trace_clock mono = CLOCK_MONOTONIC).
#
# The trace uses a tracefs instance of its own, in a private mount
# namespace, removed on every exit; the top-level trace settings are never
# touched.
#
#   sudo bash bench/deferred_trace.sh build/sandboxtime              (6 rounds, N=10)
#   ROUNDS=3 N=5 sudo bash bench/deferred_trace.sh build/sandboxtime /tmp/dt
#
# OUTDIR keeps raw/ (the reports, the trace, meta.txt). Exit status: 0 each
# type agrees within 10% or the report says why not, 1 a run failed, 2 usage.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then bench_usage "bash bench/deferred_trace.sh BIN [OUTDIR]"; fi
bench_need_root deferred_trace "tracefs and the kernel's trace events"
BIN=$(realpath "$1")
OUT=${2:-$(mktemp -d /tmp/sandboxtime-trace.XXXXXX)}
ROUNDS=${ROUNDS:-6}
N=${N:-10}
TYPES=${TYPES:-net pid ipc user}
IDLE_S=${IDLE_S:-1}
SEED=${SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}

# The tracefs mount must not be seen outside: run again in a private mount
# namespace (ST_TRACE_PRIVATE says we are there).
if [ -z "${ST_TRACE_PRIVATE:-}" ]; then
	ST_TRACE_PRIVATE=1 SEED=$SEED exec unshare -m --propagation private bash "$0" "$BIN" "$OUT"
fi

T=/sys/kernel/tracing
mount -t tracefs nodev "$T" || { echo "deferred_trace: tracefs cannot be mounted here" >&2; exit 1; }
INST=$T/instances/sandboxtime-trace-$$
READER=
cleanup() {
	[ -n "$READER" ] && kill "$READER" 2>/dev/null && wait "$READER" 2>/dev/null
	if [ -d "$INST" ]; then
		echo 0 >"$INST/tracing_on"
		rmdir "$INST"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir "$INST"

# ev EVENT [FILTER]: enable one event of the instance, filtered.
ev() {
	[ $# -lt 2 ] || echo "$2" >"$INST/events/$1/filter"
	echo 1 >"$INST/events/$1/enable"
}
ev kmem/kmem_cache_alloc 'name == "net_namespace" || name == "pid_namespace" || name == "user_namespace"'
ev kmem/kmem_cache_free 'name == "net_namespace" || name == "pid_namespace"'
ev kmem/kmalloc 'call_site.function == copy_ipcs'
ev kmem/kfree 'call_site.function == free_ipc'
WORK='function.function == free_user_ns || function.function == cleanup_net || function.function == free_ipc'
ev workqueue/workqueue_execute_start "$WORK"
ev workqueue/workqueue_execute_end "$WORK"
ev sched/sched_process_fork
ev sched/sched_process_exit
ev syscalls/sys_exit_wait4
# Real pointers: the user namespace is matched to its work item by address
# (the work is a member of the namespace), which hashing would hide.
echo 0 >"$INST/options/hash-ptr"
echo mono >"$INST/trace_clock"
echo 8192 >"$INST/buffer_size_kb"

mkdir -p "$OUT/raw"
bench_meta ": " seed "$SEED" rounds "$ROUNDS" n "$N" types "$TYPES" >"$OUT/raw/meta.txt"
echo "deferred_trace: $ROUNDS rounds of $TYPES (order from SEED=$SEED), N=$N;" \
	"$(nproc) CPUs, load $(bench_load)" >&2
echo 1 >"$INST/tracing_on"
cat "$INST/trace_pipe" >"$OUT/raw/trace.txt" &
READER=$!

RANDOM=$SEED
read -r -a types <<<"$TYPES"
for r in $(seq "$ROUNDS"); do
	order=("${types[@]}")
	# Fisher-Yates with bash's seeded RANDOM.
	for ((i = ${#order[@]} - 1; i > 0; i--)); do
		j=$((RANDOM % (i + 1)))
		t=${order[i]} order[i]=${order[j]} order[j]=$t
	done
	echo "round $r: ${order[*]}" >&2
	for t in "${order[@]}"; do
		sleep "$IDLE_S"
		# The shell's pid is sandboxtime's once it execs: the root of the
		# process tree the analysis follows.
		sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$OUT/raw/$t.$r.pid" \
			"$BIN" layers --ns="$t" --repeat=1 --warmup=0 --deferred-repeat="$N" -J \
			-o "$OUT/raw/$t.$r.json"
	done
done
sleep 1
echo 0 >"$INST/tracing_on"
bench_meta_end ": " >>"$OUT/raw/meta.txt"
# The reader ends by itself once tracing is off and the pipe is drained;
# where it blocks instead, stop it.
sleep 0.5
kill "$READER" 2>/dev/null || true
wait "$READER" 2>/dev/null || true
READER=
grep -q 'LOST\|lost' "$OUT/raw/trace.txt" && echo "deferred_trace: the trace lost events" >&2
python3 -B "$BENCH_ROOT/bench/deferred_trace.py" "$OUT"
