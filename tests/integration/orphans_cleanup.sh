#!/usr/bin/env bash
# sandboxtime orphans --cleanup: a scenario this suite makes and removes (a
# trap removes it whatever happens), each namespace followed by inode:
#   a  held only by a bind mount, ip netns add (/run/netns): removed;
#   d  held only by a bind mount under a --cleanup-path with a space: removed,
#      and its empty mount point file unlinked;
#   b  bind-mounted under that path AND held by an fd of a process: untouched;
#   c  bind-mounted under that path AND lived in by a process: untouched;
#   e  held only by a bind mount outside every cleanup path: untouched;
#   f  held only by an fd opened through a bind mount since detached
#      (umount -l; its link reads "/"): found, and untouched;
#   h  bind-mounted in a shared directory and so also in its peer (two
#      mounts, one umount takes both): removed;
#   g  held only by a bind mount in another (private) mount namespace:
#      untouched, the reason names that mount namespace.
# --dry-run and a --min-age above their age change nothing; as nobody,
# --cleanup is refused with 125. Namespaces the suite did not make are never
# acted on: every run gives --cleanup-path only the suite's own directory,
# and each action on an inode not ours fails the suite.
#
# As root the suite re-runs itself in a mount namespace of its own: its
# mounts are invisible to the host and vanish with it even on SIGKILL, and
# every /run/netns mount that others made is there only as a copy, also
# mounted in the host's mount namespace, which --cleanup never acts on. So
# the default /run/netns path cannot reach a namespace the suite did not make.
# A slave, not private: another job's unmount (ip netns del) meanwhile
# reaches the copy too, which would otherwise stay behind held by the
# suite's namespace alone, and be removed by --cleanup as an orphan.
if [ "$(id -u)" = 0 ] && [ -z "${ST_CLEANUP_PRIVATE:-}" ]; then
	ST_CLEANUP_PRIVATE=1 exec unshare --mount --propagation slave bash "$0" "$@"
fi
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 10

W=$(mktemp -d "$ST_TMP/cleanup.XXXXXX")
chmod 755 "$W"
CP="$W/c p"
NAME_A=st-clean-$$-a
PIDS=()

cleanup_scenario() {
	local p m
	for p in "${PIDS[@]+"${PIDS[@]}"}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	PIDS=()
	for m in "$CP/b" "$CP/c" "$CP/d" "$W/e/ns" "$CP/t2/n" "$CP/t/n" "$CP/t2" "$CP/t"; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -e "/run/netns/$NAME_A" ] && ip netns del "$NAME_A" 2>/dev/null
	return 0
}
trap 'cleanup_scenario; rm -rf "$ST_TMP"' EXIT

host_ino=$(stat -L -c %i /proc/self/ns/net)

# new_netns: starts `unshare -n sleep 60` (pid in U), prints nothing; its netns inode in U_INO.
new_netns() {
	local i
	unshare -n sleep 60 & U=$!; PIDS+=("$U")
	for i in $(seq 200); do
		U_INO=$(stat -L -c %i "/proc/$U/ns/net" 2>/dev/null) || return 1
		[ "$U_INO" != "$host_ino" ] && return 0
		sleep 0.02
	done
	return 1
}

# bind NSPID FILE: mounts NSPID's netns on FILE (created empty).
bind() { : >"$2" && mount --bind "/proc/$1/ns/net" "$2"; }

build_scenario() {
	local i
	mkdir -p "$CP" "$W/e" || return 1
	# g, first: a private mount namespace (kept by sleep) with a bind mount of its own.
	# Made later, it would hold copies of the other mounts, and they would
	# rightly be skipped as mounted in another mount namespace too.
	unshare -m --propagation private sleep 60 & MNT_PID=$!; PIDS+=("$MNT_PID")
	for i in $(seq 200); do
		[ "$(stat -L -c %i "/proc/$MNT_PID/ns/mnt")" != "$(stat -L -c %i /proc/self/ns/mnt)" ] && break
		sleep 0.02
	done
	new_netns || return 1; INO_G=$U_INO
	: >"$CP/g" && nsenter --mount="/proc/$MNT_PID/ns/mnt" mount --bind "/proc/$U/ns/net" "$CP/g" || return 1
	kill -KILL "$U"; wait "$U" 2>/dev/null
	ip netns add "$NAME_A" || return 1
	INO_A=$(stat -L -c %i "/run/netns/$NAME_A")
	new_netns || return 1; INO_D=$U_INO
	bind "$U" "$CP/d" || return 1
	kill -KILL "$U"; wait "$U" 2>/dev/null
	new_netns || return 1; INO_B=$U_INO
	bind "$U" "$CP/b" || return 1
	bash -c "exec 7<'$CP/b'; : >'$W/b.ready'; exec sleep 60" & HOLDER_B=$!; PIDS+=("$HOLDER_B")
	wait_file "$W/b.ready" || return 1
	kill -KILL "$U"; wait "$U" 2>/dev/null
	new_netns || return 1; INO_C=$U_INO; PID_C=$U
	bind "$U" "$CP/c" || return 1
	new_netns || return 1; INO_F=$U_INO
	bind "$U" "$CP/f" || return 1
	bash -c "exec 7<'$CP/f'; : >'$W/f.ready'; exec sleep 60" & HOLDER_F=$!; PIDS+=("$HOLDER_F")
	wait_file "$W/f.ready" || return 1
	umount -l "$CP/f" || return 1
	kill -KILL "$U"; wait "$U" 2>/dev/null
	# h: a shared tmpfs and its peer; the mount on t/n propagates to t2/n.
	mkdir -p "$CP/t" "$CP/t2" && mount -t tmpfs -o size=64k st-cleanup "$CP/t" &&
		mount --make-shared "$CP/t" && mount --bind "$CP/t" "$CP/t2" || return 1
	new_netns || return 1; INO_H=$U_INO
	bind "$U" "$CP/t/n" || return 1
	kill -KILL "$U"; wait "$U" 2>/dev/null
	new_netns || return 1; INO_E=$U_INO
	bind "$U" "$W/e/ns" || return 1
	kill -KILL "$U"; wait "$U" 2>/dev/null
	# ctime granularity: the files must be at least a second old for --min-age=1 below.
	sleep 1.1
	return 0
}

