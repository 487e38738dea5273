/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_GRID_H
#define SANDBOXTIME_BENCH_GRID_H

#include <stddef.h>

#include "sandboxtime/bench_guard.h"
#include "sandboxtime/error.h"
#include "sandboxtime/stats.h"

/*
 * A bench measured as places x operations (bench files: tmpfs, disk, ...
 * x create, stat, ...; bench userns: host, depth 1..32 x stat, open, ...).
 * Each round makes one child per place, in an order that starts one place
 * further on each round, after one unrecorded round; the child measures every
 * operation once and sends the figures back. A place the kernel refuses in
 * the first round is unavailable, with the reason, and the rest runs.
 */
#define ST_GRID_MAX_PLACES 16
#define ST_GRID_MAX_OPS 8
#define ST_GRID_MAX_CONFIG 8

struct st_grid_cell {
	struct st_samples v;                /* in the grid's unit, per operation */
	char refused[ST_GUARD_REASON_MAX];  /* "": the figure stands; else why not */
	char flag[ST_GUARD_REASON_MAX];     /* shown beside a figure that stands */
};

/* What a place's child sends back for one round. */
struct st_grid_result {
	double v[ST_GRID_MAX_OPS];
	char refused[ST_GRID_MAX_OPS][ST_GUARD_REASON_MAX]; /* a checksum that did not match */
	char flag[ST_GRID_MAX_OPS][ST_GUARD_REASON_MAX];
	int failed;
	struct st_error err;
};

struct st_bench_grid;

/* Measures place @place in a child (which may enter namespaces: it exits after). */
typedef void (*st_grid_sample_fn)(const struct st_bench_grid *g, size_t place, void *ctx,
				  struct st_grid_result *r);

struct st_grid_config {
	const char *key;
	double value;
};

struct st_bench_grid {
	const char *bench; /* "files", "userns" */
	const char *unit;  /* "us" or "ns": per operation */
	unsigned int repeat;
	double resolution_us;
	int interrupted_by;
	size_t nplaces, nops;
	const char *places[ST_GRID_MAX_PLACES];
	const char *ops[ST_GRID_MAX_OPS];
	/* NULL: every operation is in unit; else each its own (bench where: ns and us) */
	const char *const *op_units;
	char unavailable[ST_GRID_MAX_PLACES][2 * ST_ERROR_MSG_MAX]; /* "": measured; else why not */
	struct st_grid_cell cell[ST_GRID_MAX_PLACES][ST_GRID_MAX_OPS];
	struct st_grid_config config[ST_GRID_MAX_CONFIG]; /* numbers the report's config shows */
	size_t nconfig;
	const char *method; /* how it was measured: one paragraph */
	char summary[768];  /* what the numbers mean here and what they do not show */
};

int st_grid_init(struct st_bench_grid *g, const char *bench, const char *unit, unsigned int repeat,
		 const char *const *places, size_t nplaces, const char *const *ops, size_t nops,
		 struct st_error *err);
void st_grid_set_config(struct st_bench_grid *g, const char *key, double value);

/*
 * Runs @fn(@arg, @r) in a child and takes its @r back through a pipe (a
 * place's measuring child: it may enter namespaces or cgroups, it exits
 * after). -EPROTO naming @what when the child died without a result.
 */
int st_grid_in_child(const char *what, void (*fn)(void *arg, struct st_grid_result *r), void *arg,
		     struct st_grid_result *r, struct st_error *err);

/* The rounds; -EINTR with interrupted_by set on SIGINT, SIGTERM, ... */
int st_grid_run(struct st_bench_grid *g, st_grid_sample_fn fn, void *ctx, struct st_error *err);

/* Replaces every figure below the clock's resolution by the reason. */
void st_grid_apply_guards(struct st_bench_grid *g);

/* The unit of operation @op. */
const char *st_grid_op_unit(const struct st_bench_grid *g, size_t op);

/* The median of a cell, or -1 when it is refused, unavailable or empty. */
double st_grid_median(const struct st_bench_grid *g, size_t place, size_t op);

void st_grid_free(struct st_bench_grid *g);

/*
 * A grid bench as the registry (cmd_bench.c) runs it: its own struct, which
 * holds the grid at @grid, is measured by @sample; @finish (never NULL:
 * every bench's report ends with its summary sentence, "On this machine
 * ...") adds its own flags and the summary once the guards are applied;
 * @free, when not NULL,
 * removes what its prepare made before the grid is freed. A new grid bench
 * is its .c/.h, one of these, and one row of st_benches[].
 */
struct st_grid_bench {
	size_t size; /* sizeof the bench's struct */
	size_t grid; /* offsetof its struct st_bench_grid */
	st_grid_sample_fn sample;
	void (*finish)(void *b);
	void (*free)(void *b);
};

/* A bench's descriptor: its struct (which holds the grid as g) and its functions. */
#define ST_GRID_BENCH(type, sample_, finish_, free_)                                          \
	{ .size = sizeof(type), .grid = offsetof(type, g), .sample = (sample_), .finish = (finish_), \
	  .free = (free_) }

struct st_bench_grid *st_grid_of(const struct st_grid_bench *gb, void *b);
/* Every place and round, then the guards and @finish. */
int st_grid_bench_run(const struct st_grid_bench *gb, void *b, struct st_error *err);
void st_grid_bench_free(const struct st_grid_bench *gb, void *b);

#endif
