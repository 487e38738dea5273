// SPDX-License-Identifier: MIT
/*
 * The cgroup layer's part of the sandboxtime/v1 document (--cgroup): each
 * figure's statistics (the stats object of every other figure), in the
 * table under the layers and in JSON as "cgroup_layer". CSV gives the
 * figures columns of their own, filled on a row of their own
 * (report_layers.c: layer_cols(), st_report_write_csv()). A run's own cgroup
 * (its paths) is a section of report_run.c.
 */
#include <stdint.h>
#include <stdio.h>

#include "sandboxtime/cgroup_measure.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_layers.h"

void st_report_cgroup_table(const struct st_cgroup_measurement *cm, FILE *out)
{
	char head[40];
	size_t fewest = SIZE_MAX;

	if (!cm->available) {
		fprintf(out, "%-12s unavailable: %s\n", "cgroup", cm->reason);
		return;
	}
	/* Too few samples for a p95 that says more than the maximum: the column says max. */
	for (int f = 0; f < ST_CGM_COUNT; f++)
		if (cm->fig[f].n && cm->fig[f].n < fewest)
			fewest = cm->fig[f].n;
	snprintf(head, sizeof(head), "CGROUP LAYER (%s, us)", cm->mode);
	fprintf(out, "\n%-24s %9s %9s %9s %9s %9s %5s\n", head, "min", "median",
		fewest != SIZE_MAX && !st_stats_p95_meaningful(fewest) ? "max" : "p95", "mean",
		"stddev", "n");
	for (int f = 0; f < ST_CGM_COUNT; f++) {
		struct st_stats s;
		char label[40];

		if (!cm->fig[f].n || st_stats_compute(cm->fig[f].v, cm->fig[f].n, &s) < 0)
			continue;
		snprintf(label, sizeof(label), "%s%s%s%s", st_cgm_figures[f].label,
			 f == ST_CGM_FREED_V1 ? " [" : "", f == ST_CGM_FREED_V1 ? cm->v1_source : "",
			 f == ST_CGM_FREED_V1 ? "]" : "");
		fprintf(out, "%-24s %9.1f %9.1f %9.1f %9.1f %9.1f %5zu", label, s.min, s.median,
			st_stats_p95_meaningful(s.n) ? s.p95 : s.max, s.mean, s.stddev, s.n);
		if (cm->unobserved[f])
			fprintf(out, "  (%u not seen within 1 s)", cm->unobserved[f]);
		fputc('\n', out);
	}
	fprintf(out, "(released (v2): rmdir until the parent's nr_dying_descendants dropped, the css released;\n"
		" freed (v1): rmdir until /proc/cgroups num_cgroups of that hierarchy dropped, the cgroup freed)\n");
}

json_t *st_report_cgroup_json(const struct st_cgroup_measurement *cm)
{
	json_t *o = json_object(), *figs = json_object(), *unseen = json_object();

	json_object_set_new(o, "available", json_boolean(cm->available));
	json_object_set_new(o, "reason", cm->available ? json_null() : json_string(cm->reason));
	json_object_set_new(o, "mode", cm->mode ? json_string(cm->mode) : json_null());
	json_object_set_new(o, "v1_source", cm->v1_source[0] ? json_string(cm->v1_source) : json_null());
	for (int f = 0; cm->available && f < ST_CGM_COUNT; f++) {
		if (!cm->fig[f].n && !cm->unobserved[f])
			continue;
		json_object_set_new(figs, st_cgm_figures[f].key, st_report_stats_json(&cm->fig[f]));
		if (f >= ST_CGM_FREED_V2)
			json_object_set_new(unseen, st_cgm_figures[f].key, json_integer(cm->unobserved[f]));
	}
	json_object_set_new(o, "figures", figs);
	json_object_set_new(o, "unobserved", unseen);
	return o;
}
