#!/usr/bin/env bash
# Exit codes (docs/DESIGN.md, the convention of env(1) and timeout(1)): the
# workload's own, 128+N when it is killed by signal N, 126 when CMD cannot be
# executed, 127 when it is not found, 125 when sandboxtime itself fails.
# Errors are one line on standard error, starting with "sandboxtime: ".
source "$(dirname "$0")/../lib.sh" "$1"

plan 32

# t_code MODE WANT ARG...: sandboxtime ARG... exits WANT, and a run that is
# not an error says nothing on stderr with -q.
t_code() {
	local mode=$1 want=$2; shift 2
	st_run "$mode" "$@" || return 1
	expect_rc "$want" && expect_clean || return 1
	if [ -s "$ST_ERR" ]; then
		echo "stderr is not empty with -q"
		st_show
		return 1
	fi
}

# t_error MODE WANT TEXT ARG...: exits WANT with exactly one line on stderr,
# "sandboxtime: ..." naming TEXT, and nothing on stdout. No -q: an error must
# not come with a report either.
t_error() {
	local mode=$1 want=$2 text=$3; shift 3
	st_run "$mode" "$@" || return 1
	expect_rc "$want" && expect_clean && expect_error_line && expect_error_names "$text" || return 1
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
}

# A file that exists but cannot be executed, by root or by nobody.
NOEXEC=$ST_TMP/not-executable
printf '#!/bin/sh\necho should not run\n' >"$NOEXEC"
chmod 644 "$NOEXEC"
MISSING=sandboxtime-no-such-command-$$
# A PATH that nobody can search in full: a directory it may not enter (root's
# own, such as a pyenv under /root) turns "not found" into EACCES, hence 126,
# in execvp(3), and so in env(1) and timeout(1) alike.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

each_mode "exit 0 when the workload succeeds" t_code 0 --repeat=0 -q -- true
each_mode "the workload's own status is passed through (7)" t_code 7 --repeat=0 -q -- sh -c 'exit 7'
each_mode "--no-init: the workload's status is passed through (7)" t_code 7 --repeat=0 -q --no-init -- sh -c 'exit 7'
each_mode "workload killed by SIGTERM: 143" t_code 143 --repeat=0 -q -- sh -c 'kill -TERM $$'
each_mode "workload killed by SIGKILL: 137" t_code 137 --repeat=0 -q -- sh -c 'kill -KILL $$'
each_mode "workload crashing with SIGSEGV: 139" t_code 139 --repeat=0 -q -- sh -c 'kill -SEGV $$'
each_mode "--no-init without pid: killed by SIGTERM gives 143" t_code 143 --repeat=0 -q --no-init --ns=uts -- sh -c 'kill -TERM $$'
each_mode "a file that is not executable: 126, one error line" t_error 126 "$NOEXEC" --repeat=0 -- "$NOEXEC"
each_mode "a directory as CMD: 126, one error line" t_error 126 /tmp --repeat=0 -- /tmp
each_mode "a command that does not exist: 127, one error line" t_error 127 "$MISSING" --repeat=0 -- "$MISSING"
each_mode "an absolute path that does not exist: 127, one error line" t_error 127 /nonexistent/dir/cmd --repeat=0 -- /nonexistent/dir/cmd
each_mode "--no-init, not executable: 126, one error line" t_error 126 "$NOEXEC" --repeat=0 --no-init -- "$NOEXEC"
each_mode "--no-init, not found: 127, one error line" t_error 127 "$MISSING" --repeat=0 --no-init -- "$MISSING"
each_mode "not found after measuring: 127, one error line" t_error 127 "$MISSING" --repeat=2 --warmup=0 --deferred-repeat=1 --ns=uts -- "$MISSING"
# The name of CMD is the user's: a newline in it must not split the line.
each_mode "a CMD name with a newline: 127, still one error line" t_error 127 "no" --repeat=0 -- $'no\nsuch-command'
# sandboxtime's own failure, not bad usage: pinning to a CPU that is not online.
each_mode "sandboxtime fails (--cpu=1023 not online): 125, one error line" t_error 125 "--cpu" --repeat=0 --cpu=1023 -- true
