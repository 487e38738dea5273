/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_BENCH_FORK_H
#define SANDBOXTIME_REPORT_BENCH_FORK_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/bench_fork.h"
#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/output.h"

/* `bench fork`'s report: schema sandboxtime/bench/v1 with "bench": "fork". */
struct st_bench_fork_report {
	const struct st_output *out;
	const struct st_host *host;
	const struct st_bench_fork *b;
};

json_t *st_bench_fork_json(const struct st_bench_fork_report *r);

/*
 * The sentence next to the table: what the numbers mean on this machine
 * (the fork of the largest parent against the smallest, and posix_spawn's)
 * and what they do not show.
 */
void st_bench_fork_summary(const struct st_bench_fork *b, char *buf, size_t len);

/* Its formats (struct st_doc_format of report.h), on a struct st_bench_fork_report. */
struct st_doc_format;
extern const struct st_doc_format st_bench_fork_format;

/* Writes @ctx (a struct st_bench_fork_report) in its format. */
int st_bench_fork_report_write(const void *ctx, FILE *out, struct st_error *err);
/* The table in @style (ST_TEXT_*: markdown, bars, colour); 0. */
int st_bench_fork_write_table(const struct st_bench_fork_report *r, FILE *out, unsigned int style);

#endif
