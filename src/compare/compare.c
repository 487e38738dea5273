// SPDX-License-Identifier: MIT
/*
 * Matching figures across documents and judging each ratio. The interval
 * comes from st_ratio_interval() (src/base/stats.c); what is decided here is
 * which way is slower and whether a figure fails --fail-if-slower.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/compare.h"
#include "sandboxtime/compiler.h"

const char *const st_cmp_verdict_names[] = {
	[ST_CMP_NO_RATIO] = "no ratio",
	[ST_CMP_NO_INTERVAL] = "no interval",
	[ST_CMP_NOISE] = "within noise",
	[ST_CMP_SLOWER] = "slower",
	[ST_CMP_FASTER] = "faster",
};

const char *const st_cmp_fact_keys[] = { "kernel",        "cpus",        "cpu_model", "rootless",
					 "cgroup",        "rcu_expedited", "virtualized", "version" };
const size_t st_cmp_nfact_keys = ARRAY_SIZE(st_cmp_fact_keys);

static void find_host_differences(struct st_compare *c)
{
	char a[128], b[128];

	c->nfacts = 0;
	for (size_t k = 0; k < st_cmp_nfact_keys && c->nfacts < ST_CMP_MAX_FACTS; k++) {
		st_cmp_doc_host_fact(&c->docs[0], st_cmp_fact_keys[k], a, sizeof(a));
		for (size_t d = 1; d < c->ndocs; d++) {
			st_cmp_doc_host_fact(&c->docs[d], st_cmp_fact_keys[k], b, sizeof(b));
			if (strcmp(a, b) != 0) {
				c->facts[c->nfacts++] = st_cmp_fact_keys[k];
				break;
			}
		}
	}
}

uint64_t st_compare_files_seed(const struct st_cmp_doc *docs, size_t ndocs)
{
	uint64_t h = ST_SEED_BASIS;

	for (size_t d = 0; d < ndocs; d++)
		h = st_seed_fold(h, &docs[d].digest, sizeof(docs[d].digest));
	return h;
}

/*
 * A figure's own stream: from the seed, its name and the later file's place,
 * so that its interval depends neither on the figures before it nor on
 * which of them matched.
 */
static uint64_t figure_seed(uint64_t seed, const char *name, size_t doc)
{
	uint64_t h = st_seed_fold(seed, name, strlen(name));

	return st_seed_fold(h, &doc, sizeof(doc));
}

static double least(const struct st_samples *s)
{
	double m = s->v[0];

	for (size_t i = 1; i < s->n; i++)
		m = s->v[i] < m ? s->v[i] : m;
	return m;
}

/* Why an increment has no interval of its shift, or never gates; "" otherwise. */
static void explain_paired(struct st_cmp_row *row)
{
	const struct st_cmp_figure *fa = row->fa, *fb = row->fb;

	row->why[0] = '\0';
	if (!fa->samples.n || !fb->samples.n)
		snprintf(row->why, sizeof(row->why), "%s no raw samples: the medians only",
			 !fa->samples.n && !fb->samples.n ? "neither has" : !fa->samples.n ? "A has" : "B has");
	else if (!row->s.has_interval)
		snprintf(row->why, sizeof(row->why), "n=%zu in %s: 95%% needs n >= %d",
			 fa->samples.n < ST_RATIO_MIN_N ? fa->samples.n : fb->samples.n,
			 fa->samples.n < ST_RATIO_MIN_N ? "A" : "B", ST_RATIO_MIN_N);
	else if (fa->no_gate)
		snprintf(row->why, sizeof(row->why), "never gates: %s", fa->no_gate);
}

/* Why @row has no ratio or no interval, or why it never gates; "" otherwise. */
static void explain(struct st_cmp_row *row)
{
	const struct st_cmp_figure *fa = row->fa, *fb = row->fb;
	const struct st_ratio *r = &row->r;

	if (fa->paired) {
		explain_paired(row);
		return;
	}
	row->why[0] = '\0';
	if (!r->has_ratio && fa->samples.n)
		snprintf(row->why, sizeof(row->why),
			 "A has a sample <= 0 (%g): a ratio over it says nothing", least(&fa->samples));
	else if (!r->has_ratio)
		snprintf(row->why, sizeof(row->why), "A's median is %g <= 0: a ratio over it says nothing",
			 fa->median);
	else if (!fa->samples.n || !fb->samples.n)
		snprintf(row->why, sizeof(row->why), "%s no raw samples: ratio of the medians only",
			 !fa->samples.n && !fb->samples.n ? "neither has" : !fa->samples.n ? "A has" : "B has");
	else if (!r->has_interval)
		snprintf(row->why, sizeof(row->why), "n=%zu in %s: 95%% needs n >= %d",
			 fa->samples.n < ST_RATIO_MIN_N ? fa->samples.n : fb->samples.n,
			 fa->samples.n < ST_RATIO_MIN_N ? "A" : "B", ST_RATIO_MIN_N);
	else if (fa->no_gate)
		snprintf(row->why, sizeof(row->why), "never gates: %s", fa->no_gate);
}

/* The ratio of the medians alone, without an interval. */
static void medians_ratio(struct st_cmp_row *row, double median_a, double median_b)
{
	memset(&row->r, 0, sizeof(row->r));
	row->r.median_a = median_a;
	row->r.median_b = median_b;
	row->r.has_ratio = median_a > 0;
	if (row->r.has_ratio)
		row->r.ratio = median_b / median_a;
}

