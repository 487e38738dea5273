// SPDX-License-Identifier: MIT
/*
 * The JSON parts of the measuring method (issue 12): paired increments with
 * their intervals, the freed time per type, and what the measurement waited
 * for. report_json.c puts them into the sandboxtime/v1 document.
 */
#include <stdio.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_layers.h"

/* {median, ci_low, ci_high, significant, n} of the paired increment, or null. */
static json_t *paired_json(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	struct st_increment inc;

	if (!m->sets[i].fig[fig].n || st_set_increment(m, i, fig, &inc) < 0 || !inc.n)
		return json_null();
	return json_pack("{s:f,s:f,s:f,s:b,s:I}", "median", inc.median, "ci_low", inc.ci_low,
			 "ci_high", inc.ci_high, "significant", inc.significant, "n",
			 (json_int_t)inc.n);
}

/* Within-round paired increments over the reference set, with 95% intervals. */
json_t *st_report_increments_json(const struct st_measurement *m, size_t i)
{
	static const enum st_figure figs[] = { ST_FIG_SETUP, ST_FIG_READY, ST_FIG_TEARDOWN,
					       ST_FIG_SETUP_COLD, ST_FIG_TEARDOWN_COLD };
	json_t *o = json_object();

	for (size_t k = 0; k < ARRAY_SIZE(figs); k++)
		if (m->sets[i].fig[figs[k]].n)
			json_object_set_new(o, st_figures[figs[k]].key, paired_json(m, i, figs[k]));
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
	return json_pack("{s:f,s:f,s:f,s:o,s:f,s:{s:b,s:o}}", "elapsed_us",
			 st_ns_to_us(m->elapsed_ns), "deferred_wait_us",
			 st_ns_to_us(m->deferred_wait_ns), "drain_wait_us",
			 st_ns_to_us(m->drain_wait_ns), "drain_settle", drain_settle_json(m),
			 "clock_read_ns", (double)m->clock_read_ns, "deferred", "available",
			 !m->deferred_errnum, "reason",
			 m->deferred_errnum ? json_string(m->deferred_reason) : json_null());
}

/*
 * An increment as the table shows it: the paired median, "~0" when its 95%
 * interval contains 0, "<0" when the whole interval is below 0; never a
 * negative cost.
 */
int st_report_increment_text(const struct st_measurement *m, size_t i, enum st_figure fig,
			     char *buf, size_t len)
{
	struct st_increment inc;

	if (!m->sets[i].fig[fig].n || st_set_increment(m, i, fig, &inc) < 0 || !inc.n)
		return snprintf(buf, len, "-");
	if (!inc.significant)
		return snprintf(buf, len, "~0");
	if (inc.median < 0 || inc.ci_high < 0)
		return snprintf(buf, len, "<0");
	return snprintf(buf, len, "%.1f", inc.median);
}
