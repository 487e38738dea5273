#!/usr/bin/env bash
# The wired network modes, --net=veth and --net=bridge: what the sandbox sees
# inside (eth0, its address, the default route), that the pair carries
# traffic, that IPv4 forwarding is off on every outside interface that
# sandboxtime adds, that none of them outlives it, bad input, --mtu, and the
# "network" object and the wiring steps of the JSON report. As root (the
# outside end in the host's network namespace) and as nobody (the outside end
# in a namespace that sandboxtime makes to stand for the host).
#
# Only interfaces and namespaces that this suite or sandboxtime made are
# touched; every connection goes to an address in a namespace made by one of
# them. Other runs may share this machine: an interface named st...N for an N
# that is neither the run's pid nor this shell's belongs to one of those, and
# is left out of the before/after comparison of the host's interfaces.
source "$(dirname "$0")/../lib.sh" "$1"

plan 75

IP=$(command -v ip)
TEST_NS=st-test-$$ # a network namespace of this suite: a "host" that we may change
TEST_BR=sttb$$     # a bridge of this suite in the host's namespace, for --bridge
TEST_NET=          # its /24, without the last byte (10.215.R)
NT_SERVERS=()      # pids of the servers this suite started
NT_LINKS=()        # interfaces this suite made in the host's namespace
NT_PRE=()          # nt_start: words before st-exec (ip netns exec NS)
NT_POST=()         # nt_start: words between st-exec and sandboxtime (a gate)

net_cleanup() {
	local pid link
	for pid in ${NT_SERVERS[@]+"${NT_SERVERS[@]}"}; do
		kill -KILL "$pid" 2>/dev/null
	done
	for link in ${NT_LINKS[@]+"${NT_LINKS[@]}"} "$TEST_BR"; do
		"$IP" link show "$link" >/dev/null 2>&1 && "$IP" link del "$link" 2>/dev/null
	done
	[ -e "/run/netns/$TEST_NS" ] && "$IP" netns del "$TEST_NS" 2>/dev/null
	return 0
}
trap 'net_cleanup; rm -rf "$ST_TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------
# A python3 helper that the workload (root or nobody) runs inside the sandbox,
# and that checks the reports and the workload's view from outside.
NET_PY=$ST_PYDIR/net_tool.py

# ---------------------------------------------------------------------------
# Helpers.

# host_links [NETNS]: the interface names in the host's network namespace (or NETNS).
host_links() {
	if [ -n "${1:-}" ]; then
		"$IP" -n "$1" -o link show
	else
		"$IP" -o link show
	fi | awk -F': ' '{ print $2 }' | sed 's/@.*//' | sort -u
}

# links_changed BEFORE PID [NETNS]: "< name" (gone) and "> name" (new) since
# BEFORE, leaving out st...N of other runs (N neither PID nor this shell's pid).
links_changed() {
	diff <(printf '%s\n' "$1") <(host_links "${3:-}") | sed -n 's/^\([<>]\) /\1 /p' |
		awk -v p="$2" -v me="$$" '{
			n = $2
			if (n ~ /^st[a-z]*[0-9]+$/) {
				num = n; sub(/^st[a-z]*/, "", num)
				if (num != p && num != me) next
			}
			print
		}'
}

# expect_links_clean [NETNS]: the host's interfaces (or NETNS's) are those of
# NT_BEFORE, and no stv/stbr of the run ($ST_PID) is left.
expect_links_clean() {
	local changed left
	changed=$(links_changed "$NT_BEFORE" "$ST_PID" "${1:-}")
	left=$(host_links "${1:-}" | grep -x -e "stv$ST_PID" -e "stbr$ST_PID")
	if [ -n "$changed" ] || [ -n "$left" ]; then
		echo "interfaces of ${1:-the host} changed by the run of pid $ST_PID (< gone, > new):"
		printf '%s\n' "$changed" $left | grep . | sed 's/^/  /'
		return 1
	fi
}

