// SPDX-License-Identifier: MIT
/*
 * The sandboxtime/v1 document of `sandboxtime -- CMD` and `sandboxtime
 * layers`: one row per measured set or unavailable layer, described once by
 * layer_cols (fixed rows around one row per figure of measure.c's
 * st_figures[], so that a new figure reaches JSON and CSV by itself). The
 * human table shows other figures of the same sets (medians, increments,
 * cold over warm): warm_cols[] and cold_cols[]. What only a run has (steps,
 * network, security, workload) is in report_run.c.
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

#define BAR_WIDTH 24

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

/* A row: set @i of the measurement, or (set NULL) a layer the kernel refused. */
struct layer_row {
	const struct st_measurement *m;
	size_t i;
	const struct st_set *set;
	int layer;
	const struct st_cgroup_measurement *cgroup; /* CSV's cgroup row (set NULL), or NULL */
};

#define ROW(row) ((const struct layer_row *)(row))
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

static json_t *increments_json(const struct layer_row *row, const struct st_report *r);

/* --alone: that layer's own increments, beside the cumulative row of the layer. */
static void get_alone_json(const struct st_col *col, const void *row, const void *doc,
			   struct st_cell *c)
{
	const struct st_measurement *m = ROW(row)->m;

	c->absent = 1;
	for (size_t i = 0; ROW(row)->set && i < m->nsets; i++) {
		struct layer_row alone = { .m = m, .i = i, .set = &m->sets[i], .layer = m->sets[i].layer };

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
static json_t *increments_json(const struct layer_row *row, const struct st_report *r)
{
	struct st_cols cols = layer_cols();
	json_t *obj = json_object();

	for (size_t c = 0; c < cols.n; c++) {
		const struct st_col *col = &cols.v[c];
		struct st_cell cell;

		if (!col->key || strncmp(col->key, "incremental.", 12) != 0)
			continue;
		st_cell_get(col, row, r, ST_OUT_JSON, &cell);
		json_object_set_new(obj, col->key + 12, cell.null ? json_null() : json_real(cell.d));
		st_cell_release(&cell);
	}
	return obj;
}

/* ---- the table ----------------------------------------------------------- */

/* "alone:net" for a set of one layer alone. */
static void get_set_name(const struct st_col *col, const void *row, const void *doc,
			 struct st_cell *c)
{
	snprintf(c->buf, 24, "%s%s", ROW(row)->set->alone ? "alone:" : "", ROW(row)->set->name);
	c->text = c->buf;
}

static void get_median(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	c->kind = ST_CELL_REAL;
	c->empty = ROW(row)->set->fig[col->arg].n == 0;
	c->d = st_set_median(ROW(row)->set, (enum st_figure)col->arg);
}

/* The paired increment: its median, "~0" inside the noise, "<0" below; never a negative cost. */
static void get_table_increment(const struct st_col *col, const void *row, const void *doc,
				struct st_cell *c)
{
	st_report_increment_text(ROW(row)->m, ROW(row)->i, (enum st_figure)col->arg, c->buf,
				 sizeof(c->buf));
	c->text = c->buf;
}

/* The deferred median, or "unavailable" where the measurement could not wait for frees. */
static void get_table_deferred(const struct st_col *col, const void *row, const void *doc,
			       struct st_cell *c)
{
	const struct st_set *set = ROW(row)->set;

	if (ROW(row)->m->deferred_errnum) {
		c->text = set->mask ? "unavailable" : "-";
		return;
	}
	c->kind = ST_CELL_REAL;
	c->empty = set->fig[ST_FIG_DEFERRED].n == 0;
	c->d = st_set_median(set, ST_FIG_DEFERRED);
}

/* The type freed last in most of the set's samples. */
static void get_last_type(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	const struct st_set *set = ROW(row)->set;
	int best = -1;

	c->text = "";
	if (ROW(row)->m->deferred_errnum)
		return;
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (set->last[l] && (best < 0 || set->last[l] > set->last[best]))
			best = l;
	c->text = best < 0 ? "-" : st_layers[best].name;
}

/* Cold over warm: figure col->arg over its warm figure (cold minus ST_FIG_SETUP_COLD). */
static void get_cold_ratio(const struct st_col *col, const void *row, const void *doc,
			   struct st_cell *c)
{
	static const enum st_figure warm[] = { [ST_FIG_SETUP_COLD] = ST_FIG_SETUP,
					       [ST_FIG_READY_COLD] = ST_FIG_READY };
	double base = st_set_median(ROW(row)->set, warm[col->arg]);

	c->kind = ST_CELL_REAL;
	c->empty = ROW(row)->set->fig[col->arg].n == 0 || base <= 0;
	c->d = c->empty ? 0 : st_set_median(ROW(row)->set, (enum st_figure)col->arg) / base;
}

#define NAME_COL { .heading = "LAYER", .width = 12, .align = ST_ALIGN_LEFT, .in = ST_COL_TABLE, \
		   .get = get_set_name }
#define MEDIAN(h, f) { .heading = h, .width = 10, .prec = 1, .in = ST_COL_TABLE, .get = get_median, \
		       .arg = f, .help = "median, in microseconds" }
