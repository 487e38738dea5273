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
	out->median = percentile_sorted(sorted, n, 0.5);
	out->p95 = percentile_sorted(sorted, n, 0.95);
	out->n = n;
	return 0;
}