/*
 * Ratio and interval from the raw samples where both have them, else the
 * medians. An increment's interval is of B - A, from each file's rounds:
 * its differences reach 0 and below, where a resampled ratio blows up.
 */
static int rate(struct st_cmp_row *row, size_t resamples, uint64_t seed)
{
	const struct st_cmp_figure *fa = row->fa, *fb = row->fb;
	int ret;

	if (fa->paired && fa->samples.n && fb->samples.n) {
		ret = st_shift_interval(fa->samples.v, fa->samples.n, fb->samples.v, fb->samples.n,
					resamples, seed, &row->s);
		if (ret < 0)
			return ret;
		medians_ratio(row, row->s.median_a, row->s.median_b);
	} else if (fa->samples.n && fb->samples.n) {
		ret = st_ratio_interval(fa->samples.v, fa->samples.n, fb->samples.v, fb->samples.n,
					resamples, seed, &row->r);
		if (ret < 0)
			return ret;
	} else {
		medians_ratio(row, fa->median, fb->median);
		row->s.median_a = fa->median;
		row->s.median_b = fb->median;
		row->s.shift = fb->median - fa->median;
	}
	return 0;
}

/*
 * An increment: slower when its B - A interval lies above 0; over the gate
 * when it lies above @fail_pct of A's increment (any significant rise of an
 * increment A measured at 0 or below).
 */
static void judge_paired(struct st_cmp_row *row, double fail_pct)
{
	const struct st_shift *s = &row->s;
	double a = s->median_a > 0 ? s->median_a : 0;

	if (!s->has_interval)
		row->verdict = ST_CMP_NO_INTERVAL;
	else if (s->within_noise)
		row->verdict = ST_CMP_NOISE;
	else
		row->verdict = s->ci_low > 0 ? ST_CMP_SLOWER : ST_CMP_FASTER;
	if (fail_pct < 0 || row->verdict != ST_CMP_SLOWER || row->fa->no_gate)
		return;
	row->over_limit = s->ci_low > a * (fail_pct > 0 ? fail_pct : 0) / 100.0;
}

/* Slower is a larger B for times, a smaller one for throughput. */
static void judge(struct st_cmp_row *row, double fail_pct)
{
	const struct st_ratio *r = &row->r;
	int higher_better = row->fa->higher_better;
	double limit = 1.0 + (fail_pct > 0 ? fail_pct : 0) / 100.0;
	int above = r->ci_low > 1.0;

	if (row->fa->paired) {
		judge_paired(row, fail_pct);
		return;
	}
	if (!r->has_ratio)
		row->verdict = ST_CMP_NO_RATIO;
	else if (!r->has_interval)
		row->verdict = ST_CMP_NO_INTERVAL;
	else if (r->within_noise)
		row->verdict = ST_CMP_NOISE;
	else
		row->verdict = (above != higher_better) ? ST_CMP_SLOWER : ST_CMP_FASTER;
	/* Shown, judged, but a figure that is not a cost never fails the gate. */
	if (fail_pct < 0 || row->verdict != ST_CMP_SLOWER || row->fa->no_gate)
		return;
	row->over_limit = higher_better ? r->ci_high < 1.0 / limit : r->ci_low > limit;
}

static int check_kinds(const struct st_compare *c, struct st_error *err)
{
	const struct st_cmp_doc *a = &c->docs[0];

	for (size_t d = 1; d < c->ndocs; d++)
		if (strcmp(c->docs[d].kind, a->kind) != 0)
			return st_error_set(err, 0, "compare: %s is a %s report, %s a %s one: nothing to compare",
					    c->docs[d].path, c->docs[d].kind, a->path, a->kind);
	return 0;
}

int st_compare_run(struct st_compare *c, struct st_error *err)
{
	const struct st_cmp_doc *a = &c->docs[0];
	int ret = check_kinds(c, err);

	if (ret < 0)
		return ret;
	c->rows = calloc(a->nfig * (c->ndocs - 1) + 1, sizeof(*c->rows));
	c->unmatched = calloc(c->ndocs, sizeof(*c->unmatched));
	if (!c->rows || !c->unmatched)
		return st_error_set(err, ENOMEM, "compare");
	find_host_differences(c);
	for (size_t d = 1; d < c->ndocs; d++) {
		for (size_t i = 0; i < a->nfig; i++) {
			const struct st_cmp_figure *fb = st_cmp_doc_find(&c->docs[d], a->fig[i].name, i);
			struct st_cmp_row *row = &c->rows[c->nrows];

			if (!fb) {
				c->unmatched[d]++;
				continue;
			}
			row->b = &c->docs[d];
			row->fa = &a->fig[i];
			row->fb = fb;
			if (rate(row, c->resamples, figure_seed(c->seed.value, fb->name, d)) < 0)
				return st_error_set(err, ENOMEM, "compare: %s", fb->name);
			judge(row, c->fail_pct);
			explain(row);
			c->over_limit += (size_t)row->over_limit;
			c->nrows++;
		}
	}
	return 0;
}

void st_compare_free(struct st_compare *c)
{
	free(c->rows);
	free(c->unmatched);
	c->rows = NULL;
	c->unmatched = NULL;
	c->nrows = 0;
}
