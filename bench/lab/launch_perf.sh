#!/usr/bin/env bash
# bench/lab/launch_perf.sh OUT N COMMS 'CMD; CMD2': where the CPU of N runs of a launch goes
# (docs/bench-notes/24). perf record -a -g of the cpu-clock software event at 10 kHz (this VM
# has no PMU: `perf stat -e instructions true` says <not supported>), the samples of the
# processes named in COMMS (comma-separated: the launcher's name and "true") written to OUT by
# perf script; bench/lab/launch_perf.py OUT N PERIOD_US sorts them into categories. Sampling slows
# what it samples (a sample costs tens of us here): compare launchers sampled in one session.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: bash bench/lab/launch_perf.sh OUT N COMMS 'CMD'" >&2; exit 2; }
out=$1 n=$2 comms=$3 cmd=$4
perf record -q -o "$out.data" -a -g -e cpu-clock -F 10000 -- \
	bash -c 'for i in $(seq '"$n"'); do '"$cmd"'; done' >/dev/null 2>&1
perf script -i "$out.data" --comm "$comms" -F comm,tid,ip,sym 2>/dev/null >"$out"
rm -f "$out.data"
