#!/usr/bin/env bash
# Fault injection (issue 7): every setup step of every mode is made to fail
# in turn (SANDBOXTIME_FAULT=STEP, a build with -DSANDBOXTIME_FAULTS), as
# root and as nobody. Each must end with 125 and one line naming the step,
# and leave no process, link or network namespace behind. A failed delete in
# the teardown is a warning, and `sandboxtime cleanup` removes what it left.
#
# As root the suite re-runs itself in a network namespace of its own: root's
# sandboxtime wires into the namespace it runs in, so the links compared
# before and after each run are only those of the suite's runs (whatever
# their names), another job's links made meanwhile are elsewhere, and the
# `sandboxtime cleanup` below cannot delete another job's stv/stbr links.
# The network namespaces are the machine's: a new one counts when a process
# of the run lives in it (its session, or this suite's copy of the binary).
if [ "$(id -u)" = 0 ] && [ -z "${ST_FAULTS_NETNS:-}" ]; then
	ST_FAULTS_NETNS=1 exec unshare --net bash "$0" "$@"
fi
source "$(dirname "$0")/../lib.sh" "$1"

FAULTS=$ST_BUILD_DIR/sandboxtime-faults
if [ ! -x "$FAULTS" ]; then
	plan 1
	skip "fault injection" "no sandboxtime-faults next to $ST_BIN (make fault-bin)"
	exit 0
fi
cp "$FAULTS" "$ST_TMP/sandboxtime-faults" && chmod 755 "$ST_TMP/sandboxtime-faults"
REAL_BIN=$ST_BIN REAL_NOBODY_BIN=$ST_NOBODY_BIN
# Root runs the copy too: a path of this suite's own tells its processes
# from those of another suite run from the same build directory.
ST_BIN=$ST_TMP/sandboxtime-faults ST_NOBODY_BIN=$ST_TMP/sandboxtime-faults

links() { ip -o link | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | sort; }

# The steps a normal run of MODE (root|nobody) with NET makes, in order,
# written here and not read from the program: each one is a fault case below,
# so a step that stopped being reported cannot shrink the suite in silence.
# t_steps_as_written checks the program's steps against them both ways.
declare -A STEPS=(
	[root none]="seccomp_builtin clone uid_map gid_map sethostname mount_private mount_proc lo_up no_new_privs caps_drop seccomp_load"
	[root veth]="seccomp_builtin clone uid_map gid_map veth_create host_addr_add host_link_up sethostname mount_private mount_proc lo_up addr_add link_up route_add no_new_privs caps_drop seccomp_load veth_delete"
	[root bridge]="seccomp_builtin clone uid_map gid_map veth_create bridge_create bridge_addr_add bridge_up bridge_attach host_link_up sethostname mount_private mount_proc lo_up addr_add link_up route_add no_new_privs caps_drop seccomp_load veth_delete bridge_delete"
	[nobody none]="seccomp_builtin clone setgroups uid_map gid_map sethostname mount_private mount_proc lo_up no_new_privs caps_drop seccomp_load"
	[nobody veth]="seccomp_builtin clone setgroups uid_map gid_map sethostname mount_private mount_proc netns_outside veth_create host_addr_add host_link_up lo_up addr_add link_up route_add no_new_privs caps_drop seccomp_load"
	[nobody bridge]="seccomp_builtin clone setgroups uid_map gid_map sethostname mount_private mount_proc netns_outside veth_create bridge_create bridge_addr_add bridge_up bridge_attach host_link_up lo_up addr_add link_up route_add no_new_privs caps_drop seccomp_load"
)

# t_steps_as_written MODE NET: a normal run's JSON steps are STEPS[MODE NET].
t_steps_as_written() {
	local mode=$1 net=$2 dir got
	dir=$(st_scratch) || return 1
	if [ "$mode" = nobody ]; then
		as_nobody "$REAL_NOBODY_BIN" --repeat=0 --net="$net" -J -o "$dir/r.json" -- true 2>"$dir/err"
	else
		"$REAL_BIN" --repeat=0 --net="$net" -J -o "$dir/r.json" -- true 2>"$dir/err"
	fi || { echo "exit $?"; cat "$dir/err"; return 1; }
	got=$("$ST_PY" -B "$ST_PYDIR/cgroup_check.py" steps "$dir/r.json") || return 1
	expect_eq "$got" "${STEPS[$mode $net]}"
}

# A setup step fails: 125, one line naming it, nothing left.
t_setup_fault() {
	local mode=$1 net=$2 step=$3 before_links before_ns
	before_links=$(links); before_ns=$(st_netns_now)
	SANDBOXTIME_FAULT=$step st_run "$mode" --repeat=0 --net="$net" -- true
	expect_rc 125 && expect_clean || return 1
	expect_eq "$(wc -l < "$ST_ERR")" 1 || { cat "$ST_ERR"; return 1; }
	grep -q "$step: injected fault" "$ST_ERR" || { cat "$ST_ERR"; return 1; }
	expect_eq "$(links)" "$before_links" || return 1
	expect_no_new_netns_of_ours "$before_ns"
}

# A delete in the teardown fails: the workload's status stays, a warning
# names the step, and cleanup removes what was left (root's host links).
t_teardown_fault() {
	local step=$1 net=$2 before_links
	before_links=$(links)
	SANDBOXTIME_FAULT=$step st_run root --repeat=0 -q --net="$net" -- true
	expect_rc 0 && expect_clean || return 1
	grep -q "warning: .*$step: injected fault" "$ST_ERR" || { cat "$ST_ERR"; return 1; }
	"$REAL_BIN" cleanup -q >/dev/null 2>&1
	for _ in $(seq 40); do [ "$(links)" = "$before_links" ] && return 0; sleep 0.05; done
	expect_eq "$(links)" "$before_links"
}

declare -a cases
for mode in root nobody; do
	for net in none veth bridge; do
		cases+=("$mode $net seccomp_compile")   # a compiled profile's steps name it
		for step in ${STEPS[$mode $net]}; do
			case $step in
			veth_delete|bridge_delete) ;;   # teardown: below
			seccomp_builtin) ;;             # the same point as seccomp_compile
			*) cases+=("$mode $net $step") ;;
			esac
		done
	done
done
n=${#cases[@]}
if is_root; then plan $((n + 6 + 2)); else plan $((n + 6)); fi
for mode in root nobody; do
	for net in none veth bridge; do
		ok "--net=$net: a run's steps are the ones written here, in order [$mode]" t_steps_as_written "$mode" "$net"
	done
done
for c in "${cases[@]}"; do
	set -- $c
	ok "--net=$2: $3 fails: 125, one line, nothing left [$1]" t_setup_fault "$1" "$2" "$3"
done
if is_root; then
	ok "teardown: veth_delete fails: a warning, the workload's status, nothing left after cleanup [root]" \
		t_teardown_fault veth_delete veth
	ok "teardown: bridge_delete fails: a warning, and cleanup removes the bridge left [root]" \
		t_teardown_fault bridge_delete bridge
fi
