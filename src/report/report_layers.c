// SPDX-License-Identifier: MIT
/*
 * The sandboxtime/v1 document of `sandboxtime -- CMD` and `sandboxtime
 * layers`: one row per measured set or unavailable layer, described once by
 * layer_cols (fixed rows around one row per figure of measure.c's
 * st_figures[], so that a new figure reaches JSON and CSV by itself). The
 * human table shows other figures of the same sets (medians, increments,
 * cold over warm): warm_cols[] and cold_cols[] in report_layers_table.c. What
 * only a run has (steps, network, security, workload) is in report_run.c.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/cgroup_measure.h"
#include "sandboxtime/report_layers.h"
#include "sandboxtime/report_run.h"

void st_report_add_error(struct st_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nerrors >= ST_MAX_REPORT_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->errors[r->nerrors++], ST_ERROR_MSG_MAX, fmt, ap);
	va_end(ap);
}

void st_report_layer_reason(const struct st_report *r, int layer, char *buf, size_t len)
{
	struct st_error e = { .errnum = r->layer_errnum[layer] };

	st_layer_hint_here(&e, e.errnum, (enum st_layer)layer);
	snprintf(buf, len, "%s%s%s%s", strerror(e.errnum), e.hint[0] ? " (" : "", e.hint,
		 e.hint[0] ? ")" : "");
}

double st_report_increment(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	const struct st_set *ref = st_set_reference(m, i);
	double v = st_set_median(&m->sets[i], fig);

	return ref ? v - st_set_median(ref, fig) : v;
}

#define ROW(row) ((const struct st_layer_row *)(row))
#define REPORT(doc) ((const struct st_report *)(doc))

/* ---- the document's columns ---------------------------------------------- */

static void get_layer(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->set ? ROW(row)->set->name :
		  ROW(row)->cgroup ? "cgroup_layer" : st_layers[ROW(row)->layer].name;
}

static void get_alone(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_INT;
	c->i = ROW(row)->set ? ROW(row)->set->alone : 0;
}

static void get_available(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	c->kind = ST_CELL_BOOL;
	c->i = ROW(row)->set != NULL || (ROW(row)->cgroup && ROW(row)->cgroup->available);
}

/* Only an unavailable layer has a reason; a measured set has none (JSON: no key). */
static void get_reason(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	const struct st_cgroup_measurement *cm = ROW(row)->cgroup;

	c->absent = ROW(row)->set != NULL || (cm && cm->available);
	if (c->absent)
		return;
	if (cm)
		c->text = cm->reason;
	else {
		st_report_layer_reason(REPORT(doc), ROW(row)->layer, c->buf, sizeof(c->buf));
		c->text = c->buf;
	}
}

/* The clone flags of the set: SIGCHLD and one CLONE_NEW* per layer. */
static void get_flags(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_set *set = ROW(row)->set;

	c->absent = !set;
	if (c->absent)
		return;
	c->kind = ST_CELL_JSON;
	c->json = json_array();
	json_array_append_new(c->json, json_string("SIGCHLD"));
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (set->mask & ST_LAYER_BIT(l))
			json_array_append_new(c->json, json_string(st_layers[l].flag_name));
}

/* Figure col->arg's samples; cold figures exist only with --cold. */
static void get_figure(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	const struct st_set *set = ROW(row)->set;

	c->kind = ST_CELL_STATS;
	c->empty = !set || !set->fig[col->arg].n;
	c->absent = !set || (col->arg >= ST_FIG_SETUP_COLD && !set->fig[col->arg].n);
	c->stats = set ? &set->fig[col->arg] : NULL;
}

static void get_probes(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->absent = !ROW(row)->set;
	c->u = ROW(row)->set ? ROW(row)->set->deferred_probes : 0;
}

/* The cost over the reference set; deferred only where a layer was probed. */
static void get_increment(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	const struct st_set *set = ROW(row)->set;

	c->kind = ST_CELL_REAL;
	c->absent = c->empty = !set;
	if (!set)
		return;
	if (col->arg == ST_FIG_DEFERRED && !(set->mask && set->fig[ST_FIG_DEFERRED].n)) {
		c->empty = c->null = 1;
		return;
	}
	c->d = st_report_increment(ROW(row)->m, ROW(row)->i, (enum st_figure)col->arg);
}

/* Set col->arg's deferred_by_type (arg 0) or deferred_last (arg 1): when each type was freed. */
static void get_deferred_types(const struct st_col *col, const void *row, const void *doc,
			       struct st_cell *c)
{
	json_t *both;

