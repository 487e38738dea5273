/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_NETBENCH_H
#define SANDBOXTIME_REPORT_NETBENCH_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/output.h"

/* netbench: schema sandboxtime/netbench/v1 (docs/DESIGN.md). */
#define ST_NB_SCHEMA "sandboxtime/netbench/v1"
#define ST_NB_MAX_NOTES 12
#define ST_NB_NOTE_MAX 512

struct st_nb_report {
	const struct st_output *out;
	const struct st_nb_config *cfg;
	unsigned int path_mask; /* the paths asked for (enum st_nb_path bits) */
	int cpu_pin;            /* --cpu-pin was given */
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
/* Its formats (struct st_doc_format of report.h), on a struct st_nb_report. */
struct st_doc_format;
extern const struct st_doc_format st_nb_format;

/* Writes @ctx (a struct st_nb_report) in r->out->format. */
int st_nb_report_write(const void *ctx, FILE *out, struct st_error *err);
int st_nb_write_json(const struct st_nb_report *r, FILE *out, struct st_error *err);
/* The table in @style (ST_TEXT_*). */
int st_nb_write_table(const struct st_nb_report *r, FILE *out, unsigned int style,
		      struct st_error *err);
int st_nb_write_csv(const struct st_nb_report *r, FILE *out, struct st_error *err);
int st_nb_write_prometheus(const struct st_nb_report *r, FILE *out, struct st_error *err);

#endif
