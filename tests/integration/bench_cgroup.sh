#!/usr/bin/env bash
# sandboxtime bench cgroup (issue 13.4): every place (host, a new cgroup, a
# memory limit, a cpu quota) has every operation measured and checked, as
# root, as nobody in a delegated cgroup, and as nobody without one (the
# cgroup places unavailable with the reason, the host measured); the quota
# is seen working (throttled, a sleep waiting for the next period); no cgroup
# or process is left, after the end, SIGINT, and SIGKILL + `cleanup`; a
# --cgroup with '..' and --cgroup on another bench are refused in one line.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"
plan 8

# Every cgroup directory named sandboxtime-*, in every hierarchy.
cg_all() { find /sys/fs/cgroup -mindepth 1 -maxdepth 10 -type d -name 'sandboxtime-*' 2>/dev/null | sort; }

# expect_no_new_cgroup BEFORE: no sandboxtime-* directory beyond those in BEFORE.
expect_no_new_cgroup() {
	local left
	left=$(comm -13 <(printf '%s\n' "$1") <(cg_all) | sed '/^$/d')
	[ -z "$left" ] && return 0
	echo "cgroups left behind: $left"
	return 1
}

t_json_root() {
	local dir before
	dir=$(st_scratch) || return 1
	before=$(cg_all)
	st_run root bench cgroup --repeat=2 -J -o "$dir/c.json" || return 1
	"$ST_PY" -B "$ST_PYDIR/steal_check.py" "$dir/c.json" || return 1   # host.steal (steal.sh)
	expect_rc 0 && expect_clean || return 1
	expect_no_new_cgroup "$before" || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_cgroup_check.py" "$dir/c.json" 2 all
}

# Without a delegated cgroup nobody cannot make one: the host place alone, the reason for the rest.
t_nobody_host_only() {
	local dir
	dir=$(st_scratch) || return 1
	st_run nobody bench cgroup --repeat=1 -J -o "$dir/c.json" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/bench_cgroup_check.py" "$dir/c.json" 1 host-only
}

# Rootless in a delegated cgroup, as systemd's Delegate=yes gives one: every place measured.
t_nobody_delegated() {
	local ctrls path m name=stt-bench-deleg-$$ dirs=() d dir rc=0
	dir=$(st_scratch) || return 1
	while read -r ctrls path; do
		m=$(mnt_of "${ctrls%%,*}")
		d="$m${path%/}/$name"
		mkdir "$d" && dirs+=("$d") && chown -R nobody "$d"
	done < <(own_cgroups)
	sh -c 'for d in "$@"; do echo $$ > "$d/cgroup.procs" || exit 99; done
		cd /tmp && exec setpriv --reuid=nobody --regid=nogroup --clear-groups "$0" bench cgroup --repeat=1 -J -o "'"$dir"'/c.json"' \
		"$ST_NOBODY_BIN" "${dirs[@]}" >"$dir/out" 2>&1 || { echo "rc $?"; cat "$dir/out"; rc=1; }
	[ $rc -ne 0 ] || "$ST_PY" -B "$ST_PYDIR/bench_cgroup_check.py" "$dir/c.json" 1 all || rc=1
	for d in "${dirs[@]}"; do
		[ -z "$(find "$d" -mindepth 1 -type d)" ] || { echo "left under $d: $(find "$d" -mindepth 1 -type d)"; rc=1; }
		rmdir "$d" || rc=1
	done
	return $rc
}

t_interrupted() {
	local before
	before=$(cg_all)
	st_start root bench cgroup --repeat=100000 -q || return 1
	sleep 2
	kill -INT "$ST_PID"
	st_finish
	expect_rc 130 && expect_clean || return 1
	expect_no_new_cgroup "$before"
}

# SIGKILL leaves the round's sandboxtime-PID (of a dead pid, its maker killed
# with it): `sandboxtime cleanup` removes it.
t_sigkill_cleanup() {
	local before i made=
	before=$(cg_all)
	st_start root bench cgroup --repeat=100000 -q || return 1
	for ((i = 0; i < 100; i++)); do
		made=$(comm -13 <(printf '%s\n' "$before") <(cg_all) | sed '/^$/d')
		[ -n "$made" ] && break
		sleep 0.02
	done
	kill -KILL "$ST_PID"
	st_finish
	[ -n "$made" ] || { echo "no cgroup was seen while it ran"; return 1; }
	"$ST_BIN" cleanup >"$ST_DIR/cleanup.out" 2>&1 || { cat "$ST_DIR/cleanup.out"; return 1; }
	expect_no_new_cgroup "$before"
}

t_bad_parent() {
	st_run root bench cgroup --cgroup=/a/../b -q || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "--cgroup" "'..'"
}

t_other_bench() {
	st_run root bench mounts --cgroup -q || return 1
	expect_rc 125 && expect_error_line usage || return 1
	grep -q "^sandboxtime: --cgroup applies to bench cgroup only" "$ST_ERR" || { st_show; return 1; }
}

t_table() {
	local t
	t=$("$ST_BIN" bench cgroup --repeat=1 2>&1) || { echo "$t"; return 1; }
	expect_eq "$(printf '%s\n' "$t" | grep -cE '^(host|cgroup|memory-limit|cpu-quota) +(fault|populate|unmap|wakeup_p50|wakeup_p99|wakeup_max) ')" 24 ||
		{ echo "$t"; return 1; }
	printf '%s\n' "$t" | grep -q "^On this machine .*not shown: reclaim" || { echo "$t"; return 1; }
}

if is_root; then
	ok "bench cgroup: JSON has every place and operation, the quota throttles, nothing left [root]" t_json_root
	if can_run nobody; then
		ok "bench cgroup: without a delegated cgroup the host alone, the reason for the rest [nobody]" t_nobody_host_only
		ok "bench cgroup: in a delegated cgroup every place [nobody]" t_nobody_delegated
	else
		skip "bench cgroup: host alone [nobody]" "cannot switch to nobody here"
		skip "bench cgroup: delegated [nobody]" "cannot switch to nobody here"
	fi
	ok "bench cgroup: SIGINT while measuring exits 130 and leaves no cgroup [root]" t_interrupted
	ok "bench cgroup: SIGKILL leaves the round's cgroup, cleanup removes it [root]" t_sigkill_cleanup
	ok "bench cgroup: --cgroup with '..' is refused in one line" t_bad_parent
	ok "bench cgroup: --cgroup on another bench is refused in one line" t_other_bench
else
	for t in json host-only delegated sigint sigkill bad-parent other-bench; do
		skip "bench cgroup: $t" "needs root (cgroups made and removed, nobody switched to)"
	done
fi
ok "bench cgroup: the table names every place and says what it means" t_table
