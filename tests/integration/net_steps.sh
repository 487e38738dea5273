#!/usr/bin/env bash
# --net-steps-repeat: the wiring steps measured N times in a private lab,
# with figures for each; nothing of the lab reaches the host.
source "$(dirname "$0")/../lib.sh" "$1"
plan 5

check_steps() {
	python3 -B "$ST_PYDIR/net_steps_check.py" "$1" "$2" "$3"
}

links() { ip -o link | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | sort; }

t_steps() {
	local mode=$1 net=$2 dir before; shift 2
	dir=$(mktemp -d); chmod 777 "$dir"
	before=$(links)
	if [ "$mode" = nobody ]; then
		as_nobody "$ST_NOBODY_BIN" --repeat=0 --net="$net" --net-steps-repeat=3 -J -o "$dir/r.json" -- true
	else
		"$ST_BIN" --repeat=0 --net="$net" --net-steps-repeat=3 -J -o "$dir/r.json" -- true
	fi || { rm -rf "$dir"; return 1; }
	check_steps "$dir/r.json" "$net" 3 || { rm -rf "$dir"; return 1; }
	rm -rf "$dir"
	# The lab's lab0/labbr0 never appear on the host.
	! links | grep -q '^lab'
}

t_bad() {
	local out rc
	out=$("$ST_BIN" --repeat=0 --net-steps-repeat=3 -- true 2>&1); rc=$?
	expect_eq "$rc" 125 || return 1
	printf '%s\n' "$out" | head -1 | grep -q "^sandboxtime: --net-steps-repeat needs --net=veth or --net=bridge" || { echo "$out"; return 1; }
}

ok "veth: every step N times with figures, nothing on the host [root]" t_steps root veth
ok "veth: the same rootless [nobody]" t_steps nobody veth
ok "bridge: the bridge steps too [root]" t_steps root bridge
ok "bridge: rootless [nobody]" t_steps nobody bridge
ok "--net-steps-repeat without veth or bridge: one line, 125" t_bad
