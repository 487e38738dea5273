// SPDX-License-Identifier: MIT
/*
 * JSON through jansson (never escaped by hand): a row's columns become an
 * object in the table's order; "group.key" columns go into the object
 * "group", made where its first column stands (or null, by a group column).
 */
#include <errno.h>
#include <string.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/report.h"
#include "sandboxtime/version.h"

json_t *st_report_stats_json(const struct st_samples *s)
{
	struct st_stats st;
	json_t *samples;

	if (s->n == 0 || st_stats_compute(s->v, s->n, &st) < 0)
		return json_null();
	samples = json_array();
	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(samples, json_real(s->v[i]));
	/* p95_is_max: too few samples for a p95 that says more than the maximum. */
	return json_pack("{s:f,s:f,s:f,s:b,s:f,s:f,s:f,s:I,s:o}", "min", st.min, "median", st.median,
			 "p95", st.p95, "p95_is_max", !st_stats_p95_meaningful(st.n), "max", st.max,
			 "mean", st.mean, "stddev", st.stddev, "n", (json_int_t)st.n, "samples", samples);
}

json_t *st_report_layer_names_json(unsigned int mask)
{
	json_t *a = json_array();

	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (mask & ST_LAYER_BIT(l))
			json_array_append_new(a, json_string(st_layers[l].name));
	return a;
}

/*
 * {ms, share, flagged}: the hypervisor's steal over the run, null each where
 * /proc/stat could not be read.
 */
static json_t *steal_json(const struct st_steal *s)
{
	if (!s->available)
		return json_pack("{s:n,s:n,s:n}", "ms", "share", "flagged");
	return json_pack("{s:f,s:f,s:b}", "ms", s->ms, "share", s->share, "flagged",
			 st_steal_flagged(s));
}

json_t *st_report_host_json(const struct st_host *h)
{
	return json_pack("{s:s,s:i,s:s,s:b,s:I,s:o,s:o,s:s,s:o,s:s,s:o}", "kernel", h->kernel, "cpus", h->cpus,
			 "cpu_model", h->cpu_model, "rootless", h->rootless, "uid", (json_int_t)h->uid,
			 "pinned_cpu", h->pinned_cpu >= 0 ? json_integer(h->pinned_cpu) : json_null(),
			 "rcu_expedited",
			 h->rcu_expedited >= 0 ? json_integer(h->rcu_expedited) : json_null(), "cgroup",
			 h->cgroup, "virtualized",
			 h->virtualized >= 0 ? json_boolean(h->virtualized) : json_null(), "clone",
			 h->clone_call ? h->clone_call : "clone3", "steal", steal_json(&h->steal));
}

json_t *st_report_tool_json(void)
{
	return json_pack("{s:s,s:s}", "name", "sandboxtime", "version", ST_VERSION);
}

static json_t *cell_json(struct st_cell *cell)
{
	json_t *v;

	if (cell->null)
		return json_null();
	switch (cell->kind) {
	case ST_CELL_UINT:
		return json_integer((json_int_t)cell->u);
	case ST_CELL_INT:
		return json_integer((json_int_t)cell->i);
	case ST_CELL_REAL:
		return json_real(cell->d);
	case ST_CELL_BOOL:
		return json_boolean(cell->i);
	case ST_CELL_STATS:
		return st_report_stats_json(cell->stats);
	case ST_CELL_JSON:
		v = cell->json;
		cell->json = NULL;
		return v ? v : json_null();
	case ST_CELL_GROUP:
		return json_object();
	case ST_CELL_TEXT:
	default:
		return json_string(cell->text);
	}
}

/* The object that "group.key" goes into: made on first use; NULL when the group is null. */
static json_t *group_of(json_t *obj, const char *key, const char **leaf)
{
	const char *dot = strchr(key, '.');
	char group[64];
	json_t *g;

	*leaf = key;
	if (!dot)
		return obj;
	snprintf(group, sizeof(group), "%.*s", (int)(dot - key), key);
	*leaf = dot + 1;
	g = json_object_get(obj, group);
	if (!g) {
		g = json_object();
		json_object_set_new(obj, group, g);
	}
	return json_is_object(g) ? g : NULL;
}

static void json_row_into(json_t *obj, struct st_cols cols, const void *row, const void *doc)
{
	for (size_t c = 0; c < cols.n; c++) {
		const struct st_col *col = &cols.v[c];
		struct st_cell cell;
		const char *leaf;
		json_t *into;

		if (!st_col_shown(col, doc, ST_COL_JSON))
			continue;
		st_cell_get(col, row, doc, ST_FORMAT_JSON, &cell);
		into = cell.absent ? NULL : group_of(obj, col->key, &leaf);
		if (into)
			json_object_set_new(into, leaf, cell_json(&cell));
		st_cell_release(&cell);
	}
}

json_t *st_json_row(struct st_cols cols, const void *row, const void *doc)
{
	json_t *obj = json_object();

	json_row_into(obj, cols, row, doc);
	return obj;
}

/* Every document goes out the same way: indented, keys in order, 9 digits. */
int st_json_write(json_t *doc, FILE *out, struct st_error *err)
{
	if (!doc)
		return st_error_set(err, ENOMEM, "report: building JSON");
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) < 0 ||
	    fputc('\n', out) == EOF)
		return st_error_set(err, errno ? errno : EIO, "report: writing JSON");
	return 0;
}
