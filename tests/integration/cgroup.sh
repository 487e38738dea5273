#!/usr/bin/env bash
# The cgroup layer (issue 13.2): --cgroup and config.json's linux.resources
# and cgroupsPath. Checked from inside (/proc/self/cgroup names the
# sandbox's cgroup, the limit files read the limits, pids.max stops forks),
# that nothing named sandboxtime-PID is left in any hierarchy on every path
# (exit, error, SIGTERM, crash, every injected fault, SIGKILL + cleanup),
# rootless with a delegated cgroup and without one (unavailable: one
# warning line, the run goes on), and bad input (125, one line).
source "$(dirname "$0")/../lib.sh" "$1"

FAULTS=$ST_BUILD_DIR/sandboxtime-faults
[ -x "$FAULTS" ] && cp "$FAULTS" "$ST_TMP/sandboxtime-faults" && chmod 755 "$ST_TMP/sandboxtime-faults"

# The cgroup directories named sandboxtime-PID, in every hierarchy.
cg_dirs() { find /sys/fs/cgroup -mindepth 1 -maxdepth 10 -type d -name "sandboxtime-$1" 2>/dev/null; }

expect_no_cgroup() {
	local left
	left=$(cg_dirs "$1")
	[ -z "$left" ] && return 0
	echo "cgroups left behind: $left"
	return 1
}

# Writes a config to $1 with the resources object $2 and the cgroupsPath $3 (JSON), if given.
write_config() {
	local extra=""
	[ -n "${2:-}" ] && extra+=", \"resources\": $2"
	[ -n "${3:-}" ] && extra+=", \"cgroupsPath\": $3"
	printf '{"ociVersion": "1.0.2", "root": {"path": "/"},\n "linux": {"namespaces": [{"type": "pid"}, {"type": "mount"}]%s}}\n' "$extra" >"$1"
	chmod 644 "$1"
}

steps_of_report() { "$ST_PY" -B "$ST_PYDIR/cgroup_check.py" steps "$1"; }

# Inside, without a cgroup namespace, /proc/self/cgroup gives the full path:
# each hierarchy's line is our own cgroup plus /sandboxtime-PID.
t_inside_full_path() {
	local line ctrls path want
	st_run root --repeat=0 --ns=pid,mount --cgroup -J -o "$ST_TMP/full.json" -- cat /proc/self/cgroup
	expect_rc 0 && expect_clean || return 1
	while read -r ctrls path; do
		want="${path%/}/sandboxtime-$ST_PID"
		if [ "$ctrls" = unified ]; then line="0::$want"; else line=":$ctrls:$want"; fi
		grep -q -- "$line\$" "$ST_OUT" || { echo "no line '$line'"; st_show; return 1; }
	done < <(own_cgroups)
	"$ST_PY" -B "$ST_PYDIR/cgroup_check.py" run "$ST_TMP/full.json" "$ST_PID" \
		"$(own_cgroups | grep -qv '^unified' && echo v1)" || return 1
	expect_no_cgroup "$ST_PID"
}

# With a cgroup namespace (the default --ns=all): born into its cgroup
# (CLONE_INTO_CGROUP), the sandbox has it as its namespace's root in the
# unified hierarchy; in a v1 one, moved after the clone, it sees its cgroup
# as a child of the root.
t_inside_cgroupns() {
	local ctrls path
	st_run root --repeat=0 -q --cgroup -- cat /proc/self/cgroup
	expect_rc 0 && expect_clean || return 1
	while read -r ctrls path; do
		if [ "$ctrls" = unified ]; then
			grep -qx "0::/" "$ST_OUT" || { st_show; return 1; }
		else
			grep -q ":$ctrls:/sandboxtime-$ST_PID\$" "$ST_OUT" || { echo "no $ctrls line"; st_show; return 1; }
		fi
	done < <(own_cgroups)
	expect_no_cgroup "$ST_PID"
}

