/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_BENCH_H
#define SANDBOXTIME_REPORT_BENCH_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/host.h"

#define ST_SCHEMA_BENCH "sandboxtime/bench/v1"

/* The sandboxtime/bench/v1 document of `bench syscall` and `bench cpu`. */
json_t *st_bench_json(const struct st_host *h, const struct st_bench_syscall *b);

/* One row per op and place: the table after the host line, and CSV. */
void st_bench_write_table(const struct st_bench_syscall *b, FILE *out);
void st_bench_write_csv(const struct st_bench_syscall *b, FILE *out);

#endif
