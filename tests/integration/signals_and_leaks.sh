#!/usr/bin/env bash
# Signals reach the workload or stop the measurement cleanly, and nothing of
# sandboxtime outlives it: no process (every run is in a session of its own,
# whose id is sandboxtime's pid, so whatever it leaves keeps that id), no file
# descriptor handed to the workload, no network namespace. Signals are sent to
# pids that this suite started, never by name.
#
# As root the suite re-runs itself in a mount namespace of its own, so that
# the nsfs mounts it counts are its runs' (see t_netns_batch).
if [ "$(id -u)" = 0 ] && [ -z "${ST_LEAKS_MNTNS:-}" ]; then
	ST_LEAKS_MNTNS=1 exec unshare --mount --propagation slave bash "$0" "$@"
fi
source "$(dirname "$0")/../lib.sh" "$1"
# Root runs a copy too: a path of this suite's own tells a process of its
# runs from one of another suite run from the same build directory.
ST_BIN=$ST_NOBODY_BIN

plan 34


# SIGTERM to sandboxtime while the workload runs reaches the workload: its
# trap leaves a marker and exits 3; sandboxtime exits with that (or 143),
# quickly, and the workload's background sleep does not survive it.
t_term_reaches_workload() {
	local mode=$1 dir start elapsed; shift
	dir=$(st_scratch) || return 1
	st_start "$mode" --repeat=0 -q "$@" -- \
		sh -c "trap 'echo term > $dir/marker; exit 3' TERM; : > $dir/ready; sleep 30 & wait" || return 1
	wait_file "$dir/ready" || give_up || return 1
	start=$(now_ms)
	kill -TERM "$ST_PID"
	st_finish
	elapsed=$(($(now_ms) - start))
	[ "$(cat "$dir/marker" 2>/dev/null)" = term ] || { echo "the workload's TERM trap did not run"; st_show; return 1; }
	expect_rc 3 143 && expect_clean || return 1
	[ "$elapsed" -lt 2000 ] || { echo "sandboxtime took $elapsed ms to end after SIGTERM"; return 1; }
}

# A signal while measuring: 128+N, one error line, quickly, nothing left.
t_signal_while_measuring() {
	local mode=$1 sig=$2 want=$3 start elapsed; shift 3
	st_start "$mode" "$@" || return 1
	sleep 0.5
	start=$(now_ms)
	kill -"$sig" "$ST_PID"
	st_finish
	elapsed=$(($(now_ms) - start))
	expect_rc "$want" && expect_error_line && expect_clean || return 1
	[ "$elapsed" -lt 2000 ] || { echo "sandboxtime took $elapsed ms to end after SIG$sig"; return 1; }
}

# The workload leaves a process in the background and exits: it must not
# outlive sandboxtime.
t_background_left() {
	local mode=$1; shift
	st_run "$mode" --repeat=0 -q "$@" -- sh -c 'sleep 30 & echo $!' || return 1
	expect_rc 0 && expect_clean
}

# The sandbox's first process (the init, or the workload with --no-init) is
# killed from outside: sandboxtime reports it and nothing is left.
t_child_killed() {
	local mode=$1 dir child start elapsed; shift
	dir=$(st_scratch) || return 1
	st_start "$mode" --repeat=0 -q "$@" -- sh -c ": > $dir/ready; sleep 30; :" || return 1
	wait_file "$dir/ready" || give_up || return 1
	child=$(ps -o pid= --ppid "$ST_PID" | tr -d ' ')
	[ "$(printf '%s\n' "$child" | grep -c .)" = 1 ] || { echo "sandboxtime has not one child: '$child'"; give_up; return 1; }
	start=$(now_ms)
	kill -KILL "$child"
	st_finish
	elapsed=$(($(now_ms) - start))
	expect_rc 137 125 && expect_clean || return 1
	[ "$elapsed" -lt 2000 ] || { echo "sandboxtime took $elapsed ms to end"; return 1; }
}

# SIGKILL to sandboxtime itself (it cannot act on it): with a pid namespace,
# the sandbox dies with it.
t_sandboxtime_killed() {
	local mode=$1 dir; shift
	dir=$(st_scratch) || return 1
	st_start "$mode" --repeat=0 -q -- sh -c ": > $dir/ready; sleep 30; :" || return 1
	wait_file "$dir/ready" || give_up || return 1
	kill -KILL "$ST_PID"
	st_finish
	expect_rc 137 && expect_clean
}

# While the workload runs after measuring, every measured child and probe
# helper has been reaped: sandboxtime has one child, the sandbox, not a zombie.
t_one_child_while_running() {
	local mode=$1 dir kids
	dir=$(st_scratch) || return 1
	st_start "$mode" --repeat=2 --warmup=1 --deferred-repeat=1 --ns=uts,net -q -- \
		sh -c ": > $dir/ready; sleep 1; :" || return 1
	wait_file "$dir/ready" || give_up || return 1
	kids=$(ps -o pid=,stat=,comm= --ppid "$ST_PID")
	st_finish
	expect_rc 0 && expect_clean || return 1
	if [ "$(printf '%s\n' "$kids" | grep -c .)" != 1 ] || printf '%s\n' "$kids" | awk '$2 ~ /^Z/' | grep -q .; then
		echo "children of sandboxtime while the workload ran (pid stat comm):"
		printf '%s\n' "$kids" | sed 's/^/  /'
		return 1
	fi
}