	c->absent = !ROW(row)->set;
	if (c->absent)
		return;
	both = json_object();
	st_report_deferred_types_json(both, ROW(row)->set);
	c->kind = ST_CELL_JSON;
	c->json = json_incref(json_object_get(both, col->arg ? "deferred_last" : "deferred_by_type"));
	json_decref(both);
}

static void get_preempted(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->absent = !ROW(row)->set;
	c->u = ROW(row)->set ? ROW(row)->set->preempted : 0;
}

/* The paired within-round increments with their 95% intervals. */
static void get_paired(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	c->absent = !ROW(row)->set;
	if (c->absent)
		return;
	c->kind = ST_CELL_JSON;
	c->json = st_report_increments_json(ROW(row)->m, ROW(row)->i);
}

static json_t *increments_json(const struct st_layer_row *row, const struct st_report *r);

/* --alone: that layer's own increments, beside the cumulative row of the layer. */
static void get_alone_json(const struct st_col *col, const void *row, const void *doc,
			   struct st_cell *c)
{
	const struct st_measurement *m = ROW(row)->m;

	c->absent = 1;
	for (size_t i = 0; ROW(row)->set && i < m->nsets; i++) {
		struct st_layer_row alone = { .m = m, .i = i, .set = &m->sets[i], .layer = m->sets[i].layer };

		if (!m->sets[i].alone || m->sets[i].layer != ROW(row)->set->layer)
			continue;
		c->absent = 0;
		c->kind = ST_CELL_JSON;
		c->json = increments_json(&alone, REPORT(doc));
		json_object_set_new(c->json, "increments", st_report_increments_json(m, i));
		/* "deferred_us" here is the old increment: the set's own figure has a key of its own. */
		json_object_set_new(c->json, "deferred_set_us",
				    st_report_stats_json(&m->sets[i].fig[ST_FIG_DEFERRED]));
		st_report_deferred_types_json(c->json, &m->sets[i]);
		return;
	}
}

/* The cgroup layer's figure col->arg, on CSV's cgroup row only (empty on the layers' rows). */
static void get_cgroup_figure(const struct st_col *col, const void *row, const void *doc,
			      struct st_cell *c)
{
	const struct st_cgroup_measurement *cm = ROW(row)->cgroup;

	c->kind = ST_CELL_STATS;
	c->empty = !cm || !cm->available || !cm->fig[col->arg].n;
	c->stats = cm ? &cm->fig[col->arg] : NULL;
}

/* Whether the report measured the cgroup layer (--cgroup): its CSV columns exist only then. */
static int has_cgroup_layer(const void *doc)
{
	return REPORT(doc)->cgroup && REPORT(doc)->cgroup->asked;
}

#define C ST_COL_CSV
#define J ST_COL_JSON

static const struct st_col head_cols[] = {
	{ .name = "layer", .key = "layer", .in = C | J, .get = get_layer,
	  .help = "the layer this set adds (base: none)" },
	{ .name = "alone", .in = C, .get = get_alone, .help = "1: this layer only (after user when rootless)" },
	{ .name = "available", .key = "available", .in = C | J, .get = get_available,
	  .help = "0: the kernel refused the layer" },
	{ .name = "reason", .key = "reason", .in = C | J, .get = get_reason,
	  .help = "why the kernel refused it" },
	{ .key = "flags", .in = J, .get = get_flags, .help = "clone flags of the set" },
};

/* Then one stats column per figure of st_figures[], then these. */
static const struct st_col tail_cols[] = {
	{ .key = "deferred_probes", .in = J, .get = get_probes,
	  .help = "failed unshare() probes while waiting for the deferred teardown" },
	{ .key = "deferred_by_type", .in = J, .get = get_deferred_types, .arg = 0,
	  .help = "per namespace type: from the reap until it could be made again" },
	{ .key = "deferred_last", .in = J, .get = get_deferred_types, .arg = 1,
	  .help = "per namespace type: in how many samples it was freed last" },
	{ .key = "preempted_samples", .in = J, .get = get_preempted,
	  .help = "warm samples during which the measuring process was preempted" },
	{ .name = "incremental_setup", .unit = "us", .key = "incremental.setup_us", .csv_prec = 3,
	  .in = C | J, .get = get_increment, .arg = ST_FIG_SETUP,
	  .help = "setup cost over the previous set" },
	{ .name = "incremental_teardown", .unit = "us", .key = "incremental.teardown_us",
	  .csv_prec = 3, .in = C | J, .get = get_increment, .arg = ST_FIG_TEARDOWN,
	  .help = "teardown cost over the previous set" },
	{ .name = "incremental_deferred", .unit = "us", .key = "incremental.deferred_us",
	  .csv_prec = 3, .in = C | J, .get = get_increment, .arg = ST_FIG_DEFERRED,
	  .help = "deferred teardown over the previous set" },
	{ .key = "increments", .in = J, .get = get_paired,
	  .help = "within-round paired increments with exact 95% order-statistic intervals (null below n = 6, with ci_why)" },
	{ .key = "alone", .in = J, .get = get_alone_json,
	  .help = "--alone: the layer's increments against the base" },
};

