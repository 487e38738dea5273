/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_HISTOGRAM_H
#define SANDBOXTIME_HISTOGRAM_H

#include <stdint.h>

/*
 * A log-linear histogram of nanosecond values, in the manner of HdrHistogram:
 * values below 2 * ST_HIST_SUB are counted exactly; above, each power of two
 * is split into ST_HIST_SUB equal buckets, so a bucket is at most 1/64 of its
 * value wide (1.6 %). Fixed size, no allocation: recording a latency costs an
 * index computation and an increment, whatever the number of samples, and
 * the whole struct can go through a pipe.
 */
#define ST_HIST_SUB_BITS 6
#define ST_HIST_SUB (1u << ST_HIST_SUB_BITS)
#define ST_HIST_MAX_BITS 40 /* values from 2^40 ns (18 minutes) up share the top bucket */
#define ST_HIST_BUCKETS ((ST_HIST_MAX_BITS - ST_HIST_SUB_BITS) * ST_HIST_SUB + 2 * ST_HIST_SUB)

struct st_hist {
	uint64_t n;
	uint64_t sum_ns; /* exact, for the mean */
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t count[ST_HIST_BUCKETS];
};

void st_hist_init(struct st_hist *h);
void st_hist_record(struct st_hist *h, uint64_t ns);
/* Adds @src's counts to @dst (repeated runs of one path). */
void st_hist_merge(struct st_hist *dst, const struct st_hist *src);

/* Bucket of @ns, and the range [low, low + width) a bucket covers. */
unsigned int st_hist_index(uint64_t ns);
void st_hist_bucket_range(unsigned int index, uint64_t *low, uint64_t *width);

/*
 * The value at quantile @q (0..1): the middle of the bucket that holds the
 * ceil(q * n)-th smallest value, clamped to the recorded min and max. 0 when
 * empty.
 */
double st_hist_quantile_ns(const struct st_hist *h, double q);
double st_hist_mean_ns(const struct st_hist *h);

#endif
