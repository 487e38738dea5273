/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_BENCH_CHURN_H
#define SANDBOXTIME_REPORT_BENCH_CHURN_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/bench_churn.h"
#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/output.h"

/* `bench churn`'s report: schema sandboxtime/bench/v1 with "bench": "churn". */
struct st_bench_churn_report {
	const struct st_output *out;
	const struct st_host *host;
	const struct st_bench_churn *b;
};

json_t *st_bench_churn_json(const struct st_bench_churn_report *r);

/* The sentence under the table: the last creator count's rate, latency, backlog, overhead. */
void st_bench_churn_summary(const struct st_bench_churn *b, char *buf, size_t len);

/* --net=veth|bridge: what the pairs are and where they go (the fourth note); "" without. */
void st_bench_churn_net_note(const struct st_bench_churn *b, char *buf, size_t len);

/* Its formats (struct st_doc_format of report.h), on a struct st_bench_churn_report. */
struct st_doc_format;
extern const struct st_doc_format st_bench_churn_format;

/* Writes @ctx (a struct st_bench_churn_report) in its format. */
int st_bench_churn_report_write(const void *ctx, FILE *out, struct st_error *err);
/* The table in @style (ST_TEXT_*: markdown, bars, colour); 0. */
int st_bench_churn_write_table(const struct st_bench_churn_report *r, FILE *out, unsigned int style);

#endif
