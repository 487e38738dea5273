#!/usr/bin/env bash
# layers --format=prometheus (issue 16.6): valid text exposition with
# summaries in seconds per layer, as root and as nobody; promtool checks it
# where installed; the fleet configs (CronJob, recording rules, alert) are
# valid YAML that use these names, and pass promtool check rules;
# --textfile replaces its file atomically, --watch measures until SIGTERM
# and exits 0 without leaving its temporary file.
# shellcheck source=tests/lib.sh
source "$(dirname "$0")/../lib.sh" "$1"

plan 10

TOP=$(cd "$(dirname "$0")/../.." && pwd)
check() { "$ST_PY" -B "$ST_PYDIR/layers_prom_check.py" "$@"; }
# .ci/install-deps test takes promtool out of Debian's prometheus package
# into .ci/tools/ (installing the package would start a Prometheus server).
PROMTOOL=$(command -v promtool || { [ -x "$TOP/.ci/tools/promtool" ] && echo "$TOP/.ci/tools/promtool"; })
PROM=$ST_TMP/layers.prom

t_prom() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" layers --repeat=4 --deferred-repeat=2 --format=prometheus -o "$dir/l.prom" || return 1
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/prom_check.py" "$dir/l.prom" sandboxtime_layer_setup_seconds \
		sandboxtime_layer_teardown_seconds sandboxtime_layer_incremental_setup_seconds \
		sandboxtime_layers_measurement_duration_seconds || return 1
	diag_of "$mode: " check metrics "$dir/l.prom" && cp "$dir/l.prom" "$PROM"
}
each_mode "layers --format=prometheus: summaries in seconds, a layer label, base first" t_prom

t_promtool_metrics() { "$PROMTOOL" check metrics <"$PROM"; }
if [ -z "$PROMTOOL" ]; then
	skip "promtool check metrics" "promtool is neither on PATH nor in .ci/tools/ (sh .ci/install-deps test takes it out of Debian package prometheus)"
elif [ ! -s "$PROM" ]; then
	skip "promtool check metrics" "no metrics: the runs above failed or were skipped"
else
	ok "promtool check metrics" t_promtool_metrics
fi

ok "the CronJob and the rules are valid YAML with the alert on the netns free time" check configs "$TOP"

t_promtool_rules() { "$PROMTOOL" check rules "$TOP/configs/prometheus/layers-rules.yml"; }
if [ -n "$PROMTOOL" ]; then ok "promtool check rules" t_promtool_rules
else skip "promtool check rules" "promtool is neither on PATH nor in .ci/tools/ (sh .ci/install-deps test takes it out of Debian package prometheus)"; fi

lasts() { sed -n 's/^sandboxtime_layers_last_run_timestamp_seconds //p' "$1"; }

t_textfile() {
	local mode=$1 dir
	dir=$(st_scratch) || return 1
	st_run "$mode" layers --repeat=4 --deferred-repeat=2 --textfile="$dir/l.prom" || return 1
	expect_rc 0 && expect_clean || return 1
	[ ! -s "$ST_ERR" ] || { echo "a report on stderr beside --textfile"; st_show; return 1; }
	"$ST_PY" -B "$ST_PYDIR/prom_check.py" "$dir/l.prom" sandboxtime_layer_setup_seconds \
		sandboxtime_layers_last_run_timestamp_seconds || return 1
	[ -z "$(find "$dir" -name 'l.prom.tmp.*')" ] || { echo "temporary file left"; return 1; }
}
each_mode "layers --textfile: Prometheus text with the time of the run, nothing else written" t_textfile

# Two measurements, then SIGTERM: exit 0, the last complete file, no temporary one.
t_watch() {
	local mode=$1 dir first i
	dir=$(st_scratch) || return 1
	st_start "$mode" layers --repeat=3 --deferred-repeat=1 --watch --interval=0.3 --textfile="$dir/w.prom" || return 1
	wait_file "$dir/w.prom" 300 || give_up || return 1
	first=$(lasts "$dir/w.prom")
	for ((i = 0; i < 300; i++)); do
		[ "$(lasts "$dir/w.prom")" != "$first" ] && break
		sleep 0.1
	done
	[ "$(lasts "$dir/w.prom")" != "$first" ] || { echo "no second measurement in 30 s"; give_up; return 1; }
	kill -TERM "$ST_PID"
	st_finish
	expect_rc 0 && expect_clean || return 1
	"$ST_PY" -B "$ST_PYDIR/prom_check.py" "$dir/w.prom" sandboxtime_layer_setup_seconds || return 1
	[ -z "$(find "$dir" -name 'w.prom.tmp.*')" ] || { echo "temporary file left"; return 1; }
}
each_mode "layers --watch --textfile: measured again each --interval, SIGTERM exits 0 and leaves no temporary file" t_watch

t_usage() {
	st_run root layers --watch || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "--textfile" || return 1
	st_run root layers --interval=5 --textfile=/tmp/x.prom || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "--interval" || return 1
	st_run root layers -o /tmp/x --textfile=/tmp/x.prom || return 1
	expect_rc 125 && expect_error_line usage && expect_error_names "-o" || return 1
	st_run root layers --textfile=/nonexistent/dir/x.prom || return 1
	expect_rc 125 && expect_error_line && expect_error_names "--textfile"
}
if is_root; then ok "layers: --watch without --textfile, --interval alone, -o with it, an unwritable directory: 125" t_usage
else skip "layers: --watch without --textfile, --interval alone, -o with it, an unwritable directory: 125" "not running as root"; fi
