#!/usr/bin/env bash
# sandboxtime as an OCI runtime, driven the way an engine drives runc:
# create, start, state, kill, delete, run, exec, ps, features, with runc's
# global flags; a busybox bundle from `runc spec`'s config (configs/oci/),
# as root and rootless. Each test checks what the container shows from
# inside, the state JSON an engine reads, the --report lines, runc's error
# shapes for bad input, and that nothing is left: no process, cgroup or
# state directory (a create killed halfway included). podman and containerd
# themselves are tests/integration/engines.sh's.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

top=$(cd "$(dirname "$0")/../.." && pwd)
BUSYBOX=/bin/busybox
PLAN=24
plan $PLAN
if [ ! -x "$BUSYBOX" ] || ! is_root; then
	for _ in $(seq $PLAN); do skip "runtime" "needs root and $BUSYBOX (Debian's busybox-static: sh .ci/install-deps test)"; done
	exit 0
fi

# A busybox root, and bundles of it (runc spec's configs), readable by nobody.
ROOTFS=$ST_TMP/rootfs
mkdir -p "$ROOTFS/bin" "$ROOTFS/proc" "$ROOTFS/sys" "$ROOTFS/dev" "$ROOTFS/tmp" "$ROOTFS/etc"
cp "$BUSYBOX" "$ROOTFS/bin/busybox"
for a in $("$BUSYBOX" --list); do [ "$a" = busybox ] || ln -s busybox "$ROOTFS/bin/$a"; done
chmod -R a+rX "$ROOTFS"

# bundle MODE SCRIPT [PYTHON]: a bundle dir (config.json, rootfs) running sh -c SCRIPT; prints its path.
bundle() {
	local mode=$1 b fixture=$top/configs/oci/runc-spec.json gid
	b=$(st_scratch) || return 1
	[ "$mode" = nobody ] && fixture=$top/configs/oci/runc-spec-rootless.json
	gid=$(if [ "$mode" = nobody ]; then id -g nobody; else id -g; fi)
	"$ST_PY" -B "$ST_PYDIR/oci_bundle.py" config "$fixture" "$b/config.json" "$(mode_uid "$mode")" "$gid" "$2" \
		"c['root']['path'] = '$ROOTFS'${3:+$'\n'$3}" && chmod 644 "$b/config.json" && echo "$b"
}