# run FILE ARGS...: sandboxtime orphans -J ARGS into FILE (stderr FILE.err), exit status in RC.
run() {
	local f=$1; shift
	"$ST_BIN" orphans -J "$@" >"$f" 2>"$f.err"
	RC=$?
}

# q FILE EXPR: a Python expression over the document (doc) and helpers.
Q=$ST_PYDIR/orphans_query.py
q() { "$ST_PY" "$Q" "$1" "$2"; }

# The scenario's state, independent of sandboxtime: mounts and files.
state() {
	local m
	for m in "/run/netns/$NAME_A" "$CP/b" "$CP/c" "$CP/d" "$W/e/ns"; do
		printf '%s %s %s\n' "$m" "$(mountpoint -q "$m" && echo mounted || echo -)" "$([ -e "$m" ] && echo file || echo -)"
	done
	nsenter --mount="/proc/$MNT_PID/ns/mnt" mountpoint -q "$CP/g" && echo "g mounted"
}

# Only the suite's own inodes may be acted on: every removed or would-remove action is one of them.
only_ours() {
	q "$1" '[a["inode"] for a in doc["cleanup"]["actions"] if a["action"] in ("removed", "would remove", "failed") and a["inode"] not in ('"$INO_A,$INO_D,$INO_H"')]'
}

t_dry_run() {
	local before
	before=$(state)
	run "$W/dry.json" --cleanup --dry-run --min-age=0 --cleanup-path="$CP"
	expect_eq "$RC" 1 || { cat "$W/dry.json.err"; return 1; }
	expect_eq "$(state)" "$before" || return 1
	expect_eq "$(only_ours "$W/dry.json")" "[]" || return 1
	expect_eq "$(q "$W/dry.json" 'act('"$INO_A"')["action"], act('"$INO_D"')["action"], doc["cleanup"]["dry_run"], doc["cleanup"]["removed"]')" "('would remove', 'would remove', True, 0)" || return 1
	expect_eq "$(q "$W/dry.json" '[s["op"] for s in act('"$INO_D"')["steps"]]')" "['umount', 'unlink']"
}

t_min_age() {
	local before
	before=$(state)
	run "$W/young.json" --cleanup --min-age=100000 --cleanup-path="$CP"
	expect_eq "$RC" 1 || { cat "$W/young.json.err"; return 1; }
	expect_eq "$(state)" "$before" || return 1
	expect_eq "$(q "$W/young.json" 'act('"$INO_A"')["action"], act('"$INO_D"')["reason"].startswith("younger than --min-age"), ns('"$INO_D"')["age_s"] >= 1')" "('skipped', True, True)"
}

t_cleanup() {
	run "$W/clean.json" --cleanup --min-age=1 --cleanup-path="$CP"
	expect_eq "$RC" 1 || { cat "$W/clean.json.err"; return 1; }
	expect_eq "$(only_ours "$W/clean.json")" "[]" || return 1
	expect_eq "$(q "$W/clean.json" 'act('"$INO_A"')["action"], act('"$INO_D"')["action"], [(s["op"], s["path"]) for s in act('"$INO_D"')["steps"]]')" \
		"('removed', 'removed', [('umount', '$CP/d'), ('unlink', '$CP/d')])" || return 1
	# The bind-mount-only ones are gone: names, files, and the namespaces (by inode).
	[ ! -e "/run/netns/$NAME_A" ] || { echo "/run/netns/$NAME_A is still there"; return 1; }
	[ ! -e "$CP/d" ] || { echo "$CP/d is still there"; return 1; }
	run "$W/after.json"
	local OURS="['/run/netns/$NAME_A', '$W']"
	expect_eq "$(q "$W/after.json" 'gone('"$INO_A, $OURS"'), gone('"$INO_D, $OURS"'), gone('"$INO_H, $OURS"')')" "(True, True, True)" ||
		{ q "$W/after.json" 'ns('"$INO_A"'), ns('"$INO_D"'), ns('"$INO_H"')'; return 1; }
}

