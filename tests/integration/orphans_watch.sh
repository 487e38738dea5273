#!/usr/bin/env bash
# sandboxtime orphans --textfile, --watch and --interval: the file that
# node_exporter's textfile collector reads is valid Prometheus text, is
# rewritten each interval by a rename (never half written, no PATH.tmp.*
# left), and SIGTERM, SIGINT or SIGHUP end the watch with exit 0 at once.
# The exposition is checked by a small python parser (promtool is not needed).
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 32

CHECK=$ST_PYDIR/prom_check.py

# value FILE METRIC: the value of the unlabelled sample METRIC in FILE.
value() { awk -v m="$2" '$1 == m { print $2 }' "$1"; }

# tmp_left DIR: the PATH.tmp.* files left in DIR.
tmp_left() { find "$1" -name '*.tmp.*' 2>/dev/null; }

# A directory the mode's user can write (the scratch dirs are 1777).
writable_dir() { st_scratch; }

t_textfile_once() {
	local mode=$1 d
	d=$(writable_dir) || return 1
	st_run "$mode" orphans --format=json --textfile="$d/st.prom" || return 1
	expect_rc 0 1 || return 1
	[ -s "$d/st.prom" ] || { echo "no $d/st.prom"; st_show; return 1; }
	[ ! -s "$ST_OUT" ] || { echo "a report on stdout besides the textfile"; st_show; return 1; }
	"$ST_PY" "$CHECK" "$d/st.prom" sandboxtime_netns sandboxtime_netns_orphans \
		sandboxtime_orphans_last_scan_timestamp_seconds sandboxtime_orphans_scan_duration_seconds ||
		{ cat "$d/st.prom"; return 1; }
	[ -z "$(tmp_left "$d")" ] || { echo "left: $(tmp_left "$d")"; return 1; }
	expect_clean
}

t_textfile_matches_rc() {
	local mode=$1 d n
	d=$(writable_dir) || return 1
	st_run "$mode" orphans --textfile="$d/st.prom" || return 1
	n=$(value "$d/st.prom" sandboxtime_netns_orphans)
	if [ "$n" = 0 ]; then expect_rc 0; else expect_rc 1; fi
}

t_watch_rewrites() {
	local mode=$1 d t1 t2 start ms
	d=$(writable_dir) || return 1
	st_start "$mode" orphans --watch --interval=0.2 --textfile="$d/st.prom" || return 1
	wait_file "$d/st.prom" 50 || { kill -KILL "$ST_PID"; st_finish; return 1; }
	t1=$(value "$d/st.prom" sandboxtime_orphans_last_scan_timestamp_seconds)
	sleep 0.5
	t2=$(value "$d/st.prom" sandboxtime_orphans_last_scan_timestamp_seconds)
	"$ST_PY" "$CHECK" "$d/st.prom" sandboxtime_orphans_last_scan_timestamp_seconds ||
		{ kill -KILL "$ST_PID"; st_finish; return 1; }
	start=$(now_ms)
	kill -TERM "$ST_PID"
	st_finish
	ms=$(($(now_ms) - start))
	expect_rc 0 || return 1
	[ "$ms" -lt 2000 ] || { echo "SIGTERM took $ms ms to end the watch"; return 1; }
	"$ST_PY" -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if b > a else "timestamp %s then %s: not rewritten" % (a, b))' "$t1" "$t2" ||
		return 1
	[ -z "$(tmp_left "$d")" ] || { echo "left: $(tmp_left "$d")"; return 1; }
	[ ! -s "$ST_OUT" ] || { echo "stdout not empty with --textfile"; st_show; return 1; }
	expect_clean
}

