/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_LAYERS_H
#define SANDBOXTIME_REPORT_LAYERS_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/output.h"
#include "sandboxtime/stats.h"

struct st_steps;
struct st_cgroup_measurement;
struct st_cgroup;
struct st_workload;
struct st_net_plan;
struct st_hardening;
struct st_net_steps;
struct st_bench_syscall;

#define ST_SCHEMA "sandboxtime/v1"
#define ST_MAX_REPORT_ERRORS 8

/* How a run or `layers` was asked to measure: the document's "config". */
struct st_report_config {
	int run;               /* a run: steps, network, security and workload too */
	enum st_net_mode net;
	unsigned int repeat;
	unsigned int warmup;
	unsigned int deferred_repeat;
	struct st_seed seed;   /* --seed, when given */
	unsigned int cold_ms;
	int alone;
	const char *config;    /* --config FILE, or NULL */
	char **argv;           /* CMD (a run) */
};

/* Everything one run knows; each format renders the same facts. */
struct st_report {
	const struct st_output *out;
	const struct st_report_config *config;
	struct st_host host;
	unsigned int mask;                  /* measured layers */
	unsigned int unavailable;           /* asked, but the kernel refused them */
	int layer_errnum[ST_LAYER_COUNT];   /* why, for each unavailable layer */
	const struct st_measurement *m;     /* NULL: nothing measured (--repeat=0) */
	const struct st_cgroup_measurement *cgroup; /* --cgroup measured, or NULL */
	const struct st_cgroup *cgroup_run; /* the run's cgroup (paths, mode), or NULL */
	const struct st_steps *steps;       /* NULL for `layers` */
	const struct st_workload *workload; /* NULL for `layers`, or CMD never ran */
	const struct st_net_plan *net;      /* NULL for `layers` */
	const struct st_hardening *harden;  /* NULL for `layers` */
	const struct st_net_steps *net_steps; /* --net-steps-repeat, or NULL */
	const struct st_bench_syscall *bench; /* bench syscall: its results instead of layers */
	size_t nerrors;
	char errors[ST_MAX_REPORT_ERRORS][ST_ERROR_MSG_MAX]; /* non-fatal problems */
};

/* Records a problem the run survived (it goes into "errors"). */
void st_report_add_error(struct st_report *r, const char *fmt, ...) _printf_(2, 3);

/* Its formats (struct st_doc_format of report.h), on a struct st_report. */
struct st_doc_format;
extern const struct st_doc_format st_report_format;

/* Writes @r in the format of r->out->format; -errno on a write error. */
int st_report_write(const struct st_report *r, FILE *out, struct st_error *err);

/* The sandboxtime/v1 document (new reference), for writing and for tests. */
json_t *st_report_json(const struct st_report *r);
/* What --json writes: that document, or bench syscall's in its place (r->bench). */
json_t *st_report_document_json(const struct st_report *r);

int st_report_write_json(const struct st_report *r, FILE *out, struct st_error *err);
/* The table in @style (ST_TEXT_*: markdown, bars, colour). */
int st_report_write_table(const struct st_report *r, FILE *out, unsigned int style,
			  struct st_error *err);
int st_report_write_csv(const struct st_report *r, FILE *out, struct st_error *err);
/* report_layers_prom.c: `layers --format=prometheus`, summaries in seconds per layer. */
int st_report_write_prom(const struct st_report *r, FILE *out, struct st_error *err);

/* Why layer @layer is unavailable: "Invalid argument (this kernel was built without ...)". */
void st_report_layer_reason(const struct st_report *r, int layer, char *buf, size_t len);

/* Incremental cost of set @i for figure @fig: its median minus its reference's. */
double st_report_increment(const struct st_measurement *m, size_t i, enum st_figure fig);

/* A row of the layers document (report_layers.c, report_layers_table.c): set @i of the measurement, or (set NULL) a layer the kernel refused. */
struct st_layer_row {
	const struct st_measurement *m;
	size_t i;
	const struct st_set *set;
	int layer;
	const struct st_cgroup_measurement *cgroup; /* CSV's cgroup row (set NULL), or NULL */
};

/* report_method.c: {"setup_us": {median, ci_low, ci_high, significant, n}, ...} of set @i. */
json_t *st_report_increments_json(const struct st_measurement *m, size_t i);

/* How many verdicts a report's increments give, and how many could be false by chance. */
struct st_verdicts {
	size_t intervals;      /* increments with a 95% interval */
	size_t without;        /* increments whose n is too small for one */
	size_t significant;    /* intervals that exclude 0 */
	double expected_false; /* sum of (1 - coverage): intervals expected to miss */
};

void st_report_verdicts(const struct st_measurement *m, struct st_verdicts *v);
/* The table's note on them, no newline at the end; st_report_verdicts_json() the same as JSON. */
void st_report_verdicts_note(const struct st_measurement *m, FILE *out);
json_t *st_report_verdicts_json(const struct st_measurement *m);
/* Adds deferred_by_type and deferred_last of @set to @o. */
void st_report_deferred_types_json(json_t *o, const struct st_set *set);
/* {elapsed_us, deferred_wait_us, drain_wait_us, clock_read_ns, deferred: {available, reason}}. */
json_t *st_report_measurement_json(const struct st_measurement *m);

/*
 * The table's text for the increment of set @i: the paired median, "~0" when
 * its 95% interval contains 0, "<0" when it lies below 0, "-" without samples.
 */
int st_report_increment_text(const struct st_measurement *m, size_t i, enum st_figure fig,
			     char *buf, size_t len);

/* report_cgroup.c: the cgroup layer's table section and its JSON ("cgroup_layer"). */
void st_report_cgroup_table(const struct st_cgroup_measurement *cm, FILE *out);
json_t *st_report_cgroup_json(const struct st_cgroup_measurement *cm);
/* A run's "cgroup": {mode, paths, born_into}, and its table line. */

#endif
