#!/usr/bin/env bash
# IPv6 (--ipv6, --addr6) and --net-batch for --net=veth and --net=bridge: what
# the sandbox sees inside (eth0's IPv6 address and default route), that a TCP
# connect over IPv6 reaches the outside, the IPv6 steps in the report and in
# --net-steps-repeat, bad input, a host without IPv6, and a host that
# forwards IPv6. As root and as nobody.
#
# As root, sandboxtime runs in a network namespace of this suite (st6-test-$$)
# that stands for the host: the suite changes its sysctls (disable_ipv6,
# forwarding) and routes there, never the real host's. Rootless runs that
# need such a host run there too, as nobody. Every connection goes to an
# address in a namespace made by the suite or by sandboxtime.
source "$(dirname "$0")/../lib.sh" "$1"

plan 46

IP=$(command -v ip)
TEST_NS=st6-test-$$
TEST_BR=st6b$$  # a bridge of the suite in its namespace, with an IPv6 block, for --bridge
TEST_BR4=st6c$$ # one with an IPv4 address only
NS_EXEC=("$IP" netns exec "$TEST_NS")
NOBODY=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
SERVERS=()

net6_cleanup() {
	local pid
	for pid in ${SERVERS[@]+"${SERVERS[@]}"}; do
		kill -KILL "$pid" 2>/dev/null
	done
	[ -e "/run/netns/$TEST_NS" ] && "$IP" netns del "$TEST_NS" 2>/dev/null
	return 0
}
trap 'net6_cleanup; rm -rf "$ST_TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

TOOL=$ST_PYDIR/net6_tool.py

links() { "$IP" ${1:+-n "$1"} -o link show | awk -F': ' '{ print $2 }' | sed 's/@.*//' | sort -u; }

# links_same BEFORE [NETNS]: no interface of the run ($ST_PID) or any other
# new one in NETNS (the host's when not given); st*N of other runs aside.
links_same() {
	local d
	d=$(diff <(printf '%s\n' "$1") <(links "${2:-}") | sed -n 's/^[<>] //p' |
		awk -v p="$ST_PID" '!/^st[a-z]*[0-9]+$/ || $0 ~ ("[^0-9]" p "$")')
	[ -z "$d" ] || { echo "interfaces changed by the run: $d"; return 1; }
}

# run6 MODE WHERE ARG...: one sandboxtime run as MODE (root, nobody) in the
# host's namespace (WHERE=host) or the suite's (WHERE=ns); its JSON report
# in $REPORT, the interfaces of that namespace before it in $BEFORE.
run6() {
	local mode=$1 where=$2 i pre=() bin=$ST_BIN; shift 2
	ST_DIR=$(st_scratch) || return 1
	ST_OUT=$ST_DIR/stdout ST_ERR=$ST_DIR/stderr ST_PID= ST_RC= ST_LEFT=
	REPORT=$ST_DIR/report.json
	NSARG=
	[ "$where" = ns ] && { pre=("${NS_EXEC[@]}"); NSARG=$TEST_NS; }
	[ "$mode" = nobody ] && { pre+=("${NOBODY[@]}"); bin=$ST_NOBODY_BIN; }
	BEFORE=$(links "$NSARG")
	(cd /tmp && timeout -k 5 "$ST_TIMEOUT" ${pre[@]+"${pre[@]}"} "$ST_EXEC" "$ST_DIR/pid" \
		"$bin" --repeat=0 -J -o "$REPORT" "$@" </dev/null >"$ST_OUT" 2>"$ST_ERR") &
	ST_JOB=$!
	for i in $(seq 200); do
		[ -s "$ST_DIR/pid" ] && break
		sleep 0.025
	done
	ST_PID=$(cat "$ST_DIR/pid" 2>/dev/null)
	st_finish
}

# Root wires the suite's namespace; nobody the namespace sandboxtime makes.
where_for() { if [ "$1" = root ]; then echo ns; else echo host; fi; }

SHOW6="$IP -o -6 addr show dev eth0; $IP -6 route show"

