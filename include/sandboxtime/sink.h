/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SINK_H
#define SANDBOXTIME_SINK_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/error.h"
#include "sandboxtime/output.h"

/*
 * Where a command's report goes: -o FILE or the command's own stream, and
 * --svg=FILE and --html=FILE. Every command's report goes through one sink,
 * whatever it measured (src/cmd/session.c measures the layers, and only that).
 */
struct st_sink {
	const struct st_output *output; /* format, -o, -q, --svg, --html */
	FILE *out;          /* the report's stream: -o FILE (owned), or the command's stream */
	const char *name;   /* what errors call it: -o's path, or "stderr"/"stdout" */
	int created_output; /* -o FILE did not exist: remove it if no report comes */
	int report_written;
	FILE *svg, *html;   /* --svg=FILE, --html=FILE (owned), or NULL */
	int created_svg, created_html;
	int charts_written;
};

/*
 * Opens -o FILE (not with --quiet: then there is no report), --svg and
 * --html now, so that a path that cannot be written costs no measuring.
 * Without -o the report goes to @stream (stderr: the workload owns stdout;
 * stdout: the report is the command's answer). Close with st_sink_close
 * on every path, even when this fails.
 */
int st_sink_open(struct st_sink *k, const struct st_output *output, FILE *stream,
		 struct st_error *err);

/* Whether anything will be written: a report (not --quiet), or --svg, --html. */
int st_sink_writes(const struct st_sink *k);

/*
 * How a command's document goes out: through its formats (report.h) in
 * --format, as its plain table on --html's page, as its JSON in the charts.
 */
struct st_doc_format;
struct st_sink_writers {
	const struct st_doc_format *format;
	/* --html's table when it is not the format's own plain table (NULL). */
	int (*table)(const void *ctx, FILE *out, struct st_error *err);
	const char *title; /* the page's title: "sandboxtime layers" */
	const char *what;  /* what a write error names: "bench fork" */
};

/*
 * Writes a report through @w (unless --quiet): empties -o FILE first,
 * flushes and checks the stream; then --svg and --html (even with --quiet:
 * they were asked for by name).
 */
int st_sink_emit(struct st_sink *k, const struct st_sink_writers *w, const void *ctx,
		 struct st_error *err);

/* Closes what the sink opened; a file it made for a report that never came is removed. */
void st_sink_close(struct st_sink *k);

#endif