# net_run MODE ARG...: a single run (--repeat=0) with a JSON report in
# $REPORT; the host's interfaces are remembered first in NT_BEFORE.
net_run() {
	local mode=$1 dir; shift
	dir=$(st_scratch) || return 1
	REPORT=$dir/report.json
	NT_BEFORE=$(host_links)
	st_run "$mode" --repeat=0 -J -o "$REPORT" "$@"
}

# nt_start ARG...: st_start as root, with NT_PRE before st-exec and NT_POST
# between st-exec and sandboxtime (both exec, so ST_PID is sandboxtime's pid).
nt_start() {
	local i
	ST_DIR=$(st_scratch) || return 1
	ST_OUT=$ST_DIR/stdout ST_ERR=$ST_DIR/stderr ST_PID= ST_RC= ST_LEFT=
	timeout -k 5 "$ST_TIMEOUT" ${NT_PRE[@]+"${NT_PRE[@]}"} "$ST_EXEC" "$ST_DIR/pid" \
		${NT_POST[@]+"${NT_POST[@]}"} "$ST_BIN" "$@" </dev/null >"$ST_OUT" 2>"$ST_ERR" &
	ST_JOB=$!
	for i in $(seq 200); do
		[ -s "$ST_DIR/pid" ] && break
		sleep 0.025
	done
	ST_PID=$(cat "$ST_DIR/pid" 2>/dev/null)
	[ -n "$ST_PID" ] || { echo "sandboxtime did not start"; return 1; }
}

# check_json MODE NET KEY=VALUE...: the network object and steps of $REPORT.
check_json() {
	local mode=$1 net=$2; shift 2
	"$ST_PY" "$NET_PY" json "$REPORT" net="$net" mode="$mode" pid="$ST_PID" "$@" || { st_show; return 1; }
}

# The workload that shows the sandbox's network, for net_tool.py inside.
SHOW_NET="echo '#addr'; $IP -o -4 addr show; echo '#route'; $IP -4 route show; echo '#link'; $IP -o link show"

# A port on which nothing listens in the host's namespace (root) or in the
# namespace that stands for the host (nobody: nothing listens there at all).
free_port() {
	local p
	if [ "$1" = root ]; then
		for p in 9 19 39 47 1; do
			[ -z "$(ss -Htln "sport = :$p")" ] && { echo "$p"; return; }
		done
	fi
	echo 9
}

# One error line "sandboxtime: ...", and for bad usage the --help hint after it.
expect_error_one_line() {
	local n
	n=$(wc -l <"$ST_ERR")
	case $(head -n1 "$ST_ERR") in
	"sandboxtime: "?*) ;;
	*) echo "stderr does not start with 'sandboxtime: '"; st_show; return 1 ;;
	esac
	case $n in
	1) ;;
	2) [ "$(sed -n 2p "$ST_ERR")" = "Try 'sandboxtime --help' for more information." ] ||
		{ echo "a second line that is not the --help hint"; st_show; return 1; } ;;
	*) echo "$n lines on stderr"; st_show; return 1 ;;
	esac
}

# root_only DESC FUNC ARG...: one test, run as root, skipped otherwise.
root_only() {
	local desc=$1; shift
	if is_root; then
		ok "$desc [root]" "$@"
	else
		skip "$desc [root]" "not running as root"
	fi
}

# nobody_only DESC FUNC ARG...: one test, FUNC nobody ARG..., skipped where it cannot run.
nobody_only() {
	local desc=$1 func=$2; shift 2
	if can_run nobody; then
		ok "$desc [nobody]" "$func" nobody "$@"
	else
		skip "$desc [nobody]" "needs root to switch to nobody, and unprivileged user namespaces"
	fi
}

