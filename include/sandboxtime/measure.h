/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_MEASURE_H
#define SANDBOXTIME_MEASURE_H

#include <stdint.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/stats.h"

/* The figures kept per set; the table drives every report format. */
enum st_figure {
	ST_FIG_SETUP,
	ST_FIG_SETUP_CPU,
	ST_FIG_READY,
	ST_FIG_TEARDOWN,
	ST_FIG_TEARDOWN_CPU,
	ST_FIG_DEFERRED,
	ST_FIG_SETUP_COLD,
	ST_FIG_READY_COLD,
	ST_FIG_TEARDOWN_COLD,
	ST_FIG_COUNT,
};

struct st_figure_info {
	const char *key;   /* JSON key, "setup_us" */
	const char *label; /* table heading */
};

extern const struct st_figure_info st_figures[ST_FIG_COUNT];

/* One clone/ready/exit/reap cycle, in nanoseconds. */
struct st_cycle {
	uint64_t setup_ns;     /* the clone3() call in the parent */
	uint64_t setup_cpu_ns; /* this thread's CPU time in that call */
	uint64_t ready_ns;     /* clone3() start until the child said it runs */
	uint64_t teardown_ns;  /* "exit now" until waitpid() returned */
	uint64_t teardown_cpu_ns;
	uint64_t reaped_at_ns; /* CLOCK_MONOTONIC when waitpid() returned */
};

/* A cumulative set of layers (base, +user, +uts, ...) or one layer alone. */
struct st_set {
	const char *name; /* "base" or the layer's name */
	int layer;        /* the layer this set adds, -1 for base */
	int alone;        /* 1: this layer only (after user when rootless) */
	unsigned int mask;
	struct st_samples fig[ST_FIG_COUNT];
	uint64_t deferred_probes; /* failed unshare() probes, all samples */
};

#define ST_MAX_SETS (1 + 2 * ST_LAYER_COUNT)

struct st_measure_config {
	unsigned int mask; /* layers to measure, after availability */
	int rootless;
	unsigned int repeat;
	unsigned int warmup;
	unsigned int deferred_repeat;
	unsigned int cold_ms; /* 0: no cold pass */
	int alone;
	/* Called between samples, e.g. to draw progress; may be NULL. */
	void (*progress)(void *ctx, const char *phase, unsigned int done, unsigned int total);
	void *progress_ctx;
};

struct st_measurement {
	struct st_set sets[ST_MAX_SETS];
	size_t nsets;
	uint64_t deferred_wait_ns; /* time spent waiting for the kernel's frees */
	uint64_t elapsed_ns;       /* the whole measurement */
	int interrupted_by;        /* signal that stopped it, or 0 */
};

/* Runs one cycle with @flags. */
int st_measure_cycle(uint64_t flags, struct st_cycle *out, struct st_error *err);

/*
 * Fills @m with the sets for @cfg and measures them: the warm pass
 * (setup/ready/teardown, interleaved), the deferred pass, then the cold pass.
 * A forwarded signal stops it: -EINTR with m->interrupted_by set.
 */
int st_measure_run(const struct st_measure_config *cfg, struct st_measurement *m,
		   struct st_error *err);

void st_measurement_free(struct st_measurement *m);

/* Median of @fig in set @i; 0 when there are no samples. */
double st_set_median(const struct st_set *set, enum st_figure fig);

/*
 * The set that @set's cost is measured against: the previous cumulative set,
 * or for an "alone" set, base (or user when rootless). NULL for base.
 */
const struct st_set *st_set_reference(const struct st_measurement *m, size_t i);

#endif
