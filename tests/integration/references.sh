#!/usr/bin/env bash
# Independent references (issue 28): each measured family is checked once
# against a measurement that shares no code with sandboxtime, on the same
# machine, back to back. The layer timings against bench/clone_loop.c (its own
# clone3 loop), the same figures in Prometheus' seconds against it too (a
# unit check), and netbench's host path against iperf3 over loopback in a
# network namespace made here. The bounds are wide (tests/py/reference_check.py):
# they catch a wrong unit or a wrong thing measured, not a slow machine.
source "$(dirname "$0")/../lib.sh" "$1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)

plan 6

CL=$ST_TMP/clone_loop
gcc -O2 -o "$CL" "$TOP/bench/clone_loop.c" && chmod 755 "$CL" || exit 1
ref() { "$ST_PY" -B "$ST_PYDIR/reference_check.py" "$@"; }
# as MODE CMD...: CMD as root, or as nobody.
as() { local mode=$1; shift; if [ "$mode" = nobody ]; then as_nobody "$@"; else "$@"; fi; }

# The layers' fastest setups and clone_loop's for the same flag sets.
t_layers() {
	local mode=$1 dir sets
	dir=$(st_scratch) || return 1
	st_run "$mode" layers --ns=uts,ipc --repeat=15 --warmup=2 --deferred-repeat=0 -J -o "$dir/l.json" || return 1
	expect_rc 0 && expect_clean || return 1
	sets=$(ref sets "$dir/l.json") || return 1
	# shellcheck disable=SC2086 # one set per word
	as "$mode" "$CL" -n 15 -w 2 $sets >"$dir/cl.jsonl" || { echo "clone_loop failed"; return 1; }
	ref layers "$dir/l.json" "$dir/cl.jsonl"
}
each_mode "layers: every set's fastest setup agrees with bench/clone_loop's for the same clone flags" t_layers

# The Prometheus summary is in seconds: its base median x 1e6 is clone_loop's in us.
t_prom() {
	local mode=$1 dir t0 t1
	dir=$(st_scratch) || return 1
	t0=$(date +%s%N)
	st_run "$mode" layers --ns=uts --repeat=15 --warmup=2 --deferred-repeat=0 --format=prometheus -o "$dir/l.prom" ||
		return 1
	t1=$(date +%s%N)
	expect_rc 0 && expect_clean || return 1
	as "$mode" "$CL" -n 15 -w 2 none >"$dir/cl.jsonl" || { echo "clone_loop failed"; return 1; }
	ref prom "$dir/l.prom" "$dir/cl.jsonl" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }')"
}
each_mode "layers --format=prometheus: seconds, as clone_loop's microseconds say" t_prom

# iperf3 over loopback in a network namespace of its own (root: unshare -n;
# nobody: unshare -rn), server and client in it; the namespace ends with them.
# Both tools pin the two ends to two CPUs (netbench --cpu-pin, iperf3 -A):
# unpinned, whether the ends share a CPU moves either figure by up to 2x.
iperf3_loopback() {
	local mode=$1 out=$2 nsflags=-n
	[ "$mode" = nobody ] && nsflags=-rn
	# shellcheck disable=SC2016 # expanded by the inner shell
	as "$mode" unshare $nsflags sh -c '
		ip link set lo up || exit 1
		iperf3 -s -1 -A 1 -p 5201 >/dev/null 2>&1 & s=$!
		i=0; until ss -ltn | grep -q ":5201 "; do i=$((i + 1)); [ $i -lt 100 ] || exit 1; sleep 0.05; done
		iperf3 -c 127.0.0.1 -A 0 -p 5201 -t 2 -O 1 -J >"$1"; rc=$?
		wait $s; exit $rc' sh "$out"
}

t_netbench() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" netbench --repeat=1 --duration=1 --paths=host --no-rr --cpu-pin -J -o "$dir/nb.json" || return 1
	expect_rc 0 && expect_clean || return 1
	iperf3_loopback "$mode" "$dir/iperf3.json" || { echo "iperf3 failed"; cat "$dir/iperf3.json" 2>/dev/null | head -5; return 1; }
	ref netbench "$dir/nb.json" "$dir/iperf3.json"
}
if command -v iperf3 >/dev/null; then
	each_mode "netbench: the host path's throughput agrees with iperf3 over loopback" t_netbench
else
	for mode in root nobody; do
		skip "netbench: the host path's throughput agrees with iperf3 over loopback [$mode]" \
			"no iperf3 (sh .ci/install-deps test)"
	done
fi
