#!/usr/bin/env bash
# sandboxtime netbench, end to end, as root and as nobody (rootless): every
# path moves data (every byte sent arrives; throughput counts only bytes after
# the warm-up), the JSON, CSV and Prometheus reports have their keys, SIGINT
# mid-run exits 130 with one line and leaves no process and no network
# namespace, and bad input exits 125 before anything is made. Short runs:
# --duration=0.3 --repeat=1. The options beyond one TCP stream (--streams,
# --udp, --busy-poll, --cpu-pin, the host-to-sandbox path) share one run per
# mode, to keep the suite short.
source "$(dirname "$0")/../lib.sh" "$1"

plan 25

NB_FAST=(netbench --duration=0.3 --repeat=1)

# The network namespaces of the machine, as inode numbers (root sees all).
netns_set() { lsns -t net -n -o NS 2>/dev/null | tr -d ' ' | sort -u; }

# ours NS...: those of NS whose processes run the binary under test (as root
# or its copy for nobody); a namespace that other suites' sandboxes hold,
# running at the same time, is not ours to count.
ours() {
	local ns
	for ns in "$@"; do
		lsns -t net -n -o NS,COMMAND 2>/dev/null | awk -v ns="$ns" '$1 == ns' |
			grep -qF -e "$ST_BIN" -e "$ST_NOBODY_BIN" && echo "$ns"
	done
	return 0
}

