// SPDX-License-Identifier: MIT
/*
 * The JSON parts of the measuring method (issue 12): paired increments with
 * their intervals, the freed time per type, and what the measurement waited
 * for. report_json.c puts them into the sandboxtime/v1 document.
 */
#include <stdio.h>
#include <string.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/deferred.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_layers.h"

/* The figures that get a paired increment with an interval. */
static const enum st_figure paired_figs[] = { ST_FIG_SETUP, ST_FIG_READY, ST_FIG_TEARDOWN,
					      ST_FIG_SETUP_COLD, ST_FIG_TEARDOWN_COLD };

/*
 * {median, ci_low, ci_high, significant, n, coverage, ci_why} of the paired
 * increment, or null. Below the n that allows 95% the interval, the verdict
 * and the coverage are null and ci_why says why; with an interval ci_why is
 * null.
 */
static json_t *paired_json(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	_cleanup_free_ double *d = NULL;
	struct st_increment inc;
	json_t *o, *samples;
	char why[64];
	size_t n;

	if (!m->sets[i].fig[fig].n || st_set_increment(m, i, fig, &inc) < 0 || !inc.n ||
	    st_set_differences(m, i, fig, &d, &n) < 0)
		return json_null();
	if (!inc.has_interval) {
		st_increment_why(&inc, why, sizeof(why));
		o = json_pack("{s:f,s:n,s:n,s:n,s:I,s:n,s:s}", "median", inc.median, "ci_low",
			      "ci_high", "significant", "n", (json_int_t)inc.n, "coverage", "ci_why",
			      why);
	} else {
		o = json_pack("{s:f,s:f,s:f,s:b,s:I,s:f,s:n}", "median", inc.median, "ci_low",
			      inc.ci_low, "ci_high", inc.ci_high, "significant", inc.significant,
			      "n", (json_int_t)inc.n, "coverage", inc.coverage, "ci_why");
	}
	/* The differences themselves, in round order: compare resamples them. */
	samples = json_array();
	for (size_t r = 0; r < n; r++)
		json_array_append_new(samples, json_real(d[r]));
	json_object_set_new(o, "samples", samples);
	return o;
}

void st_report_verdicts(const struct st_measurement *m, struct st_verdicts *v)
{

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < m->nsets; i++)
		for (size_t k = 0; k < ARRAY_SIZE(paired_figs); k++) {
			struct st_increment inc;

			if (!m->sets[i].fig[paired_figs[k]].n || st_set_increment(m, i, paired_figs[k], &inc) < 0 ||
			    !inc.n)
				continue;
			if (!inc.has_interval) {
				v->without++;
				continue;
			}
			v->intervals++;
			v->significant += inc.significant;
			/* Each interval misses its true median with probability 1 - coverage. */
			v->expected_false += 1.0 - inc.coverage;
		}
}

/* Within-round paired increments over the reference set, with 95% intervals. */
json_t *st_report_increments_json(const struct st_measurement *m, size_t i)
{
	json_t *o = json_object();

	for (size_t k = 0; k < ARRAY_SIZE(paired_figs); k++)
		if (m->sets[i].fig[paired_figs[k]].n)
			json_object_set_new(o, st_figures[paired_figs[k]].key, paired_json(m, i, paired_figs[k]));
	return o;
}

/* When each type of the set became creatable again, and which was last. */
void st_report_deferred_types_json(json_t *o, const struct st_set *set)
{
	json_t *by = json_object(), *last = json_object();

	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		if (!(set->mask & ST_LAYER_BIT(l)) || !set->freed[l].n)
			continue;
		json_t *stats = st_report_stats_json(&set->freed[l]);
		struct st_stats a;

		/* The successful attempt's own length: the free lies before its start (ipc: its
		 * end). */
		if (json_is_object(stats) &&
		    st_stats_compute(set->attempt[l].v, set->attempt[l].n, &a) == 0)
			json_object_set_new(stats, "attempt_us", json_real(a.median));
		/* What the probe saw: the count released, or the namespace freed. */
		if (json_is_object(stats))
			json_object_set_new(stats, "marks", json_string(st_deferred_marks[l]));
		json_object_set_new(by, st_layers[l].name, stats);
		json_object_set_new(last, st_layers[l].name, json_integer(set->last[l]));
	}
	json_object_set_new(o, "deferred_by_type",
			    json_object_size(by) ? by : (json_decref(by), json_null()));
	json_object_set_new(o, "deferred_last",
			    json_object_size(last) ? last : (json_decref(last), json_null()));
}

