/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_H
#define SANDBOXTIME_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/host.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/orphans.h"
#include "sandboxtime/orphans_cleanup.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/net_steps.h"
#include "sandboxtime/sandbox.h"

#define ST_SCHEMA "sandboxtime/v1"
#define ST_MAX_REPORT_ERRORS 8
#define ST_SCHEMA_ORPHANS "sandboxtime/orphans/v1"

/* Everything one run knows; each format renders the same facts. */
struct st_report {
	const struct st_opts *opts;
	struct st_host host;
	unsigned int mask;                  /* measured layers */
	unsigned int unavailable;           /* asked, but the kernel refused them */
	int layer_errnum[ST_LAYER_COUNT];   /* why, for each unavailable layer */
	const struct st_measurement *m;     /* NULL: nothing measured (--repeat=0) */
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

/* Writes @r in the format of r->opts->format; -errno on a write error. */
int st_report_write(const struct st_report *r, FILE *out, struct st_error *err);

/* The sandboxtime/v1 document (new reference), for writing and for tests. */
json_t *st_report_json(const struct st_report *r);

int st_report_write_json(const struct st_report *r, FILE *out, struct st_error *err);
int st_report_write_table(const struct st_report *r, FILE *out, int tty, struct st_error *err);
int st_report_write_csv(const struct st_report *r, FILE *out, struct st_error *err);

/* Why layer @layer is unavailable: "Invalid argument (this kernel was built without ...)". */
void st_report_layer_reason(const struct st_report *r, int layer, char *buf, size_t len);

/* Incremental cost of set @i for figure @fig: its median minus its reference's. */
double st_report_increment(const struct st_measurement *m, size_t i, enum st_figure fig);

/* report_method.c: {"setup_us": {median, ci_low, ci_high, significant, n}, ...} of set @i. */
json_t *st_report_increments_json(const struct st_measurement *m, size_t i);
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

/* `orphans`: what one scan found, and how to show it. */
struct st_orphans_report {
	const struct st_opts *opts;
	struct st_host host;
	const struct st_orphans *scan;
	const struct st_cleanup *cleanup; /* NULL: no --cleanup */
};

/* The sandboxtime/orphans/v1 document (new reference). */
json_t *st_orphans_json(const struct st_orphans_report *r);
int st_orphans_write(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_json(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_table(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_csv(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_prom(const struct st_orphans_report *r, FILE *out, struct st_error *err);
/* The Prometheus text of a --textfile: st_orphans_write_prom() plus when the scan ended and took. */
int st_orphans_write_textfile(const struct st_orphans_report *r, double scan_time_s,
			      double scan_duration_s, FILE *out, struct st_error *err);

/*
 * Escapes @in as a Prometheus label value (text exposition format: backslash,
 * double quote and line feed become \\, \" and \n). Returns the length it
 * needs; the output is cut to @len - 1 characters like snprintf.
 */
size_t st_prom_escape_label(const char *in, char *out, size_t len);

/* Progress on standard error, for st_measure_config.progress (tty only). */
void st_report_progress(void *ctx, const char *phase, unsigned int done, unsigned int total);
void st_report_progress_done(void);

/* A stats object {min, median, p95, mean, stddev, n, samples}, or null when empty. */
json_t *st_report_stats_json(const struct st_samples *s);
json_t *st_report_host_json(const struct st_host *h);

/* netbench: schema sandboxtime/netbench/v1 (DESIGN.md). */
#define ST_NB_SCHEMA "sandboxtime/netbench/v1"
#define ST_NB_MAX_NOTES 12
#define ST_NB_NOTE_MAX 512

struct st_nb_report {
	const struct st_opts *opts;
	const struct st_host *host;
	int server_cpu, client_cpu; /* --cpu-pin's choice, -1 without */
	const struct st_nb_path_result *paths; /* [ST_NB_PATH_COUNT] */
	struct st_nb_ratios ratios;
	uint64_t elapsed_ns;
};

/* The method, as sentences: the JSON "notes" and the table's footer. */
size_t st_nb_report_notes(const struct st_nb_report *r, char notes[][ST_NB_NOTE_MAX], size_t max);

/* Transactions per second of the latency phase, 0 without one. */
double st_nb_transactions_per_s(const struct st_nb_path_result *p);

json_t *st_nb_report_json(const struct st_nb_report *r);
/* Writes @ctx (a struct st_nb_report) in r->opts->format: an st_session_writer. */
int st_nb_report_write(const void *ctx, FILE *out, struct st_error *err);
int st_nb_write_json(const struct st_nb_report *r, FILE *out, struct st_error *err);
int st_nb_write_table(const struct st_nb_report *r, FILE *out, struct st_error *err);
int st_nb_write_csv(const struct st_nb_report *r, FILE *out, struct st_error *err);
int st_nb_write_prometheus(const struct st_nb_report *r, FILE *out, struct st_error *err);

#endif