# The config's limits, read back from inside through the host's /sys/fs/cgroup.
t_limits_inside() {
	local cfg=$ST_TMP/limits.json mem pids cpu script
	write_config "$cfg" '{"memory": {"limit": 67108864}, "pids": {"limit": 50}, "cpu": {"shares": 512, "quota": 50000, "period": 100000}}'
	mem=$(mnt_of memory) pids=$(mnt_of pids) cpu=$(mnt_of cpu)
	script='p() { sed -n "s/^[0-9]*:[^:]*\<$1\>[^:]*:\(.*\)/\1/p" /proc/self/cgroup; }; u=$(sed -n "s/^0:://p" /proc/self/cgroup)'
	if [ -n "$mem" ]; then script+="; cat $mem\$(p memory)/memory.limit_in_bytes"
	else script+="; cat $(mnt_of unified)\$u/memory.max"; fi
	if [ -n "$pids" ]; then script+="; cat $pids\$(p pids)/pids.max"; else script+="; cat $(mnt_of unified)\$u/pids.max"; fi
	if [ -n "$cpu" ]; then script+="; cat $cpu\$(p cpu)/cpu.cfs_quota_us $cpu\$(p cpu)/cpu.cfs_period_us $cpu\$(p cpu)/cpu.shares"
	else script+="; cat $(mnt_of unified)\$u/cpu.max $(mnt_of unified)\$u/cpu.weight"; fi
	st_run root --repeat=0 --config="$cfg" -J -o "$ST_TMP/lim.json" -- sh -c "$script"
	expect_rc 0 && expect_clean || return 1
	if [ -n "$mem" ] && [ -n "$pids" ] && [ -n "$cpu" ]; then
		expect_stdout "$(printf '67108864\n50\n50000\n100000\n512')" || return 1
	else
		grep -qx 67108864 "$ST_OUT" && grep -qx 50 "$ST_OUT" || { st_show; return 1; }
	fi
	case " $(steps_of_report "$ST_TMP/lim.json") " in *" cgroup_limits "*) ;; *) echo "no cgroup_limits step"; return 1 ;; esac
	expect_no_cgroup "$ST_PID"
}

# pids.max=5: the sixth task of the cgroup cannot be forked (EAGAIN).
t_pids_enforced() {
	local cfg=$ST_TMP/pids.json n
	write_config "$cfg" '{"pids": {"limit": 5}}'
	st_run root --repeat=0 -q --config="$cfg" -- "$ST_PY" -B "$ST_PYDIR/cgroup_check.py" forks 20
	expect_rc 0 && expect_clean || return 1
	grep -qx EAGAIN "$ST_OUT" || { st_show; return 1; }
	# init and python are 2 of the 5: 3 forks work.
	n=$(tail -n1 "$ST_OUT")
	expect_eq "$n" 3 || return 1
	expect_no_cgroup "$ST_PID"
}

# cgroupsPath, relative: under our own cgroup, by that name, removed after.
t_cgroups_path() {
	local cfg=$ST_TMP/path.json name=stt-path-$$
	write_config "$cfg" "" "\"$name/inner\""
	# The parent must exist: made here (ours) in every hierarchy, removed after.
	local ctrls path m dirs=()
	while read -r ctrls path; do
		m=$(mnt_of "${ctrls%%,*}")
		mkdir "$m${path%/}/$name" && dirs+=("$m${path%/}/$name")
	done < <(own_cgroups)
	st_run root --repeat=0 -q --ns=pid,mount --config="$cfg" -- cat /proc/self/cgroup
	local rc=0
	expect_rc 0 || rc=1
	grep -q ":.*/$name/inner\$" "$ST_OUT" || { st_show; rc=1; }
	[ -z "$(find /sys/fs/cgroup -maxdepth 10 -type d -path "*/$name/inner" 2>/dev/null)" ] || { echo "inner left"; rc=1; }
	rmdir "${dirs[@]}"
	return $rc
}

