// SPDX-License-Identifier: MIT
/*
 * `sandboxtime layers`: measure the layers and report. With --textfile the
 * report is Prometheus text replaced atomically for node_exporter; with
 * --watch it is measured again every --interval seconds until SIGINT,
 * SIGTERM or SIGHUP, a failed measurement being one line on standard error.
 */
#include <signal.h>
#include <time.h>

#include "sandboxtime/cmd.h"
#include "sandboxtime/report.h"
#include "sandboxtime/session.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/textfile.h"

struct textfile_ctx {
	const struct st_report *r;
	double end_s; /* when the measurement ended, Unix time */
};

static int write_textfile(const void *ctx, FILE *out, struct st_error *err)
{
	const struct textfile_ctx *t = ctx;
	int ret = st_report_write_prom(t->r, out, err);

	if (ret < 0)
		return ret;
	st_prom_family(out, "sandboxtime_layers_last_run_timestamp_seconds",
		       "When the last measurement ended (Unix time): a stale value means the measuring stopped.");
	fprintf(out, "sandboxtime_layers_last_run_timestamp_seconds %.3f\n", t->end_s);
	return ferror(out) ? st_error_set(err, EIO, "layers: writing Prometheus text") : 0;
}

/* One measurement into --textfile; the errors of the layer probe stay, a last run's go. */
static int measure_into_textfile(struct st_session *s, const struct st_run_opts *o,
				 size_t probe_errors, struct st_error *err)
{
	struct textfile_ctx t = { .r = &s->report };
	int ret;

	st_measurement_free(&s->m);
	s->report.m = NULL;
	s->report.nerrors = probe_errors;
	ret = st_session_measure(s, err);
	if (ret < 0)
		return ret;
	t.end_s = st_clock_s(CLOCK_REALTIME);
	st_host_collect(&s->report.host);
	return st_textfile_write("layers", o->textfile, write_textfile, &t, err);
}

static int watch(struct st_session *s, const struct st_run_opts *o)
{
	size_t probe_errors = s->report.nerrors;

	for (;;) {
		double start = st_clock_s(CLOCK_MONOTONIC);
		struct st_error one = { 0 };
		char line[3 * ST_ERROR_MSG_MAX];
		int sig = st_signals_poll();

		if (sig && st_watch_stop_signal(sig))
			return 0;
		if (measure_into_textfile(s, o, probe_errors, &one) < 0) {
			/* A stop during the measurement ends the watch; the file keeps the last one. */
			if (s->m.interrupted_by && st_watch_stop_signal(s->m.interrupted_by))
				return 0;
			st_error_format(&one, line, sizeof(line));
			fprintf(stderr, "sandboxtime: %s (measuring again in %g s)\n", line, o->interval_s);
		}
		if (st_watch_sleep_until(start + o->interval_s))
			return 0;
	}
}

int st_cmd_layers(const struct st_run_opts *o, const struct st_output *out, int *exit_code,
		  struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = st_session_prepare(&s, out, &o->measure, err);
	st_session_describe_run(&s, o, 0);
	if (ret == 0 && o->textfile)
		ret = st_textfile_probe("layers", o->textfile, err);
	if (ret == 0 && o->watch)
		ret = watch(&s, o);
	else if (ret == 0 && o->textfile)
		ret = measure_into_textfile(&s, o, s.report.nerrors, err);
	else if (ret == 0)
		ret = st_session_measure(&s, err);
	if (ret == 0 && !o->textfile)
		ret = st_session_report(&s, err);
	if (ret < 0) {
		*exit_code = st_session_failure_code(&s);
		return ret;
	}
	*exit_code = ST_EXIT_OK;
	return 0;
}
