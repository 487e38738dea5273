/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SESSION_H
#define SANDBOXTIME_SESSION_H

#include <stdio.h>

#include "sandboxtime/cgroup_measure.h"
#include "sandboxtime/error.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/report_layers.h"
#include "sandboxtime/sink.h"

struct st_opts;

/*
 * The measuring of the layers that `sandboxtime -- CMD`, `layers` and the
 * benches share: the CPU pinned, the host identified, the layers chosen and
 * measured. The report goes out through the sink (sink.h).
 */
struct st_session {
	const struct st_output *output;         /* format, -o, -q, -v, --cpu */
	const struct st_measure_opts *measure;  /* NULL: the command measures no layers */
	struct st_report_config config;         /* what the report says of the measuring */
	struct st_sink sink;                    /* -o FILE or stderr, --svg, --html */
	struct st_measurement m;
	struct st_cgroup_measurement cgm; /* --cgroup: the cgroup layer's samples */
	struct st_report report;
};

/* Pins the CPU (--cpu), opens the sink and identifies the host: what every measuring command needs. */
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

/* Writes the layers (or bench syscall) report through the sink, checking the streams. */
int st_session_report(struct st_session *s, struct st_error *err);

void st_session_end(struct st_session *s);

/* Exit code for a failed session: 128+N after signal N, else 125. */
int st_session_failure_code(const struct st_session *s);

#endif