# A signal in the middle of a long sleep ends the watch at once.
t_watch_signal_in_sleep() {
	local mode=$1 sig=$2 d start ms
	d=$(writable_dir) || return 1
	st_start "$mode" orphans --watch --interval=3600 --textfile="$d/st.prom" || return 1
	wait_file "$d/st.prom" 50 || { kill -KILL "$ST_PID"; st_finish; return 1; }
	start=$(now_ms)
	kill "-$sig" "$ST_PID"
	st_finish
	ms=$(($(now_ms) - start))
	expect_rc 0 || return 1
	[ "$ms" -lt 2000 ] || { echo "SIG$sig took $ms ms to end the watch"; return 1; }
	[ -z "$(tmp_left "$d")" ] || { echo "left: $(tmp_left "$d")"; return 1; }
	expect_clean
}

# Without --textfile each scan prints the chosen format on stdout.
t_watch_stdout() {
	local mode=$1 n
	st_start "$mode" orphans --watch --interval=0.2 --format=json || return 1
	sleep 0.7
	kill -INT "$ST_PID"
	st_finish
	expect_rc 0 || return 1
	n=$(grep -c '"sandboxtime/orphans/v1"' "$ST_OUT")
	[ "$n" -ge 2 ] || { echo "$n reports on stdout in 0.7 s at 0.2 s intervals"; st_show; return 1; }
}

# An unwritable textfile directory is one error line at start, exit 125.
t_unwritable_once() {
	local mode=$1 d dir
	d=$(writable_dir) || return 1
	if [ "$mode" = nobody ]; then
		dir=$d/rootonly
		mkdir -m 755 "$dir" || return 1
	else
		dir=$d/missing
	fi
	st_run "$mode" orphans --textfile="$dir/st.prom" || return 1
	expect_rc 125 || return 1
	expect_error_line || return 1
	expect_error_names "--textfile"
}

t_unwritable_watch() {
	local mode=$1 d dir
	d=$(writable_dir) || return 1
	if [ "$mode" = nobody ]; then
		dir=$d/rootonly
		mkdir -m 755 "$dir" || return 1
	else
		dir=$d/missing
	fi
	st_run "$mode" orphans --watch --interval=0.2 --textfile="$dir/st.prom" || return 1
	expect_rc 125 || return 1
	expect_error_line || return 1
	expect_error_names "--textfile"
}

# t_usage MODE NAMES ARG...: exit 125, the usage error naming NAMES (|-separated).
t_usage() {
	local mode=$1 names
	IFS='|' read -r -a names <<<"$2"
	shift 2
	st_run "$mode" "$@" || return 1
	expect_rc 125 || return 1
	expect_error_line usage || return 1
	expect_error_names "${names[@]}"
}

each_mode "--textfile writes valid Prometheus text, nothing on stdout" t_textfile_once
each_mode "--textfile without --watch: the exit status still says orphans or none" t_textfile_matches_rc
each_mode "--watch --interval=0.2 rewrites the textfile; SIGTERM: exit 0, no PATH.tmp.* left" t_watch_rewrites
each_mode "--watch: SIGINT in a long sleep ends it at once with exit 0" t_watch_signal_in_sleep INT
each_mode "--watch: SIGHUP in a long sleep ends it at once with exit 0" t_watch_signal_in_sleep HUP
each_mode "--watch without --textfile prints the chosen format each scan" t_watch_stdout
each_mode "--textfile in a directory it cannot write: 125, one line" t_unwritable_once
each_mode "--watch --textfile in a directory it cannot write: 125 at start, one line" t_unwritable_watch
each_mode "--interval=0 is out of range" t_usage "--interval|0" orphans --watch --interval=0
each_mode "--interval=86401 is out of range" t_usage "--interval|86401" orphans --watch --interval=86401
each_mode "--interval=abc is not a number" t_usage "--interval|abc" orphans --watch --interval=abc
each_mode "--interval without --watch" t_usage "--interval|--watch" orphans --interval=5
each_mode "--watch with an unknown format" t_usage "--format|bogus" orphans --watch --format=bogus
each_mode "-o with --watch is refused (use --textfile)" t_usage "-o|--textfile" orphans --watch -o /dev/null
each_mode "options not for orphans are still refused" t_usage "orphans|--repeat" orphans --watch --repeat=3
each_mode "--textfile for a command without it is refused" t_usage "--textfile|orphans" netbench --textfile=/dev/null
