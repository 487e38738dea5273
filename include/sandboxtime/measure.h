/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_MEASURE_H
#define SANDBOXTIME_MEASURE_H

#include <stdint.h>

#include "sandboxtime/cycle.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/stats.h"

/* The figures kept per set; the table drives every report format. */
enum st_figure {
	ST_FIG_SETUP,
	ST_FIG_SETUP_CPU,
	ST_FIG_READY,
	ST_FIG_TEARDOWN,
	ST_FIG_TEARDOWN_CPU,
	ST_FIG_CHILD_CPU,
	ST_FIG_DEFERRED,
	ST_FIG_DEFERRED_DRAIN,
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

/* A cumulative set of layers (base, +user, +uts, ...) or one layer alone. */
struct st_set {
	const char *name; /* "base" or the layer's name */
	int layer;        /* the layer this set adds, -1 for base */
	int alone;        /* 1: this layer only (after user when rootless) */
	unsigned int mask;
	struct st_samples fig[ST_FIG_COUNT];
	struct st_samples freed[ST_LAYER_COUNT]; /* deferred: reap until each type was freed, us */
	struct st_samples attempt[ST_LAYER_COUNT]; /* the successful probe's own duration, us */
	unsigned int last[ST_LAYER_COUNT];       /* deferred samples in which that type was last */
	uint64_t deferred_probes; /* failed unshare() probes, all samples */
	unsigned int preempted;   /* warm samples in which the parent was switched out */
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
	uint64_t seed; /* the order of the sets in each round */
	/* Called between samples, e.g. to draw progress; may be NULL. */
	void (*progress)(void *ctx, const char *phase, unsigned int done, unsigned int total);
	void *progress_ctx;
};

struct st_measurement {
	struct st_set sets[ST_MAX_SETS];
	size_t nsets;
	uint64_t deferred_wait_ns; /* time spent waiting for the kernel's frees */
	uint64_t drain_wait_ns;    /* untimed waits for earlier samples' frees */
	unsigned int drains;       /* deferred samples drained before */
	unsigned int drain_sleeps; /* of those, settled by a sleep (membarrier refused) */
	uint64_t elapsed_ns;       /* the whole measurement */
	uint64_t clock_read_ns;    /* one read of the monotonic clock, subtracted from each timing */
	uint64_t seed;
	/* No deferred figures: why (the lab could not be made), or 0. */
	int deferred_errnum;
	char deferred_reason[2 * ST_ERROR_MSG_MAX];
	unsigned int deferred_poll_us; /* the probe's pause between passes (0: yield only) */
	int interrupted_by;        /* signal that stopped it, or 0 */
	/*
	 * st_set_increment's results, computed once: every writer (table, JSON,
	 * the charts) asks for the same intervals, and each sorts the rounds.
	 * NULL (a measurement made by hand): computed each time.
	 */
	struct st_increment_memo *memo;
};

/*
 * Fills @m with the sets for @cfg and measures them: the warm pass
 * (setup/ready/teardown, interleaved), the deferred pass, then the cold pass.
 * A forwarded signal stops it: -EINTR with m->interrupted_by set.
 */
int st_measure_run(const struct st_measure_config *cfg, struct st_measurement *m,
		   struct st_error *err);

void st_measurement_free(struct st_measurement *m);

/*
 * The increment of set @i over its reference for @fig: the median of the
 * differences paired by round, with its exact binomial order-statistic
 * interval (none below n = 6, see st_paired_increment()).
 */
int st_set_increment(const struct st_measurement *m, size_t i, enum st_figure fig,
		     struct st_increment *out);

/*
 * The within-round differences of set @i's @fig to its reference, in round
 * order (the base's: its own samples), in @out (malloc'd, @n of them).
 */
int st_set_differences(const struct st_measurement *m, size_t i, enum st_figure fig, double **out,
		       size_t *n);

/* Median of @fig in set @i; 0 when there are no samples. */
double st_set_median(const struct st_set *set, enum st_figure fig);

/*
 * The set that @set's cost is measured against: the previous cumulative set,
 * or for an "alone" set, base (or user when rootless). NULL for base.
 */
const struct st_set *st_set_reference(const struct st_measurement *m, size_t i);

#endif
