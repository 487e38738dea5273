// SPDX-License-Identifier: MIT
#include <math.h>
#include <string.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/stats.h"

int st_samples_reserve(struct st_samples *s, size_t cap)
{
	double *v;

	if (cap <= s->cap)
		return 0;
	v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->cap = cap;
	return 0;
}

int st_samples_add(struct st_samples *s, double v)
{
	if (s->n == s->cap) {
		int ret = st_samples_reserve(s, s->cap ? s->cap * 2 : 16);

		if (ret < 0)
			return ret;
	}
	s->v[s->n++] = v;
	return 0;
}

void st_samples_free(struct st_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Percentile @p (0..1) of sorted @v, interpolated between closest ranks. */
static double percentile_sorted(const double *v, size_t n, double p)
{
	double rank = p * (double)(n - 1);
	size_t lo = (size_t)floor(rank);
	size_t hi = lo + 1 < n ? lo + 1 : lo;

	return v[lo] + (v[hi] - v[lo]) * (rank - (double)lo);
}

int st_stats_compute(const double *v, size_t n, struct st_stats *out)
{
	_cleanup_free_ double *sorted = NULL;
	double sum = 0, sq = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - out->mean) * (v[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = percentile_sorted(sorted, n, 0.5);
	out->p95 = percentile_sorted(sorted, n, 0.95);
	out->n = n;
	return 0;
}

uint64_t st_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

size_t st_rng_below(uint64_t *state, size_t n)
{
	/* Reject the top partial block of 2^64 so that every value is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, v;

	do
		v = st_rng_next(state);
	while (v >= limit);
	return (size_t)(v % n);
}

void st_permute(size_t *idx, size_t n, uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = st_rng_below(state, i), t = idx[i - 1];

		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

/* Median of @v (sorted in place). */
static double median_inplace(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return percentile_sorted(v, n, 0.5);
}

int st_paired_increment(const double *x, const double *ref, size_t n, uint64_t seed,
			struct st_increment *out)
{
	_cleanup_free_ double *d = NULL, *re = NULL, *meds = NULL;
	uint64_t state = seed;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return 0;
	d = malloc(n * sizeof(*d));
	re = malloc(n * sizeof(*re));
	meds = malloc(ST_BOOTSTRAP_RESAMPLES * sizeof(*meds));
	if (!d || !re || !meds)
		return -ENOMEM;
	for (size_t r = 0; r < n; r++)
		d[r] = x[r] - ref[r];
	for (size_t b = 0; b < ST_BOOTSTRAP_RESAMPLES; b++) {
		for (size_t r = 0; r < n; r++)
			re[r] = d[st_rng_below(&state, n)];
		meds[b] = median_inplace(re, n);
	}
	qsort(meds, ST_BOOTSTRAP_RESAMPLES, sizeof(*meds), cmp_double);
	out->ci_low = percentile_sorted(meds, ST_BOOTSTRAP_RESAMPLES, 0.025);
	out->ci_high = percentile_sorted(meds, ST_BOOTSTRAP_RESAMPLES, 0.975);
	out->median = median_inplace(d, n);
	out->significant = out->ci_low > 0 || out->ci_high < 0;
	out->n = n;
	return 0;
}
