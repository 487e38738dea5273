/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_TEXTFILE_H
#define SANDBOXTIME_TEXTFILE_H

#include <stdio.h>

#include "sandboxtime/error.h"

/*
 * --textfile=PATH (orphans, layers): Prometheus text for node_exporter's
 * textfile collector, replaced atomically: PATH.tmp.PID in PATH's directory,
 * fsync, rename(2), so a reader sees the old file or the new one, never half
 * of one. @what names the command in messages ("orphans").
 */
typedef int (*st_textfile_writer)(const void *ctx, FILE *out, struct st_error *err);

/* At start: a directory that cannot take the temporary file is a command-line mistake. */
int st_textfile_probe(const char *what, const char *path, struct st_error *err);
/* Writes @writer's text to @path as above; on any failure the temporary file is removed. */
int st_textfile_write(const char *what, const char *path, st_textfile_writer writer,
		      const void *ctx, struct st_error *err);

/* CLOCK_REALTIME or CLOCK_MONOTONIC in seconds (the textfile's timestamps, --interval). */
double st_clock_s(int clock_id);

/*
 * Sleeps until @deadline (CLOCK_MONOTONIC seconds) in sigtimedwait(2): the
 * forwarded signals are blocked (main), so SIGINT, SIGTERM or SIGHUP wakes
 * it at once. Returns that signal, or 0 at the deadline.
 */
int st_watch_sleep_until(double deadline);
/* Whether @sig ends a --watch: SIGINT, SIGTERM, SIGHUP. */
int st_watch_stop_signal(int sig);

#endif