# The workload gets fds 0, 1 and 2 only (st-exec gives sandboxtime no more).
# ls holds one more, on its own /proc/PID/fd: that one is not counted.
t_only_std_fds() {
	local mode=$1 own fds; shift
	st_run "$mode" "$@" -- ls -l /proc/self/fd || return 1
	expect_rc 0 && expect_clean || return 1
	own=$(awk '/ -> / && $NF ~ /^\/proc\/[0-9]+\/fd$/ { n++ } END { print n + 0 }' "$ST_OUT")
	fds=$(awk '/ -> / && $NF !~ /^\/proc\/[0-9]+\/fd$/ { print $(NF - 2) }' "$ST_OUT" | sort -n | tr '\n' ' ')
	if [ "$own" != 1 ] || [ "$fds" != "0 1 2 " ]; then
		echo "the workload has fds: $fds(besides ls's own: $own)"
		st_show
		return 1
	fi
}

# The same after measuring, with the report in a file.
t_only_std_fds_measured() {
	local dir
	dir=$(st_scratch) || return 1
	t_only_std_fds "$1" --repeat=2 --warmup=0 --deferred-repeat=1 --ns=uts,net -o "$dir/report" || return 1
	[ -s "$dir/report" ] || { echo "no report in $dir/report"; return 1; }
}

# 20 runs with a network namespace leave no network namespace that a process
# of theirs lives in (their sessions, or this suite's copy of the binary;
# root sees every process), and no nsfs mount more. The suite's mount
# namespace is a slave of the one it was started from (the host's): the
# host's mounts reach it, its own do not leave it. So a new nsfs mount that
# the host's namespace has too (same mount point, same namespace) is another
# job's, and any other is a leak of the runs.
nsfs_mounts() { awk '/ - nsfs / { print $5, $4 }' "$1" | sort -u; }

t_netns_batch() {
	local mode=$1 before mounts_before new i
	before=$(st_netns_now)
	mounts_before=$(nsfs_mounts /proc/self/mountinfo)
	# (a leaked namespace stays, held by a process of the runs: one look after the 20 finds it)
	for i in $(seq 20); do
		st_run "$mode" --repeat=0 -q --ns=net -- true || return 1
		expect_rc 0 && expect_clean || return 1
	done
	expect_no_new_netns_of_ours "$before" || return 1
	new=$(comm -13 <(printf '%s\n' "$mounts_before") <(nsfs_mounts /proc/self/mountinfo))
	if [ -n "$new" ] && [ "$(stat -L -c %i "/proc/$PPID/ns/mnt")" != "$(stat -L -c %i /proc/self/ns/mnt)" ]; then
		new=$(comm -23 <(printf '%s\n' "$new") <(nsfs_mounts "/proc/$PPID/mountinfo"))
	fi
	[ -z "$new" ] || { echo "nsfs mounts left by the runs (mount point, namespace):"; printf '%s\n' "$new" | sed 's/^/  /'; return 1; }
}

each_mode "SIGTERM reaches the workload (pid namespace, init)" t_term_reaches_workload
each_mode "SIGTERM reaches the workload (--no-init)" t_term_reaches_workload --no-init
each_mode "SIGTERM reaches the workload (no pid namespace)" t_term_reaches_workload --ns=uts
each_mode "SIGINT while measuring: 130, one line, nothing left" t_signal_while_measuring INT 130 layers --repeat=100000
each_mode "SIGTERM while measuring: 143, one line, nothing left" t_signal_while_measuring TERM 143 layers --repeat=100000
each_mode "SIGINT during the deferred pass: 130, one line" t_signal_while_measuring INT 130 \
	layers --repeat=1 --warmup=0 --deferred-repeat=100000 --ns=uts,net
each_mode "a background process of the workload dies with the sandbox (pid ns)" t_background_left
each_mode "a background process of the workload dies with it (no pid ns)" t_background_left --ns=uts
each_mode "a background process of the workload dies with it (--no-init, no pid ns)" t_background_left --no-init --ns=uts
each_mode "the sandbox's init killed from outside: 137, nothing left (pid ns)" t_child_killed
each_mode "the sandbox's init killed from outside: nothing left (no pid ns)" t_child_killed --ns=uts
each_mode "SIGKILL to sandboxtime: the sandbox dies with it" t_sandboxtime_killed
each_mode "after measuring, one child while the workload runs, no zombie" t_one_child_while_running
each_mode "the workload sees only fds 0, 1, 2" t_only_std_fds --repeat=0 -q
each_mode "the workload sees only fds 0, 1, 2 (--no-init)" t_only_std_fds --repeat=0 -q --no-init
each_mode "the workload sees only fds 0, 1, 2 (after measuring, -o)" t_only_std_fds_measured
each_mode "20 runs with net: no network namespace or nsfs mount left" t_netns_batch
