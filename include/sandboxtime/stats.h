/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_STATS_H
#define SANDBOXTIME_STATS_H

#include <stddef.h>

/* Summary of one figure; all values in the unit of the samples. */
struct st_stats {
	double min;
	double median;
	double p95;
	double mean;
	double stddev; /* sample standard deviation (n - 1) */
	size_t n;
};

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

#endif
