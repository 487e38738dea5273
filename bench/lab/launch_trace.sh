#!/usr/bin/env bash
# bench/lab/launch_trace.sh OUT N CMD...: scheduler and syscall events of N runs of CMD (a shell
# command line run by bash -c, so that several launchers can alternate in one session) into OUT,
# from a tracefs instance of its own ("launch"), following forks. docs/bench-notes/24: read with
# bench/lab/launch_phases.py. Root; mounts tracefs on /sys/kernel/tracing if it is not.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: bash bench/lab/launch_trace.sh OUT N 'CMD; CMD2'" >&2; exit 2; }
out=$1 n=$2 cmd=$3
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs nodev $T
I=$T/instances/launch
[ -d $I ] || mkdir $I
echo 0 >$I/tracing_on
echo mono >$I/trace_clock
echo 16384 >$I/buffer_size_kb
echo 1 >$I/options/event-fork
: >$I/set_event
for e in sched:sched_process_exec sched:sched_process_fork sched:sched_process_exit sched:sched_wakeup \
	sched:sched_wakeup_new sched:sched_switch raw_syscalls:sys_enter raw_syscalls:sys_exit; do
	echo $e >>$I/set_event
done
: >$I/trace
bash -c 'echo $$ >'$I'/set_event_pid; echo 1 >'$I'/tracing_on
	for i in $(seq '"$n"'); do '"$cmd"'; sleep 0.05; done; echo 0 >'$I'/tracing_on'
cat $I/trace >"$out"
: >$I/set_event_pid
: >$I/set_event
rmdir $I