# no_new_netns BEFORE: no network namespace of ours exists that was not in
# BEFORE (one that went away meanwhile is not ours to count either). The
# kernel frees a namespace shortly after its last holder: up to 2 s.
no_new_netns() {
	local before=$1 after new
	for _ in $(seq 20); do
		after=$(netns_set)
		# shellcheck disable=SC2046 # one inode per word
		new=$(ours $(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after")))
		[ -z "$new" ] && return 0
		sleep 0.1
	done
	echo "new network namespaces:"
	lsns -t net -o NS,NPROCS,PID,USER,COMMAND | grep -F -e NPROCS $(printf -- '-e %s ' $new)
	return 1
}

# JSON: schema, the three paths with data moved and counted on both ends,
# the latency keys and the four ratios, above 0.
t_json() {
	local mode=$1
	st_run "$mode" "${NB_FAST[@]}" -J || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/netbench_check.py" json "$ST_ERR" "$mode" || { st_show; return 1; }
}

# Every path, 3 connections, UDP, busy polling, server and client on two
# CPUs: each connection's bytes agree at both ends, UDP moved data, and the
# report says what was on and where each side ran.
t_options() {
	local mode=$1 pin=()
	[ "$(nproc)" -ge 2 ] && pin=(--cpu-pin)
	st_run "$mode" netbench --duration=0.2 --repeat=1 --paths=all --streams=3 --udp --busy-poll \
		"${pin[@]}" -J || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/netbench_check.py" options "$ST_ERR" "${#pin[@]}" || { st_show; return 1; }
}

# --cpu=0: both ends on CPU 0, and the report's placement figure says so
# (every 10 ms slot of the stream saw them there), with no unpinned note.
t_one_cpu() {
	local mode=$1
	st_run "$mode" netbench --duration=0.2 --repeat=1 --no-rr --paths=host,veth --cpu=0 -J || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/netbench_check.py" one_cpu "$ST_ERR" || { st_show; return 1; }
}

t_prometheus() {
	local mode=$1 line
	st_run "$mode" "${NB_FAST[@]}" --paths=host,veth --format=prometheus || return 1
	expect_rc 0 && expect_clean || return 1
	for line in '# HELP sandboxtime_netbench_throughput_gbps ' \
		'# TYPE sandboxtime_netbench_throughput_gbps gauge' \
		'# HELP sandboxtime_netbench_latency_us ' '# TYPE sandboxtime_netbench_latency_us gauge'; do
		grep -qF -- "$line" "$ST_ERR" || { echo "no line '$line'"; st_show; return 1; }
	done
	for line in 'sandboxtime_netbench_throughput_gbps{path="host"} ' \
		'sandboxtime_netbench_throughput_gbps{path="veth"} ' \
		'sandboxtime_netbench_latency_us{path="veth",quantile="0.5"} ' \
		'sandboxtime_netbench_latency_us{path="host",quantile="0.99"} '; do
		grep -qF -- "$line" "$ST_ERR" || { echo "no sample '$line'"; st_show; return 1; }
	done
	! grep -q 'path="bridge"' "$ST_ERR" || { echo "bridge measured without being asked"; return 1; }
}

# CSV with units in the header, the table with ratios and notes; -o FILE.
t_csv_table() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" "${NB_FAST[@]}" --no-rr --paths=veth --mtu=9000 --format=csv -o "$dir/nb.csv" || return 1
	expect_rc 0 && expect_clean || return 1
	head -n1 "$dir/nb.csv" | grep -q '^path,throughput_min_gbps,.*,mtu_bytes,bytes_sent,bytes_received' ||
		{ echo "CSV header:"; head -n1 "$dir/nb.csv"; return 1; }
	grep -q '^veth,.*,9000,' "$dir/nb.csv" || { echo "no veth row with MTU 9000"; cat "$dir/nb.csv"; return 1; }
	st_run "$mode" "${NB_FAST[@]}" --paths=host,bridge || return 1
	expect_rc 0 && expect_clean || return 1
	grep -q '^bridge ' "$ST_ERR" && grep -q 'host/bridge' "$ST_ERR" && grep -q '^notes:' "$ST_ERR" ||
		{ st_show; return 1; }
}

# --cpu-pin where netbench may use one CPU only: 125, one line, nothing left.
t_cpu_pin_one_cpu() {
	local mode=$1 before
	before=$(netns_set)
	(
		taskset -pc 0 "$BASHPID" >/dev/null || exit 1
		st_run "$mode" netbench --cpu-pin --duration=0.2 --repeat=1 || exit 1
		expect_rc 125 && expect_error_line && expect_clean && expect_error_names "--cpu-pin" "one CPU"
	) || return 1
	no_new_netns "$before"
}

# SIGINT half a second into a 5 s run: 130, one line, quickly, nothing left.
t_sigint() {
	local mode=$1 before start elapsed
	before=$(netns_set)
	st_start "$mode" netbench --duration=5 --repeat=1 || return 1
	sleep 0.5
	start=$(now_ms)
	kill -INT "$ST_PID"
	st_finish
	elapsed=$(($(now_ms) - start))
	expect_rc 130 && expect_error_line && expect_clean || return 1
	expect_error_names "interrupted" "SIGINT" || return 1
	[ "$elapsed" -lt 2000 ] || { echo "netbench took $elapsed ms to end after SIGINT"; return 1; }
	no_new_netns "$before"
}

t_sigterm() {
	local mode=$1
	st_start "$mode" netbench --duration=5 --repeat=1 --paths=bridge || return 1
	sleep 0.5
	kill -TERM "$ST_PID"
	st_finish
	expect_rc 143 && expect_error_line && expect_clean
}

# Bad input: one line plus the --help hint, 125, nothing made or left.
t_bad() {
	local mode=$1 name=$2; shift 2
	st_run "$mode" netbench "$@" || return 1
	expect_rc 125 && expect_error_line usage && expect_clean && expect_error_names "$name"
}

t_bad_all() {
	local mode=$1 before
	before=$(netns_set)
	t_bad "$mode" --duration --duration=0 &&
		t_bad "$mode" --duration --duration=-1 &&
		t_bad "$mode" --duration --duration=3601 &&
		t_bad "$mode" --size --size=0 &&
		t_bad "$mode" --size --size=67108865 &&
		t_bad "$mode" "'wifi'" --paths=host,wifi &&
		t_bad "$mode" --mtu --mtu=67 &&
		t_bad "$mode" --mtu --mtu=65536 &&
		t_bad "$mode" --format --format=xml &&
		t_bad "$mode" --streams --streams=65 &&
		t_bad "$mode" --streams --streams=0 &&
		t_bad "$mode" --cpu-pin --cpu-pin --cpu=0 &&
		t_bad "$mode" --busy-poll --busy-poll --no-rr || return 1
	no_new_netns "$before"
}

each_mode "netbench -J: every path moves data, both ends agree, keys and ratios" t_json
each_mode "netbench --streams, --udp, --busy-poll, --cpu-pin on all five paths" t_options
each_mode "netbench --format=prometheus: HELP/TYPE lines and the gauges" t_prometheus
each_mode "netbench CSV (units in the header, --mtu) and table (ratios, notes)" t_csv_table
each_mode "netbench --cpu-pin with one CPU allowed exits 125" t_cpu_pin_one_cpu
each_mode "netbench --cpu=0: both ends on one CPU in every slot of the stream" t_one_cpu
each_mode "netbench: SIGINT mid-run exits 130, one line, no process or netns left" t_sigint
each_mode "netbench: SIGTERM mid-run exits 143, nothing left" t_sigterm
each_mode "netbench: bad duration, size, path, MTU, format, streams exit 125" t_bad_all

# The same leftovers check as a separate, visible test for root: no new
# namespace after a complete run either.
t_no_netns_after_run() {
	local before
	before=$(netns_set)
	st_run root "${NB_FAST[@]}" -q || return 1
	expect_rc 0 && expect_clean || return 1
	no_new_netns "$before"
}
if is_root; then
	ok "netbench leaves no network namespace after a full run [root]" t_no_netns_after_run
else
	skip "netbench leaves no network namespace after a full run [root]" "lsns sees every namespace only as root"
fi

# How the stream is read and written, and how the parent waits (see
# docs/bench-notes/netbench-iperf3.md): both ends in units of --size with
# MSG_DONTWAIT, sleeping in poll, never blocking inside recv or send, and
# the parent sleeping until SIGCHLD instead of waking on a short tick.
t_stream_io() {
	local dir
	dir=$(st_scratch) || return 1
	# -ff: one file per process, so that no call is split into unfinished/resumed.
	# LeakSanitizer cannot run under ptrace (it stops the process to scan it):
	# under a sanitized build the leak check is left to the other tests.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -ff -qq -o "$dir/t" -e trace=sendto,recvfrom,rt_sigtimedwait \
		"$ST_BIN" netbench --duration=0.3 --repeat=1 --paths=host --no-rr --size=65536 -q ||
		{ echo "netbench under strace failed"; return 1; }
	cat "$dir"/t.* >"$dir/trace"
	grep -Eq 'recvfrom\([0-9]+, .*, 65536, MSG_DONTWAIT,' "$dir/trace" ||
		{ echo "no non-blocking read of --size bytes:"; grep -m5 recvfrom "$dir/trace"; return 1; }
	grep -Eq 'sendto\([0-9]+, .*, 65536, MSG_DONTWAIT\|MSG_NOSIGNAL,' "$dir/trace" ||
		{ echo "no non-blocking write of --size bytes:"; grep -m5 sendto "$dir/trace"; return 1; }
	if grep -Eq '(recvfrom|sendto)\([0-9]+, .*, 65536, (0|MSG_NOSIGNAL),' "$dir/trace"; then
		echo "a blocking stream read or write:"; grep -Em5 ', 65536, (0|MSG_NOSIGNAL),' "$dir/trace"
		return 1
	fi
	grep -Eq 'rt_sigtimedwait\(\[[^]]*CHLD' "$dir/trace" ||
		{ echo "the parent does not wait for SIGCHLD:"; grep -m5 rt_sigtimedwait "$dir/trace"; return 1; }
}
if ! is_root; then
	skip "netbench streams in --size units without blocking; the parent sleeps until SIGCHLD [root]" "runs the binary under strace directly, as root"
elif ! command -v strace >/dev/null; then
	skip "netbench streams in --size units without blocking; the parent sleeps until SIGCHLD [root]" "strace is missing (.ci/install-deps bench)"
else
	ok "netbench streams in --size units without blocking; the parent sleeps until SIGCHLD [root]" t_stream_io
fi

# The host's interfaces are untouched: no nb* or 10.217.* appears in the host's namespace.
t_host_untouched() {
	local dir
	dir=$(st_scratch) || return 1
	st_start root netbench --duration=1 --repeat=1 --paths=veth,bridge,host-to-sandbox,macvlan --no-rr -q || return 1
	sleep 1
	ip -o link show >"$dir/links" 2>&1
	ip -o addr show >"$dir/addrs" 2>&1
	st_finish
	expect_rc 0 && expect_clean || return 1
	! grep -E 'nbv|nbbr|nbs0|nbc0|nbh0|nbm[01]' "$dir/links" || { echo "a netbench link in the host's namespace"; return 1; }
	! grep -F '10.217.' "$dir/addrs" || { echo "a netbench address in the host's namespace"; return 1; }
}
if is_root; then
	ok "netbench creates nothing in the host's network namespace [root]" t_host_untouched
else
	skip "netbench creates nothing in the host's network namespace [root]" "needs root to start"
fi

t_help_lists() {
	"$ST_BIN" --help | grep -q '^ sandboxtime netbench ' || { echo "--help does not list netbench"; return 1; }
}
ok "--help lists netbench" t_help_lists

t_unexpected_arg() {
	st_run root netbench -- true || return 1
	expect_rc 125 && expect_error_line usage
}
if is_root; then
	ok "netbench -- CMD is refused (it runs no command)" t_unexpected_arg
else
	skip "netbench -- CMD is refused (it runs no command)" "suite helpers start root runs only as root"
fi

t_quiet() {
	st_run root "${NB_FAST[@]}" --paths=host -q || return 1
	expect_rc 0 && expect_clean || return 1
	[ ! -s "$ST_ERR" ] && [ ! -s "$ST_OUT" ] || { echo "-q wrote something"; st_show; return 1; }
}
if is_root; then
	ok "netbench -q writes nothing and exits 0" t_quiet
else
	skip "netbench -q writes nothing and exits 0" "suite helpers start root runs only as root"
fi

# The paths' order comes from a seed: printed in the header and config.seed,
# the one given by --seed, and a new one each run without it.
t_seed() {
	local one two
	st_run root "${NB_FAST[@]}" --paths=host,veth --seed=4242 -J || return 1
	expect_rc 0 && expect_clean || return 1
	one=$("$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["seed"])' "$ST_ERR")
	expect_eq "$one" 4242 || return 1
	st_run root "${NB_FAST[@]}" --paths=host,veth || return 1
	grep -q 'paths in a random order in each round (--seed=[0-9]*)' "$ST_ERR" || { st_show; return 1; }
	two=$(sed -n 's/.*(--seed=\([0-9]*\)).*/\1/p' "$ST_ERR")
	[ -n "$two" ] && [ "$two" != 4242 ]
}
if is_root; then
	ok "netbench --seed: the paths' order is seeded, printed and replayable" t_seed
else
	skip "netbench --seed: the paths' order is seeded, printed and replayable" "suite helpers start root runs only as root"
fi