#undef C
#undef J

#define NCOLS (ARRAY_SIZE(head_cols) + ST_FIG_COUNT + ARRAY_SIZE(tail_cols) + ST_CGM_COUNT)

/* The columns, built once from the two tables and st_figures[]. */
static struct st_cols layer_cols(void)
{
	static struct st_col cols[NCOLS];
	static char names[ST_FIG_COUNT][32], cg_names[ST_CGM_COUNT][40];
	static int built;
	size_t n = 0;

	if (built)
		return (struct st_cols){ cols, NCOLS };
	for (size_t k = 0; k < ARRAY_SIZE(head_cols); k++)
		cols[n++] = head_cols[k];
	for (int f = 0; f < ST_FIG_COUNT; f++) {
		/* "setup_us" -> "setup_median_us": units stay last, in the CSV header only. */
		snprintf(names[f], sizeof(names[f]), "%.*s", (int)strlen(st_figures[f].key) - 3,
			 st_figures[f].key);
		cols[n++] = (struct st_col){ .name = names[f], .unit = "us", .key = st_figures[f].key,
					     .stats = 1, .csv_prec = 3, .in = ST_COL_CSV | ST_COL_JSON,
					     .get = get_figure, .arg = f, .help = st_figures[f].label };
	}
	for (size_t k = 0; k < ARRAY_SIZE(tail_cols); k++)
		cols[n++] = tail_cols[k];
	/*
	 * CSV with --cgroup: the cgroup layer's figures, "cgroup_mkdir_median_us"...,
	 * filled on a row of their own (layer "cgroup_layer") after the sets: a
	 * direct timing per step, no set holds it, so no set's row has room for it.
	 */
	for (int f = 0; f < ST_CGM_COUNT; f++) {
		snprintf(cg_names[f], sizeof(cg_names[f]), "cgroup_%.*s",
			 (int)strlen(st_cgm_figures[f].key) - 3, st_cgm_figures[f].key);
		cols[n++] = (struct st_col){ .name = cg_names[f], .unit = "us", .stats = 1, .csv_prec = 3,
					     .in = ST_COL_CSV, .get = get_cgroup_figure, .arg = f,
					     .shown = has_cgroup_layer, .help = st_cgm_figures[f].label };
	}
	built = 1;
	return (struct st_cols){ cols, NCOLS };
}

/* The "incremental" object of @row (and "alone"'s): its columns, without the group. */
static json_t *increments_json(const struct st_layer_row *row, const struct st_report *r)
{
	struct st_cols cols = layer_cols();
	json_t *obj = json_object();

	for (size_t c = 0; c < cols.n; c++) {
		const struct st_col *col = &cols.v[c];
		struct st_cell cell;

		if (!col->key || strncmp(col->key, "incremental.", 12) != 0)
			continue;
		st_cell_get(col, row, r, ST_FORMAT_JSON, &cell);
		json_object_set_new(obj, col->key + 12, cell.null ? json_null() : json_real(cell.d));
		st_cell_release(&cell);
	}
	return obj;
}

/* ---- JSON and CSV -------------------------------------------------------- */

static json_t *config_json(const struct st_report *r)
{
	const struct st_report_config *o = r->config;
	json_t *c = json_pack("{s:o,s:s,s:I,s:I,s:I,s:o,s:b,s:o}", "ns", st_report_layer_names_json(r->mask), "net",
			      st_net_mode_names[o->net], "repeat", (json_int_t)o->repeat, "warmup",
			      (json_int_t)o->warmup, "deferred_repeat", (json_int_t)o->deferred_repeat,
			      "cold_ms", o->cold_ms ? json_integer(o->cold_ms) : json_null(), "alone",
			      o->alone, "config_file", o->config ? json_string(o->config) : json_null());
	char seed[24];

	/* A string: a 64-bit seed does not survive a reader's doubles. */
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)(r->m ? r->m->seed : o->seed.value));
	json_object_set_new(c, "seed", r->m || o->seed.given ? json_string(seed) : json_null());
	return c;
}

