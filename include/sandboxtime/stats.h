/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_STATS_H
#define SANDBOXTIME_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Summary of one figure; all values in the unit of the samples. */
struct st_stats {
	double min;
	double median;
	double p95;
	double mean;
	double stddev; /* sample standard deviation (n - 1) */
	double max;
	size_t n;
};

/*
 * Below this many samples the type-7 p95 lies between the two largest
 * samples: it says no more than the maximum, and reports call it "max".
 */
#define ST_P95_MIN_N 41

static inline int st_stats_p95_meaningful(size_t n)
{
	return n >= ST_P95_MIN_N;
}

/*
 * A growable list of samples kept in measurement order, so that reports carry
 * the raw data and two runs can be compared without a re-run.
 */
struct st_samples {
	double *v;
	size_t n;
	size_t cap;
};

int st_samples_reserve(struct st_samples *s, size_t cap);
/* Appends within the reserved capacity (no allocation on a measured path). */
int st_samples_add(struct st_samples *s, double v);
void st_samples_free(struct st_samples *s);

/*
 * Computes the summary of @n values (not modified). Percentiles interpolate
 * linearly between closest ranks (type 7, as R and numpy). n == 0 gives zeros.
 */
int st_stats_compute(const double *v, size_t n, struct st_stats *out);

/* A reproducible generator (splitmix64): the same seed gives the same stream. */
uint64_t st_rng_next(uint64_t *state);

/*
 * Folds @len bytes into the seed @h (FNV-1a, then one splitmix64 step so
 * that close inputs give unrelated seeds): a seed that follows from data,
 * e.g. from the bytes of compare's files. Start from ST_SEED_BASIS.
 */
#define ST_SEED_BASIS 0xcbf29ce484222325ull
uint64_t st_seed_fold(uint64_t h, const void *data, size_t len);

/* --seed: its value, and whether the option gave it (else a default was drawn or derived). */
struct st_seed {
	uint64_t value;
	int given;
};

/* @s's value when --seed gave it, else a fresh seed: kernel randomness, else the clock. */
uint64_t st_seed_or_new(const struct st_seed *s);

/* Uniform in [0, @n), @n > 0, without modulo bias. */
size_t st_rng_below(uint64_t *state, size_t n);

/* Fills @idx with a uniformly random permutation of 0..@n-1 (Fisher-Yates). */
void st_permute(size_t *idx, size_t n, uint64_t *state);

/* An increment with its uncertainty. */
struct st_increment {
	double median;  /* median of the paired differences */
	double ci_low;  /* exact distribution-free interval of that median (if has_interval) */
	double ci_high;
	double coverage; /* its true coverage, >= 0.95 (0 without an interval) */
	int has_interval; /* n allows 95% (n >= 6): else no interval and no verdict */
	int significant;  /* has_interval and the interval excludes 0 */
	size_t n;         /* pairs */
};

/*
 * The 1-based rank k of the exact binomial order-statistic interval
 * [v(k), v(n-k+1)] of the median of @n sorted values, the narrowest whose
 * coverage (stored in @coverage) is at least 95% whatever the distribution;
 * 0 when @n is too small for 95% (n < 6).
 */
size_t st_median_interval_rank(size_t n, double *coverage);

/* The smallest n for which st_median_interval_rank() gives an interval. */
size_t st_median_interval_min_n(void);

/* Why @inc has no interval, for reports: "n=3: 95% needs n >= 6". */
int st_increment_why(const struct st_increment *inc, char *buf, size_t len);

/*
 * The increment of @x over @ref, where @x[r] and @ref[r] were measured in the
 * same round r: the median of x[r] - ref[r], with the exact binomial
 * order-statistic interval of that median (no resampling, no assumption on
 * the distribution). Below n = 6 no interval reaches 95%: has_interval and
 * significant stay 0. n == 0 gives zeros; -ENOMEM if it cannot allocate.
 */
int st_paired_increment(const double *x, const double *ref, size_t n, struct st_increment *out);

/* The same from the @n differences @d themselves (sorted in place). */
void st_increment_of(double *d, size_t n, struct st_increment *out);

/* The ratio of two runs' medians, B over A, with its uncertainty. */
struct st_ratio {
	double median_a, median_b;
	double ratio;    /* median_b / median_a */
	double ci_low;   /* 95% percentile-bootstrap interval of the ratio */
	double ci_high;
	int has_ratio;    /* A's samples are all positive (else no ratio, no interval) */
	int has_interval; /* and both have ST_RATIO_MIN_N samples or more */
	int within_noise; /* the interval contains 1 */
	size_t na, nb;
};

/* The fewest samples a side needs for an interval of the ratio (as for a median's, issue 27). */
#define ST_RATIO_MIN_N 6

/*
 * The ratio median(@b) / median(@a) of two independent runs, and a 95%
 * interval from @resamples bootstrap resamples of each, A and B drawn
 * independently with replacement from @seed (the same seed and samples give
 * the same interval). -EINVAL when a side is empty, -ENOMEM.
 */
int st_ratio_interval(const double *a, size_t na, const double *b, size_t nb, size_t resamples,
		      uint64_t seed, struct st_ratio *out);

/* The shift of two runs' medians, B minus A, with its uncertainty: for increments near 0. */
struct st_shift {
	double median_a, median_b;
	double shift;     /* median_b - median_a, in the figure's unit */
	double ci_low;    /* 95% percentile-bootstrap interval of the shift */
	double ci_high;
	int has_interval; /* both have ST_RATIO_MIN_N samples or more */
	int within_noise; /* the interval contains 0 */
	size_t na, nb;
};

/*
 * median(@b) - median(@a) of two runs' paired differences (an increment's
 * rounds, which may be 0 or negative: no ratio is safe over them), with a
 * 95% interval from @resamples bootstrap resamples of each file's rounds,
 * drawn independently from @seed. -EINVAL when a side is empty, -ENOMEM.
 */
int st_shift_interval(const double *a, size_t na, const double *b, size_t nb, size_t resamples,
		      uint64_t seed, struct st_shift *out);

#endif
