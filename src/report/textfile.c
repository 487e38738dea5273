// SPDX-License-Identifier: MIT
/*
 * The --textfile and --watch machinery that orphans and layers share: an
 * atomic replace of a Prometheus text file, and a sleep that a stopping
 * signal cuts short.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/signals.h"
#include "sandboxtime/textfile.h"

double st_clock_s(int clock_id)
{
	struct timespec ts;

	clock_gettime((clockid_t)clock_id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* PATH.tmp.PID: in PATH's directory, so that rename(2) replaces PATH in one step. */
static int textfile_tmp(const char *what, const char *path, char *tmp, size_t len,
			struct st_error *err)
{
	int n = snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());

	if (n < 0 || (size_t)n >= len)
		return st_error_set(err, ENAMETOOLONG, "%s: --textfile %s", what, path);
	return 0;
}

/* Creates PATH.tmp.PID (its name in @tmp): an fd, or -errno with @err set. */
static int textfile_create(const char *what, const char *path, char *tmp, size_t len,
			   struct st_error *err)
{
	int fd, ret = textfile_tmp(what, path, tmp, len, err);

	if (ret < 0)
		return ret;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return st_error_set(err, errno, "%s: --textfile: cannot write %s", what, tmp);
	return fd;
}

int st_textfile_probe(const char *what, const char *path, struct st_error *err)
{
	char tmp[PATH_MAX];
	int fd = textfile_create(what, path, tmp, sizeof(tmp), err);

	if (fd < 0)
		return fd;
	close(fd);
	unlink(tmp);
	return 0;
}

/* Signals are blocked (main), so nothing interrupts this between write and rename. */
int st_textfile_write(const char *what, const char *path, st_textfile_writer writer,
		      const void *ctx, struct st_error *err)
{
	char tmp[PATH_MAX];
	FILE *f;
	int ret, fd = textfile_create(what, path, tmp, sizeof(tmp), err);

	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		ret = st_error_set(err, errno, "%s: --textfile: %s", what, tmp);
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = writer(ctx, f, err);
	if (ret == 0 && (fflush(f) == EOF || fsync(fd) < 0))
		ret = st_error_set(err, errno, "%s: --textfile: writing %s", what, tmp);
	if (fclose(f) == EOF && ret == 0)
		ret = st_error_set(err, errno, "%s: --textfile: writing %s", what, tmp);
	if (ret == 0 && rename(tmp, path) < 0)
		ret = st_error_set(err, errno, "%s: --textfile: renaming %s to %s", what, tmp, path);
	if (ret < 0)
		unlink(tmp);
	return ret;
}

int st_watch_stop_signal(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

int st_watch_sleep_until(double deadline)
{
	for (;;) {
		double left = deadline - st_clock_s(CLOCK_MONOTONIC);
		struct timespec ts;
		int sig;

		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(st_signals_forwarded(), NULL, &ts);
		if (sig > 0 && st_watch_stop_signal(sig))
			return sig;
		/* EAGAIN (the deadline), EINTR, or SIGQUIT/SIGUSR*: look at the clock again. */
	}
}
