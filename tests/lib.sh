# TAP helpers for the integration suites: source it, call plan N, then ok/skip.
# Each suite gets the path of the built binary as $1.
set -u
ST_BIN=${1:?usage: $0 path/to/sandboxtime}
_tap_n=0

plan() { echo "1..$1"; }

# ok DESCRIPTION COMMAND...: passes when COMMAND succeeds; prints its output on failure.
ok() {
	local desc=$1; shift
	local out
	_tap_n=$((_tap_n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $_tap_n - $desc"
	else
		echo "not ok $_tap_n - $desc"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

# skip DESCRIPTION REASON: a test that cannot run here, and why.
skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

# A copy of the binary that the unprivileged user can execute: CI's clone may
# sit in a directory that nobody cannot enter.
ST_TMP=$(mktemp -d /tmp/sandboxtime-test.XXXXXX)
chmod 755 "$ST_TMP"
cp "$ST_BIN" "$ST_TMP/sandboxtime"
chmod 755 "$ST_TMP/sandboxtime"
ST_NOBODY_BIN="$ST_TMP/sandboxtime"
trap 'rm -rf "$ST_TMP"' EXIT

is_root() { [ "$(id -u)" -eq 0 ]; }

# Runs a command as nobody (rootless mode), from a directory nobody can read.
as_nobody() {
	(cd /tmp && setpriv --reuid=nobody --regid=nogroup --clear-groups "$@")
}

# Whether unprivileged user namespaces work on this kernel.
userns_works() {
	as_nobody unshare -U true 2>/dev/null
}

# Fails with a message unless $1 = $2.
expect_eq() {
	if [ "$1" != "$2" ]; then
		echo "expected '$2', got '$1'"
		return 1
	fi
}
