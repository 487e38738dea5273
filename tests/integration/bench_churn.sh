#!/usr/bin/env bash
# sandboxtime bench churn: the counts add up (created = reaped = freed, the
# backlog ends at 0, never more counted than --max-alive), as root and as
# nobody; a request beyond the machine's limits is refused with the numbers
# before anything is made; SIGINT in the middle leaves no process and no
# namespace (counted by the kernel in a user namespace of the test's own).
# --net=veth|bridge: the same counts, every lab end gone after the drain, no
# link of the bench's in the test's network namespace, a kernel that refuses
# a pair (fault injection) is one line and leaves nothing.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 21

t_json() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --count=20 --parallel=1,2 --ns=net -J -o "$dir/c.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/c.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" 20 1,2 1000 net
}

# The links a churn lab makes (cv<creator>_<n>, churnbr0), if one were in this network namespace.
churn_links() { ip -o link show 2>/dev/null | grep -E '^[0-9]+: (cv[0-9]+_[0-9]+|churnbr0)[@:]'; }

expect_no_churn_links() {
	local left
	left=$(churn_links)
	[ -z "$left" ] && return 0
	echo "links of a churn lab in the test's network namespace:"
	printf '%s\n' "$left"
	return 1
}

# --net=veth|bridge: each sandbox wired in the lab's own namespace, the counts
# add up, no lab end outlives the drain, nothing is left here.
t_net() {
	local mode=$1 net=$2 dir before
	dir=$(st_scratch) || return 1
	before=$(st_netns_now)
	st_run "$mode" bench churn --count=20 --parallel=2 --ns=net --net="$net" -J -o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" 20 2 1000 net "$net" || return 1
	expect_no_churn_links && expect_no_new_netns_of_ours "$before"
}

