# TAP helpers for the integration suites: source it, call plan N, then ok/skip.
# Each suite gets the path of the built binary as $1.
set -u
ST_BIN=${1:?usage: $0 path/to/sandboxtime}
_tap_n=0

plan() { echo "1..$1"; }

# ok DESCRIPTION COMMAND...: passes when COMMAND succeeds; prints its output on failure.
ok() {
	local desc=$1; shift
	local out t0=${EPOCHREALTIME/./}
	_tap_n=$((_tap_n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $_tap_n - $desc"
	else
		echo "not ok $_tap_n - $desc"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
	tap_took "$t0"
}

# tap_took T0: a diagnostic line with the test's seconds when it took 2 s or
# more (T0 from ${EPOCHREALTIME/./}, microseconds), so that a suite's slow
# tests can be found in its output without another run.
tap_took() {
	local us=$((${EPOCHREALTIME/./} - $1))
	[ "$us" -lt 2000000 ] || printf '#   took %d.%d s\n' $((us / 1000000)) $((us / 100000 % 10))
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
# bench where's probes live beside the binary (Makefile: PROBES).
for probe in "${ST_BIN%/*}"/sandboxtime-probe*; do
	[ -x "$probe" ] && install -m 0755 "$probe" "$ST_TMP/"
done
ST_NOBODY_BIN="$ST_TMP/sandboxtime"
trap 'rm -rf "$ST_TMP"' EXIT
# The build directory (its fault binary, probes, helpers and unit tests), and
# the binary as built. Root runs use the suite's own copy too: suites run two
# at a time (tests/run.sh), and a process or namespace of this suite's runs is
# then told from another suite's by its binary's path (st_ours_procs).
ST_BUILD_DIR=$(cd "$(dirname "$ST_BIN")" && pwd)
ST_BUILT_BIN=$ST_BUILD_DIR/$(basename "$ST_BIN")
ST_BIN=$ST_NOBODY_BIN

# The suites' Python helpers (tests/py/NAME.py), copied where nobody can read
# them too; the suites run them as "$ST_PY" -B "$ST_PYDIR/NAME.py" ARG...
# No run writes bytecode, in the copy or in the source tree.
ST_PYDIR=$ST_TMP/py
mkdir "$ST_PYDIR" && cp "$(dirname "${BASH_SOURCE[0]}")"/py/*.py "$ST_PYDIR"/ &&
	chmod 755 "$ST_PYDIR" && chmod 644 "$ST_PYDIR"/*.py || exit 1
export PYTHONDONTWRITEBYTECODE=1
# The Python checks are assert statements: -O (PYTHONOPTIMIZE) would remove
# every one of them and let any report pass. They always run without it.
unset PYTHONOPTIMIZE

is_root() { [ "$(id -u)" -eq 0 ]; }

# nap SECONDS: a sleep without a fork (read times out on a pipe that never
# gets data): the harness polls for a run's pid and for its leftovers after
# every one of about 2,000 runs, and a forked sleep(1) costs more than the wait.
exec {ST_NAPFD}<> <(:)
nap() { read -r -t "$1" -u "$ST_NAPFD" _ || :; }

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

# ---------------------------------------------------------------------------
# Helpers for running sandboxtime under observation (added for the
# integration suites; the helpers above keep their meaning).

# A python3 that nobody can run too (a pyenv shim under /root is not one).
ST_PY=/usr/bin/python3
[ -x "$ST_PY" ] || ST_PY=$(command -v python3)
# Bound on one sandboxtime run, so that a hang fails a test instead of the CI.
ST_TIMEOUT=${ST_TIMEOUT:-60}

# st-exec PIDFILE CMD...: starts a new session (its id is the pid, which CMD
# keeps), writes the pid to PIDFILE, gives CMD only fds 0, 1 and 2 and the
# default action for the signals that a non-interactive shell makes its
# background jobs ignore, then execs CMD. Every process CMD leaves behind
# keeps the session id, which is how the suites find leftovers.
ST_EXEC=$ST_TMP/st-exec
{ echo "#!$ST_PY -B"; cat "$ST_PYDIR/st_exec.py"; } >"$ST_EXEC"
chmod 755 "$ST_EXEC"

# diag MESSAGE: a TAP diagnostic line, shown whether a test passes or not.
diag() { echo "# $*"; }

# diag_of PREFIX COMMAND...: runs COMMAND, a check that prints what it saw:
# on success its output becomes a diagnostic line, on failure it is printed
# and the status kept. (A check inside diag "$(...)" could never fail.)
diag_of() {
	local prefix=$1 out
	shift
	if out=$("$@" 2>&1); then
		diag "$prefix$out"
	else
		printf '%s\n' "$out"
		return 1
	fi
}

# can_run MODE: whether tests can run as MODE (root, or nobody: rootless).
can_run() {
	case $1 in
	root) is_root ;;
	nobody) is_root && userns_works ;;
	*) return 1 ;;
	esac
}

# each_mode DESC FUNC [ARG...]: two tests, "DESC [root]" and "DESC [nobody]",
# each running FUNC MODE ARG...; a mode that cannot run here is skipped.
each_mode() {
	local desc=$1 func=$2 mode; shift 2
	for mode in root nobody; do
		if can_run "$mode"; then
			ok "$desc [$mode]" "$func" "$mode" "$@"
		elif [ "$mode" = root ]; then
			skip "$desc [$mode]" "not running as root"
		else
			skip "$desc [$mode]" "needs root to switch to nobody, and unprivileged user namespaces"
		fi
	done
}

# mode_uid MODE: the uid sandboxtime runs with in MODE.
mode_uid() { if [ "$1" = nobody ]; then id -u nobody; else id -u; fi; }

# st_scratch: a fresh directory in $ST_TMP that nobody can write to too.
st_scratch() {
	local d i
	for ((i = 0; i < 100; i++)); do
		d=$ST_TMP/run.$RANDOM$RANDOM
		mkdir -m 1777 "$d" 2>/dev/null && { echo "$d"; return 0; }
	done
	echo "no scratch directory under $ST_TMP" >&2
	return 1
}

# st_start MODE ARG...: starts sandboxtime ARG... in the background as MODE
# (root, or nobody through as_nobody and $ST_NOBODY_BIN), through st-exec,
# stdin from /dev/null. Sets ST_DIR (a scratch dir), ST_OUT and ST_ERR (files
# with its standard output and error), ST_JOB (the shell's job) and ST_PID
# (sandboxtime's pid, also its session id). Finish with st_finish.
st_start() {
	local mode=$1 i; shift
	ST_DIR=$(st_scratch) || return 1
	ST_OUT=$ST_DIR/stdout ST_ERR=$ST_DIR/stderr ST_PID= ST_RC= ST_LEFT=
	if [ "$mode" = nobody ]; then
		as_nobody timeout -k 5 "$ST_TIMEOUT" "$ST_EXEC" "$ST_DIR/pid" "$ST_NOBODY_BIN" "$@" \
			</dev/null >"$ST_OUT" 2>"$ST_ERR" &
	else
		timeout -k 5 "$ST_TIMEOUT" "$ST_EXEC" "$ST_DIR/pid" "$ST_BIN" "$@" \
			</dev/null >"$ST_OUT" 2>"$ST_ERR" &
	fi
	ST_JOB=$!
	# (an arithmetic loop: a caller's IFS must not turn $(seq) into one word)
	for ((i = 0; i < 2500; i++)); do
		[ -s "$ST_DIR/pid" ] && break
		nap 0.002
	done
	{ read -r ST_PID <"$ST_DIR/pid"; } 2>/dev/null
	if [ -z "$ST_PID" ]; then
		echo "sandboxtime did not start"
		return 1
	fi
}

# st_finish: waits for the run of st_start; sets ST_RC (its exit status) and
# ST_LEFT (what its session left behind, see st_leftovers).
st_finish() {
	wait "$ST_JOB"
	ST_RC=$?
	st_leftovers "$ST_PID"
}

# st_run MODE ARG...: st_start then st_finish.
st_run() {
	st_start "$@" || return 1
	st_finish
}

# st_session_busy SID: whether a process of session SID is still there (no
# subshell: the test runs after every run).
st_session_busy() {
	local f line rest
	for f in /proc/[0-9]*/stat; do
		{ read -r line <"$f"; } 2>/dev/null || continue
		rest=${line##*) }
		rest=${rest#* } rest=${rest#* } rest=${rest#* }
		[ "${rest%% *}" = "$1" ] && return 0
	done
	return 1
}

# st_session_procs SID: "pid ppid stat comm" of every process in session SID.
st_session_procs() {
	ps -e -o sid=,pid=,ppid=,stat=,comm= | awk -v s="$1" '$1 == s { $1 = ""; sub(/^ /, ""); print }'
}

# st_leftovers SID: sets ST_LEFT to the processes of session SID (a finished
# sandboxtime's) still there after up to 2 s; kills those (they are ours).
st_leftovers() {
	local pid
	ST_LEFT=
	[ -n "$1" ] || return 0
	# Up to 2 s (EPOCHREALTIME in microseconds, without the dot).
	local until=$((${EPOCHREALTIME/./} + 2000000))
	while st_session_busy "$1"; do
		[ "${EPOCHREALTIME/./}" -lt "$until" ] || break
		nap 0.005
	done
	st_session_busy "$1" || return 0
	ST_LEFT=$(st_session_procs "$1")
	[ -z "$ST_LEFT" ] && return 0
	for pid in $(printf '%s\n' "$ST_LEFT" | awk '{ print $1 }'); do
		kill -KILL "$pid" 2>/dev/null
	done
	return 0
}

# st_show: what the last run did, for a failing test's output.
st_show() {
	echo "exit status: ${ST_RC:-?}"
	echo "stdout:"; head -c 2000 "$ST_OUT" 2>/dev/null | sed 's/^/  /'
	echo "stderr:"; head -c 2000 "$ST_ERR" 2>/dev/null | sed 's/^/  /'
}

# expect_rc N...: the last run exited with one of N...
expect_rc() {
	local want
	for want in "$@"; do
		[ "$ST_RC" = "$want" ] && return 0
	done
	echo "expected exit status $*, got $ST_RC"
	st_show
	return 1
}

# expect_clean: the last run left no process behind.
expect_clean() {
	[ -z "$ST_LEFT" ] && return 0
	echo "processes left behind by sandboxtime (pid ppid stat comm):"
	printf '%s\n' "$ST_LEFT" | sed 's/^/  /'
	return 1
}

# expect_stdout TEXT: the last run's standard output is exactly TEXT.
expect_stdout() {
	local got
	got=$(cat "$ST_OUT")
	if [ "$got" != "$1" ]; then
		echo "expected stdout '$1', got '$got'"
		st_show
		return 1
	fi
}

# expect_error_line [usage]: standard error is one line "sandboxtime: ...",
# followed, for a usage error, by the "Try 'sandboxtime --help'" line.
expect_error_line() {
	local n first want=1
	[ "${1:-}" = usage ] && want=2
	n=$(wc -l <"$ST_ERR")
	first=$(head -n1 "$ST_ERR")
	if [ "$n" -ne "$want" ]; then
		echo "expected $want line(s) on stderr, got $n"
		st_show
		return 1
	fi
	case $first in
	"sandboxtime: "?*) ;;
	*) echo "stderr does not start with 'sandboxtime: '"; st_show; return 1 ;;
	esac
	if [ "$want" = 2 ] && [ "$(sed -n 2p "$ST_ERR")" != "Try 'sandboxtime --help' for more information." ]; then
		echo "second line is not the --help hint"
		st_show
		return 1
	fi
}

# expect_error_names TEXT...: the error line contains every TEXT.
expect_error_names() {
	local t first
	first=$(head -n1 "$ST_ERR")
	for t in "$@"; do
		case $first in
		*"$t"*) ;;
		*) echo "error line does not name '$t': $first"; return 1 ;;
		esac
	done
}

