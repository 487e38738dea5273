#!/usr/bin/env bash
# --kill-after: a workload that ignores SIGTERM cannot keep sandboxtime
# waiting past the grace period; nothing is left, root and nobody.
source "$(dirname "$0")/../lib.sh" "$1"
plan 8


# t_grace MODE EXTRA...: SIGTERM to sandboxtime while the workload ignores
# it; with --kill-after=1 it must end with 137 in about a second, clean.
t_grace() {
	local mode=$1 dir start elapsed; shift
	dir=$(st_scratch) || return 1
	st_start "$mode" --repeat=0 -q --kill-after=1 "$@" -- sh -c "trap '' TERM; : > $dir/ready; sleep 30" || return 1
	wait_file "$dir/ready" || give_up || return 1
	start=$(now_ms)
	kill -TERM "$ST_PID"
	st_finish
	elapsed=$(($(now_ms) - start))
	expect_rc 137 && expect_clean || return 1
	[ "$elapsed" -ge 800 ] || { echo "ended after $elapsed ms, before the grace period"; return 1; }
	[ "$elapsed" -lt 5000 ] || { echo "ended after $elapsed ms"; return 1; }
}

# A workload that does end on SIGTERM is not killed: its own status passes.
t_no_kill_needed() {
	local mode=$1 dir; shift
	dir=$(st_scratch) || return 1
	st_start "$mode" --repeat=0 -q --kill-after=5 -- sh -c ": > $dir/ready; sleep 30" || return 1
	wait_file "$dir/ready" || give_up || return 1
	kill -TERM "$ST_PID"
	st_finish
	expect_rc 143 && expect_clean
}

each_mode "a workload ignoring SIGTERM is killed after --kill-after (pid namespace)" t_grace
each_mode "... without a pid namespace, nothing it started is left" t_grace --ns=uts
each_mode "... with --no-init (pid 1 is shielded from SIGTERM by the kernel)" t_grace --no-init
each_mode "a workload that ends on SIGTERM keeps its own status (143)" t_no_kill_needed