# ---------------------------------------------------------------------------
# Setup: the suite's own network namespace (its "host" has IPv4 forwarding on
# by default, so that a new interface there is forwarding unless sandboxtime
# turns it off) and its own bridge with a /24 that nothing here uses.
if is_root; then
	net_cleanup
	"$IP" netns add "$TEST_NS" && "$IP" -n "$TEST_NS" link set lo up &&
		"$IP" netns exec "$TEST_NS" sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward' ||
		diag "could not set up network namespace $TEST_NS"
	TEST_NET=$("$ST_PY" "$NET_PY" freenet) || { diag "$TEST_NET"; TEST_NET=; }
	if [ -n "$TEST_NET" ]; then
		"$IP" link add "$TEST_BR" type bridge && "$IP" addr add "$TEST_NET.1/24" dev "$TEST_BR" &&
			"$IP" link set "$TEST_BR" up || { diag "could not set up bridge $TEST_BR"; TEST_NET=; }
	fi
fi

# needs_test_bridge: the suite's bridge exists.
needs_test_bridge() {
	[ -n "$TEST_NET" ] || { echo "the suite's bridge $TEST_BR could not be set up"; return 1; }
}

# ---------------------------------------------------------------------------
# 1. Inside: eth0 has the reported address, is up, the default route goes via
# the reported gateway, and only lo and eth0 exist.
t_inside() {
	local mode=$1 net=$2; shift 2
	net_run "$mode" --net="$net" "$@" -- sh -c "$SHOW_NET" || return 1
	expect_rc 0 && expect_clean && expect_links_clean || return 1
	"$ST_PY" "$NET_PY" inside "$REPORT" "$ST_OUT" || { st_show; return 1; }
}

t_inside_addr() {
	local mode=$1 net=$2 addr=$3
	t_inside "$mode" "$net" --addr="$addr" || return 1
	check_json "$mode" "$net" addr="$addr"
}

# Joining the suite's bridge: the address is derived from the bridge's subnet.
t_inside_joined() {
	needs_test_bridge || return 1
	t_inside root bridge --bridge="$TEST_BR" || return 1
	check_json root bridge bridge="$TEST_BR" || return 1
	case $("$ST_PY" "$NET_PY" field "$REPORT" address) in
	"$TEST_NET".*) ;;
	*) echo "address is not in $TEST_NET.0/24"; cat "$REPORT"; return 1 ;;
	esac
	expect_eq "$("$ST_PY" "$NET_PY" field "$REPORT" gateway)" "$TEST_NET.1"
}

each_mode "--net=veth: eth0 has the address, is up, default via the gateway, only lo and eth0" t_inside veth
each_mode "--net=bridge: eth0 has the address, is up, default via the gateway, only lo and eth0" t_inside bridge
each_mode "--net=veth --ns=net: the same with the net layer alone" t_inside veth --ns=net
each_mode "--net=veth --addr=10.213.251.6/30: eth0 has that address" t_inside_addr veth 10.213.251.6/30
each_mode "--net=bridge --addr=10.214.251.9/24: eth0 has that address" t_inside_addr bridge 10.214.251.9/24
root_only "--net=bridge --bridge=(the suite's bridge): an address of its subnet, default via it" t_inside_joined

# ---------------------------------------------------------------------------
# 2. Reachability: a connect to the gateway on a port where nothing listens is
# refused (an RST came back: the path works both ways).
t_refused() {
	local mode=$1 net=$2 port gw
	port=$(free_port "$mode")
	net_run "$mode" --net="$net" -- "$ST_PY" "$NET_PY" refused "$port" || return 1
	expect_rc 0 && expect_clean && expect_links_clean || return 1
	# ECONNREFUSED is the RST itself (no answer would time out, a missing
	# route is EHOSTUNREACH): the path works both ways, however long it took
	# on a loaded machine.
	read -r _ gw _ <"$ST_OUT"
	expect_eq "$gw" "$("$ST_PY" "$NET_PY" field "$REPORT" gateway)"
}

