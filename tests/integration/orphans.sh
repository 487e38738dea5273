#!/usr/bin/env bash
# sandboxtime orphans: a scenario of network namespaces that this suite makes
# and removes (a trap removes them whatever happens), each classified by
# inode: held by a bind mount only, by an fd only, lived in by a process, and
# bind-mounted under a path with a space. Namespaces the suite did not make
# are only compared, never touched.
#
# As root the suite re-runs itself in a mount namespace of its own (as
# orphans_cleanup.sh does): its bind mounts stay there, so a mount namespace
# that another job creates meanwhile does not copy them (which would add
# holders and keep the scenario's namespaces alive after it is removed), and
# they vanish with the suite even on SIGKILL. Only the mount namespace is
# private: the network namespace, the processes and every other mount
# namespace are the host's, and the scan reads all of them, so "the host" in
# the tests below is still the machine's. Slave, not private: the host's
# mounts and unmounts still reach the copy (e.g. another job's ip netns del),
# so that the copy never keeps a namespace of someone else's alive.
if [ "$(id -u)" = 0 ] && [ -z "${ST_ORPHANS_PRIVATE:-}" ]; then
	ST_ORPHANS_PRIVATE=1 exec unshare --mount --propagation slave bash "$0" "$@"
fi
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 26

W=$(mktemp -d "$ST_TMP/orphans.XXXXXX")
chmod 755 "$W"
NAME_A=st-orph-$$-a
PIDS=()
STARTED=()

cleanup_scenario() {
	local p
	for p in "${PIDS[@]+"${PIDS[@]}"}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	PIDS=()
	# By its path, whoever set it: a test runs in a subshell.
	mountpoint -q "$W/a b/ns" 2>/dev/null && umount "$W/a b/ns"
	ip netns del "$NAME_A" 2>/dev/null
	[ -n "${LEFT:-}" ] && ip link del "$LEFT" 2>/dev/null
	LEFT=
	return 0
}
trap 'cleanup_scenario; rm -rf "$ST_TMP"' EXIT

host_ino=$(stat -L -c %i /proc/self/ns/net)

# wait_netns PID: until PID (an `unshare -n` that execs) is in a new netns; prints its inode.
wait_netns() {
	local i ino
	for i in $(seq 200); do
		ino=$(stat -L -c %i "/proc/$1/ns/net" 2>/dev/null) || return 1
		[ "$ino" != "$host_ino" ] && { echo "$ino"; return 0; }
		sleep 0.02
	done
	return 1
}

# check FILE INODE STATE [HOLDER...]: the scan in FILE has namespace INODE in
# STATE with at least the holders given ("mount:PATH", "fd:PID/FD(COMM)").
CHECK=$ST_PYDIR/orphans_check.py