t_sigterm_and_crash() {
	local sig rc
	for sig in TERM INT; do
		st_start root --repeat=0 -q --cgroup -- sleep 30 || return 1
		for _ in $(seq 100); do [ -n "$(cg_dirs "$ST_PID")" ] && break; sleep 0.05; done
		[ -n "$(cg_dirs "$ST_PID")" ] || { kill -KILL "$ST_PID"; echo "no cgroup while running"; return 1; }
		sleep 0.2
		kill -"$sig" "$ST_PID"
		st_finish
		rc=143; [ "$sig" = INT ] && rc=130
		expect_rc "$rc" && expect_clean && expect_no_cgroup "$ST_PID" || return 1
	done
	st_run root --repeat=0 -q --cgroup -- sh -c 'kill -SEGV $$'
	expect_rc 139 && expect_clean && expect_no_cgroup "$ST_PID"
}

# SIGKILL of sandboxtime: the cgroup stays; cleanup keeps a running one's,
# kills what is left in a dead one's (no pid namespace: the workload's
# children outlive the init) and removes it.
t_sigkill_cleanup() {
	local out keeper kp
	st_start root --repeat=0 -q --cgroup -- sleep 30 || return 1
	kp=$ST_PID keeper=$ST_JOB
	st_start root --repeat=0 -q --ns=mount --cgroup -- sh -c 'sleep 30 & sleep 30 & wait' || return 1
	for _ in $(seq 100); do [ -n "$(cg_dirs "$ST_PID")" ] && [ -n "$(cg_dirs "$kp")" ] && break; sleep 0.05; done
	sleep 0.3
	kill -KILL "$ST_PID"
	wait "$ST_JOB"
	[ -n "$(cg_dirs "$ST_PID")" ] || { echo "SIGKILL left nothing to clean (test is void)"; kill -KILL "$kp"; return 1; }
	out=$("$ST_BIN" cleanup 2>&1)
	printf '%s\n' "$out" | grep -q "deleted cgroup .*/sandboxtime-$ST_PID: pid $ST_PID is no sandboxtime" || { echo "$out"; kill -KILL "$kp"; return 1; }
	printf '%s\n' "$out" | grep -q "kept cgroup .*/sandboxtime-$kp: pid $kp is a running sandboxtime" || { echo "$out"; kill -KILL "$kp"; return 1; }
	[ -n "$(cg_dirs "$kp")" ] || { echo "cleanup removed a running sandboxtime's cgroup"; kill -KILL "$kp"; return 1; }
	expect_no_cgroup "$ST_PID" || { kill -KILL "$kp"; return 1; }
	st_leftovers "$ST_PID"
	expect_clean || { kill -KILL "$kp"; return 1; }
	kill -TERM "$kp"
	wait "$keeper"
	expect_no_cgroup "$kp"
}

# SIGKILL of a run whose cgroup the bundle named (cgroupsPath): nothing in
# the name says it is ours, so the run leaves a marker naming it
# (/run/sandboxtime/cgroups/PID), which cleanup follows, then deletes.
t_sigkill_cgroups_path() {
	local cfg=$ST_TMP/kpath.json name=stt-kpath-$$ ctrls path m dirs=() out rc=0
	write_config "$cfg" "" "\"$name/inner\""
	while read -r ctrls path; do
		m=$(mnt_of "${ctrls%%,*}")
		mkdir "$m${path%/}/$name" && dirs+=("$m${path%/}/$name")
	done < <(own_cgroups)
	st_start root --repeat=0 -q --ns=pid,mount --config="$cfg" -- sleep 30 || { rmdir "${dirs[@]}"; return 1; }
	for _ in $(seq 100); do [ -s "/run/sandboxtime/cgroups/$ST_PID" ] && break; sleep 0.05; done
	sleep 0.2
	kill -KILL "$ST_PID"
	wait "$ST_JOB"
	[ -s "/run/sandboxtime/cgroups/$ST_PID" ] || { echo "no marker left (test is void)"; rc=1; }
	out=$("$ST_BIN" cleanup 2>&1) || { echo "cleanup: $out"; rc=1; }
	printf '%s\n' "$out" | grep -q "deleted cgroup .*/$name/inner: pid $ST_PID is no sandboxtime" || { echo "$out"; rc=1; }
	[ -z "$(find /sys/fs/cgroup -maxdepth 10 -type d -path "*/$name/inner" 2>/dev/null)" ] || { echo "inner left"; rc=1; }
	[ ! -e "/run/sandboxtime/cgroups/$ST_PID" ] || { echo "marker left"; rc=1; }
	st_leftovers "$ST_PID"
	expect_clean || rc=1
	rmdir "${dirs[@]}" || rc=1
	return $rc
}