# A kernel that refuses the pair (no veth driver: EOPNOTSUPP, injected) or the
# lab's bridge: 125, one line saying why, no process, link or namespace left.
t_net_refused() {
	local mode=$1 faults=$ST_BUILD_DIR/sandboxtime-faults copy step before
	[ -x "$faults" ] || { echo "no $faults (make fault-bin)"; return 1; }
	copy=$ST_TMP/sandboxtime-faults
	[ -x "$copy" ] || { cp "$faults" "$copy" && chmod 755 "$copy"; } || return 1
	for step in churn_veth:95/veth churn_veth:95/bridge churn_bridge:95/bridge churn_bridge_attach/bridge; do
		before=$(st_netns_now)
		SANDBOXTIME_FAULT=${step%/*} ST_BIN=$copy ST_NOBODY_BIN=$copy \
			st_run "$mode" bench churn --count=20 --parallel=2 --ns=net --net="${step#*/}" -q || return 1
		expect_rc 125 && expect_clean && expect_error_line || { echo "$step"; return 1; }
		expect_error_names "bench churn --net=${step#*/}" "injected fault" || return 1
		case $step in
		churn_veth:95/*) expect_error_names "no veth driver" ;;
		churn_bridge:95/*) expect_error_names "no bridge driver" ;;
		esac || return 1
		expect_no_churn_links && expect_no_new_netns_of_ours "$before" "$copy" || return 1
	done
}

# --max-alive=2 with two creators of net namespaces: the kernel refuses a third
# counted sandbox, so the backlog stays within the bound (throttled meanwhile).
t_max_alive() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --count=40 --parallel=2 --max-alive=2 --ns=uts,ipc,net -J \
		-o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" 40 2 2 uts,ipc,net
}

# --duration instead of --count: the measured run goes first, the bare loops make as many.
t_duration() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" bench churn --duration=0.3 --parallel=2 --ns=uts,net -J -o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_churn_check.py" "$dir/c.json" duration:0.3 2 1000 uts,net
}

t_table_and_csv() {
	local t c
	t=$("$ST_BIN" bench churn --count=10 --ns=uts 2>&1) || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^PARALLEL  *CREATED  *WALL_s  *PER_S  *p50_us  *p99_us  *p99.9_us  *max_us" || { echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^On this machine 1 creator made and destroyed .* over a bare clone loop.$" || { echo "$t"; return 1; }
	c=$("$ST_BIN" bench churn --count=10 --parallel=1,2 --ns=uts --format=csv 2>&1) || { echo "$c"; return 1; }
	printf '%s\n' "$c" | head -1 | grep -q "^parallel,created,reaped,freed,wall_s,rate_per_s,create_p50_us," || { echo "$c"; return 1; }
	expect_eq "$(printf '%s\n' "$c" | wc -l)" 3
}

# Beyond max_user_namespaces: refused with 125, one line naming both numbers, before -o is made.
t_limits() {
	local mode=$1 dir max
	dir=$(st_scratch) || return 1
	max=$(cat /proc/sys/user/max_user_namespaces)
	st_run "$mode" bench churn --max-alive=$((max + 1)) --ns=uts -o "$dir/c.json" || return 1
	expect_rc 125 && expect_error_line && expect_clean || return 1
	expect_error_names "needs $((max + 2)) user namespaces" "max_user_namespaces is $max" || return 1
	[ ! -e "$dir/c.json" ] || { echo "-o file left behind"; return 1; }
	st_run "$mode" bench churn --parallel=4 --max-alive=2 || return 1
	expect_rc 125 && expect_error_line && expect_error_names "more than --max-alive=2"
}

t_bad_options() {
	local args out rc
	for args in "--count=0" "--count=x" "--parallel=" "--parallel=0" "--parallel=65" "--parallel=1,1" \
		"--parallel=1,2,3,4,5,6,7,8,9" "--max-alive=0"; do
		out=$("$ST_BIN" bench churn "$args" 2>&1); rc=$?
		[ "$rc" = 125 ] || { echo "'$args': exit $rc"; return 1; }
		printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: ${args%%=*}" || { echo "'$args': $out"; return 1; }
	done
	out=$("$ST_BIN" bench fork --count=3 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --count applies to bench churn only" || { echo "$rc $out"; return 1; }
	out=$("$ST_BIN" bench churn --sizes=1 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --sizes applies to bench fork and all only" || { echo "$rc $out"; return 1; }
	out=$("$ST_BIN" bench churn --count=5 --duration=1 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: bench churn: --count and --duration: choose one" || { echo "$rc $out"; return 1; }
	out=$("$ST_BIN" bench churn --repeat=3 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --repeat applies to bench syscall, cpu, fork, files, userns, where, mounts, cgroup, launch and all only" || { echo "$rc $out"; return 1; }
}

# --net: none, veth or bridge, one line and 125 (usage: the "Try" line follows).
t_net_bad() {
	local args out rc want
	for args in "--net=foo" "--net=host" "--net=join:1" "--net=" "--ns=uts --net=veth" "--ns=none --net=bridge"; do
		# shellcheck disable=SC2086
		out=$("$ST_BIN" bench churn --count=5 $args 2>&1); rc=$?
		[ "$rc" = 125 ] || { echo "'$args': exit $rc: $out"; return 1; }
		[ "$(printf '%s\n' "$out" | wc -l)" = 2 ] || { echo "'$args': $out"; return 1; }
		case $args in
		--ns=*) want="^sandboxtime: bench churn: --net=[a-z]* needs the net layer: add net to --ns" ;;
		*) want="^sandboxtime: --net: bench churn takes none, veth or bridge, not '${args#--net=}'" ;;
		esac
		printf '%s\n' "$out" | head -1 | grep -q "$want" || { echo "'$args': $out"; return 1; }
		printf '%s\n' "$out" | tail -1 | grep -q "^Try 'sandboxtime --help'" || { echo "'$args': $out"; return 1; }
	done
	out=$("$ST_BIN" bench fork --net=veth 2>&1); rc=$?
	[ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q "^sandboxtime: --net applies to bench churn only" || { echo "$rc $out"; return 1; }
}

# The script run in a user namespace of the test's own (unshare -Ur): churn,
# SIGINT after a while, then ask the kernel whether any user namespace below
# ours is still counted (every sandbox has one, freed last): with our limit
# at 1, unshare -U succeeds only when none is.
# shellcheck disable=SC2016
INTERRUPT_SCRIPT='
	"$1" "$2/pid" "$3" bench churn --count=1000000 --parallel=2 --ns=net --net="$4" -q 2>"$2/stderr" &
	job=$!
	sleep 1.5
	kill -INT "$(cat "$2/pid")"
	wait "$job"
	echo "rc=$?"
	echo 1 >/proc/sys/user/max_user_namespaces || exit 1
	i=0
	while [ $i -lt 100 ]; do
		unshare -U true 2>/dev/null && { echo "nothing counted"; exit 0; }
		sleep 0.02
		i=$((i + 1))
	done
	echo "user namespaces still counted after 2 s"
	exit 1'

t_interrupted() {
	local mode=$1 net=$2 dir out
	dir=$(st_scratch) || return 1
	if [ "$mode" = nobody ]; then
		out=$(as_nobody unshare -Ur sh -c "$INTERRUPT_SCRIPT" sh "$ST_EXEC" "$dir" "$ST_NOBODY_BIN" "$net" 2>&1)
	else
		out=$(unshare -Ur sh -c "$INTERRUPT_SCRIPT" sh "$ST_EXEC" "$dir" "$ST_BIN" "$net" 2>&1)
	fi
	printf '%s\n' "$out" | grep -qx "rc=130" || { echo "$out"; cat "$dir/stderr"; return 1; }
	printf '%s\n' "$out" | grep -qx "nothing counted" || { echo "$out"; return 1; }
	grep -q "^sandboxtime: interrupted by SIGINT while churning" "$dir/stderr" || { cat "$dir/stderr"; return 1; }
	ST_PID=$(cat "$dir/pid") && st_leftovers "$ST_PID" && expect_clean && expect_no_churn_links
}

each_mode "bench churn: K=20, parallel 1 and 2: created = reaped = freed, backlog ends at 0" t_json
each_mode "bench churn: --max-alive=2 bounds what the kernel counts" t_max_alive
each_mode "bench churn: --duration: the counts add up, the bare loops make as many" t_duration
ok "bench churn: table and CSV" t_table_and_csv
each_mode "bench churn: beyond the machine's limits: 125 with the numbers, nothing made" t_limits
ok "bench churn: bad options are one line and 125, bench options per bench" t_bad_options
each_mode "bench churn: SIGINT mid-run: 130, no process, no namespace counted" t_interrupted none
each_mode "bench churn --net=veth: K=20, parallel 2: the counts add up, no lab end left, nothing here" t_net veth
each_mode "bench churn --net=bridge: K=20, parallel 2: the counts add up, no lab end left, nothing here" t_net bridge
ok "bench churn: --net other than none, veth, bridge, or without net in --ns: one line and 125" t_net_bad
each_mode "bench churn --net: a refused pair or bridge is one line, 125, nothing left" t_net_refused
each_mode "bench churn --net=bridge: SIGINT mid-run: 130, no process, link or namespace" t_interrupted bridge