# field FILE EXPR: a value of the scan in FILE (python expression over doc).
field() { "$ST_PY" -c 'import json,sys; doc=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# scan FILE [ARGS...]: sandboxtime orphans -J into FILE, stderr in FILE.err; sets SCAN_RC.
scan() {
	local f=$1; shift
	"$ST_BIN" orphans -J "$@" >"$f" 2>"$f.err"
	SCAN_RC=$?
}

build_scenario() {
	local u
	# a: held only by a bind mount (ip netns add).
	ip netns add "$NAME_A" || return 1
	INO_A=$(stat -L -c %i "/run/netns/$NAME_A")
	# b: held only by fd 7 of a process that lives in the host's netns.
	unshare -n sleep 60 & u=$!; PIDS+=("$u")
	INO_B=$(wait_netns "$u") || return 1
	bash -c "exec 7</proc/$u/ns/net; : >'$W/b.ready'; exec sleep 60" & HOLDER_B=$!; PIDS+=("$HOLDER_B")
	wait_file "$W/b.ready" || return 1
	kill -KILL "$u"; wait "$u" 2>/dev/null
	# c: a live process in it.
	unshare -n sleep 60 & PID_C=$!; PIDS+=("$PID_C")
	INO_C=$(wait_netns "$PID_C") || return 1
	# d: bind-mounted under a path with a space, its process gone.
	mkdir "$W/a b" && : >"$W/a b/ns" || return 1
	unshare -n sleep 60 & u=$!; PIDS+=("$u")
	INO_D=$(wait_netns "$u") || return 1
	mount --bind "/proc/$u/ns/net" "$W/a b/ns" || return 1
	kill -KILL "$u"; wait "$u" 2>/dev/null
	# e: held only by a socket made inside it, kept by a process back in the host's netns.
	unshare -n sleep 60 & u=$!; PIDS+=("$u")
	INO_E=$(wait_netns "$u") || return 1
	nsenter --net="/proc/$u/ns/net" "$ST_PY" -c 'import os, socket, sys
s = socket.socket()
os.dup2(s.fileno(), 9)
os.execvp("nsenter", ["nsenter", "--net=/proc/%s/ns/net" % sys.argv[1], "sh", "-c", ": >%s; exec sleep 60" % sys.argv[2]])' "$$" "$W/e.ready" &
	HOLDER_E=$!; PIDS+=("$HOLDER_E")
	wait_file "$W/e.ready" || return 1
	kill -KILL "$u"; wait "$u" 2>/dev/null
	# A leftover bridge of a sandboxtime that is gone (a pid that just exited).
	sleep 0 & DEAD=$!; wait "$DEAD"
	ip link add "stbr$DEAD" type bridge && LEFT=stbr$DEAD || return 1
	return 0
}

# Inodes of every netns a process or thread lives in now (independent of sandboxtime).
lived_in() { stat -L -c %i /proc/[0-9]*/task/[0-9]*/ns/net 2>/dev/null | sort -u; }

t_before() {
	scan "$W/before.json"
	[ "$SCAN_RC" = 0 ] || [ "$SCAN_RC" = 1 ] || { echo "exit $SCAN_RC"; cat "$W/before.json.err"; return 1; }
	expect_eq "$(field "$W/before.json" 'doc["schema"]')" "sandboxtime/orphans/v1"
}

# Runs at the top level, not in a test's subshell: the pids and inodes must outlive it.
build_and_scan() {
	build_scenario || { BUILT="could not build the scenario"; return 1; }
	BUILT=yes
	scan "$W/after.json"
	AFTER_RC=$SCAN_RC
	"$ST_BIN" orphans >"$W/table" 2>&1
	"$ST_BIN" orphans --all >"$W/table-all" 2>&1
	"$ST_BIN" orphans --format=csv >"$W/csv" 2>/dev/null
	"$ST_BIN" orphans --format=prometheus >"$W/prom" 2>/dev/null
	return 0
}

t_rc_one() {
	expect_eq "$AFTER_RC" 1 || { cat "$W/after.json.err"; return 1; }
	expect_eq "$(field "$W/after.json" 'doc["summary"]["orphans"] >= 3')" True
}

t_summary() {
	field "$W/after.json" 'doc["summary"]' >/dev/null || return 1
	expect_eq "$(field "$W/after.json" 'sum(n["state"] == "orphan" for n in doc["netns"]) == doc["summary"]["orphans"] and sum(n["state"] == "active" for n in doc["netns"]) == doc["summary"]["active"] and len(doc["netns"]) == doc["summary"]["total"]')" True
}

t_no_false_orphan() {
	local ino lived bad=""
	lived=$(lived_in)
	for ino in $(field "$W/after.json" '"\n".join(str(n["inode"]) for n in doc["netns"] if n["state"] == "orphan")'); do
		case " $INO_A $INO_B $INO_D $INO_E " in *" $ino "*) continue ;; esac
		# Not ours: it must have been an orphan before, or be one by an independent look.
		"$ST_PY" "$CHECK" "$W/before.json" "$ino" orphan 2>/dev/null && continue
		grep -qx "$ino" <<<"$lived" && bad="$bad $ino"
	done
	[ -z "$bad" ] || { echo "reported as orphans, yet a process lives there:$bad"; return 1; }
	# And the host's own namespace is active.
	"$ST_PY" "$CHECK" "$W/after.json" "$host_ino" active
}

# The premise of the private mount namespace: the mount namespace the suite
# was started from (its parent's: the host's, where other jobs make theirs)
# holds none of the scenario's mounts, while the suite's own does.
t_mounts_private() {
	local host_mnt
	host_mnt=$(stat -L -c %i "/proc/$PPID/ns/mnt") || return 1
	[ "$host_mnt" != "$(stat -L -c %i /proc/self/ns/mnt)" ] || { echo "the suite runs in the host's mount namespace"; return 1; }
	if ! grep -q "/run/netns/$NAME_A " /proc/self/mountinfo || ! grep -qF "$W/a\\040b/ns " /proc/self/mountinfo; then
		echo "the scenario's mounts are not in the suite's mount namespace"
		return 1
	fi
	if grep -e "/run/netns/$NAME_A " -e "$W/" "/proc/$PPID/mountinfo"; then
		echo "the scenario's mounts (above) reached the host's mount namespace"
		return 1
	fi
}

t_interfaces() {
	expect_eq "$(field "$W/after.json" '[n["interfaces"] for n in doc["netns"] if n["inode"] == '"$INO_A"'][0]')" "['lo']"
}

