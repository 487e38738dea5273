#!/usr/bin/env bash
# The deferred pass's drain (docs/DESIGN.md, "drain"): before every sample the
# lab waits until nothing of earlier samples is counted, then settles with two
# RCU grace periods (membarrier); where membarrier is refused it sleeps 50 ms
# instead, and the report says which (measurement.drain_settle). The refusal
# is made by a seccomp filter around sandboxtime
# (build/test-helpers/deny_syscall), as a container's profile would.
source "$(dirname "$0")/../lib.sh" "$1"

plan 6

BUILD_DIR=$ST_BUILD_DIR
DENY=$BUILD_DIR/test-helpers/deny_syscall
ARGS=(layers -J --ns=uts,ipc,net --repeat=1 --warmup=0 --deferred-repeat=2)

# settle MODE WRAPPER...: layers as MODE under WRAPPER; its JSON report in
# $OUT (in a scratch directory nobody may write to).
settle() {
	local mode=$1 dir; shift
	dir=$(st_scratch) || return 1
	OUT=$dir/settle.json
	if [ "$mode" = nobody ]; then
		(cd /tmp && "$@" setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$ST_NOBODY_BIN" "${ARGS[@]}" -o "$OUT") >/dev/null 2>"$ST_TMP/settle.err"
	else
		"$@" "$ST_BIN" "${ARGS[@]}" -o "$OUT" >/dev/null 2>"$ST_TMP/settle.err"
	fi || { echo "exit $?"; cat "$ST_TMP/settle.err"; return 1; }
}

# Under strace, which counts the grace periods the drains really waited for:
# a drain that returned at once would ask for none (membarrier(2) GLOBAL is
# synchronize_rcu()).
t_settle_rcu() {
	local trace=$ST_TMP/membarrier.$1
	rm -f "$trace"
	# (LeakSanitizer stops the world with ptrace, which a traced process cannot.)
	settle "$1" env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=membarrier -o "$trace" || return 1
	"$ST_PY" -B "$ST_PYDIR/deferred_check.py" "$OUT" rcu 2 "$trace"
}

t_settle_sleep() {
	settle "$1" "$DENY" membarrier || return 1
	"$ST_PY" -B "$ST_PYDIR/deferred_check.py" "$OUT" sleep 2
}

for mode in root nobody; do
	name1="each deferred sample drained, settled by RCU grace periods [$mode]"
	name2="membarrier refused: the drain sleeps instead and says so [$mode]"
	if ! can_run "$mode"; then
		skip "$name1" "cannot run as $mode here (root, and unprivileged user namespaces for nobody)"
		skip "$name2" "cannot run as $mode here (root, and unprivileged user namespaces for nobody)"
		continue
	fi
	if command -v strace >/dev/null; then
		ok "$name1" t_settle_rcu "$mode"
	else
		skip "$name1" "no strace, which counts the grace periods (sh .ci/install-deps test)"
	fi
	if [ -x "$DENY" ]; then
		ok "$name2" t_settle_sleep "$mode"
	else
		skip "$name2" "$DENY is not built (make unit-bins)"
	fi
done

# SANDBOXTIME_DEFERRED_POLL_US sets the probe's pause and the report records
# it; a bad value makes the deferred figures unavailable, naming the variable.
t_poll() {
	local dir poll
	dir=$(st_scratch) || return 1
	SANDBOXTIME_DEFERRED_POLL_US=0 "$ST_BIN" "${ARGS[@]}" -o "$dir/p0.json" >/dev/null 2>&1 || return 1
	poll=$("$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["measurement"]["deferred"]["poll_us"])' "$dir/p0.json")
	expect_eq "$poll" 0 || return 1
	"$ST_BIN" "${ARGS[@]}" -o "$dir/p20.json" >/dev/null 2>&1 || return 1
	poll=$("$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["measurement"]["deferred"]["poll_us"])' "$dir/p20.json")
	expect_eq "$poll" 20 || return 1
	SANDBOXTIME_DEFERRED_POLL_US=x "$ST_BIN" "${ARGS[@]}" -o "$dir/px.json" >/dev/null 2>&1 || return 1
	grep -q '"reason": "SANDBOXTIME_DEFERRED_POLL_US' "$dir/px.json" || { cat "$dir/px.json"; return 1; }
}
if can_run root; then
	ok "SANDBOXTIME_DEFERRED_POLL_US: recorded as poll_us; a bad value is the deferred figures' reason" t_poll
else
	skip "SANDBOXTIME_DEFERRED_POLL_US: recorded as poll_us; a bad value is the deferred figures' reason" "cannot run as root here"
fi

# The kernel's own free events (bench/deferred_trace.sh, issue 27.4), in a
# tracefs instance of the bench's own inside a private mount namespace: every
# deferred sample of net, pid, ipc and user is paired by pointer with its
# namespace's free, and sandboxtime's figure falls on the traced mark.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TRACE_ROUNDS=1 TRACE_N=3
# Why the kernel's events cannot be read here, or nothing.
trace_unavailable() {
	unshare -m --propagation private sh -c '
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || { echo "tracefs cannot be mounted"; exit; }
		for e in kmem/kmem_cache_alloc kmem/kfree workqueue/workqueue_execute_start \
			sched/sched_process_fork syscalls/sys_exit_wait4; do
			[ -d /sys/kernel/tracing/events/$e ] || { echo "no trace event $e"; exit; }
		done' 2>&1
}
t_trace() {
	local dir
	dir=$(st_scratch) || return 1
	ROUNDS=$TRACE_ROUNDS N=$TRACE_N IDLE_S=0 bash "$TOP/bench/deferred_trace.sh" "$ST_BIN" "$dir" \
		>"$ST_TMP/trace.out" 2>&1 || { cat "$ST_TMP/trace.out"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/deferred_trace_check.py" "$dir/deferred_trace.json" "$TRACE_ROUNDS" "$TRACE_N"
}
name="the kernel's trace events pair one free with every deferred sample of net, pid, ipc and user"
if ! can_run root; then
	skip "$name" "cannot run as root here"
elif why=$(trace_unavailable) && [ -n "$why" ]; then
	skip "$name" "$why"
else
	ok "$name" t_trace
fi
