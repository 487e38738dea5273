/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SESSION_H
#define SANDBOXTIME_SESSION_H

#include <stdio.h>

#include "sandboxtime/cgroup_measure.h"
#include "sandboxtime/error.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/report_layers.h"

struct st_opts;

/* What `sandboxtime -- CMD` and `sandboxtime layers` share. */
struct st_session {
	const struct st_output *output;         /* format, -o, -q, -v, --cpu */
	const struct st_measure_opts *measure;  /* NULL: the command measures no layers */
	struct st_report_config config;         /* what the report says of the measuring */
	FILE *out; /* the report's stream: -o FILE (owned) or stderr */
	int created_output; /* -o FILE did not exist: remove it if no report comes */
	int report_written;
	FILE *svg, *html;     /* --svg=FILE, --html=FILE (owned), or NULL */
	int created_svg, created_html;
	int charts_written;
	struct st_measurement m;
	struct st_cgroup_measurement cgm; /* --cgroup: the cgroup layer's samples */
	struct st_report report;
};

/* Pins the CPU (--cpu), opens -o FILE and identifies the host: what every command needs. */
int st_session_open(struct st_session *s, const struct st_output *output, struct st_error *err);

/*
 * Pins the CPU, opens -o FILE (before measuring, so a bad path costs
 * nothing), collects host facts and decides the layers: asked ones that the
 * kernel refuses are an error when named, and reported as unavailable when
 * they came from "all".
 */
int st_session_prepare(struct st_session *s, const struct st_output *output,
		       const struct st_measure_opts *measure, struct st_error *err);

/* The report's config of a run (@run) or of `layers`: --net, --config and CMD. */
void st_session_describe_run(struct st_session *s, const struct st_run_opts *o, int run);

/*
 * Tries every asked layer in a short-lived child and applies the outcome:
 * explains a failed clone when --repeat=0 skipped this at first.
 */
int st_session_probe_layers(struct st_session *s, struct st_error *err);


/* Measures every layer set; -EINTR with m.interrupted_by on a signal. */
int st_session_measure(struct st_session *s, struct st_error *err);

/* Writes the report (unless --quiet) and closes the stream, checking both. */
int st_session_report(struct st_session *s, struct st_error *err);

/* How a command's document goes out: in --format, as the table (--html), as JSON (the charts). */
typedef int (*st_session_writer)(const void *ctx, FILE *out, struct st_error *err);
struct st_session_writers {
	st_session_writer write;        /* the report in the format asked for */
	st_session_writer table;        /* the plain table, for --html's page */
	json_t *(*doc)(const void *ctx); /* the JSON document: --svg and --html draw it */
	const char *title;              /* the page's title: "sandboxtime layers" */
};

/*
 * Writes a report through @w (unless --quiet): empties -o FILE first,
 * flushes and checks the stream; then --svg and --html (even with --quiet:
 * they were asked for by name). Used by commands with their own documents.
 */
int st_session_emit(struct st_session *s, const struct st_session_writers *w, const void *ctx,
		    struct st_error *err);

void st_session_end(struct st_session *s);

/* Exit code for a failed session: 128+N after signal N, else 125. */
int st_session_failure_code(const struct st_session *s);

#endif