t_table() {
	grep -q "^ *$INO_A orphan .*mount:/run/netns/$NAME_A" "$W/table" || { cat "$W/table"; return 1; }
	grep -q "^ *$INO_D orphan .*mount:$W/a b/ns" "$W/table" || { cat "$W/table"; return 1; }
	grep -q "^ *$INO_C " "$W/table" && { echo "active namespace shown without --all"; return 1; }
	grep -q "^ *$INO_C active " "$W/table-all" || { echo "--all does not show $INO_C"; cat "$W/table-all"; return 1; }
	# Orphans come first.
	local first_active last_orphan
	first_active=$(grep -n ' active ' "$W/table-all" | head -n1 | cut -d: -f1)
	last_orphan=$(grep -n ' orphan ' "$W/table-all" | tail -n1 | cut -d: -f1)
	[ "$last_orphan" -lt "$first_active" ] || { echo "orphans not first"; cat "$W/table-all"; return 1; }
}

t_csv() {
	expect_eq "$(head -n1 "$W/csv")" "inode,state,processes,nsid,interfaces,holders" || return 1
	grep -qx "$INO_D,orphan,0,[0-9]*,lo,mount:$W/a b/ns" "$W/csv" || { cat "$W/csv"; return 1; }
	grep -q "^$INO_B,orphan,0,[0-9]*,lo,.*fd:$HOLDER_B/7(sleep)" "$W/csv" || { cat "$W/csv"; return 1; }
}

t_prom() {
	grep -qx '# TYPE sandboxtime_netns_orphans gauge' "$W/prom" || return 1
	grep -qx '# TYPE sandboxtime_netns gauge' "$W/prom" || return 1
	grep -q '^# HELP sandboxtime_netns_orphan_info ' "$W/prom" || return 1
	grep -qxF "sandboxtime_netns_orphan_info{inode=\"$INO_D\",holder=\"mount:$W/a b/ns\"} 1" "$W/prom" ||
		{ cat "$W/prom"; return 1; }
	# Every sample line is "name{labels} value" or "name value".
	! grep -vE '^(# (HELP|TYPE) .*|[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [0-9]+)$' "$W/prom"
}

# None of the scenario is listed: its inodes are gone, or another job's
# namespace has one of them now (its holders none of ours, and none of our
# processes alive to live in it).
t_after_cleanup() {
	local ino p ours=("mount:/run/netns/$NAME_A" "mount:$W/a b/ns")
	for p in "${STARTED[@]+"${STARTED[@]}"}"; do
		kill -0 "$p" 2>/dev/null && { echo "pid $p still runs"; return 1; }
		ours+=("pid:$p")
	done
	for ino in "$INO_A" "$INO_B" "$INO_C" "$INO_D" "$INO_E"; do
		"$ST_PY" "$CHECK" "$W/cleaned.json" "$ino" gone "${ours[@]}" || return 1
	done
	expect_eq "$SCAN_RC" "$(field "$W/cleaned.json" '1 if doc["summary"]["orphans"] else 0')"
}

# As nobody: a netns of its own (unshare -rn) held by fd 7 of its shell is found.
t_nobody_own_orphan() {
	local out=$W/nobody rc
	mkdir -p "$out" && chmod 777 "$out"
	as_nobody bash -c '
		unshare -rn sleep 60 & u=$!
		h=$(stat -L -c %i /proc/self/ns/net)
		for i in $(seq 200); do
			[ "$(stat -L -c %i /proc/$u/ns/net)" != "$h" ] && break; sleep 0.02
		done
		exec 7</proc/$u/ns/net
		kill -KILL $u; wait $u 2>/dev/null
		stat -L -c %i /proc/self/fd/7 >"$1/ino"; echo $$ >"$1/pid"
		"$2" orphans -J >"$1/out.json" 2>"$1/err"; echo $? >"$1/rc"
		"$2" orphans >"$1/table" 2>"$1/table.err"
		"$2" orphans -q >/dev/null 2>"$1/quiet.err"' _ "$out" "$ST_NOBODY_BIN"
	rc=$(cat "$out/rc")
	expect_eq "$rc" 1 || { cat "$out/err"; return 1; }
	"$ST_PY" "$CHECK" "$out/out.json" "$(cat "$out/ino")" orphan "fd:$(cat "$out/pid")/7(bash)" || return 1
	expect_eq "$(field "$out/out.json" 'doc["summary"]["unreadable_processes"] > 0')" True || return 1
	expect_eq "$(field "$out/out.json" 'doc["host"]["rootless"]')" True || return 1
	# Rootless, interfaces are unknown.
	expect_eq "$(field "$out/out.json" '[n["interfaces"] for n in doc["netns"]][0]')" None
}