# A real exchange over a veth pair, as root: sandboxtime runs in the suite's
# own network namespace, where a server listens (on every address of that
# namespace only); the workload talks to it through the gateway.
t_veth_exchange() {
	local dir srv peer
	dir=$(st_scratch) || return 1
	"$IP" netns exec "$TEST_NS" "$ST_PY" "$NET_PY" serve 0.0.0.0 0 "$dir/port" >"$dir/server.out" 2>&1 &
	srv=$!
	NT_SERVERS+=("$srv")
	wait_file "$dir/port" 50 || { cat "$dir/server.out"; return 1; }
	NT_BEFORE=$(host_links "$TEST_NS")
	REPORT=$dir/report.json
	NT_PRE=("$IP" netns exec "$TEST_NS")
	nt_start --repeat=0 -J -o "$REPORT" --net=veth -- "$ST_PY" "$NET_PY" talk gw "$dir/port" "ping-$$"
	local started=$?
	NT_PRE=()
	[ "$started" = 0 ] || return 1
	st_finish
	kill -KILL "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	expect_rc 0 && expect_clean && expect_links_clean "$TEST_NS" || return 1
	expect_stdout "pong:ping-$$" || return 1
	read -r _ peer <"$dir/server.out"
	expect_eq "$peer" "$("$ST_PY" "$NET_PY" field "$REPORT" address)"
}

# Two sandboxes on the suite's bridge: A serves one connection on its eth0
# address, B connects to it and gets the answer; A sees B's address.
t_bridge_pair() {
	local dir a_job a_pid a_out peer ports
	needs_test_bridge || return 1
	dir=$(st_scratch) || return 1
	NT_BEFORE=$(host_links)
	st_start root --repeat=0 -q --net=bridge --bridge="$TEST_BR" --addr="$TEST_NET.10/24" -- \
		"$ST_PY" "$NET_PY" serve "$TEST_NET.10" 7777 "$dir/port" || return 1
	a_job=$ST_JOB a_pid=$ST_PID a_out=$ST_OUT
	wait_file "$dir/port" 50 || give_up || return 1
	st_run root --repeat=0 -q --net=bridge --bridge="$TEST_BR" --addr="$TEST_NET.11/24" -- \
		"$ST_PY" "$NET_PY" talk "$TEST_NET.10" "$dir/port" "ping-$$" || return 1
	expect_rc 0 && expect_clean && expect_stdout "pong:ping-$$" || { kill -KILL "$a_pid"; wait "$a_job"; return 1; }
	ST_JOB=$a_job ST_PID=$a_pid ST_OUT=$a_out ST_ERR=${a_out%stdout}stderr
	st_finish
	expect_rc 0 && expect_clean || return 1
	read -r _ peer <"$ST_OUT"
	expect_eq "$peer" "$TEST_NET.11" || return 1
	ports=$("$IP" -o link show master "$TEST_BR")
	[ -z "$ports" ] || { echo "ports left on $TEST_BR: $ports"; return 1; }
	expect_links_clean
}

each_mode "--net=veth: a connect to the gateway is refused at once (the path works)" t_refused veth
each_mode "--net=bridge: a connect to the gateway is refused at once (the path works)" t_refused bridge
root_only "--net=veth: a TCP exchange with a server on the outside (in the suite's netns)" t_veth_exchange
root_only "--net=bridge --bridge: two sandboxes on one bridge exchange a message" t_bridge_pair

# ---------------------------------------------------------------------------
# 3. IPv4 forwarding is off on every outside interface that sandboxtime adds,
# in the host's namespace and in the suite's (where new interfaces forward by
# default, so that a 0 there is sandboxtime's doing).
t_forwarding() {
	local where=$1 net=$2 dir name v bad= ns=
	local -a inns=()
	dir=$(st_scratch) || return 1
	NT_PRE=()
	if [ "$where" = netns ]; then
		ns=$TEST_NS
		inns=("$IP" netns exec "$TEST_NS")
		NT_PRE=("${inns[@]}")
		v=$("${inns[@]}" cat /proc/sys/net/ipv4/conf/default/forwarding)
		[ "$v" = 1 ] || { echo "$TEST_NS: default forwarding is '$v', not 1: the test shows nothing"; return 1; }
	fi
	NT_BEFORE=$(host_links "$ns")
	nt_start --repeat=0 -q --net="$net" -- sh -c \
		": > $dir/ready; i=0; while [ ! -e $dir/done ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i + 1)); done"
	local started=$?
	NT_PRE=()
	[ "$started" = 0 ] || return 1
	wait_file "$dir/ready" || give_up || return 1
	for name in "stv$ST_PID" $([ "$net" = bridge ] && echo "stbr$ST_PID"); do
		v=$(${inns[@]+"${inns[@]}"} cat "/proc/sys/net/ipv4/conf/$name/forwarding" 2>&1)
		[ "$v" = 0 ] || bad="$bad $name: forwarding=$v;"
	done
	: >"$dir/done"
	st_finish
	[ -z "$bad" ] || { echo "while the sandbox ran:$bad"; return 1; }
	expect_rc 0 && expect_clean && expect_links_clean "$ns"
}

