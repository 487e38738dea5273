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

static void closefilep(FILE **f)
{
	if (*f)
		fclose(*f);
	*f = NULL;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* PATH.tmp.PID: in PATH's directory, so that rename(2) replaces PATH in one step. */
static int textfile_tmp(const char *path, char *tmp, size_t len, struct st_error *err)
{
	int n = snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());

	if (n < 0 || (size_t)n >= len)
		return st_error_set(err, ENAMETOOLONG, "orphans: --textfile %s", path);
	return 0;
}

/* Creates PATH.tmp.PID (its name in @tmp): an fd, or -errno with @err set. */
static int textfile_create(const char *path, char *tmp, size_t len, struct st_error *err)
{
	int fd, ret = textfile_tmp(path, tmp, len, err);

	if (ret < 0)
		return ret;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return st_error_set(err, errno, "orphans: --textfile: cannot write %s", tmp);
	return fd;
}

/*
 * At start, before the first scan: a directory that cannot take the
 * temporary file is a mistake of the command line, not of one scan.
 */
static int textfile_probe(const char *path, struct st_error *err)
{
	char tmp[PATH_MAX];
	int fd = textfile_create(path, tmp, sizeof(tmp), err);

	if (fd < 0)
		return fd;
	close(fd);
	unlink(tmp);
	return 0;
}

/*
 * Write PATH.tmp.PID, fsync it, rename it over PATH: a reader (node_exporter's
 * textfile collector) sees the old file or the new one, never half of one.
 * Signals are blocked, so nothing interrupts this; on any failure the
 * temporary file is removed.
 */
static int textfile_write(const struct st_orphans_report *r, const char *path, double scan_time_s,
			  double scan_s, struct st_error *err)
{
	char tmp[PATH_MAX];
	FILE *f;
	int ret, fd = textfile_create(path, tmp, sizeof(tmp), err);

	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		ret = st_error_set(err, errno, "orphans: --textfile: %s", tmp);
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = st_orphans_write_textfile(r, scan_time_s, scan_s, f, err);
	if (ret == 0 && (fflush(f) == EOF || fsync(fd) < 0))
		ret = st_error_set(err, errno, "orphans: --textfile: writing %s", tmp);
	if (fclose(f) == EOF && ret == 0)
		ret = st_error_set(err, errno, "orphans: --textfile: writing %s", tmp);
	if (ret == 0 && rename(tmp, path) < 0)
		ret = st_error_set(err, errno, "orphans: --textfile: renaming %s to %s", tmp, path);
	if (ret < 0)
		unlink(tmp);
	return ret;
}

/*
 * One scan and its report: the textfile, or the chosen format on @out. With
 * @cleanup, the orphans are removed (or, --dry-run, listed) between the scan
 * and the report, which tells what was done to each.
 */
static int scan_and_report(const struct st_orphans_opts *o, const struct st_output *output,
			   FILE *out, int warn, struct st_orphans *scan, struct st_cleanup *cleanup,
			   struct st_error *err)
{
	struct st_orphans_report r = { .out = output, .all = o->all, .scan = scan, .cleanup = cleanup };
	double start = clock_s(CLOCK_MONOTONIC), scan_s, scan_time_s;
	int ret = st_orphans_scan(scan, err);

	if (ret < 0)
		return ret;
	if (cleanup) {
		ret = st_orphans_cleanup(cleanup, scan, err);
		if (ret < 0)
			return ret;
	}
	scan_s = clock_s(CLOCK_MONOTONIC) - start;
	scan_time_s = clock_s(CLOCK_REALTIME);
	if (warn && scan->unreadable_processes && !output->quiet)
		fprintf(stderr, "sandboxtime: orphans: warning: %zu processes could not be read%s; %zu held namespaces not verifiable\n",
			scan->unreadable_processes, scan->rootless ? " (not yours: root sees them)" : "",
			scan->unverified);
	if (o->textfile)
		return textfile_write(&r, o->textfile, scan_time_s, scan_s, err);
	if (output->quiet)
		return 0;
	st_host_identify(&r.host, -1);
	st_host_collect(&r.host);
	ret = st_orphans_write(&r, out, err);
	if (ret == 0 && out == stdout && fflush(stdout) == EOF)
		ret = st_error_set(err, errno, "orphans: writing standard output");
	return ret;
}

static int stop_signal(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/*
 * Sleeps until @deadline (CLOCK_MONOTONIC seconds) in sigtimedwait(2): the
 * signals are blocked (main), so one that stops the watch wakes it at once.
 * Returns that signal, or 0 at the deadline.
 */
static int sleep_until(double deadline)
{
	for (;;) {
		double left = deadline - clock_s(CLOCK_MONOTONIC);
		struct timespec ts;
		int sig;

		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(st_signals_forwarded(), NULL, &ts);
		if (sig > 0 && stop_signal(sig))
			return sig;
		/* EAGAIN (the deadline), EINTR, or SIGQUIT/SIGUSR*: look at the clock again. */
	}
}

/*
 * --watch: scan every --interval seconds until SIGINT, SIGTERM or SIGHUP
 * (exit 0). A scan that fails (a process that vanished at the wrong moment,
 * a full disk) is one line on standard error; the next scan comes anyway.
 */
static int watch(const struct st_orphans_opts *o, const struct st_output *output, int *exit_code,
		 struct st_error *err)
{
	int first = 1;

	if (o->textfile) {
		int ret = textfile_probe(o->textfile, err);

		if (ret < 0)
			return ret;
	}
	for (;;) {
		struct st_orphans scan __attribute__((cleanup(st_orphans_free))) = { 0 };
		double start = clock_s(CLOCK_MONOTONIC);
		struct st_error one = { 0 };
		char line[3 * ST_ERROR_MSG_MAX];
		int sig = st_signals_poll();

		if (sig && stop_signal(sig))
			break;
		if (scan_and_report(o, output, stdout, first, &scan, NULL, &one) < 0) {
			st_error_format(&one, line, sizeof(line));
			fprintf(stderr, "sandboxtime: %s (scanning again in %g s)\n", line, o->interval_s);
		}
		first = 0;
		if (sleep_until(start + o->interval_s))
			break;
	}
	*exit_code = ST_EXIT_OK;
	(void)err;
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
	_cleanup_(closefilep) FILE *file = NULL;
	FILE *out = stdout;
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
		ret = textfile_probe(o->textfile, err);
		if (ret < 0)
			return ret;
	}
	if (output->path && !output->quiet) {
		file = fopen(output->path, "we");
		if (!file)
			return st_error_set(err, errno, "orphans: -o %s", output->path);
		out = file;
	}
	ret = scan_and_report(o, output, out, 1, &scan, o->cleanup ? &cleanup : NULL, err);
	if (ret < 0)
		return ret;
	if (file) {
		FILE *f = steal_pointer(&file);

		if (fclose(f) == EOF)
			return st_error_set(err, errno, "orphans: writing %s", output->path);
	}
	/* --cleanup: the status says whether an orphan is left, for the next cron run to act on. */
	if (o->cleanup)
		*exit_code = cleanup.left ? ST_EXIT_ORPHANS_FOUND : ST_EXIT_OK;
	else
		*exit_code = scan.orphans ? ST_EXIT_ORPHANS_FOUND : ST_EXIT_OK;
	return 0;
}
