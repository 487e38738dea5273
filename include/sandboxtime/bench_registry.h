/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_REGISTRY_H
#define SANDBOXTIME_BENCH_REGISTRY_H

#include "sandboxtime/bench_grid.h"
#include "sandboxtime/cli.h"

/*
 * sandboxtime bench NAME: one row per bench, indexed by enum st_bench_kind
 * (cli.h), from which the names, --help's usage lines, the default repeats
 * and the dispatch derive (cmd_bench.c). A grid bench (places x
 * operations) is its st_grid_bench and a prepare that reads its options; the
 * others run a function of their own.
 */
struct st_bench_entry {
	const char *name;
	const char *usage;           /* --help's line after "sandboxtime bench NAME [OPTIONS]" */
	unsigned int default_repeat; /* without --repeat; 0: --repeat's own default */
	const struct st_grid_bench *grid;
	int (*prepare)(void *b, const struct st_bench_opts *o, unsigned int repeat,
		       struct st_error *err);
	int (*run)(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		   struct st_error *err);
};

extern const struct st_bench_entry st_benches[ST_BENCH_NAME_KINDS];

/* --repeat when given, else the bench's own default. */
unsigned int st_bench_repeat(const struct st_bench_opts *o, enum st_bench_kind k);

#endif
