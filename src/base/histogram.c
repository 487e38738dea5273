// SPDX-License-Identifier: MIT
#include <math.h>
#include <string.h>

#include "sandboxtime/histogram.h"

void st_hist_init(struct st_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

/* e = how far @ns is shifted so that it keeps ST_HIST_SUB_BITS + 1 significant bits. */
unsigned int st_hist_index(uint64_t ns)
{
	unsigned int msb, e;

	if (ns < 2 * ST_HIST_SUB)
		return (unsigned int)ns;
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	if (msb >= ST_HIST_MAX_BITS)
		return ST_HIST_BUCKETS - 1;
	e = msb - ST_HIST_SUB_BITS;
	return e * ST_HIST_SUB + (unsigned int)(ns >> e);
}

void st_hist_bucket_range(unsigned int index, uint64_t *low, uint64_t *width)
{
	unsigned int e = index < 2 * ST_HIST_SUB ? 0 : index / ST_HIST_SUB - 1;

	*low = (uint64_t)(index - e * ST_HIST_SUB) << e;
	*width = 1ull << e;
}

void st_hist_record(struct st_hist *h, uint64_t ns)
{
	h->count[st_hist_index(ns)]++;
	h->n++;
	h->sum_ns += ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void st_hist_merge(struct st_hist *dst, const struct st_hist *src)
{
	for (unsigned int i = 0; i < ST_HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	dst->n += src->n;
	dst->sum_ns += src->sum_ns;
	if (src->n && src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->n && src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

double st_hist_quantile_ns(const struct st_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (h->n == 0)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank < 1)
		rank = 1;
	for (unsigned int i = 0; i < ST_HIST_BUCKETS; i++) {
		uint64_t low, width;
		double mid;

		seen += h->count[i];
		if (seen < rank)
			continue;
		st_hist_bucket_range(i, &low, &width);
		mid = (double)low + (double)(width - 1) / 2.0;
		if (mid < (double)h->min_ns)
			mid = (double)h->min_ns;
		if (mid > (double)h->max_ns)
			mid = (double)h->max_ns;
		return mid;
	}
	return (double)h->max_ns;
}

double st_hist_mean_ns(const struct st_hist *h)
{
	return h->n ? (double)h->sum_ns / (double)h->n : 0;
}
