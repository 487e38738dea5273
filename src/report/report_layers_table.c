// SPDX-License-Identifier: MIT
/*
 * The human table of the sandboxtime/v1 document: the host, then per set
 * its medians, increments and bars (warm_cols[]), cold over warm
 * (cold_cols[]), the samples and what the deferred teardown freed; the run's
 * sections after (report_run.c).
 */
#include <math.h>
#include <string.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/cgroup_measure.h"
#include "sandboxtime/report_layers.h"
#include "sandboxtime/report_run.h"

#define BAR_WIDTH 24

#define ROW(row) ((const struct st_layer_row *)(row))
#define REPORT(doc) ((const struct st_report *)(doc))

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
		struct st_layer_row row = { .m = m, .i = i, .set = &m->sets[i], .layer = m->sets[i].layer };

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