root_only "--net=veth: forwarding is 0 on stv<pid> in the host's namespace" t_forwarding host veth
root_only "--net=bridge: forwarding is 0 on stv<pid> and stbr<pid> in the host's namespace" t_forwarding host bridge
root_only "--net=veth: forwarding is 0 on stv<pid> where new interfaces forward by default" t_forwarding netns veth
root_only "--net=bridge: forwarding is 0 on stv<pid> and stbr<pid> where new interfaces forward by default" t_forwarding netns bridge

# ---------------------------------------------------------------------------
# 4. Nothing left in the host's namespace, whatever the run's end.
t_left_normal() {
	local mode=$1 net=$2
	net_run "$mode" --net="$net" -- true || return 1
	expect_rc 0 && expect_clean && expect_links_clean
}

t_left_exit3() {
	local mode=$1 net=$2
	net_run "$mode" --net="$net" -- sh -c 'exit 3' || return 1
	expect_rc 3 && expect_clean && expect_links_clean
}

t_left_not_found() {
	local mode=$1 net=$2
	NT_BEFORE=$(host_links)
	st_run "$mode" --repeat=0 -q --net="$net" -- /nonexistent/cmd || return 1
	expect_rc 127 && expect_clean && expect_links_clean
}

# The namespace that stands for the host (rootless): the net:[N] among
# sandboxtime's fds that is not its own network namespace.
held_netns() {
	local own fd
	own=$(readlink "/proc/$1/ns/net")
	for fd in /proc/"$1"/fd/*; do
		case $(readlink "$fd" 2>/dev/null) in
		"$own") ;;
		net:*) readlink "$fd"; return 0 ;;
		esac
	done
}

# Whether any process has NS (net:[N]) as its namespace or among its fds.
# One find over /proc, not a readlink per link: a host has thousands of fds.
netns_held_by_anyone() {
	local pattern=${1//[/\\[} found
	pattern=${pattern//]/\\]}
	found=$(find /proc/[0-9]*/ns/net /proc/[0-9]*/task/*/ns/net /proc/[0-9]*/fd -maxdepth 1 \
		-lname "$pattern" -print -quit 2>/dev/null)
	[ -n "$found" ] && echo "$found"
}

# SIGTERM to sandboxtime while the workload runs: 143, nothing left. Rootless,
# sandboxtime holds the namespace standing for the host until then, and
# nothing holds it after.
t_left_sigterm() {
	local mode=$1 net=$2 dir held= by
	dir=$(st_scratch) || return 1
	NT_BEFORE=$(host_links)
	st_start "$mode" --repeat=0 -q --net="$net" -- sh -c ": > $dir/ready; sleep 30" || return 1
	wait_file "$dir/ready" || give_up || return 1
	if [ "$mode" = nobody ]; then
		held=$(held_netns "$ST_PID")
		[ -n "$held" ] || { echo "sandboxtime holds no namespace standing for the host"; ls -l "/proc/$ST_PID/fd"; give_up; return 1; }
	fi
	kill -TERM "$ST_PID"
	st_finish
	expect_rc 143 && expect_clean && expect_links_clean || return 1
	if [ -n "$held" ] && by=$(netns_held_by_anyone "$held"); then
		echo "the namespace that stood for the host ($held) is still held: $by"
		return 1
	fi
}

