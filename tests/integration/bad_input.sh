#!/usr/bin/env bash
# Bad input: exit 125, one line on stderr that names the problem (plus the
# "Try 'sandboxtime --help'" line for a usage error), nothing on stdout, and
# nothing left behind: no process, and no report file for the -o given.
source "$(dirname "$0")/../lib.sh" "$1"

plan 42

# t_usage MODE TEXTS ARG...: TEXTS is a "|"-separated list of what the error
# line must contain. Every run asks for "-o REPORT" too, before the other
# options: REPORT must not be created.
t_usage() {
	local mode=$1 texts=$2 report t; shift 2
	local -a args
	report=$ST_TMP/report-$RANDOM$RANDOM.out
	if [ "${1:-}" = layers ]; then
		shift
		args=(layers -o "$report" "$@")
	else
		args=(-o "$report" "$@")
	fi
	st_run "$mode" "${args[@]}" || return 1
	expect_rc 125 && expect_clean && expect_error_line usage || return 1
	local IFS='|'
	for t in $texts; do
		expect_error_names "$t" || { st_show; return 1; }
	done
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
	[ ! -e "$report" ] || { echo "the report file $report was created"; return 1; }
}

# -o into a directory that does not exist: checked before measuring, so even
# --repeat=100000 (the most it takes: minutes of clones, far past the 30 s
# that ST_TIMEOUT allows here) ends at once with its own error, not killed by
# timeout(1) with 124. Not bad usage: no --help line is required, but no more
# than that one. (A bound in ms would fail on a loaded machine.)
t_output_missing_dir() {
	local mode=$1; shift
	ST_TIMEOUT=30 st_run "$mode" "$@" || return 1
	expect_rc 125 && expect_clean || return 1
	[ "$(head -n1 "$ST_ERR" | cut -c1-13)" = "sandboxtime: " ] || { echo "no 'sandboxtime: ' error line"; st_show; return 1; }
	expect_error_names /nonexistent/dir/file || return 1
	case $(wc -l <"$ST_ERR") in
	1) ;;
	2) [ "$(sed -n 2p "$ST_ERR")" = "Try 'sandboxtime --help' for more information." ] ||
		{ echo "a second line that is not the --help hint"; st_show; return 1; } ;;
	*) echo "more than one error line"; st_show; return 1 ;;
	esac
	[ ! -s "$ST_OUT" ] || { echo "stdout is not empty"; st_show; return 1; }
}

each_mode "--ns=utz: unknown namespace" t_usage "--ns|utz" --ns=utz -- true
each_mode "--ns= : empty list" t_usage "--ns" --ns= -- true
each_mode "--ns=all,uts: all mixed with a name" t_usage "--ns|all" --ns=all,uts -- true
each_mode "--ns with a newline in the name: still one error line" t_usage "--ns" --ns=$'ut\nz' -- true
each_mode "--ns=uts,,pid: empty element" t_usage "--ns" --ns=uts,,pid -- true
each_mode "layers --repeat=0 would measure nothing" t_usage "--repeat" layers --repeat=0
each_mode "--repeat=-1: negative" t_usage "--repeat|-1" --repeat=-1 -- true
each_mode "--repeat=abc: not a number" t_usage "--repeat|abc" --repeat=abc -- true
each_mode "--repeat=99999999999999999999: overflow" t_usage "--repeat|99999999999999999999" --repeat=99999999999999999999 -- true
each_mode "--warmup=1x: trailing garbage" t_usage "--warmup|1x" --warmup=1x -- true
each_mode "missing '--' before CMD" t_usage "--|true" --repeat=0 true
each_mode "missing CMD after '--'" t_usage "CMD" --repeat=0 --
each_mode "unknown long option" t_usage "--bogus" --bogus -- true
each_mode "unknown short option" t_usage "-x" -x -- true
each_mode "--repeat without its value" t_usage "--repeat" --repeat
each_mode "--format=xml: unknown format" t_usage "--format|xml" --format=xml -- true
each_mode "--net=foo: unknown network mode" t_usage "--net|foo" --net=foo -- true
each_mode "--net=host with net in --ns: a contradiction" t_usage "--net=host|net" --net=host --ns=uts,net -- true
each_mode "--hostname= : empty hostname" t_usage "--hostname" --hostname= -- true
each_mode "-o /nonexistent/dir/file fails before measuring in a run (--repeat=100000)" t_output_missing_dir --repeat=100000 -o /nonexistent/dir/file -- true
each_mode "-o /nonexistent/dir/file fails before measuring in layers (--repeat=100000)" t_output_missing_dir layers --repeat=100000 -o /nonexistent/dir/file