# t_inside MODE NET [--addr6=X] [--net-batch]: eth0 has the report's IPv6
# address (nodad, not tentative), one default IPv6 route via the gateway; the
# IPv6 steps (or the one batch step) are in the report; nothing left.
t_inside() {
	local mode=$1 net=$2 want= steps outside; shift 2
	case "$*" in *--addr6=*) want=${*##*--addr6=}; want=${want%% *} ;; esac
	run6 "$mode" "$(where_for "$mode")" --net="$net" --ipv6 "$@" -- sh -c "$SHOW6" || return 1
	expect_rc 0 && expect_clean && links_same "$BEFORE" "$NSARG" || return 1
	"$ST_PY" "$TOOL" inside "$REPORT" "$ST_OUT" ${want:+"$want"} || { st_show; return 1; }
	outside=host_addr6_add
	[ "$net" = bridge ] && outside=bridge_addr6_add
	if [[ " $* " = *" --net-batch "* ]]; then
		steps="$outside,inside_batch never=lo_up,addr_add,link_up,route_add,addr6_add,route6_add"
	else
		steps="$outside,lo_up,addr_add,link_up,route_add,addr6_add,route6_add never=inside_batch"
	fi
	"$ST_PY" "$TOOL" steps "$REPORT" want="${steps% *}" "${steps#* }" || { st_show; return 1; }
}

# Root: a server in the suite's namespace (the sandbox's outside) on [::];
# the workload talks to it through the IPv6 gateway; the server sees the
# sandbox's address.
t_exchange() {
	local net=$1 dir srv peer; shift
	dir=$(st_scratch) || return 1
	"${NS_EXEC[@]}" "$ST_PY" "$TOOL" serve "$dir/port" >"$dir/server.out" 2>&1 &
	srv=$!
	SERVERS+=("$srv")
	wait_file "$dir/port" 50 || { cat "$dir/server.out"; return 1; }
	run6 root ns --net="$net" --ipv6 "$@" -- "$ST_PY" "$TOOL" talk "$dir/port" "ping6-$$"
	wait "$srv" 2>/dev/null
	expect_rc 0 && expect_clean && links_same "$BEFORE" "$NSARG" && expect_stdout "pong:ping6-$$" || return 1
	read -r _ peer <"$dir/server.out"
	expect_eq "$peer/64" "$("$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["network"]["address6"])' "$REPORT")"
}

# Rootless the outside is a namespace where nothing listens: refused.
t_refused() {
	local mode=$1 net=$2; shift 2
	run6 "$mode" host --net="$net" --ipv6 "$@" -- "$ST_PY" "$TOOL" refused 9 || return 1
	# refused exits 0 only on ECONNREFUSED: an RST came back, however long it took.
	expect_rc 0 && expect_clean && links_same "$BEFORE"
}

# t_bad MODE WHERE TEXTS ARG...: exit 125, one error line naming every TEXT
# (|-separated), no output, nothing left.
t_bad() {
	local mode=$1 where=$2 texts=$3 t; shift 3
	run6 "$mode" "$where" "$@" -- true || return 1
	expect_rc 125 && expect_clean && links_same "$BEFORE" "$NSARG" || return 1
	[ "$(head -c 13 "$ST_ERR")" = "sandboxtime: " ] && [ "$(grep -vc "^Try 'sandboxtime --help'" "$ST_ERR")" = 1 ] ||
		{ echo "not one error line"; st_show; return 1; }
	local IFS='|'
	for t in $texts; do
		expect_error_names "$t" || { st_show; return 1; }
	done
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
}

# t_sysctl MODE KNOB VALUE RC TEXT: with the suite's KNOB at VALUE, a run
# there exits RC (naming TEXT when 125); the knob is put back.
t_sysctl() {
	local mode=$1 knob=$2 value=$3 rc=$4 text=$5 old ret=0
	old=$("${NS_EXEC[@]}" cat "/proc/sys/net/ipv6/conf/$knob") || return 1
	"${NS_EXEC[@]}" sh -c "echo $value > /proc/sys/net/ipv6/conf/$knob" || return 1
	if [ "$rc" = 125 ]; then
		t_bad "$mode" ns "$text" --net=veth --ipv6 || ret=1
	else
		run6 "$mode" ns --net=veth --ipv6 -- true && expect_rc "$rc" && expect_clean || ret=1
	fi
	"${NS_EXEC[@]}" sh -c "echo $old > /proc/sys/net/ipv6/conf/$knob"
	return $ret
}

t_net_steps() {
	local mode=$1 net=$2
	run6 "$mode" "$(where_for "$mode")" --net="$net" --ipv6 --net-steps-repeat=2 -- true || return 1
	expect_rc 0 && expect_clean && links_same "$BEFORE" "$NSARG" || return 1
	"$ST_PY" "$TOOL" steps "$REPORT" key=net_steps want="$3" never= || { st_show; return 1; }
}

