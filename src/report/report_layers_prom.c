// SPDX-License-Identifier: MIT
/*
 * `sandboxtime layers --format=prometheus`: a node's isolation cost for a
 * fleet's dashboards (node_exporter's textfile collector reads it). Names
 * follow the Prometheus conventions: base units (seconds), a _seconds
 * suffix, one `layer` label for the cumulative set that layer completes
 * (base: none added), and the sample distributions as summaries
 * (quantiles 0.5 and 0.95, _sum, _count). The paired increments, what a
 * layer itself costs, are gauges. Sets measured --alone are left out: a
 * dashboard compares the same thing on every node.
 */
#include <string.h>

#include "sandboxtime/report.h"
#include "sandboxtime/report_layers.h"

#define US 1e-6

static void summary_family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s summary\n", name, help, name);
}

/* The summary of @s (microseconds) under @name{@label="@value"}, in seconds. */
static void summary(FILE *out, const char *name, const char *label, const char *value,
		    const struct st_samples *s)
{
	struct st_stats st;

	if (!s->n || st_stats_compute(s->v, s->n, &st) < 0)
		return;
	fprintf(out, "%s{%s=\"%s\",quantile=\"0.5\"} %.9g\n", name, label, value, st.median * US);
	fprintf(out, "%s{%s=\"%s\",quantile=\"0.95\"} %.9g\n", name, label, value, st.p95 * US);
	fprintf(out, "%s_sum{%s=\"%s\"} %.9g\n", name, label, value, st.mean * (double)st.n * US);
	fprintf(out, "%s_count{%s=\"%s\"} %zu\n", name, label, value, st.n);
}

static const struct {
	enum st_figure fig;
	const char *name, *inc_name, *help;
} figures[] = {
	{ ST_FIG_SETUP, "sandboxtime_layer_setup_seconds", "sandboxtime_layer_incremental_setup_seconds",
	  "from clone() until the child of the set with every layer up to this one runs" },
	{ ST_FIG_TEARDOWN, "sandboxtime_layer_teardown_seconds",
	  "sandboxtime_layer_incremental_teardown_seconds",
	  "from the child's exit until it is reaped, for the set up to this layer" },
};

static void figure_metrics(const struct st_measurement *m, FILE *out, size_t k)
{
	char help[256];

	summary_family(out, figures[k].name, figures[k].help);
	for (size_t i = 0; i < m->nsets; i++)
		if (!m->sets[i].alone)
			summary(out, figures[k].name, "layer", m->sets[i].name, &m->sets[i].fig[figures[k].fig]);
	snprintf(help, sizeof(help), "what the layer adds to %s: median of the within-round differences to the previous set",
		 figures[k].fig == ST_FIG_SETUP ? "setup" : "teardown");
	st_prom_family(out, figures[k].inc_name, help);
	for (size_t i = 0; i < m->nsets; i++) {
		struct st_increment inc;

		if (m->sets[i].alone || m->sets[i].layer < 0 ||
		    st_set_increment(m, i, figures[k].fig, &inc) < 0 || !inc.n)
			continue;
		fprintf(out, "%s{layer=\"%s\"} %.9g\n", figures[k].inc_name, m->sets[i].name, inc.median * US);
	}
}

/* The freed time per type of the last cumulative set (every layer): when each could be made again. */
static void freed_metrics(const struct st_measurement *m, FILE *out)
{
	const struct st_set *set = NULL;

	for (size_t i = 0; i < m->nsets; i++)
		if (!m->sets[i].alone && m->sets[i].mask)
			set = &m->sets[i];
	if (!set || m->deferred_errnum)
		return;
	summary_family(out, "sandboxtime_namespace_free_seconds",
		       "from the reap of a sandbox with every layer until a namespace of this type could be made again (the kernel's deferred free)");
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (set->mask & ST_LAYER_BIT(l))
			summary(out, "sandboxtime_namespace_free_seconds", "type", st_layers[l].name, &set->freed[l]);
}

int st_report_write_prom(const struct st_report *r, FILE *out, struct st_error *err)
{
	const struct st_measurement *m = r->m;

	if (m) {
		for (size_t k = 0; k < ARRAY_SIZE(figures); k++)
			figure_metrics(m, out, k);
		freed_metrics(m, out);
		st_prom_family(out, "sandboxtime_layers_measurement_duration_seconds",
			       "how long the whole measurement took, waits for the kernel included");
		fprintf(out, "sandboxtime_layers_measurement_duration_seconds %.6f\n", (double)m->elapsed_ns * 1e-9);
	}
	st_prom_family(out, "sandboxtime_layer_unavailable",
		       "1 for a layer this kernel refused (the report's errors say why)");
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (r->unavailable & ST_LAYER_BIT(l))
			fprintf(out, "sandboxtime_layer_unavailable{layer=\"%s\"} 1\n", st_layers[l].name);
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing Prometheus text");
	return 0;
}
