#!/usr/bin/env bash
# Degrade, don't die: where the kernel refuses every user namespace, a run as
# root measures all that needs none and reports the deferred teardown as
# unavailable with the reason (exit 0); rootless, it exits 125 with one line
# that names the cause. Two such places, made by this test from the host's
# own files (nothing downloaded) and gone after it:
#  - a chroot: bind mounts of /usr, /etc, /dev and /sys, a fresh /proc and
#    /tmp, inside a private mount namespace (unshare -m), so that nothing is
#    mounted on the host and every mount ends with that namespace;
#  - a seccomp filter that refuses CLONE_NEWUSER to clone() and unshare() and
#    hides clone3(), as container runtimes' default profiles do
#    (build/test-helpers/no_userns).
source "$(dirname "$0")/../lib.sh" "$1"

plan 9

BUILD_DIR=$ST_BUILD_DIR
NO_USERNS=$BUILD_DIR/test-helpers/no_userns

# in_chroot USERSPEC OUT ERR ARG...: sandboxtime ARG... in a fresh chroot of
# the host's files, as USERSPEC (chroot --userspec, "" for root); its stdout
# and stderr go to OUT and ERR outside. Returns its exit status. With
# CHROOT_PROC=no the chroot has no /proc (as a debootstrap target has
# until /proc is mounted in it).
in_chroot() {
	local spec=$1 out=$2 errf=$3 root rc; shift 3
	root=$(mktemp -d "$ST_TMP/chroot.XXXXXX") || return 125
	chmod 755 "$root"
	CHROOT_PROC=${CHROOT_PROC:-yes} unshare -m --propagation private sh -c '
		set -e
		r=$1 bin=$2 spec=$3; shift 3
		mkdir -p "$r/usr" "$r/etc" "$r/proc" "$r/dev" "$r/tmp" "$r/sys" "$r/st"
		for d in usr etc dev sys; do mount --bind "/$d" "$r/$d"; done
		mount -o remount,bind,ro "$r/usr"
		mount -o remount,bind,ro "$r/etc"
		for l in bin lib lib32 lib64 sbin; do
			if [ -L "/$l" ]; then ln -s "$(readlink "/$l")" "$r/$l"; fi
		done
		[ "$CHROOT_PROC" = no ] || mount -t proc proc "$r/proc"
		mount -t tmpfs -o mode=1777 tmpfs "$r/tmp"
		cp "$bin" "$r/st/sandboxtime"
		chmod 755 "$r/st" "$r/st/sandboxtime"
		set +e
		timeout -k 5 120 chroot ${spec:+--userspec=$spec} "$r" /st/sandboxtime "$@"
	' sh "$root" "$ST_BIN" "$spec" "$@" >"$out" 2>"$errf"
	rc=$?
	rm -rf "$root"
	return $rc
}

# check_json FILE WORD: the report measured the layers but user, and says the
# deferred teardown is unavailable for a reason that names WORD.
check_json() {
	"$ST_PY" -B "$ST_PYDIR/degrade_check.py" "$1" "$2"
}

t_chroot_layers() {
	local out=$ST_TMP/chroot-layers.json errf=$ST_TMP/chroot-layers.err rc
	in_chroot "" "$errf.out" "$out" layers -J --repeat=3 --warmup=1 --deferred-repeat=1
	rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$out" "$errf.out"; return 1; }
	check_json "$out" chroot
}

t_chroot_table() {
	local out=$ST_TMP/chroot-table.txt rc
	in_chroot "" /dev/null "$out" layers --repeat=2 --warmup=0 --deferred-repeat=1 --ns=uts,net
	rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$out"; return 1; }
	grep -q "^net .*unavailable" "$out" && grep -q "^deferred  *unavailable: .*chroot" "$out" ||
		{ echo "no 'unavailable' with the chroot named:"; cat "$out"; return 1; }
}

t_chroot_run() {
	local out=$ST_TMP/chroot-run.out errf=$ST_TMP/chroot-run.err rc
	in_chroot "" "$out" "$errf" --repeat=2 --warmup=0 --deferred-repeat=1 -q -- /usr/bin/echo hello
	rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$errf"; return 1; }
	expect_eq "$(cat "$out")" hello
}

# one_line FILE WORD: FILE is one line "sandboxtime: ..." that names WORD.
one_line() {
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q "^sandboxtime: .*$2" "$1" ||
		{ echo "expected one line naming $2:"; cat "$1"; return 1; }
}

