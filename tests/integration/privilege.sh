#!/usr/bin/env bash
# Privilege (issue #7, item 6): sandboxtime never gains anything. Installed,
# it carries no setuid or setgid bit; run as nobody, what the workload does
# is done by nobody as far as the host can tell (the owner of the files it
# makes, the capabilities of every process seen from outside), a file that
# nobody cannot read stays unreadable although the workload is uid 0 inside,
# and the workload can neither make a user namespace of its own (default
# seccomp profile) nor mount (no CAP_SYS_ADMIN). As root, the workload's
# bounding set never exceeds Docker's default one.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 8

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# Docker's default capability set, as /proc/PID/status prints a mask.
DOCKER_CAPS=00000000a80425fb
CAP_SYS_ADMIN=21

# descendants PID: PID and every process below it, one pid a line.
descendants() {
	local all pid queue=("$1") kids
	all=$(ps -e -o pid=,ppid=)
	while [ ${#queue[@]} -gt 0 ]; do
		pid=${queue[0]}
		queue=("${queue[@]:1}")
		echo "$pid"
		mapfile -t kids < <(printf '%s\n' "$all" | awk -v p="$pid" '$2 == p { print $1 }')
		queue+=("${kids[@]}")
	done
}

# status_field PID FIELD: a field of /proc/PID/status ("CapEff").
status_field() { sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" 2>/dev/null; }

# make install puts the binary and the man page in place with plain modes.
t_install_no_setid() {
	local d bin
	d=$(mktemp -d "$ST_TMP/install.XXXXXX") || return 1
	bin=$ST_BUILT_BIN
	# -o: the binary under test is installed as it is, never rebuilt; no
	# MAKEFLAGS of an outer make (SANITIZE=...) reaches this one.
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$TOP" --no-print-directory -o "$bin" \
		BIN="$bin" DESTDIR="$d" PREFIX=/usr/local install || return 1
	expect_eq "$(stat -c %a "$d/usr/local/bin/sandboxtime")" 755 || return 1
	expect_eq "$(stat -c %a "$d/usr/local/share/man/man1/sandboxtime.1")" 644 || return 1
	if [ -n "$(find "$d" -perm /6000)" ]; then
		echo "setuid/setgid files:"; find "$d" -perm /6000 -exec stat -c '%A %n' {} +
		return 1
	fi
	# Nor file capabilities (security.capability), where getcap is installed.
	if command -v getcap >/dev/null && [ -n "$(getcap -r "$d" 2>/dev/null)" ]; then
		getcap -r "$d"
		return 1
	fi
}

# A file the workload makes, in a directory anyone can write, is nobody's.
t_file_owner() {
	local d
	d=$(mktemp -d "$ST_TMP/owner.XXXXXX") && chmod 0777 "$d" || return 1
	st_run nobody --repeat=0 -q -- sh -c "[ \$(id -u) = 0 ] && touch '$d/made'" || return 1
	expect_rc 0 || { st_show; return 1; }
	expect_eq "$(stat -c %U:%u "$d/made")" "nobody:$(id -u nobody)"
}

# While the workload sleeps: sandboxtime and every process below it that is
# in the caller's user namespace has CapEff 0; a process in another one (the
# sandbox's) holds capabilities only there, a namespace whose uid 0 is
# nobody and nothing else. --repeat=0: a measuring run spends ~10 s in the
# deferred pass before the workload starts, longer than wait_file waits.
t_caps_outside() {
	local d pid found=0 fail=0 init_ns eff map
	d=$(st_scratch) || return 1
	st_start nobody --repeat=0 -q -- sh -c "touch '$d/ready'; sleep 5" || return 1
	wait_file "$d/ready" || { st_finish; return 1; }
	init_ns=$(readlink /proc/self/ns/user)
	for pid in $(descendants "$ST_PID"); do
		eff=$(status_field "$pid" CapEff)
		[ -n "$eff" ] || continue
		found=$((found + 1))
		if [ "$(readlink "/proc/$pid/ns/user")" = "$init_ns" ]; then
			diag "pid $pid ($(cat "/proc/$pid/comm")): host user namespace, CapEff $eff"
			[ "$eff" = 0000000000000000 ] || { echo "pid $pid has CapEff $eff outside"; fail=1; }
		else
			map=$(tr -s ' ' <"/proc/$pid/uid_map" | sed 's/^ //')
			diag "pid $pid ($(cat "/proc/$pid/comm")): sandbox user namespace, CapEff $eff, uid_map '$map'"
			expect_eq "$map" "0 $(id -u nobody) 1" || fail=1
		fi
	done
	kill -TERM "$ST_PID" 2>/dev/null
	st_finish
	[ "$found" -ge 2 ] || { echo "saw $found processes, expected sandboxtime and its workload"; return 1; }
	return $fail
}

# root's 0600 file in a 0755 directory: nobody's uid 0 inside cannot read it.
t_unreadable_stays() {
	local d
	d=$(mktemp -d "$ST_TMP/secret.XXXXXX") && chmod 0755 "$d" || return 1
	echo "root only" >"$d/secret" && chmod 0600 "$d/secret" || return 1
	st_run nobody --repeat=0 -q -- sh -c "id -u; cat '$d/secret'" || return 1
	if [ "$ST_RC" = 0 ] || grep -q "root only" "$ST_OUT" || [ "$(head -n1 "$ST_OUT")" != 0 ] ||
		! grep -qE 'Permission denied|Operation not permitted' "$ST_ERR"; then
		st_show
		return 1
	fi
}

# The default seccomp profile refuses unshare(CLONE_NEWUSER).
t_no_userns() {
	st_run "$1" --repeat=0 -q -- sh -c 'unshare -U true && echo unshared' || return 1
	if [ "$ST_RC" = 0 ] || grep -q unshared "$ST_OUT" || ! grep -q 'Operation not permitted' "$ST_ERR"; then
		st_show
		return 1
	fi
}

# No mount: the workload's sets lack CAP_SYS_ADMIN, and the host sees no new mount.
t_no_mount() {
	local d bnd
	d=$(mktemp -d "$ST_TMP/mnt.XXXXXX") && chmod 0777 "$d" || return 1
	st_run nobody --repeat=0 -q -- sh -c "grep -E '^Cap(Eff|Bnd):' /proc/self/status; mount -t tmpfs none '$d' && echo mounted" ||
		return 1
	if [ "$ST_RC" = 0 ] || grep -q mounted "$ST_OUT" || mountpoint -q "$d"; then
		st_show
		return 1
	fi
	while read -r bnd; do
		if [ $(((16#$bnd >> CAP_SYS_ADMIN) & 1)) -ne 0 ]; then
			echo "CAP_SYS_ADMIN in $bnd"; st_show
			return 1
		fi
	done < <(sed -n 's/^Cap\(Eff\|Bnd\):[[:space:]]*//p' "$ST_OUT")
	[ "$(grep -c '^Cap' "$ST_OUT")" -eq 2 ] || { st_show; return 1; }
}

# As root, by default: the workload's bounding set is within Docker's.
t_root_bounding() {
	local bnd
	st_run root --repeat=0 -q -- grep '^CapBnd:' /proc/self/status || return 1
	expect_rc 0 || { st_show; return 1; }
	bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' "$ST_OUT")
	diag "CapBnd as root: $bnd (Docker: $DOCKER_CAPS)"
	if [ -z "$bnd" ] || [ $((16#$bnd & ~16#$DOCKER_CAPS)) -ne 0 ]; then
		st_show
		return 1
	fi
}

ok "make install sets no setuid, setgid bit or file capability" t_install_no_setid

if can_run nobody; then
	ok "a file the workload makes is owned by nobody outside [nobody]" t_file_owner
	ok "CapEff 0 outside for sandboxtime and its children [nobody]" t_caps_outside
	ok "a root-only 0600 file stays unreadable to uid 0 inside [nobody]" t_unreadable_stays
	ok "the workload cannot unshare a user namespace [nobody]" t_no_userns nobody
	ok "the workload cannot mount, and has no CAP_SYS_ADMIN [nobody]" t_no_mount
else
	for t in owner caps unreadable userns mount; do
		skip "privilege $t [nobody]" "needs root to switch to nobody, and unprivileged user namespaces"
	done
fi

if can_run root; then
	ok "the workload's CapBnd is within Docker's default set [root]" t_root_bounding
	ok "the workload cannot unshare a user namespace [root]" t_no_userns root
else
	skip "CapBnd within Docker's set [root]" "not running as root"
	skip "no user namespace [root]" "not running as root"
fi