t_nobody_others_not_orphans() {
	local out=$W/nobody
	# The suite's own root-made orphan (a, ip netns) must not be called an orphan by nobody.
	"$ST_PY" "$CHECK" "$out/out.json" "$NOBODY_SEES_A" absent || return 1
	expect_eq "$(wc -l <"$out/err")" 1 || { cat "$out/err"; return 1; }
	grep -qE "^sandboxtime: orphans: warning: [0-9]+ process(es)? could not be read" "$out/err" || { cat "$out/err"; return 1; }
	[ ! -s "$out/quiet.err" ] || { echo "-q printed: $(cat "$out/quiet.err")"; return 1; }
	grep -q "fd:$(cat "$out/pid")/7(bash)" "$out/table"
}

t_bad_format() {
	local rc
	"$ST_BIN" orphans --format=xml >"$W/o" 2>"$W/e"; rc=$?
	expect_eq "$rc" 125 || return 1
	expect_eq "$(head -n1 "$W/e")" "sandboxtime: --format: unknown format 'xml' (known: table, json, csv, prometheus, markdown)" || return 1
	expect_eq "$(wc -l <"$W/e")" 2 || return 1
	[ ! -s "$W/o" ]
}

t_bad_option() {
	local rc
	"$ST_BIN" orphans --bogus >/dev/null 2>"$W/e"; rc=$?
	expect_eq "$rc" 125 || return 1
	grep -q "^sandboxtime: unknown option '--bogus'" "$W/e" || { cat "$W/e"; return 1; }
	"$ST_BIN" orphans --repeat=3 >/dev/null 2>"$W/e"; rc=$?
	expect_eq "$rc" 125 || return 1
	grep -q "does not apply" "$W/e" || { cat "$W/e"; return 1; }
	"$ST_BIN" orphans extra >/dev/null 2>"$W/e"; rc=$?
	expect_eq "$rc" 125
}

t_bad_output() {
	local rc
	"$ST_BIN" orphans -o /nonexistent/dir/x.json >/dev/null 2>"$W/e"; rc=$?
	expect_eq "$rc" 125 || return 1
	expect_eq "$(wc -l <"$W/e")" 1 || { cat "$W/e"; return 1; }
	grep -q "^sandboxtime: --output: cannot write '/nonexistent/dir/x.json': " "$W/e"
}

# A report that cannot be written (a full file system: a small tmpfs, filled,
# in a mount namespace of the test's own): 125, one line, and the -o file that
# the run made is removed again; one that existed before is left.
t_output_full() {
	local dir
	dir=$(st_scratch) || return 1
	mkdir "$dir/full" || return 1
	unshare -m --propagation private bash -c '
		mount -t tmpfs -o size=16k st-orphans-full "$1" || exit 1
		: >"$1/old.json"
		head -c 1M /dev/zero >"$1/fill" 2>/dev/null
		"$2" orphans -J -o "$1/new.json" >/dev/null 2>"$3"; rc=$?
		"$2" orphans -J -o "$1/old.json" >/dev/null 2>>"$3"; rc2=$?
		[ "$rc" = 125 ] && [ "$rc2" = 125 ] || { echo "exit $rc and $rc2: $(cat "$3")"; exit 1; }
		# (besides a warning when a process vanished during the scan)
		[ "$(grep -vc ": warning: " "$3")" = 2 ] && grep -q "No space left on device" "$3" || { cat "$3"; exit 1; }
		[ ! -e "$1/new.json" ] || { echo "the failed run left $1/new.json"; exit 1; }
		[ -e "$1/old.json" ] || { echo "the failed run removed $1/old.json, which it did not make"; exit 1; }
	' _ "$dir/full" "$ST_BIN" "$dir/e"
}

t_output_file() {
	local rc
	"$ST_BIN" orphans -J -o "$W/o.json" >"$W/stdout" 2>/dev/null; rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { echo "exit $rc"; return 1; }
	[ ! -s "$W/stdout" ] || { echo "wrote to stdout with -o"; return 1; }
	expect_eq "$(field "$W/o.json" 'doc["schema"]')" "sandboxtime/orphans/v1"
}

t_quiet() {
	local rc
	"$ST_BIN" orphans -q >"$W/q" 2>&1; rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { echo "exit $rc"; return 1; }
	[ ! -s "$W/q" ] || { echo "-q printed: $(cat "$W/q")"; return 1; }
}