# The wiring fails half-way, as root: an interface with the name that
# sandboxtime is about to use already exists (the suite makes it once the
# pid is known, before sandboxtime starts). 125, one error line naming it,
# what sandboxtime made is gone, and the interface it did not make is left
# alone.
t_left_setup_fails() {
	local net=$1 dir victim rc=0
	dir=$(st_scratch) || return 1
	NT_BEFORE=$(host_links)
	NT_POST=(sh -c 'while [ ! -e "$0" ]; do sleep 0.02; done; exec "$@"' "$dir/go")
	nt_start --repeat=0 -q --net="$net" -- true
	local started=$?
	NT_POST=()
	[ "$started" = 0 ] || return 1
	if [ "$net" = bridge ]; then
		victim=stbr$ST_PID
		"$IP" link add "$victim" type bridge || { give_up; return 1; }
	else
		victim=stv$ST_PID
		"$IP" link add "$victim" type veth peer name "stp$ST_PID" || { give_up; return 1; }
	fi
	NT_LINKS+=("$victim")
	: >"$dir/go"
	st_finish
	{ expect_rc 125 && expect_clean && expect_error_one_line && expect_error_names "$victim"; } || rc=1
	if [ "$net" = bridge ] && "$IP" link show "stv$ST_PID" >/dev/null 2>&1; then
		echo "the sandbox's veth stv$ST_PID is left"
		rc=1
	fi
	if ! "$IP" link show "$victim" >/dev/null 2>&1; then
		echo "sandboxtime deleted $victim, which it did not create (it existed before; creating it failed with EEXIST)"
		rc=1
	fi
	"$IP" link del "$victim" 2>/dev/null
	expect_links_clean || rc=1
	return $rc
}

each_mode "--net=veth: a normal run leaves no interface" t_left_normal veth
each_mode "--net=bridge: a normal run leaves no interface" t_left_normal bridge
each_mode "--net=bridge: a workload that exits 3 leaves no interface" t_left_exit3 bridge
each_mode "--net=veth: CMD not found (127) after the wiring leaves no interface" t_left_not_found veth
each_mode "--net=veth: SIGTERM to sandboxtime: 143, no interface or namespace left" t_left_sigterm veth
each_mode "--net=bridge: SIGTERM to sandboxtime: 143, no interface or namespace left" t_left_sigterm bridge
root_only "--net=veth: wiring fails (stv<pid> exists): 125, only what it made is removed" t_left_setup_fails veth
root_only "--net=bridge: wiring fails (stbr<pid> exists): 125, only what it made is removed" t_left_setup_fails bridge

# ---------------------------------------------------------------------------
# 5. Bad input: exit 125, one error line naming the problem, nothing on
# stdout, no process and no interface left.
t_bad() {
	local mode=$1 texts=$2 t; shift 2
	NT_BEFORE=$(host_links)
	st_run "$mode" --repeat=0 "$@" || return 1
	expect_rc 125 && expect_clean && expect_error_one_line && expect_links_clean || return 1
	local IFS='|'
	for t in $texts; do
		expect_error_names "$t" || { st_show; return 1; }
	done
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
}

t_bad_test_bridge() {
	needs_test_bridge || return 1
	t_bad root "$@"
}

each_mode "--net=veth --ns=uts: needs the net layer" t_bad "--net=veth|net" --net=veth --ns=uts -- true
each_mode "--addr=garbage" t_bad "--addr|garbage" --net=veth --addr=garbage -- true
each_mode "--addr=10.213.0.0/30: the network address" t_bad "--addr|10.213.0.0/30" --net=veth --addr=10.213.0.0/30 -- true
each_mode "--addr=10.213.0.3/30: the broadcast address" t_bad "--addr|10.213.0.3/30" --net=veth --addr=10.213.0.3/30 -- true
each_mode "--addr=1.2.3.4/31: no room for a gateway" t_bad "--addr|1.2.3.4/31" --net=veth --addr=1.2.3.4/31 -- true
each_mode "--addr=127.0.0.5/8: overlaps the host's 127.0.0.0/8" t_bad "--addr|127.0.0.0/8|overlaps" --net=veth --addr=127.0.0.5/8 -- true
each_mode "--addr=10.213.0.2/33: no such prefix" t_bad "--addr|33" --net=veth --addr=10.213.0.2/33 -- true
each_mode "--bridge=(16 bytes): too long for an interface name" t_bad "--bridge|abcdefghijklmnop" \
	--net=bridge --bridge=abcdefghijklmnop -- true