t_fd_and_process_untouched() {
	expect_eq "$(q "$W/after.json" 'ns('"$INO_B"')["state"], holders('"$INO_B"'), ns('"$INO_C"')["state"], holders('"$INO_C"')')" \
		"('orphan', ['$CP/b', 'fd:$HOLDER_B/7'], 'active', ['$CP/c'])" || return 1
	expect_eq "$(q "$W/clean.json" 'act('"$INO_B"')["action"], act('"$INO_B"')["reason"].startswith("held by fd:"), act('"$INO_C"')')" "('skipped', True, None)" || return 1
	expect_eq "$(q "$W/after.json" 'ns('"$INO_F"')["state"], holders('"$INO_F"')')" "('orphan', ['fd:$HOLDER_F/7'])" || return 1
	kill -0 "$HOLDER_F" || return 1
	mountpoint -q "$CP/b" && mountpoint -q "$CP/c" && kill -0 "$HOLDER_B" && kill -0 "$PID_C"
}

t_propagated() {
	expect_eq "$(q "$W/clean.json" 'act('"$INO_H"')["action"], [(s["op"], s["path"], s["why"]) for s in act('"$INO_H"')["steps"]]')" \
		"('removed', [('umount', '$CP/t/n', None), ('unlink', '$CP/t/n', None), ('umount', '$CP/t2/n', 'gone with an earlier umount (mount propagation)')])" || return 1
	! mountpoint -q "$CP/t2/n" && [ ! -e "$CP/t2/n" ]
}

t_outside_and_other_mntns() {
	expect_eq "$(q "$W/clean.json" 'act('"$INO_E"')["action"], "outside" in act('"$INO_E"')["reason"], act('"$INO_G"')["action"], "mount namespace '"$(stat -L -c %i "/proc/$MNT_PID/ns/mnt")"'" in act('"$INO_G"')["reason"]')" \
		"('skipped', True, 'skipped', True)" || return 1
	mountpoint -q "$W/e/ns" && nsenter --mount="/proc/$MNT_PID/ns/mnt" mountpoint -q "$CP/g"
}

t_table() {
	"$ST_BIN" orphans --cleanup --dry-run --min-age=0 --cleanup-path="$CP" >"$W/table" 2>/dev/null
	grep -q "^cleanup $INO_B: skipped: held by fd:$HOLDER_B/7(sleep)" "$W/table" || { cat "$W/table"; return 1; }
	grep -q "^cleanup: .*--dry-run: nothing was changed$" "$W/table" || { cat "$W/table"; return 1; }
}

t_nobody_refused() {
	local rc run=as_nobody
	is_root || run=
	$run "$ST_NOBODY_BIN" orphans --cleanup --dry-run >"$W/nobody.out" 2>"$W/nobody.err"; rc=$?
	expect_eq "$rc" 125 || return 1
	expect_eq "$(wc -l <"$W/nobody.err")" 1 || { cat "$W/nobody.err"; return 1; }
	grep -q "^sandboxtime: orphans --cleanup needs root" "$W/nobody.err" || { cat "$W/nobody.err"; return 1; }
	[ ! -s "$W/nobody.out" ]
}

t_bad_path() {
	local rc
	"$ST_BIN" orphans --cleanup --cleanup-path="$W/missing" >"$W/o" 2>"$W/bad.err"; rc=$?
	expect_eq "$rc" 125 || return 1
	grep -q "^sandboxtime: --cleanup-path: $W/missing: No such file or directory" "$W/bad.err" || { cat "$W/bad.err"; return 1; }
	[ ! -s "$W/o" ]
}

if is_root; then
	INO_A='' INO_B='' INO_C='' INO_D='' INO_E='' INO_F='' INO_G='' INO_H='' HOLDER_B='' HOLDER_F='' PID_C='' MNT_PID=''
	build_scenario; BUILT=$?
	ok "the scenario is built" expect_eq "$BUILT" 0
	ok "--dry-run: would remove the two bind-mount-only ones, changes nothing, exit 1" t_dry_run
	ok "--min-age above their age: everything kept, the reason says so" t_min_age
	ok "--cleanup: the bind-mount-only ones are gone (names, files, inodes); exit 1 while others are left" t_cleanup
	ok "fd-held (also through a detached mount) and process-held namespaces are untouched" t_fd_and_process_untouched
	ok "two peer mounts of one namespace: one umount takes both, removed" t_propagated
	ok "outside the cleanup paths, or in another mount namespace: skipped with the reason" t_outside_and_other_mntns
	ok "table: a line per orphan and a summary" t_table
	ok "--cleanup-path that does not exist: one line, 125" t_bad_path
else
	for i in $(seq 9); do skip "orphans --cleanup scenario $i" "needs root to build namespaces and mounts"; done
fi
if is_root && can_run nobody; then
	ok "as nobody: --cleanup is refused, 125" t_nobody_refused
elif is_root; then
	skip "as nobody: --cleanup is refused" "nobody cannot run the binary here"
else
	ok "without root: --cleanup is refused, 125" t_nobody_refused
fi