# rt MODE ARG...: the runtime with a --root of this suite's own for MODE; output in $RT_OUT, $RT_ERR, status $RT_RC.
RT_ROOT=$ST_TMP/rtroot
mkdir -p "$RT_ROOT/root" "$RT_ROOT/nobody" && chown nobody "$RT_ROOT/nobody" && chmod 700 "$RT_ROOT"/*
chmod 755 "$RT_ROOT"
rt() {
	local mode=$1; shift
	RT_OUT=$ST_TMP/rt.out RT_ERR=$ST_TMP/rt.err
	if [ "$mode" = nobody ]; then
		as_nobody timeout -k 5 "$ST_TIMEOUT" "$ST_NOBODY_BIN" --root "$RT_ROOT/nobody" "$@" </dev/null >"$RT_OUT" 2>"$RT_ERR"
	else
		timeout -k 5 "$ST_TIMEOUT" "$ST_BIN" --root "$RT_ROOT/root" "$@" </dev/null >"$RT_OUT" 2>"$RT_ERR"
	fi
	RT_RC=$?
}

rt_show() { echo "exit $RT_RC"; echo "stdout:"; sed 's/^/  /' "$RT_OUT"; echo "stderr:"; sed 's/^/  /' "$RT_ERR"; }
rt_ok() { [ "$RT_RC" -eq 0 ] || { echo "expected exit 0"; rt_show; return 1; }; }

# rt_fails STATUS TEXT: the last call exited STATUS with one error line holding TEXT.
rt_fails() {
	[ "$RT_RC" -eq "$1" ] && [ "$(wc -l <"$RT_ERR")" -eq 1 ] && grep -q "^sandboxtime: .*$2" "$RT_ERR" && return 0
	echo "expected exit $1 and one line with '$2'"
	rt_show
	return 1
}

# state_field MODE ID FIELD: FIELD of `state ID`'s JSON.
state_field() {
	rt "$1" state "$2" && "$ST_PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$RT_OUT" "$3"
}

# Nothing of container ID is left: its state directory, and (root) a cgroup named for it.
nothing_left() {
	local mode=$1 id=$2 left
	[ ! -e "$RT_ROOT/$mode/$id" ] || { echo "state left: $(ls -la "$RT_ROOT/$mode/$id")"; return 1; }
	left=$(find /sys/fs/cgroup -maxdepth 4 -type d -name "$id" 2>/dev/null)
	[ -z "$left" ] || { echo "cgroup left: $left"; return 1; }
}

# gone PID: no process PID, or only its zombie (what reaps it here is not ours to wait for).
gone() { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }

# waits until the file $1 has content (up to 5 s).
wait_for() { local i; for ((i = 0; i < 100; i++)); do [ -s "$1" ] && return 0; sleep 0.05; done; return 1; }

t_lifecycle() {
	local mode=$1 b id=life-$1 pid out
	b=$(bundle "$mode" 'echo "started hostname=$(hostname) pid=$$"; exec sleep 30') || return 1
	out=$ST_TMP/life-$mode.out
	: >"$out"; chmod 666 "$out"
	if [ "$mode" = nobody ]; then
		as_nobody "$ST_NOBODY_BIN" --root "$RT_ROOT/nobody" create --bundle "$b" --pid-file "$b/pid" "$id" </dev/null >"$out" 2>&1
	else
		"$ST_BIN" --root "$RT_ROOT/root" create --bundle "$b" --pid-file "$b/pid" "$id" </dev/null >"$out" 2>&1
	fi || { echo "create failed"; cat "$out"; return 1; }
	pid=$(cat "$b/pid")
	expect_eq "$(state_field "$mode" "$id" status)" created || return 1
	expect_eq "$(state_field "$mode" "$id" pid)" "$pid" || return 1
	expect_eq "$(state_field "$mode" "$id" bundle)" "$b" || return 1
	# Held before its exec: nothing printed yet, and the process is still sandboxtime's image.
	[ ! -s "$out" ] || { echo "the workload ran before start:"; cat "$out"; return 1; }
	rt "$mode" start "$id" && rt_ok || return 1
	wait_for "$out" || { echo "no output after start"; return 1; }
	expect_eq "$(cat "$out")" "started hostname=runc pid=1" || return 1
	expect_eq "$(state_field "$mode" "$id" status)" running || return 1
	rt "$mode" kill "$id" KILL && rt_ok || return 1
	for ((i = 0; i < 100; i++)); do [ "$(state_field "$mode" "$id" status)" = stopped ] && break; sleep 0.05; done
	expect_eq "$(state_field "$mode" "$id" status)" stopped || return 1
	rt "$mode" delete "$id" && rt_ok || return 1
	gone "$pid" || { echo "pid $pid still there"; return 1; }
	nothing_left "$mode" "$id" || return 1
	rt "$mode" state "$id"
	rt_fails 1 "container does not exist: $id"
}

# run: create, start, wait; the container's exit status is the runtime's; deleted after.
t_run() {
	local mode=$1 b
	b=$(bundle "$mode" 'echo out; exit 7') || return 1
	rt "$mode" run --bundle "$b" "run-$mode"
	expect_eq "$RT_RC" 7 || { rt_show; return 1; }
	expect_eq "$(cat "$RT_OUT")" out || return 1
	nothing_left "$mode" "run-$mode"
}

# Inside, the container is as its config says: runc spec's capabilities, no_new_privs, no filter.
t_inside() {
	local mode=$1 b
	b=$(bundle "$mode" 'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status; cat /proc/1/comm; ls /dev | tr "\n" " "') || return 1
	rt "$mode" run --bundle "$b" "inside-$mode" && rt_ok || return 1
	expect_eq "$(head -3 "$RT_OUT")" "$(printf 'CapEff:\t0000000020000420\nNoNewPrivs:\t1\nSeccomp:\t0')" || return 1
	expect_eq "$(sed -n 4p "$RT_OUT")" sh || return 1
	grep -q "null .*ptmx .*pts .*zero" <<<"$(sed -n 5p "$RT_OUT")" || { echo "/dev: $(sed -n 5p "$RT_OUT")"; return 1; }
}

# runc's error shapes: one line, exit 1, nothing left.
t_errors() {
	local mode=$1 b
	b=$(bundle "$mode" 'exec sleep 30') || return 1
	rt "$mode" create --bundle "$b" "dup-$mode" && rt_ok || return 1
	rt "$mode" create --bundle "$b" "dup-$mode"
	rt_fails 1 "container with id exists: dup-$mode" || return 1
	rt "$mode" start "dup-$mode" && rt_ok || return 1
	rt "$mode" start "dup-$mode"
	rt_fails 1 "cannot start a container that is running: dup-$mode" || return 1
	rt "$mode" delete "dup-$mode"
	rt_fails 1 "cannot delete container dup-$mode that is not stopped: running" || return 1
	rt "$mode" delete --force "dup-$mode" && rt_ok || return 1
	nothing_left "$mode" "dup-$mode" || return 1
	rt "$mode" kill "dup-$mode" KILL
	rt_fails 1 "container does not exist: dup-$mode" || return 1
	rt "$mode" delete --force "dup-$mode" && rt_ok || return 1
	rt "$mode" create --bundle "$ST_TMP/no-such-bundle" "nob-$mode"
	rt_fails 1 "no-such-bundle" || return 1
	nothing_left "$mode" "nob-$mode" || return 1
	rt "$mode" create --bundle "$b" "bad/id"
	rt_fails 1 "invalid container id 'bad/id'" || return 1
	rt "$mode" kill "bad/id"
	rt_fails 1 "invalid container id" || return 1
	rt "$mode" state
	rt_fails 1 "state: requires a container id" || return 1
	rt "$mode" create --bogus "x-$mode"
	rt_fails 1 "create: flag provided but not defined: -bogus"
}

t_bad_config() {
	local mode=$1 b
	b=$(bundle "$mode" 'true' 'c["linux"]["seccomp"] = {"defaultAction": "SCMP_ACT_NOPE"}') || return 1
	rt "$mode" create --bundle "$b" "badcfg-$mode"
	rt_fails 1 "$b/config.json" || return 1
	nothing_left "$mode" "badcfg-$mode" || return 1
	b=$(bundle "$mode" 'true' 'c["process"]["args"] = ["/bin/no-such-program"]') || return 1
	rt "$mode" create --bundle "$b" "noexec-$mode"
	rt_fails 1 "cannot execute '/bin/no-such-program': No such file" || return 1
	nothing_left "$mode" "noexec-$mode"
}

# Killed after the container was made (in a createRuntime hook): delete --force leaves nothing.
t_killed_create() {
	local b id=killed pid hookpid i
	b=$(bundle root 'exec sleep 30' "c['hooks'] = {'createRuntime': [{'path': '/bin/sh', 'args': ['sh', '-c', 'echo \$\$ > $ST_TMP/hook.pid; exec sleep 30']}]}") || return 1
	rm -f "$ST_TMP/hook.pid"
	"$ST_BIN" --root "$RT_ROOT/root" create --bundle "$b" --pid-file "$b/pid" "$id" </dev/null >/dev/null 2>&1 &
	local create=$!
	wait_for "$ST_TMP/hook.pid" || { kill -KILL "$create"; echo "the hook never ran"; return 1; }
	hookpid=$(cat "$ST_TMP/hook.pid")
	kill -KILL "$create"
	wait "$create" 2>/dev/null
	kill -KILL "$hookpid" 2>/dev/null
	pid=$(cat "$b/pid")
	! gone "$pid" || { echo "no container process was left to clean ($pid)"; return 1; }
	rt root delete --force "$id" && rt_ok || return 1
	for ((i = 0; i < 100; i++)); do gone "$pid" && break; sleep 0.02; done
	gone "$pid" || { echo "pid $pid left"; return 1; }
	nothing_left root "$id"
}

# Hooks get the state on stdin, in order, each a timed step of the report.
t_hooks() {
	local b log=$ST_TMP/hooks.log rep=$ST_TMP/hooks.jsonl hook=$ST_TMP/hook.sh
	: >"$log"
	printf '#!/bin/sh\nread -r s\necho "$1 $s" >> %s\n' "$log" >"$hook" && chmod 755 "$hook"
	b=$(bundle root 'echo ran' "c['hooks'] = {k: [{'path': '$hook', 'args': ['hook.sh', k]}] for k in ('prestart', 'createRuntime', 'poststart', 'poststop')}") || return 1
	"$ST_BIN" --root "$RT_ROOT/root" --report="$rep" run --bundle "$b" hooked >/dev/null 2>"$ST_TMP/hooks.err" ||
		{ cat "$ST_TMP/hooks.err"; return 1; }
	"$ST_PY" -B "$ST_PYDIR/runtime_check.py" hooks "$log" "$rep"
}

# --report: a line per operation, with the steps of each.
t_report() {
	local b rep=$ST_TMP/report.jsonl
	b=$(bundle root 'exec sleep 30') || return 1
	rm -f "$rep"
	for op in create start delete; do
		if [ $op = create ]; then
			"$ST_BIN" --root "$RT_ROOT/root" --report="$rep" create --bundle "$b" rep </dev/null >/dev/null 2>&1
		elif [ $op = delete ]; then
			"$ST_BIN" --root "$RT_ROOT/root" --report="$rep" delete --force rep
		else
			"$ST_BIN" --root "$RT_ROOT/root" --report="$rep" start rep
		fi || { echo "$op failed"; return 1; }
	done
	"$ST_PY" -B "$ST_PYDIR/runtime_check.py" report "$rep"
}

# exec: args and --process, in the container's namespaces; --detach with --pid-file.
t_exec() {
	local mode=$1 b id=exec-$1 proc
	b=$(bundle "$mode" 'exec sleep 30') || return 1
	rt "$mode" run --detach --bundle "$b" "$id" && rt_ok || return 1
	rt "$mode" exec "$id" sh -c 'echo "in $(hostname) $(cat /proc/1/comm) $$"'
	rt_ok && expect_eq "$(cat "$RT_OUT")" "in runc sleep 2" || { rt_show; rt "$mode" delete -f "$id"; return 1; }
	proc=$ST_TMP/process-$mode.json
	"$ST_PY" -c 'import json,sys; c = json.load(open(sys.argv[1]))["process"]; c["args"] = ["sh", "-c", "exit 3"]; json.dump(c, open(sys.argv[2], "w"))' \
		"$b/config.json" "$proc" && chmod 644 "$proc"
	rt "$mode" exec --process "$proc" "$id"
	expect_eq "$RT_RC" 3 || { rt_show; rt "$mode" delete -f "$id"; return 1; }
	rt "$mode" exec --detach --pid-file "$RT_ROOT/$mode/exec.pid" "$id" sleep 5
	rt_ok && [ -s "$RT_ROOT/$mode/exec.pid" ] || { rt_show; rt "$mode" delete -f "$id"; return 1; }
	rt "$mode" ps --format json "$id"
	"$ST_PY" -c 'import json,sys; p = json.load(open(sys.argv[1])); assert int(sys.argv[2]) in p and len(p) == 2, p' \
		"$RT_OUT" "$(cat "$RT_ROOT/$mode/exec.pid")" || { rt "$mode" delete -f "$id"; return 1; }
	rm -f "$RT_ROOT/$mode/exec.pid"
	rt "$mode" delete --force "$id" && rt_ok || return 1
	nothing_left "$mode" "$id"
}

# process.terminal: the pty's master arrives on --console-socket; the process's tty is its own devpts'.
t_terminal() {
	local b sock=$ST_TMP/console.sock got=$ST_TMP/console.out
	b=$(bundle root 'tty; echo term-ok' 'c["process"]["terminal"] = True') || return 1
	rm -f "$sock" "$got"
	"$ST_PY" -B "$ST_PYDIR/console_socket.py" "$sock" "$got" &
	local listener=$!
	for ((i = 0; i < 100; i++)); do [ -S "$sock" ] && break; sleep 0.02; done
	rt root run --console-socket "$sock" --bundle "$b" term
	wait "$listener"
	rt_ok || return 1
	grep -q "^/dev/pts/0" "$got" && grep -q "term-ok" "$got" || { echo "pty said:"; cat -A "$got"; return 1; }
	rt root run --bundle "$b" term2
	rt_fails 1 "process.terminal is true: give --console-socket"
}

# --log-format=json: the error as runc writes it, which engines read back.
t_log_json() {
	local log=$ST_TMP/log.json
	rm -f "$log"
	"$ST_BIN" --root "$RT_ROOT/root" --log "$log" --log-format json start no-such 2>/dev/null
	expect_eq "$?" 1 || return 1
	"$ST_PY" -c 'import json,sys; d = json.loads(open(sys.argv[1]).read().splitlines()[-1]); assert d["level"] == "error" and "container does not exist: no-such" in d["msg"] and d["time"], d' "$log"
}

t_features() {
	rt root features && rt_ok || return 1
	"$ST_PY" -c 'import json,sys; d = json.load(open(sys.argv[1])); assert "network" in d["linux"]["namespaces"] and "CAP_SYS_ADMIN" in d["linux"]["capabilities"] and d["linux"]["seccomp"]["enabled"] and "poststop" in d["hooks"], d' "$RT_OUT"
}

# report: per-step medians over many containers, checked against Python's
# statistics module on lines made here; the 95% interval of the median from
# the binomial order statistics (n=7: the extremes; n=3: none, and why).
t_summary() {
	local f=$ST_TMP/summary.jsonl
	"$ST_PY" -B "$ST_PYDIR/runtime_check.py" summary-input "$f" || return 1
	rt root report --format=json "$f" && rt_ok || return 1
	"$ST_PY" -B "$ST_PYDIR/runtime_check.py" summary "$RT_OUT" || return 1
	rt root report "$f" && rt_ok || return 1
	grep -q "^create   clone  .* 7 .*4.0 .*\[1.0, 7.0\]" "$RT_OUT" && grep -q "^delete .*~? (n < 6)" "$RT_OUT" ||
		{ cat "$RT_OUT"; return 1; }
	# --textfile: Prometheus summaries in seconds (the fixture's clone median is 4 us), promtool-clean.
	rt root report --textfile="$ST_TMP/rt.prom" "$f" && rt_ok || return 1
	grep -qx 'sandboxtime_runtime_step_seconds{op="create",step="clone",quantile="0.5"} 4e-06' "$ST_TMP/rt.prom" &&
		grep -qx 'sandboxtime_runtime_step_seconds_count{op="delete",step="cgroup_rmdir"} 3' "$ST_TMP/rt.prom" ||
		{ cat "$ST_TMP/rt.prom"; return 1; }
	if [ -x "$top/.ci/tools/promtool" ]; then
		"$top/.ci/tools/promtool" check metrics <"$ST_TMP/rt.prom" || return 1
	fi
	rt root report "$ST_TMP/no-such.jsonl"
	rt_fails 1 "report: cannot read"
}

# A memory limit and no cgroupsPath: the cgroup is named for the container (/ID, as runc's),
# holds the container, survives `sandboxtime cleanup` while it runs, and goes with delete.
t_cgroup() {
	local b id=cg-limited pid line
	b=$(bundle root 'exec sleep 30' 'c["linux"]["resources"] = {"memory": {"limit": 67108864}, "pids": {"limit": 64}}') || return 1
	rt root run --detach --bundle "$b" "$id" && rt_ok || return 1
	pid=$(state_field root "$id" pid)
	line=$(grep -E '^[0-9]+:([^:]*,)?memory(,[^:]*)?:|^0::' "/proc/$pid/cgroup" | head -1)
	[[ "$line" == *":/$id" ]] || { echo "the container's cgroup: $line"; rt root delete -f "$id"; return 1; }
	"$ST_BIN" cleanup >/dev/null 2>&1
	expect_eq "$(state_field root "$id" status)" running || { rt root delete -f "$id"; return 1; }
	grep -q ":/$id\$" "/proc/$pid/cgroup" || { echo "cleanup moved or removed it: $(cat "/proc/$pid/cgroup")"; return 1; }
	rt root delete --force "$id" && rt_ok || return 1
	nothing_left root "$id"
}

# Without a pid namespace (and a cgroup) the container's other processes cannot be told
# from the host's: kill --all and delete --force end its own process, never the host's.
t_no_pidns() {
	local b id=no-pidns sentinel
	b=$(bundle root 'exec sleep 30' 'c["linux"]["namespaces"] = [n for n in c["linux"]["namespaces"] if n["type"] != "pid"]') || return 1
	sleep 60 &
	sentinel=$!
	rt root run --detach --bundle "$b" "$id" && rt_ok || { kill "$sentinel"; return 1; }
	rt root kill --all "$id" KILL && rt_ok || { kill "$sentinel"; rt root delete -f "$id"; return 1; }
	rt root delete --force "$id" && rt_ok || { kill "$sentinel"; return 1; }
	kill -0 "$sentinel" 2>/dev/null || { echo "kill --all reached the host's sleep $sentinel"; return 1; }
	kill "$sentinel"; wait "$sentinel" 2>/dev/null
	nothing_left root "$id"
}

# runtime.conf's report: the lines of an engine that passes no --report (a rootless user's config).
t_config_report() {
	local b conf rep
	b=$(bundle nobody 'true') || return 1
	conf=$(st_scratch) && rep=$conf/rep.jsonl || return 1
	mkdir -p "$conf/sandboxtime" && printf '# the runtime report\nreport = %s\n' "$rep" >"$conf/sandboxtime/runtime.conf" &&
		chmod -R a+rX "$conf" || return 1
	as_nobody env XDG_CONFIG_HOME="$conf" "$ST_NOBODY_BIN" --root "$RT_ROOT/nobody" run --bundle "$b" conf-report \
		</dev/null >/dev/null 2>&1 || { echo "run failed"; return 1; }
	[ "$(grep -c '"op": *"run"' "$rep")" -eq 1 ] || { echo "report:"; cat "$rep" 2>&1; return 1; }
	# --report on the command line wins.
	as_nobody env XDG_CONFIG_HOME="$conf" "$ST_NOBODY_BIN" --root "$RT_ROOT/nobody" --report="$conf/other.jsonl" \
		run --bundle "$b" conf-report2 </dev/null >/dev/null 2>&1 || return 1
	[ "$(grep -c . "$rep")" -eq 1 ] && [ -s "$conf/other.jsonl" ]
}

t_systemd_cgroup() {
	rt root --systemd-cgroup state x
	rt_fails 1 "systemd-cgroup: sandboxtime manages cgroups itself"
}

each_mode "create, state created (held before exec), start, running, kill, stopped, delete: nothing left" t_lifecycle
each_mode "run: the container's exit status and output, deleted after" t_run
each_mode "inside: runc spec's capabilities, no_new_privs, no seccomp filter, pid 1, /dev" t_inside
each_mode "runc's error shapes: an id that exists, start when running, delete when running, kill and state of none, a bad id or flag" t_errors
each_mode "a bad config and a missing command: create fails in one line, nothing left" t_bad_config
each_mode "exec: args and --process in the container (pid 2, its hostname), exit status, --detach --pid-file, ps --format json" t_exec
ok "a create killed after making the container: delete --force leaves no process, cgroup or state [root]" t_killed_create
ok "hooks: prestart, createRuntime, poststart, poststop in order, the state on stdin, each a timed step [root]" t_hooks
ok "--report: create, start and delete lines, their steps adding up to total_us [root]" t_report
ok "process.terminal: the pty's master through --console-socket, a tty of the container's own devpts [root]" t_terminal
ok "--log --log-format=json: the error as a JSON line an engine reads" t_log_json
ok "features: runc 1.1's document, with namespaces, capabilities, seccomp and hooks" t_features
ok "--systemd-cgroup: refused in one line that says what to configure" t_systemd_cgroup
ok "no pid namespace: kill --all and delete --force end the container's process, not the host's [root]" t_no_pidns
ok "runtime.conf's report = FILE, for engines that pass no flag; --report wins [nobody]" t_config_report
ok "resources without cgroupsPath: a cgroup /ID holds the container, cleanup leaves it, delete removes it [root]" t_cgroup
ok "report: per-step medians (as Python's statistics), the median's 95% interval, none below n = 6, --textfile in seconds" t_summary
ok "no container is left in the suite's roots" eval '[ -z "$(find "$RT_ROOT" -mindepth 2)" ] || { find "$RT_ROOT"; false; }'