#define INCREMENT(h, f) { .heading = h, .width = 10, .prec = 1, .in = ST_COL_TABLE, \
			  .get = get_table_increment, .arg = f, \
			  .help = "median cost over the previous row, in microseconds" }
#define RATIO(h, f) { .heading = h, .width = 10, .prec = 2, .suffix = "x", .in = ST_COL_TABLE, \
		      .get = get_cold_ratio, .arg = f, .help = "cold median over warm median" }

static const struct st_col warm_cols[] = {
	NAME_COL,
	MEDIAN("setup", ST_FIG_SETUP),
	MEDIAN("ready", ST_FIG_READY),
	MEDIAN("teardown", ST_FIG_TEARDOWN),
	INCREMENT("+setup", ST_FIG_SETUP),
	INCREMENT("+teardown", ST_FIG_TEARDOWN),
	{ .heading = "deferred", .width = 11, .prec = 1, .in = ST_COL_TABLE, .get = get_table_deferred,
	  .help = "median from the reap until the last type was freed, in microseconds" },
	{ .heading = "last", .width = 6, .align = ST_ALIGN_LEFT, .in = ST_COL_TABLE,
	  .get = get_last_type, .help = "the type freed last in most samples" },
};

static const struct st_col cold_cols[] = {
	NAME_COL,
	MEDIAN("setup", ST_FIG_SETUP_COLD),
	MEDIAN("ready", ST_FIG_READY_COLD),
	MEDIAN("teardown", ST_FIG_TEARDOWN_COLD),
	INCREMENT("+setup", ST_FIG_SETUP_COLD),
	RATIO("setup x", ST_FIG_SETUP_COLD),
	RATIO("ready x", ST_FIG_READY_COLD),
};

static void print_header(const struct st_report *r, FILE *out)
{
	const struct st_report_config *o = r->config;

	st_report_host_line(out, &r->host);
	if (r->m)
		fprintf(out,
			"%u runs after %u warm-up, each round in a random order (--seed=%llu); deferred: %u runs; medians in microseconds\n",
			o->repeat, o->warmup, (unsigned long long)r->m->seed, o->deferred_repeat);
}

/* A significant positive increment, else 0. */
static double cost(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	struct st_increment inc;

	if (st_set_increment(m, i, fig, &inc) < 0 || !inc.significant || inc.median < 0)
		return 0;
	return inc.median;
}

static void print_bar(FILE *out, unsigned int style, double setup, double teardown, double max)
{
	int n = max > 0 ? (int)((setup + teardown) / max * BAR_WIDTH + 0.5) : 0;
	int ns = max > 0 ? (int)(setup / max * BAR_WIDTH + 0.5) : 0;
	char sgr[16];

	/* In colour the setup part is cyan, the teardown part yellow. */
	fprintf(out, " %s", st_text_sgr(style, "36", sgr, sizeof(sgr)));
	for (int k = 0; k < n; k++)
		fprintf(out, "%s\u2588", k == ns ? st_text_sgr(style, "33", sgr, sizeof(sgr)) : "");
	fputs(st_text_reset(style), out);
}