# A run in the suite's namespace with every default veth block taken there.
t_pool_full() {
	local ret=0
	"${NS_EXEC[@]}" "$IP" -6 route add unreachable fd5b:7e1d:ab00::/49 || return 1
	t_bad root ns "--addr6|fd5b:7e1d:ab00::" --net=veth --ipv6 || ret=1
	"${NS_EXEC[@]}" "$IP" -6 route del unreachable fd5b:7e1d:ab00::/49
	return $ret
}

# t_fault MODE NET STEP ARG...: the fault-injection build fails STEP: 125,
# one line naming it, nothing left (in the suite's namespace as root).
FAULTS=$ST_BUILD_DIR/sandboxtime-faults
t_fault() {
	local mode=$1 net=$2 step=$3 bin=$ST_BIN nbin=$ST_NOBODY_BIN ret=0; shift 3
	cp "$FAULTS" "$ST_TMP/sandboxtime-faults" && chmod 755 "$ST_TMP/sandboxtime-faults" || return 1
	ST_BIN=$FAULTS ST_NOBODY_BIN=$ST_TMP/sandboxtime-faults
	export SANDBOXTIME_FAULT=$step
	t_bad "$mode" "$(where_for "$mode")" "$step: injected fault" --net="$net" --ipv6 "$@" || ret=1
	unset SANDBOXTIME_FAULT
	ST_BIN=$bin ST_NOBODY_BIN=$nbin
	return $ret
}

fault_each_mode() {
	local mode
	for mode in root nobody; do
		if [ ! -x "$FAULTS" ]; then
			skip "$1 [$mode]" "no sandboxtime-faults next to $ST_BIN (make fault-bin)"
		elif can_run "$mode"; then
			ok "$1 [$mode]" t_fault "$mode" "${@:2}"
		else
			skip "$1 [$mode]" "cannot run as $mode here"
		fi
	done
}

# --bridge: the bridge's IPv6 block, its address the gateway; no bridge step.
t_joined() {
	run6 root ns --net=bridge --bridge="$TEST_BR" --ipv6 "$@" -- sh -c "$SHOW6" || return 1
	expect_rc 0 && expect_clean && links_same "$BEFORE" "$NSARG" || return 1
	"$ST_PY" "$TOOL" inside "$REPORT" "$ST_OUT" ${1:+"${1#--addr6=}"} || { st_show; return 1; }
	"$ST_PY" "$TOOL" steps "$REPORT" want=bridge_attach,addr6_add,route6_add \
		never=bridge_create,bridge_addr6_add || { st_show; return 1; }
	case $("$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["network"]["gateway6"])' "$REPORT") in
	fd5b:7e1d:abcd:88::1/64) ;;
	*) echo "gateway6 is not the bridge's address"; cat "$REPORT"; return 1 ;;
	esac
}

# nobody in the suite's namespace (for its sysctls and routes).
nobody_ns() {
	if can_run nobody; then ok "$1 [nobody]" "${@:2}"; else skip "$1 [nobody]" "needs root and user namespaces"; fi
}
root_ns() {
	if is_root; then ok "$1 [root]" "${@:2}"; else skip "$1 [root]" "not running as root"; fi
}

if is_root; then
	net6_cleanup
	"$IP" netns add "$TEST_NS" && "$IP" -n "$TEST_NS" link set lo up &&
		"$IP" -n "$TEST_NS" -6 addr add fd5b:7e1d:abcd:77::1/64 dev lo &&
		"$IP" -n "$TEST_NS" link add "$TEST_BR" type bridge &&
		"$IP" -n "$TEST_NS" addr add 10.219.0.1/24 dev "$TEST_BR" &&
		"$IP" -n "$TEST_NS" -6 addr add fd5b:7e1d:abcd:88::1/64 dev "$TEST_BR" nodad &&
		"$IP" -n "$TEST_NS" link set "$TEST_BR" up &&
		"$IP" -n "$TEST_NS" link add "$TEST_BR4" type bridge &&
		"$IP" -n "$TEST_NS" addr add 10.219.1.1/24 dev "$TEST_BR4" ||
		diag "could not set up network namespace $TEST_NS"
fi