/*
 * How the drains ended once the count was zero: "rcu" (two grace periods),
 * "sleep" (membarrier refused, in at least one), null without a drain.
 */
static json_t *drain_settle_json(const struct st_measurement *m)
{
	if (!m->drains)
		return json_null();
	return json_string(m->drain_sleeps ? "sleep" : "rcu");
}

/* How long the whole measurement took, what it waited for, and what it could not measure. */
json_t *st_report_measurement_json(const struct st_measurement *m)
{
	return json_pack("{s:f,s:f,s:f,s:o,s:f,s:{s:b,s:o,s:o},s:o}", "elapsed_us",
			 st_ns_to_us(m->elapsed_ns), "deferred_wait_us",
			 st_ns_to_us(m->deferred_wait_ns), "drain_wait_us",
			 st_ns_to_us(m->drain_wait_ns), "drain_settle", drain_settle_json(m),
			 "clock_read_ns", (double)m->clock_read_ns, "deferred", "available",
			 !m->deferred_errnum, "reason",
			 m->deferred_errnum ? json_string(m->deferred_reason) : json_null(),
			 "poll_us",
			 m->deferred_errnum || !m->drains ? json_null() : json_integer(m->deferred_poll_us),
			 "verdicts", st_report_verdicts_json(m));
}

/*
 * An increment as the table shows it: the paired median, "~?" when n is too
 * small for a 95% interval (no verdict), "~0" when its 95% interval contains
 * 0, "<0" when the whole interval is below 0; never a negative cost.
 */
int st_report_increment_text(const struct st_measurement *m, size_t i, enum st_figure fig,
			     char *buf, size_t len)
{
	struct st_increment inc;

	if (!m->sets[i].fig[fig].n || st_set_increment(m, i, fig, &inc) < 0 || !inc.n)
		return snprintf(buf, len, "-");
	if (!inc.has_interval)
		return snprintf(buf, len, "~?");
	if (!inc.significant)
		return snprintf(buf, len, "~0");
	if (inc.median < 0 || inc.ci_high < 0)
		return snprintf(buf, len, "<0");
	return snprintf(buf, len, "%.1f", inc.median);
}

/*
 * Each interval covers its true median with at least 95%, so over a report's
 * intervals about sum(1 - coverage) miss by chance: a report of 27 has one
 * or two false verdicts to expect, and says so instead of letting each
 * "significant" read as certain.
 */
void st_report_verdicts_note(const struct st_measurement *m, FILE *out)
{
	struct st_verdicts v;

	st_report_verdicts(m, &v);
	fprintf(out,
		" intervals: exact order-statistic intervals of the paired medians, coverage >= 95%% whatever the\n"
		" distribution; %zu of %zu increments have one (n >= %zu), %zu exclude 0, and about %.1f of them\n"
		" are expected to miss their true value by chance",
		v.intervals, v.intervals + v.without, st_median_interval_min_n(), v.significant,
		v.expected_false);
}

/* The same as JSON: {method, intervals, without, significant, expected_false, min_n}. */
json_t *st_report_verdicts_json(const struct st_measurement *m)
{
	struct st_verdicts v;

	st_report_verdicts(m, &v);
	return json_pack("{s:s,s:I,s:I,s:I,s:f,s:I}", "method", "binomial order statistics",
			 "intervals", (json_int_t)v.intervals, "without", (json_int_t)v.without,
			 "significant", (json_int_t)v.significant, "expected_false", v.expected_false,
			 "min_n", (json_int_t)st_median_interval_min_n());
}