static void print_table(const struct st_report *r, struct st_cols cols, FILE *out,
			unsigned int style, double bar_max)
{
	const struct st_measurement *m = r->m;

	fputc('\n', out);
	st_text_header(out, style, cols, r);
	for (size_t i = 0; i < m->nsets; i++) {
		struct layer_row row = { .m = m, .i = i, .set = &m->sets[i], .layer = m->sets[i].layer };

		st_text_row(out, style, cols, &row, r);
		/* The bar: what a layer makes the caller wait for, its setup and teardown. */
		if (bar_max > 0 && row.set->layer >= 0 && (style & ST_TEXT_BARS))
			print_bar(out, style, cost(m, i, ST_FIG_SETUP), cost(m, i, ST_FIG_TEARDOWN), bar_max);
		fputc('\n', out);
	}
	if (style & ST_TEXT_MD)
		fputc('\n', out); /* or the next line would be a row */
}

/* -v: every figure's statistics, set by set. */
static void print_samples(const struct st_measurement *m, FILE *out)
{
	for (size_t i = 0; i < m->nsets; i++) {
		const struct st_set *set = &m->sets[i];

		for (int f = 0; f < ST_FIG_COUNT; f++) {
			struct st_stats s;

			if (!set->fig[f].n || st_stats_compute(set->fig[f].v, set->fig[f].n, &s) < 0)
				continue;
			/* Too few samples for a p95 that says more than the maximum: call it that. */
			fprintf(out, "  %s%-8s %-17s min %9.1f  median %9.1f  %s %9.1f  mean %9.1f  stddev %8.1f  n %zu\n",
				set->alone ? "alone:" : "", set->name, st_figures[f].key, s.min, s.median,
				st_stats_p95_meaningful(s.n) ? "p95" : "max", st_stats_p95_meaningful(s.n) ? s.p95 : s.max,
				s.mean, s.stddev, s.n);
		}
		if (set->fig[ST_FIG_SETUP].n)
			fprintf(out, "  %s%-8s preempted in %u of %zu warm samples\n", set->alone ? "alone:" : "",
				set->name, set->preempted, set->fig[ST_FIG_SETUP].n);
	}
}

/* -v: when each type became creatable again, medians in microseconds after the reap. */
static void print_freed(const struct st_report *r, FILE *out)
{
	const struct st_measurement *m = r->m;

	fprintf(out, "\nFREED       ");
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (r->mask & ST_LAYER_BIT(l))
			fprintf(out, " %10s", st_layers[l].name);
	fprintf(out, " %10s\n", "drain");
	for (size_t i = 0; i < m->nsets; i++) {
		const struct st_set *set = &m->sets[i];
		char name[24];

		if (!set->mask)
			continue;
		snprintf(name, sizeof(name), "%s%s", set->alone ? "alone:" : "", set->name);
		fprintf(out, "%-12s", name);
		for (int l = 0; l < ST_LAYER_COUNT; l++) {
			struct st_stats st;

			if (!(r->mask & ST_LAYER_BIT(l)))
				continue;
			if (!set->freed[l].n || st_stats_compute(set->freed[l].v, set->freed[l].n, &st) < 0)
				fprintf(out, " %10s", "-");
			else
				fprintf(out, " %10.1f", st.median);
		}
		fprintf(out, " %10.1f\n", st_set_median(set, ST_FIG_DEFERRED_DRAIN));
	}
}