t_chroot_rootless() {
	local errf=$ST_TMP/chroot-nobody.err rc
	in_chroot nobody:nogroup /dev/null "$errf" layers --repeat=2
	rc=$?
	[ "$rc" -eq 125 ] || { echo "exit $rc, expected 125"; cat "$errf"; return 1; }
	one_line "$errf" chroot
}

# Without /proc: rootless, the chroot is still what is named (its root is
# no mount's root, which statx tells without /proc); as root, the missing
# /proc, and how to mount it, instead of every layer "missing".
t_chroot_noproc() {
	local errf=$ST_TMP/chroot-noproc.err rc
	CHROOT_PROC=no in_chroot nobody:nogroup /dev/null "$errf" --repeat=0 -- /usr/bin/true
	rc=$?
	[ "$rc" -eq 125 ] || { echo "rootless: exit $rc, expected 125"; cat "$errf"; return 1; }
	one_line "$errf" "runs in a chroot" || return 1
	CHROOT_PROC=no in_chroot "" /dev/null "$errf" --repeat=0 --ns=uts -- /usr/bin/true
	rc=$?
	[ "$rc" -eq 125 ] || { echo "root: exit $rc, expected 125"; cat "$errf"; return 1; }
	one_line "$errf" "/proc is not mounted here.*mount -t proc proc /proc"
}

t_seccomp_layers() {
	local out=$ST_TMP/seccomp.json rc
	"$NO_USERNS" "$ST_BIN" layers -J --repeat=3 --warmup=1 --deferred-repeat=1 2>"$out" >/dev/null
	rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc"; cat "$out"; return 1; }
	check_json "$out" seccomp
}

t_seccomp_run() {
	local out
	out=$("$NO_USERNS" "$ST_BIN" --repeat=2 --warmup=0 --deferred-repeat=1 -q -- echo hello) ||
		{ echo "exit $?"; return 1; }
	expect_eq "$out" hello
}

t_seccomp_rootless() {
	local errf=$ST_TMP/seccomp-nobody.err rc
	(cd /tmp && "$NO_USERNS" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$ST_NOBODY_BIN" layers --repeat=2) >/dev/null 2>"$errf"
	rc=$?
	[ "$rc" -eq 125 ] || { echo "exit $rc, expected 125"; cat "$errf"; return 1; }
	one_line "$errf" seccomp
}

if ! is_root; then
	for t in "chroot: layers as root measure all but deferred, which is unavailable (exit 0)" \
		"chroot: the table says unavailable and names the chroot" \
		"chroot: a run as root works" "chroot: rootless exits 125, one line naming the chroot" \
		"chroot without /proc: rootless names the chroot; root names /proc" "chroot: a run rootless exits 125" \
		"seccomp: layers as root measure all but deferred, which is unavailable (exit 0)" \
		"seccomp: a run as root works" "seccomp: rootless exits 125, one line naming seccomp"; do
		skip "$t" "needs root (to chroot, mount and switch to nobody)"
	done
	exit 0
fi
if command -v unshare >/dev/null && command -v chroot >/dev/null; then
	ok "chroot: layers as root measure all but deferred, which is unavailable (exit 0)" t_chroot_layers
	ok "chroot: the table says unavailable and names the chroot" t_chroot_table
	ok "chroot: a run as root works" t_chroot_run
	ok "chroot: rootless exits 125, one line naming the chroot" t_chroot_rootless
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		# LeakSanitizer stops a sanitized binary with its own fatal error where there is no /proc.
		skip "chroot without /proc: rootless names the chroot; root names /proc and how to mount it (125, one line)" \
			"a sanitized build: LeakSanitizer needs /proc"
	else
		ok "chroot without /proc: rootless names the chroot; root names /proc and how to mount it (125, one line)" t_chroot_noproc
	fi
	ok "chroot: a run rootless exits 125, one line naming the chroot" eval 'in_chroot nobody:nogroup /dev/null "$ST_TMP/cr.err" --repeat=0 -- /usr/bin/true; [ $? -eq 125 ] && one_line "$ST_TMP/cr.err" "runs in a chroot"'
else
	for t in layers table run rootless noproc run-rootless; do skip "chroot: $t" "unshare(1) or chroot(1) is missing"; done
fi
if [ -x "$NO_USERNS" ]; then
	ok "seccomp: layers as root measure all but deferred, which is unavailable (exit 0)" t_seccomp_layers
	ok "seccomp: a run as root works" t_seccomp_run
	ok "seccomp: rootless exits 125, one line naming seccomp" t_seccomp_rootless
else
	for t in layers run rootless; do skip "seccomp: $t" "$NO_USERNS is not built (make unit-bins)"; done
fi