/* Base first, then each layer in order: refused, or its cumulative set (with "alone"). */
static json_t *layers_json(const struct st_report *r)
{
	const struct st_measurement *m = r->m;
	json_t *a = json_array();

	if (m && m->nsets) {
		struct st_layer_row base = { .m = m, .i = 0, .set = &m->sets[0], .layer = -1 };

		json_array_append_new(a, st_json_row(layer_cols(), &base, r));
	}
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		struct st_layer_row row = { .m = m, .layer = l };

		if (r->unavailable & ST_LAYER_BIT(l)) {
			json_array_append_new(a, st_json_row(layer_cols(), &row, r));
			continue;
		}
		for (size_t i = 0; m && i < m->nsets; i++) {
			if (m->sets[i].alone || m->sets[i].layer != l)
				continue;
			row.i = i;
			row.set = &m->sets[i];
			json_array_append_new(a, st_json_row(layer_cols(), &row, r));
		}
	}
	return a;
}

json_t *st_report_json(const struct st_report *r)
{
	json_t *doc = json_object();
	json_t *errors = json_array();

	json_object_set_new(doc, "schema", json_string(ST_SCHEMA));
	json_object_set_new(doc, "tool", st_report_tool_json());
	json_object_set_new(doc, "host", st_report_host_json(&r->host));
	json_object_set_new(doc, "config", config_json(r));
	json_object_set_new(doc, "layers", layers_json(r));
	if (r->m)
		json_object_set_new(doc, "measurement", st_report_measurement_json(r->m));
	if (r->cgroup)
		json_object_set_new(doc, "cgroup_layer", st_report_cgroup_json(r->cgroup));
	if (r->config->run)
		st_run_json(doc, r);
	for (size_t i = 0; i < r->nerrors; i++)
		json_array_append_new(errors, json_string(r->errors[i]));
	json_object_set_new(doc, "errors", errors);
	return doc;
}

/* bench syscall and bench cpu go out in the layers report's place. */
json_t *st_report_document_json(const struct st_report *r)
{
	return r->bench ? st_bench_json(&r->host, r->bench) : st_report_json(r);
}

int st_report_write_json(const struct st_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = st_report_document_json(r);

	return st_json_write(doc, out, err);
}

/* Every set in measurement order, then the layers the kernel refused. */
int st_report_write_csv(const struct st_report *r, FILE *out, struct st_error *err)
{
	if (r->bench) {
		st_bench_write_csv(r->bench, out);
		return ferror(out) ? st_error_set(err, EIO, "report: writing CSV") : 0;
	}
	st_csv_header(out, layer_cols(), r);
	for (size_t i = 0; r->m && i < r->m->nsets; i++) {
		struct st_layer_row row = { .m = r->m, .i = i, .set = &r->m->sets[i], .layer = r->m->sets[i].layer };

		st_csv_row(out, layer_cols(), &row, r);
	}
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		struct st_layer_row row = { .m = r->m, .layer = l };

		if (r->unavailable & ST_LAYER_BIT(l))
			st_csv_row(out, layer_cols(), &row, r);
	}
	if (has_cgroup_layer(r)) {
		struct st_layer_row row = { .m = r->m, .cgroup = r->cgroup };

		st_csv_row(out, layer_cols(), &row, r);
	}
	if (r->config->run)
		st_run_write_csv(r, out);
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing CSV");
	return 0;
}

static json_t *layers_doc_json(const void *doc)
{
	return st_report_document_json(doc);
}

static int layers_csv(const void *doc, FILE *out, struct st_error *err)
{
	return st_report_write_csv(doc, out, err);
}

static int layers_prom(const void *doc, FILE *out, struct st_error *err)
{
	return st_report_write_prom(doc, out, err);
}

static int layers_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	return st_report_write_table(doc, out, style, err);
}

const struct st_doc_format st_report_format = {
	.json = layers_doc_json, .csv = layers_csv, .prom = layers_prom, .text = layers_text,
};

int st_report_write(const struct st_report *r, FILE *out, struct st_error *err)
{
	return st_doc_write(&st_report_format, r->out, r, out, "report", err);
}
