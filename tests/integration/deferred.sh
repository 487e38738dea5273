#!/usr/bin/env bash
# The deferred pass's drain (docs/DESIGN.md, "drain"): before every sample the
# lab waits until nothing of earlier samples is counted, then settles with two
# RCU grace periods (membarrier); where membarrier is refused it sleeps 50 ms
# instead, and the report says which (measurement.drain_settle). The refusal
# is made by a seccomp filter around sandboxtime
# (build/test-helpers/deny_syscall), as a container's profile would.
source "$(dirname "$0")/../lib.sh" "$1"

plan 4

BUILD_DIR=$(cd "$(dirname "$ST_BIN")" && pwd)
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

t_settle_rcu() {
	settle "$1" env || return 1
	"$ST_PY" -B "$ST_PYDIR/deferred_check.py" "$OUT" rcu 2
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
	ok "$name1" t_settle_rcu "$mode"
	if [ -x "$DENY" ]; then
		ok "$name2" t_settle_sleep "$mode"
	else
		skip "$name2" "$DENY is not built (make unit-bins)"
	fi
done