each_mode "--bridge without --net=bridge" t_bad "--bridge|--net=bridge" --net=veth --bridge=x -- true
each_mode "--mtu=10: below 68" t_bad "--mtu|10" --net=veth --mtu=10 -- true
each_mode "--mtu without --net=veth or bridge" t_bad "--mtu" --mtu=9000 -- true
each_mode "--addr without --net=veth or bridge" t_bad "--addr" --addr=10.213.0.2/30 -- true
each_mode "--net=wat: unknown mode" t_bad "--net|wat" --net=wat -- true
root_only "--bridge=nosuchbr<pid>: no such interface" t_bad root "--bridge|nosuchbr$$" --net=bridge --bridge=nosuchbr$$ -- true
root_only "--bridge=lo: not a bridge" t_bad root "--bridge|lo" --net=bridge --bridge=lo -- true
nobody_only "--bridge=x: joining a host bridge needs root" t_bad "--bridge|root" --net=bridge --bridge=x -- true
root_only "--bridge=(the suite's) --addr outside its subnet" t_bad_test_bridge "--addr|10.99.0.5/24" \
	--net=bridge --bridge="$TEST_BR" --addr=10.99.0.5/24 -- true
root_only "--bridge=(the suite's) --addr=(the bridge's own address): the gateway's address" t_bad_test_bridge \
	"--addr|$TEST_NET.1" --net=bridge --bridge="$TEST_BR" --addr="$TEST_NET.1/24" -- true

# ---------------------------------------------------------------------------
# 6. --mtu=9000: eth0 inside has it, and the report says so.
t_mtu() {
	local mode=$1 net=$2
	net_run "$mode" --net="$net" --mtu=9000 -- sh -c "$SHOW_NET" || return 1
	expect_rc 0 && expect_clean && expect_links_clean || return 1
	"$ST_PY" "$NET_PY" inside "$REPORT" "$ST_OUT" mtu=9000 || { st_show; return 1; }
	check_json "$mode" "$net" mtu=9000
}

each_mode "--net=veth --mtu=9000: eth0 has mtu 9000, network.mtu is 9000" t_mtu veth
each_mode "--net=bridge --mtu=9000: eth0 has mtu 9000, network.mtu is 9000" t_mtu bridge

# ---------------------------------------------------------------------------
# 7. JSON: the network object (keys and types), the wiring steps in order with
# positive times; as root veth_delete (and bridge_delete for a bridge).
t_json() {
	local mode=$1 net=$2
	net_run "$mode" --net="$net" -- true || return 1
	expect_rc 0 && expect_clean && expect_links_clean || return 1
	check_json "$mode" "$net"
}

# Root: the outside end is deleted by sandboxtime and reported, in every run,
# also when the workload has run for a while.
t_veth_delete_always() {
	local i missing=0 out
	for i in 1 2 3 4 5; do
		net_run root --net=veth -- sleep 0.2 || return 1
		expect_rc 0 && expect_clean && expect_links_clean || return 1
		out=$("$ST_PY" "$NET_PY" has-step "$REPORT" veth_delete) || { missing=$((missing + 1)); echo "run $i (pid $ST_PID): $out"; }
	done
	[ "$missing" = 0 ] || { echo "veth_delete missing in $missing of 5 runs"; return 1; }
}

each_mode "--net=veth: JSON network object and wiring steps" t_json veth
each_mode "--net=bridge: JSON network object and wiring steps" t_json bridge
root_only "--net=veth: veth_delete is reported in every run (5 runs of sleep 0.2)" t_veth_delete_always