# now_ms: CLOCK_REALTIME in milliseconds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_file FILE [TENTHS]: waits until FILE exists (default: up to 10 s).
wait_file() {
	local i
	for ((i = 0; i < ${2:-100}; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	echo "timed out waiting for $1"
	return 1
}

# Kills (by its pid) a run that a test gives up on, then reaps it; fails.
give_up() {
	[ -n "${ST_PID:-}" ] && kill -KILL "$ST_PID" 2>/dev/null
	st_finish
	return 1
}

# ---------------------------------------------------------------------------
# Network namespaces of this suite's runs, for suites that share the machine
# with other jobs: a namespace that another job's process lives in is not a
# leak of ours, and is told apart positively (see st_ours_procs).

# st_netns_now: the network namespaces that some process lives in now, as
# inode numbers (root sees every process; ps -o netns gives the same set).
st_netns_now() { lsns -t net -n -o NS 2>/dev/null | tr -d ' ' | sort -u; }

# st_ours_procs [BIN...]: "netns pid sid args" of every process of this
# suite's runs: one in the session of the last run ($ST_PID; st-exec gives
# each run its own) or one whose argv[0] is a binary under test ($ST_BIN,
# $ST_NOBODY_BIN, BIN...). sandboxtime's own children never exec, so a
# process of a run that left its session still shows the binary's path; a
# suite that wants this to tell its runs from other jobs' gives its runs a
# path of its own (a copy in $ST_TMP, as $ST_NOBODY_BIN is).
st_ours_procs() {
	ps -e -o netns=,pid=,sid=,args= |
		ST_OURS_BINS=$(printf '%s\n' "$ST_BIN" "$ST_NOBODY_BIN" "$@") awk -v sid="${ST_PID:-}" '
		BEGIN { n = split(ENVIRON["ST_OURS_BINS"], b, "\n") }
		{
			args = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ /, "", args)
			if (sid != "" && $3 == sid) { print; next }
			for (i = 1; i <= n; i++)
				if (b[i] != "" && (args == b[i] || index(args, b[i] " ") == 1)) { print; next }
		}'
}

# expect_no_new_netns_of_ours BEFORE [BIN...]: no network namespace that was
# not in BEFORE (st_netns_now) has a process of this suite's runs in it. A new
# namespace whose every process belongs to another job (another session and
# another binary) is that job's, and not counted.
expect_no_new_netns_of_ours() {
	local before=$1 new left; shift
	# No new namespace at all, the usual case, needs no look at the processes.
	new=$(comm -13 <(printf '%s\n' "$before") <(st_netns_now))
	[ -z "$new" ] && return 0
	left=$(st_ours_procs "$@" | awk -v new="$new" '
		BEGIN { n = split(new, v, "\n"); for (i = 1; i <= n; i++) isnew[v[i]] = 1 }
		$1 in isnew')
	[ -z "$left" ] && return 0
	echo "new network namespaces with a process of this suite's runs in them (netns pid sid args):"
	printf '%s\n' "$left" | sed 's/^/  /'
	return 1
}

# st_host_mounts: the host's mount points, sorted, without the ones that
# other suites make there while they run beside this one (tests/run.sh runs
# two at a time): `ip netns add`'s /run/netns/NAME (net, net6) and the
# engines' stores under /tmp/st-engines.* (podman's overlays, containerd's
# rootfs). A suite compares two of these to show that it left no mount.
st_host_mounts() {
	cut -d' ' -f5 /proc/self/mountinfo | grep -v -e '^/run/netns/' -e '^/tmp/st-engines\.' | sort
}

# Our own cgroup per hierarchy that the cgroup layer uses ("memory /a/b";
# "unified /"), from /proc/self/cgroup (cgroup.sh, bench_cgroup.sh).
own_cgroups() {
	awk -F: '$2 == "" { print "unified", $3; next }
		{ n = split($2, c, ","); for (i = 1; i <= n; i++)
			if (c[i] == "memory" || c[i] == "pids" || c[i] == "cpu") { print $2, $3; break } }' /proc/self/cgroup
}

# The mount point of the v1 hierarchy of controller $1, or the unified one (unified).
mnt_of() {
	if [ "$1" = unified ]; then findmnt -n -t cgroup2 -o TARGET | head -n1
	else findmnt -n -t cgroup -o TARGET,OPTIONS | awk -v c="$1" '{ n = split($2, o, ","); for (i = 1; i <= n; i++) if (o[i] == c) { print $1; exit } }'
	fi
}