if is_root; then
	ok "a scan before the scenario: orphans/v1, exit 0 or 1" t_before
	INO_A= INO_B= INO_C= INO_D= INO_E= HOLDER_E= LEFT= DEAD= HOLDER_B= PID_C= AFTER_RC= SCAN_RC= BUILT=
	build_and_scan
	ok "the scenario is built and scanned" expect_eq "$BUILT" yes
	ok "exit 1 with orphans" t_rc_one
	ok "bind mount only: orphan, mount holder in our mount namespace" eval '"$ST_PY" "$CHECK" "$W/after.json" "$INO_A" orphan "mount:/run/netns/$NAME_A" && expect_eq "$(field "$W/after.json" "[h[\"mntns\"] for n in doc[\"netns\"] if n[\"inode\"] == $INO_A for h in n[\"holders\"]][0]")" "$(stat -L -c %i /proc/self/ns/mnt)"'
	ok "fd only: orphan, fd holder with pid, fd and comm" eval '"$ST_PY" "$CHECK" "$W/after.json" "$INO_B" orphan "fd:$HOLDER_B/7(sleep)"'
	ok "a live process: active, 1 process" eval '"$ST_PY" "$CHECK" "$W/after.json" "$INO_C" active && expect_eq "$(field "$W/after.json" "[n[\"processes\"] for n in doc[\"netns\"] if n[\"inode\"] == $INO_C][0]")" 1'
	ok "mounted under a path with a space: orphan, path decoded" eval '"$ST_PY" "$CHECK" "$W/after.json" "$INO_D" orphan "mount:$W/a b/ns"'
	ok "socket only: orphan, socket holder (SIOCGSKNS)" eval '"$ST_PY" "$CHECK" "$W/after.json" "$INO_E" orphan "socket:$HOLDER_E/9(sleep)"'
	ok "a leftover bridge of a gone sandboxtime: in JSON and the table" eval 'expect_eq "$(field "$W/after.json" "[l for l in doc[\"leftovers\"] if l[\"name\"] == \"$LEFT\"]")" "[{'"'"'name'"'"': '"'"'$LEFT'"'"', '"'"'kind'"'"': '"'"'bridge'"'"', '"'"'pid'"'"': $DEAD}]" && grep -q "^leftover bridge $LEFT: pid $DEAD" "$W/table"'
	ok "summary agrees with netns[]" t_summary
	ok "the scenario's mounts are the suite's own: none in the host's mount namespace" t_mounts_private
	ok "no false orphan among namespaces the suite did not make" t_no_false_orphan
	ok "interfaces of an orphan, from inside it" t_interfaces
	ok "table: orphans first, active ones only with --all" t_table
	ok "CSV: header and rows" t_csv
	ok "Prometheus text: HELP, TYPE, escaped labels" t_prom
	if can_run nobody; then
		NOBODY_SEES_A=$INO_A
		ok "as nobody: its own orphan (fd on an unshare -rn netns) is found, exit 1" t_nobody_own_orphan
		ok "as nobody: others' namespaces are not orphans; one warning line; -q is silent" t_nobody_others_not_orphans
	else
		skip "as nobody: its own orphan is found" "needs unprivileged user namespaces"
		skip "as nobody: others' namespaces are not orphans" "needs unprivileged user namespaces"
	fi
	STARTED=("${PIDS[@]+"${PIDS[@]}"}")
	cleanup_scenario
	scan "$W/cleaned.json"
	ok "after the scenario is removed, none of it is reported; exit status matches" t_after_cleanup
else
	for i in $(seq 19); do skip "orphans scenario $i" "needs root to build namespaces and mounts"; done
fi
ok "--format=xml: one line, 125" t_bad_format
ok "unknown option, an option of another command, an argument: 125" t_bad_option
ok "-o into a missing directory: one line, 125" t_bad_output
ok "-o FILE: the report goes there, not to stdout" t_output_file
ok "-o FILE on a full file system: 125, one line, a file the run made is removed" t_output_full
ok "-q: nothing printed, the exit status remains" t_quiet
left_none() {
	local p
	for p in "${STARTED[@]+"${STARTED[@]}"}"; do
		kill -0 "$p" 2>/dev/null && { echo "pid $p still runs"; return 1; }
	done
	ip netns list | grep -q "^$NAME_A\b" && { echo "$NAME_A is still there"; return 1; }
	! mountpoint -q "$W/a b/ns" 2>/dev/null || { echo "the bind mount is still there"; return 1; }
	[ -z "$DEAD" ] || ! ip link show "stbr$DEAD" >/dev/null 2>&1 || { echo "stbr$DEAD is still there"; return 1; }
}
ok "the suite left no process, namespace or mount of its scenario" left_none