static void print_layers(const struct st_report *r, FILE *out, unsigned int style)
{
	const struct st_measurement *m = r->m;
	double bar_max = 0;

	for (size_t i = 1; i < m->nsets; i++) {
		double v = cost(m, i, ST_FIG_SETUP) + cost(m, i, ST_FIG_TEARDOWN);

		bar_max = v > bar_max ? v : bar_max;
	}
	print_table(r, ST_COLS(warm_cols), out, style, bar_max);
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		char reason[ST_ERROR_MSG_MAX * 2];

		if (!(r->unavailable & ST_LAYER_BIT(l)))
			continue;
		st_report_layer_reason(r, l, reason, sizeof(reason));
		fprintf(out, "%-12s unavailable: %s\n", st_layers[l].name, reason);
	}
	fprintf(out, "(+: median of the within-round differences to the previous row, ~0 when its 95%% interval contains 0,\n"
		" ~? when n is too small for a 95%% interval;\n"
		" deferred: from the reap until the last type was freed, named under last; waited %.0f ms for frees,\n"
		" and %.0f ms untimed before the samples for earlier samples' frees;\n",
		st_ns_to_us(m->deferred_wait_ns) / 1000.0, st_ns_to_us(m->drain_wait_ns) / 1000.0);
	st_report_verdicts_note(m, out);
	fputs(")\n", out);
	if (m->deferred_errnum)
		fprintf(out, "%-12s unavailable: %s\n", "deferred", m->deferred_reason);
	if (r->config->cold_ms) {
		fprintf(out, "\nCOLD: after %u ms idle before every sample (x: cold over warm)", r->config->cold_ms);
		print_table(r, ST_COLS(cold_cols), out, style & ~ST_TEXT_BARS, 0);
	}
	st_text_fence(out, r->out->verbose ? style : 0, 1);
	if (r->out->verbose && m->nsets > 1 && !m->deferred_errnum && r->config->deferred_repeat)
		print_freed(r, out);
	if (r->out->verbose)
		print_samples(m, out);
	st_text_fence(out, r->out->verbose ? style : 0, 0);
}

/* Markdown: the host as a paragraph, the layers as pipe tables, the rest as fenced text. */
int st_report_write_table(const struct st_report *r, FILE *out, unsigned int style,
			  struct st_error *err)
{
	print_header(r, out);
	if (r->bench) {
		st_text_fence(out, style, 1);
		st_bench_write_table(r->bench, out);
		st_text_fence(out, style, 0);
	} else {
		unsigned int run = r->steps || r->net || r->harden || r->workload || r->cgroup ? style : 0;

		if (r->m)
			print_layers(r, out, style);
		st_text_fence(out, run, 1);
		if (r->cgroup)
			st_report_cgroup_table(r->cgroup, out);
		st_run_write_table(r, out);
		st_text_fence(out, run, 0);
		for (size_t i = 0; i < r->nerrors; i++)
			fprintf(out, "note: %s\n", r->errors[i]);
	}
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing the table");
	return 0;
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
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)(r->m ? r->m->seed : o->seed));
	json_object_set_new(c, "seed", r->m || o->seed_given ? json_string(seed) : json_null());
	return c;
}

/* Base first, then each layer in order: refused, or its cumulative set (with "alone"). */
static json_t *layers_json(const struct st_report *r)
{
	const struct st_measurement *m = r->m;
	json_t *a = json_array();

	if (m && m->nsets) {
		struct layer_row base = { .m = m, .i = 0, .set = &m->sets[0], .layer = -1 };

		json_array_append_new(a, st_json_row(layer_cols(), &base, r));
	}
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		struct layer_row row = { .m = m, .layer = l };

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

int st_report_write_json(const struct st_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = r->bench ? st_bench_json(&r->host, r->bench) : st_report_json(r);

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
		struct layer_row row = { .m = r->m, .i = i, .set = &r->m->sets[i], .layer = r->m->sets[i].layer };

		st_csv_row(out, layer_cols(), &row, r);
	}
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		struct layer_row row = { .m = r->m, .layer = l };

		if (r->unavailable & ST_LAYER_BIT(l))
			st_csv_row(out, layer_cols(), &row, r);
	}
	if (has_cgroup_layer(r)) {
		struct layer_row row = { .m = r->m, .cgroup = r->cgroup };

		st_csv_row(out, layer_cols(), &row, r);
	}
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing CSV");
	return 0;
}

int st_report_write(const struct st_report *r, FILE *out, struct st_error *err)
{
	switch (r->out->format) {
	case ST_FORMAT_JSON:
		return st_report_write_json(r, out, err);
	case ST_FORMAT_CSV:
		return st_report_write_csv(r, out, err);
	case ST_FORMAT_PROMETHEUS:
		return st_report_write_prom(r, out, err);
	case ST_FORMAT_MARKDOWN:
	case ST_FORMAT_TABLE:
	default:
		return st_report_write_table(r, out, st_text_style(r->out, out), err);
	}
}
