/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_BENCH_GRID_H
#define SANDBOXTIME_REPORT_BENCH_GRID_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/bench_grid.h"
#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/output.h"

/* `bench files` and `bench userns`: schema sandboxtime/bench/v1, one row per place and operation. */
struct st_bench_grid_report {
	const struct st_output *out;
	const struct st_host *host;
	const struct st_bench_grid *g;
};

json_t *st_bench_grid_json(const struct st_bench_grid_report *r);

/* Its formats (struct st_doc_format of report.h), on a struct st_bench_grid_report. */
struct st_doc_format;
extern const struct st_doc_format st_bench_grid_format;

/* Writes @ctx (a struct st_bench_grid_report) in its format. */
int st_bench_grid_report_write(const void *ctx, FILE *out, struct st_error *err);
/* The table in @style (ST_TEXT_*: markdown, bars, colour); 0. */
int st_bench_grid_write_table(const struct st_bench_grid_report *r, FILE *out, unsigned int style);

#endif
