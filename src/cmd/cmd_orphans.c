// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/cmd.h"
#include "sandboxtime/orphans.h"
#include "sandboxtime/orphans_cleanup.h"
#include "sandboxtime/host.h"
#include "sandboxtime/report_orphans.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/sink.h"
#include "sandboxtime/textfile.h"

/* What a --textfile holds: the report, when the scan ended and how long it took. */
struct textfile_ctx {
	const struct st_orphans_report *r;
	double scan_time_s, scan_s;
};

static int write_textfile(const void *ctx, FILE *out, struct st_error *err)
{
	const struct textfile_ctx *t = ctx;

	return st_orphans_write_textfile(t->r, t->scan_time_s, t->scan_s, out, err);
}

/*
 * One scan and its report: the textfile, or the chosen format on @out. With
 * @cleanup, the orphans are removed (or, --dry-run, listed) between the scan
 * and the report, which tells what was done to each.
 */
static int scan_and_report(const struct st_orphans_opts *o, const struct st_output *output,
			   struct st_sink *sink, int warn, struct st_orphans *scan,
			   struct st_cleanup *cleanup, struct st_error *err)
{
	static const struct st_sink_writers writers = { .format = &st_orphans_format,
							.what = "orphans" };
	struct st_orphans_report r = { .out = output, .all = o->all, .scan = scan, .cleanup = cleanup };
	double start = st_clock_s(CLOCK_MONOTONIC), scan_s, scan_time_s;
	int ret = st_orphans_scan(scan, err);

	if (ret < 0)
		return ret;
	if (cleanup) {
		ret = st_orphans_cleanup(cleanup, scan, err);
		if (ret < 0)
			return ret;
	}
	scan_s = st_clock_s(CLOCK_MONOTONIC) - start;
	scan_time_s = st_clock_s(CLOCK_REALTIME);
	if (warn && scan->unreadable_processes && !output->quiet)
		fprintf(stderr, "sandboxtime: orphans: warning: %zu %s could not be read%s; %zu held %s not verifiable\n",
			scan->unreadable_processes, scan->unreadable_processes == 1 ? "process" : "processes",
			scan->rootless ? " (not yours: root sees them)" : "", scan->unverified,
			scan->unverified == 1 ? "namespace" : "namespaces");
	if (o->textfile) {
		struct textfile_ctx t = { .r = &r, .scan_time_s = scan_time_s, .scan_s = scan_s };

		return st_textfile_write("orphans", o->textfile, write_textfile, &t, err);
	}
	if (output->quiet)
		return 0;
	st_host_identify(&r.host, -1);
	st_host_collect(&r.host);
	return st_sink_emit(sink, &writers, &r, err);
}

/*
 * --watch: scan every --interval seconds until SIGINT, SIGTERM or SIGHUP
 * (exit 0). A scan that fails (a process that vanished at the wrong moment,
 * a full disk) is one line on standard error; the next scan comes anyway.
 */
static int watch(const struct st_orphans_opts *o, const struct st_output *output, int *exit_code,
		 struct st_error *err)
{
	struct st_sink sink __attribute__((cleanup(st_sink_close))) = { 0 };
	int first = 1;
	int ret = st_sink_open(&sink, output, stdout, err); /* no -o with --watch: stdout */

	if (ret < 0)
		return ret;
	if (o->textfile) {
		ret = st_textfile_probe("orphans", o->textfile, err);
		if (ret < 0)
			return ret;
	}
	for (;;) {
		struct st_orphans scan __attribute__((cleanup(st_orphans_free))) = { 0 };
		double start = st_clock_s(CLOCK_MONOTONIC);
		struct st_error one = { 0 };
		char line[3 * ST_ERROR_MSG_MAX];
		int sig = st_signals_poll();

		if (sig && st_watch_stop_signal(sig))
			break;
		if (scan_and_report(o, output, &sink, first, &scan, NULL, &one) < 0) {
			st_error_format(&one, line, sizeof(line));
			fprintf(stderr, "sandboxtime: %s (scanning again in %g s)\n", line, o->interval_s);
		}
		first = 0;
		if (st_watch_sleep_until(start + o->interval_s))
			break;
	}
	*exit_code = ST_EXIT_OK;
	return 0;
}

/*
 * Scan, classify, report; exit 1 when an orphan was found, so that a cron
 * job or a CI step can act on the status alone. The report is the command's
 * product, so it goes to standard output (or -o FILE), as lsns(8) does.
 */
int st_cmd_orphans(const struct st_orphans_opts *o, const struct st_output *output, int *exit_code,
		   struct st_error *err)
{
	struct st_orphans scan __attribute__((cleanup(st_orphans_free))) = { 0 };
	struct st_cleanup cleanup __attribute__((cleanup(st_cleanup_free))) = {
		.dry_run = o->dry_run,
		.min_age_s = o->min_age_s,
	};
	struct st_sink sink __attribute__((cleanup(st_sink_close))) = { 0 };
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	if (o->watch)
		return watch(o, output, exit_code, err);
	if (o->cleanup) {
		/* Without root the scan cannot see every process that may live in a namespace. */
		if (st_host_is_rootless())
			return st_error_set(err, EPERM,
					    "orphans --cleanup needs root: it unmounts, and only "
					    "root sees every process that may live in a namespace "
					    "(without --cleanup, orphans lists them)");
		ret = st_cleanup_roots(&cleanup, o->cleanup_paths, o->ncleanup_paths, err);
		if (ret < 0)
			return ret;
	}
	if (o->textfile) {
		ret = st_textfile_probe("orphans", o->textfile, err);
		if (ret < 0)
			return ret;
	}
	/* -o FILE: opened before the scan, removed again if we made it and no report came. */
	ret = st_sink_open(&sink, output, stdout, err);
	if (ret < 0)
		return ret;
	ret = scan_and_report(o, output, &sink, 1, &scan, o->cleanup ? &cleanup : NULL, err);
	if (ret < 0)
		return ret;
	/* --cleanup: the status says whether an orphan is left, for the next cron run to act on. */
	if (o->cleanup)
		*exit_code = cleanup.left ? ST_EXIT_ORPHANS_FOUND : ST_EXIT_OK;
	else
		*exit_code = scan.orphans ? ST_EXIT_ORPHANS_FOUND : ST_EXIT_OK;
	return 0;
}