each_mode "--net=veth --ipv6: eth0 has the address (nodad), default via the gateway, the steps" t_inside veth
each_mode "--net=bridge --ipv6: eth0 has the address (nodad), default via the gateway, the steps" t_inside bridge
each_mode "--net=veth --addr6=fd5b:7e1d:abcd:5::9/64: eth0 has that address" t_inside veth --addr6=fd5b:7e1d:abcd:5::9/64
each_mode "--net=bridge --ipv6 --net-batch: configured by one batch, one step" t_inside bridge --net-batch
root_ns "--net=veth --ipv6: a TCP exchange over IPv6 with a server outside" t_exchange veth
root_ns "--net=bridge --ipv6 --net-batch: a TCP exchange over IPv6 with a server outside" t_exchange bridge --net-batch
nobody_ns "--net=veth --ipv6: a connect to the IPv6 gateway is refused at once" t_refused nobody veth
nobody_ns "--net=bridge --ipv6 --net-batch: a connect to the IPv6 gateway is refused at once" t_refused nobody bridge --net-batch
each_mode "--net-steps-repeat=2 --ipv6 (veth): host_addr6_add is measured" t_net_steps veth \
	veth_create,host_addr_add,host_addr6_add,host_link_up,veth_delete
each_mode "--addr6=garbage" t_bad host "--addr6|garbage" --net=veth --addr6=garbage
each_mode "--addr6=2001:db8::5/64: not a unique local address" t_bad host "--addr6|2001:db8::5/64|fd00::/8" \
	--net=veth --addr6=2001:db8::5/64
each_mode "--addr6=fd00:1::5/48: the prefix" t_bad host "--addr6|/48" --net=veth --addr6=fd00:1::5/48
each_mode "--ipv6 --mtu=1000: under IPv6's minimum MTU" t_bad host "--mtu=1000|1280" --net=veth --ipv6 --mtu=1000
each_mode "--ipv6 without --net=veth or bridge" t_bad host "--ipv6|--net=veth" --ipv6
root_ns "--addr6 overlapping an address of the host: 125, nothing left" t_bad root ns \
	"--addr6|overlaps|fd5b:7e1d:abcd:77::/64" --net=veth --addr6=fd5b:7e1d:abcd:77::5/64
nobody_ns "--addr6 overlapping an address of the host: 125, nothing left" t_bad nobody ns \
	"--addr6|overlaps|fd5b:7e1d:abcd:77::/64" --net=bridge --addr6=fd5b:7e1d:abcd:77::5/64
root_ns "--ipv6 when every default veth block overlaps a route: 125" t_pool_full
root_ns "--bridge=(an IPv6 bridge) --ipv6: an address of its block, default via it" t_joined
root_ns "--bridge=(an IPv6 bridge) --addr6=fd5b:7e1d:abcd:88::42/64: that address" t_joined \
	--addr6=fd5b:7e1d:abcd:88::42/64
root_ns "--bridge=(an IPv6 bridge) --ipv6: a TCP exchange over IPv6 with a server outside" t_exchange bridge \
	--bridge="$TEST_BR"
root_ns "--bridge=(an IPv6 bridge) --addr6 outside its block: 125" t_bad root ns \
	"--addr6|fd5b:7e1d:abcd:99::5/64|$TEST_BR" --net=bridge --bridge="$TEST_BR" --addr6=fd5b:7e1d:abcd:99::5/64
root_ns "--bridge=(a bridge without IPv6) --ipv6: 125, names it" t_bad root ns "--ipv6|$TEST_BR4|IPv6 address" \
	--net=bridge --bridge="$TEST_BR4" --ipv6
fault_each_mode "--net=veth --ipv6: host_addr6_add fails: 125, one line, nothing left" veth host_addr6_add
fault_each_mode "--net=bridge --ipv6: bridge_addr6_add fails: 125, one line, nothing left" bridge bridge_addr6_add
fault_each_mode "--net=veth --ipv6: addr6_add fails: 125, one line, nothing left" veth addr6_add
fault_each_mode "--net=veth --ipv6: route6_add fails: 125, one line, nothing left" veth route6_add
fault_each_mode "--net=bridge --ipv6 --net-batch: inside_batch fails: 125, one line, nothing left" bridge \
	inside_batch --net-batch
root_ns "--ipv6 where IPv6 forwarding is on: 125, names the sysctl" t_sysctl root all/forwarding 1 125 \
	"net.ipv6.conf.all.forwarding=1"
nobody_ns "--ipv6 where IPv6 forwarding is on: rootless the outside is simulated, runs" t_sysctl nobody \
	all/forwarding 1 0 ""
root_ns "--ipv6 where IPv6 is disabled (all.disable_ipv6=1): 125, says so" t_sysctl root all/disable_ipv6 1 125 \
	"disable_ipv6=1"
nobody_ns "--ipv6 where IPv6 is disabled (default.disable_ipv6=1): 125, says so" t_sysctl nobody \
	default/disable_ipv6 1 125 "net.ipv6.conf.default.disable_ipv6=1"