# Rootless with a delegated cgroup: root makes one, gives it to nobody and
# starts nobody's sandboxtime in it, as systemd's Delegate=yes does.
t_nobody_delegated() {
	local ctrls path m name=stt-deleg-$$ dirs=() d out rc=0
	while read -r ctrls path; do
		m=$(mnt_of "${ctrls%%,*}")
		d="$m${path%/}/$name"
		mkdir "$d" && dirs+=("$d") && chown -R nobody "$d"
	done < <(own_cgroups)
	out=$(sh -c 'for d in "$@"; do echo $$ > "$d/cgroup.procs" || exit 99; done
		cd /tmp && exec setpriv --reuid=nobody --regid=nogroup --clear-groups "$0" --repeat=0 -q --cgroup -- cat /proc/self/cgroup' \
		"$ST_NOBODY_BIN" "${dirs[@]}" 2>&1) || { echo "rc $?: $out"; rc=1; }
	printf '%s\n' "$out" | grep -q ":pids:/sandboxtime-[0-9]*\$" || { echo "$out"; rc=1; }
	printf '%s\n' "$out" | grep -q "unavailable" && { echo "$out"; rc=1; }
	for d in "${dirs[@]}"; do
		[ -z "$(find "$d" -mindepth 1 -type d)" ] || { echo "left under $d"; rc=1; }
		rmdir "$d" || rc=1
	done
	return $rc
}

# Rootless without a delegated cgroup: unavailable, one warning line saying
# what to do, the same in the report, and the workload runs (its status).
t_nobody_unavailable() {
	local dir
	dir=$(st_scratch)
	st_run nobody --repeat=0 --cgroup -J -o "$dir/r.json" -- sh -c 'cat /proc/self/cgroup; exit 3'
	expect_rc 3 && expect_clean || return 1
	expect_eq "$(wc -l <"$ST_ERR")" 1 || { st_show; return 1; }
	grep -q "^sandboxtime: warning: cgroup layer unavailable: cgroup: .* is not writable by uid $(id -u nobody) (no delegated cgroup).*--cgroup=PARENT" "$ST_ERR" || { st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/cgroup_check.py" unavailable "$dir/r.json" || return 1
	! grep -q sandboxtime- "$ST_OUT"
}

t_bad_input() {
	local mode=$1 cfg
	cfg=$(st_scratch)/c.json
	st_run "$mode" --repeat=0 --cgroup=relative -- true
	expect_rc 125 && expect_error_line usage && expect_error_names "--cgroup" "absolute" || return 1
	st_run "$mode" --repeat=0 --cgroup=/a/../b -- true
	expect_rc 125 && expect_error_line usage && expect_error_names "--cgroup" "'..'" || return 1
	write_config "$cfg" "" '"../escape"'
	st_run "$mode" --repeat=0 --config="$cfg" -- true
	expect_rc 125 && expect_error_line usage && expect_error_names ".linux.cgroupsPath" "'..'" || return 1
	write_config "$cfg" '{"blockIO": {"weight": 10}}'
	st_run "$mode" --repeat=0 --config="$cfg" -- true
	expect_rc 125 && expect_error_line usage && expect_error_names '.linux.resources: "blockIO" is not supported' || return 1
	write_config "$cfg" '{"memory": {"limit": 1}}'
	st_run "$mode" --repeat=0 --config="$cfg" -- true
	expect_rc 125 && expect_error_line usage && expect_error_names ".linux.resources.memory.limit"
}

# layers --cgroup: the cgroup layer's figures with their statistics, the
# deferred part observed, nothing left; rootless: unavailable, with why.
t_layers() {
	local mode=$1 dir
	dir=$(st_scratch)
	st_run "$mode" layers --repeat=5 --warmup=1 --deferred-repeat=0 --ns=user --cgroup -J -o "$dir/l.json"
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/cgroup_check.py" layers "$dir/l.json" "$mode" || { st_show; return 1; }
	expect_no_cgroup "$ST_PID"
}

# layers --cgroup --format=csv: the cgroup layer's figures in columns of
# their own, filled on one row after the sets (layer cgroup_layer); without
# --cgroup no such column.
t_layers_csv() {
	local mode=$1 dir
	dir=$(st_scratch)
	st_run "$mode" layers --repeat=3 --warmup=0 --deferred-repeat=0 --ns=user --cgroup --format=csv -o "$dir/l.csv"
	expect_rc 0 && expect_clean || return 1
	st_run "$mode" layers --repeat=1 --warmup=0 --deferred-repeat=0 --ns=user --format=csv -o "$dir/plain.csv"
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/cgroup_check.py" layers-csv "$dir/l.csv" "$mode" "$dir/plain.csv" || return 1
}

t_missing_parent() {
	st_run root --repeat=0 --cgroup=/stt-no-such-parent-$$ -- true
	expect_rc 125 && expect_clean && expect_error_line && expect_error_names "the parent cgroup" "stt-no-such-parent-$$" "No such file"
}

# Every step of a --cgroup run with limits fails in turn: 125, one line, no cgroup left.
t_fault() {
	local step=$1 cfg=$2
	SANDBOXTIME_FAULT=$step st_run root --repeat=0 --config="$cfg" --cgroup -- true
	expect_rc 125 && expect_clean || return 1
	expect_eq "$(wc -l <"$ST_ERR")" 1 || { st_show; return 1; }
	grep -q "$step: injected fault" "$ST_ERR" || { st_show; return 1; }
	expect_no_cgroup "$ST_PID"
}

# The removal fails: a warning naming it, the workload's status, the cgroup
# left; cleanup removes it.
t_fault_rmdir() {
	local cfg=$1 out
	SANDBOXTIME_FAULT=cgroup_rmdir st_run root --repeat=0 -q --config="$cfg" --cgroup -- true
	expect_rc 0 && expect_clean || return 1
	grep -q "warning: .*cgroup_rmdir: injected fault.*sandboxtime cleanup" "$ST_ERR" || { st_show; return 1; }
	[ -n "$(cg_dirs "$ST_PID")" ] || { echo "nothing was left: the fault did not act"; return 1; }
	out=$("$ST_BIN" cleanup 2>&1)
	printf '%s\n' "$out" | grep -q "deleted cgroup .*sandboxtime-$ST_PID" || { echo "$out"; return 1; }
	expect_no_cgroup "$ST_PID"
}

# The steps of a run of FCFG (limits, no seccomp) with --cgroup, in order,
# written here and not read from the program: each but the teardown's
# cgroup_rmdir is a fault case, and t_fault_steps_as_written checks the
# program's steps against the list both ways. seccomp_compile is no step of
# this run; a compiled profile would name it, so it is a case too.
CGROUP_RUN_STEPS="cgroup_mkdir cgroup_limits clone cgroup_attach mount_private mount_proc caps_drop cgroup_rmdir"
fault_steps=(seccomp_compile cgroup_mkdir cgroup_limits clone cgroup_attach mount_private mount_proc caps_drop)
FCFG=$ST_TMP/fault.json
write_config "$FCFG" '{"memory": {"limit": 67108864}, "pids": {"limit": 100}}'

t_fault_steps_as_written() {
	"$ST_BIN" --repeat=0 --config="$FCFG" --cgroup -J -o "$ST_TMP/steps.json" -- true || return 1
	expect_eq "$(steps_of_report "$ST_TMP/steps.json")" "$CGROUP_RUN_STEPS"
}

# A run's CSV has its cgroup section (issue 29): mode, paths and born_into,
# read with Python's csv module, against the JSON of a run with the same options.
t_run_csv() {
	local dir
	dir=$(st_scratch) || return 1
	st_run root --repeat=0 --ns=pid,mount --cgroup --format=csv -o "$dir/run.csv" -- true || return 1
	expect_rc 0 && expect_no_cgroup "$ST_PID" || return 1
	st_run root --repeat=0 --ns=pid,mount --cgroup -J -o "$dir/run.json" -- true || return 1
	expect_rc 0 && expect_no_cgroup "$ST_PID" || return 1
	grep -q '^section,mode,paths,born_into$' "$dir/run.csv" || { echo "no cgroup section:"; cat "$dir/run.csv"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/csv_sections.py" live "$dir/run.csv" "$dir/run.json"
}

plan $((20 + ${#fault_steps[@]}))
if is_root; then
	ok "inside: /proc/self/cgroup is PARENT/sandboxtime-PID in every hierarchy; steps; nothing left [root]" t_inside_full_path
	ok "inside a cgroup namespace: 0::/sandboxtime-PID [root]" t_inside_cgroupns
	ok "config limits read back from inside (memory, pids, cpu) [root]" t_limits_inside
	ok "pids.limit 5: the sixth task cannot be forked (EAGAIN) [root]" t_pids_enforced
	ok "cgroupsPath relative: made under our cgroup, removed after [root]" t_cgroups_path
	ok "SIGTERM, SIGINT and a crashed workload: status passed on, nothing left [root]" t_sigterm_and_crash
	ok "SIGKILL of sandboxtime: cleanup removes its cgroup, keeps a running one's [root]" t_sigkill_cleanup
	ok "SIGKILL with a cgroupsPath: its marker leads cleanup to the bundle's cgroup [root]" t_sigkill_cgroups_path
	ok "--cgroup=PARENT that does not exist: 125, one line naming it [root]" t_missing_parent
	if userns_works; then
		ok "rootless in a delegated cgroup: the layer works [nobody]" t_nobody_delegated
	else
		skip "rootless in a delegated cgroup [nobody]" "no unprivileged user namespaces"
	fi
else
	for t in inside cgroupns limits pids cgroupsPath signals sigkill sigkill-cgroupsPath parent delegated; do
		skip "$t [root]" "not running as root"
	done
fi
if can_run nobody; then
	ok "rootless without a delegated cgroup: unavailable, one warning, the run goes on [nobody]" t_nobody_unavailable
else
	skip "rootless without a delegated cgroup [nobody]" "needs root to switch to nobody, and user namespaces"
fi
each_mode "bad --cgroup, cgroupsPath, resources key or value: 125, one line naming it" t_bad_input
each_mode "layers --cgroup: mkdir, limits, attach, rmdir and the deferred free, with statistics" t_layers
each_mode "layers --cgroup --format=csv: the cgroup layer's columns on a row of its own" t_layers_csv
if is_root; then
	ok "--config with limits --cgroup: a run's steps are the ones written here, in order [root]" t_fault_steps_as_written
	ok "run --cgroup --format=csv: a cgroup section that agrees with the JSON [root]" t_run_csv
else
	skip "a run's steps are the ones written here [root]" "not running as root"
	skip "run --cgroup --format=csv: a cgroup section [root]" "not running as root"
fi
if is_root && [ -x "$ST_TMP/sandboxtime-faults" ]; then
	REAL_BIN=$ST_BIN
	ST_BIN=$ST_TMP/sandboxtime-faults
	for s in "${fault_steps[@]}"; do
		ok "fault in $s with a cgroup: 125, one line, no cgroup left [root]" t_fault "$s" "$FCFG"
	done
	ok "fault in cgroup_rmdir: a warning, the status, and cleanup removes it [root]" t_fault_rmdir "$FCFG"
	ST_BIN=$REAL_BIN
else
	for s in "${fault_steps[@]}" cgroup_rmdir; do
		skip "fault in $s with a cgroup [root]" "needs root and sandboxtime-faults (make fault-bin)"
	done
fi
