// SPDX-License-Identifier: MIT
/*
 * A report's charts, from its JSON document: each schema turns into one or
 * more bar charts (svg.c draws them), stacked in one <svg>.
 *   sandboxtime/v1: the incremental setup and teardown of every measured
 *     layer with their 95% intervals; the deferred free per namespace type
 *     of the largest set, in milliseconds (frees take ms, setups µs); a
 *     run's steps.
 *   netbench/v1: throughput per path, then latency p50 and p99 per path.
 *   bench/v1: the median of every row; bench churn: the backlog over time
 *     (a line per creator count), one creation's p50 and p99, and the
 *     creation rate beside the bare clone loop's.
 *   compare/v1: every file's median as a share of the first file's, the
 *     later files with the ratio's interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/report_svg.h"
#include "sandboxtime/svg.h"

#define MAX_CHARTS 8
#define MAX_PLOTS 2

/* The bar charts, and the line plots drawn above them; the plots' points are owned here. */
struct charts {
	struct st_chart v[MAX_CHARTS];
	size_t n;
	struct st_plot p[MAX_PLOTS];
	size_t np;
	double *points[MAX_PLOTS][ST_CHART_MAX_SERIES];
	char names[MAX_PLOTS][ST_CHART_MAX_SERIES][32];
	char notes[MAX_PLOTS][96];
};

static void charts_free(struct charts *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		free(cs->v[i].rows);
	for (size_t i = 0; i < cs->np; i++)
		for (size_t l = 0; l < cs->p[i].nlines; l++)
			free(cs->points[i][l]);
}

/* A new chart of at most @nrows rows; NULL: out of memory. */
static struct st_chart *chart_new(struct charts *cs, const char *title, const char *axis,
				  size_t nrows)
{
	struct st_chart *c = &cs->v[cs->n];

	if (cs->n == MAX_CHARTS)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->rows = calloc(nrows ? nrows : 1, sizeof(*c->rows));
	if (!c->rows)
		return NULL;
	cs->n++;
	c->title = title;
	c->axis = axis;
	return c;
}

static void series(struct st_chart *c, const char *name, const char *cls)
{
	c->series[c->nseries] = name;
	c->series_cls[c->nseries++] = cls;
}

static const char *str(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "?";
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Bar @s of @row from an interval object {median, ci_low, ci_high}. */
static void interval_bar(struct st_chart_row *row, size_t s, json_t *inc, double scale)
{
	struct st_chart_bar *b = &row->bar[s];

	b->v = num(inc, "median") * scale;
	b->present = isfinite(b->v);
	b->lo = num(inc, "ci_low") * scale;
	b->hi = num(inc, "ci_high") * scale;
	b->whisker = isfinite(b->lo) && isfinite(b->hi);
}

/* Bar @s of @row from a stats object: the median, whiskers min..p95. */
static void stats_bar(struct st_chart_row *row, size_t s, json_t *st, double scale)
{
	struct st_chart_bar *b = &row->bar[s];

	b->v = num(st, "median") * scale;
	b->present = isfinite(b->v);
	b->lo = num(st, "min") * scale;
	b->hi = num(st, "p95") * scale;
	b->whisker = isfinite(b->lo) && isfinite(b->hi);
}

static void plain_bar(struct st_chart_row *row, size_t s, double v)
{
	row->bar[s].v = v;
	row->bar[s].present = isfinite(v);
}

/* One row per measured layer (base first): the paired increments. */
static int layers_chart(struct charts *cs, json_t *layers)
{
	struct st_chart *c = chart_new(cs, "Incremental cost of each layer", "microseconds (µs)",
				       json_array_size(layers));
	size_t i;
	json_t *l;

	if (!c)
		return -ENOMEM;
	c->note = "bar: median of the within-round differences to the previous layer; whisker: its 95% interval";
	series(c, "setup", "bar-setup");
	series(c, "teardown", "bar-teardown");
	json_array_foreach(layers, i, l) {
		json_t *inc = json_object_get(l, "increments");
		struct st_chart_row *row = &c->rows[c->nrows];

		if (!json_is_true(json_object_get(l, "available")) || !json_is_object(inc))
			continue;
		snprintf(row->label, sizeof(row->label), "%s", str(l, "layer"));
		interval_bar(row, 0, json_object_get(inc, "setup_us"), 1);
		interval_bar(row, 1, json_object_get(inc, "teardown_us"), 1);
		c->nrows++;
	}
	return 0;
}

/* The last layer with deferred_by_type: the set with every layer, every type freed in it. */
static int deferred_chart(struct charts *cs, json_t *layers)
{
	json_t *by = NULL, *l, *st;
	struct st_chart *c;
	const char *type;
	size_t i;

	json_array_foreach(layers, i, l)
		if (json_is_object(json_object_get(l, "deferred_by_type")))
			by = json_object_get(l, "deferred_by_type");
	if (!by)
		return 0;
	c = chart_new(cs, "Deferred free per namespace type (all layers)", "milliseconds (ms) after the reap",
		      json_object_size(by));
	if (!c)
		return -ENOMEM;
	c->note = "bar: median time until the type could be made again; whisker: min to p95";
	series(c, "freed", "bar-deferred");
	json_object_foreach(by, type, st) {
		snprintf(c->rows[c->nrows].label, sizeof(c->rows[0].label), "%s", type);
		stats_bar(&c->rows[c->nrows++], 0, st, 1e-3);
	}
	return 0;
}

static int steps_chart(struct charts *cs, json_t *steps)
{
	struct st_chart *c;
	size_t i;
	json_t *s;

	if (!json_array_size(steps))
		return 0;
	c = chart_new(cs, "Steps of the sandbox, in the order done", "microseconds (µs)",
		      json_array_size(steps));
	if (!c)
		return -ENOMEM;
	series(c, "step", "bar-step");
	json_array_foreach(steps, i, s) {
		snprintf(c->rows[c->nrows].label, sizeof(c->rows[0].label), "%s",
			 str(s, "step"));
		plain_bar(&c->rows[c->nrows++], 0, num(s, "us"));
	}
	return 0;
}

static int sandboxtime_charts(struct charts *cs, json_t *doc)
{
	json_t *layers = json_object_get(doc, "layers");
	int ret = layers_chart(cs, layers);

	if (ret == 0)
		ret = deferred_chart(cs, layers);
	if (ret == 0)
		ret = steps_chart(cs, json_object_get(doc, "steps"));
	return ret;
}

static int netbench_charts(struct charts *cs, json_t *doc)
{
	json_t *paths = json_object_get(doc, "paths"), *p;
	struct st_chart *t, *l;
	size_t i;

	t = chart_new(cs, "TCP throughput per path", "gigabits per second (Gbit/s)", json_array_size(paths));
	l = t ? chart_new(cs, "Request/response latency per path", "microseconds (µs)",
			  json_array_size(paths)) : NULL;
	if (!l)
		return -ENOMEM;
	t->note = "bar: median of the runs; whisker: min to p95";
	series(t, "throughput", "bar-throughput");
	series(l, "p50", "bar-p50");
	series(l, "p99", "bar-p99");
	json_array_foreach(paths, i, p) {
		json_t *lat = json_object_get(p, "latency_us");
		const char *name = str(p, "path");

		snprintf(t->rows[t->nrows].label, sizeof(t->rows[0].label), "%s", name);
		stats_bar(&t->rows[t->nrows++], 0, json_object_get(p, "throughput_gbps"), 1);
		if (!json_is_object(lat))
			continue;
		snprintf(l->rows[l->nrows].label, sizeof(l->rows[0].label), "%s", name);
		plain_bar(&l->rows[l->nrows], 0, num(lat, "p50"));
		plain_bar(&l->rows[l->nrows++], 1, num(lat, "p99"));
	}
	/* --no-rr: no latency to draw. */
	if (!l->nrows) {
		free(l->rows);
		cs->n--;
	}
	return 0;
}

/* A grid's axis for @unit ("ns", "us"; NULL: the grid's own unit in its config). */
static const char *grid_axis(json_t *doc, const char *unit)
{
	if (!unit)
		unit = json_string_value(json_object_get(json_object_get(doc, "config"), "unit"));
	return unit && strcmp(unit, "ns") == 0 ? "nanoseconds (ns)" : "microseconds (µs)";
}

/*
 * A grid (bench files, userns, where, mounts, cgroup): op and place. Rows of
 * another unit (bench where, bench cgroup: ns and us) get a chart of their
 * own: one axis never mixes nanoseconds and microseconds.
 */
static int grid_charts(struct charts *cs, json_t *doc)
{
	json_t *rows = json_object_get(doc, "rows"), *r;
	const char *units[MAX_CHARTS];
	size_t nunits = 0, i;

	json_array_foreach(rows, i, r) {
		const char *u = str(r, "unit");
		size_t k = 0;

		while (k < nunits && strcmp(units[k], u) != 0)
			k++;
		if (k == nunits && nunits < MAX_CHARTS)
			units[nunits++] = u;
	}
	for (size_t k = 0; k < nunits; k++) {
		const char *u = json_object_get(json_array_get(rows, 0), "unit") ? units[k] : NULL;
		struct st_chart *c = chart_new(cs, "Cost per operation", grid_axis(doc, u),
					       json_array_size(rows));

		if (!c)
			return -ENOMEM;
		c->note = "bar: median; whisker: min to p95";
		series(c, "median", "bar-bench");
		json_array_foreach(rows, i, r) {
			struct st_chart_row *row;

			if (u && strcmp(str(r, "unit"), u) != 0)
				continue;
			row = &c->rows[c->nrows++];
			snprintf(row->label, sizeof(row->label), "%s %s", str(r, "op"), str(r, "place"));
			stats_bar(row, 0, json_object_get(r, "per_op"), 1);
		}
	}
	return 0;
}

/* "1 creator", "2 creators": a churn row's creator count, in the legend and as a row label. */
static void creators_label(char *buf, size_t len, json_t *row)
{
	long long n = json_integer_value(json_object_get(row, "parallel"));

	snprintf(buf, len, "%lld creator%s", n, n == 1 ? "" : "s");
}

/* Line @l of plot @pi: @key of every point of @series against its t_s. */
static int plot_line(struct charts *cs, size_t pi, json_t *series, const char *key)
{
	struct st_plot *p = &cs->p[pi];
	struct st_plot_line *l = &p->line[p->nlines];
	size_t n = json_array_size(series), i;
	double *xy = malloc((n ? n : 1) * 2 * sizeof(*xy));
	json_t *pt;

	if (!xy)
		return -ENOMEM;
	cs->points[pi][p->nlines++] = xy;
	json_array_foreach(series, i, pt) {
		xy[i] = num(pt, "t_s");
		xy[n + i] = num(pt, key);
	}
	l->n = n;
	l->x = xy;
	l->y = xy + n;
	l->name = cs->names[pi][p->nlines - 1];
	return 0;
}

/*
 * bench churn: the kernel's backlog over time, one line per creator count
 * (the picture: does teardown keep up?), then one creation's
 * latency and the rates beside the bare clone loop's.
 */
static int churn_charts(struct charts *cs, json_t *doc)
{
	json_t *rows = json_object_get(doc, "rows"), *r;
	size_t nrows = json_array_size(rows), pi = cs->np, i;
	struct st_plot *p = &cs->p[pi];
	struct st_chart *lat, *rate;

	if (cs->np == MAX_PLOTS)
		return -ENOMEM;
	cs->np++;
	memset(p, 0, sizeof(*p));
	p->title = "Reaped but not yet freed, over time";
	p->x_axis = "seconds since the first clone3() (s)";
	p->y_axis = "backlog (sandboxes)";
	snprintf(cs->notes[pi], sizeof(cs->notes[pi]),
		 "one line per creator count; counted every %.0f ms, and through the drain",
		 num(json_object_get(doc, "config"), "sample_interval_ms"));
	p->note = cs->notes[pi];
	json_array_foreach(rows, i, r) {
		int ret;

		if (i == ST_CHART_MAX_SERIES)
			break; /* the table has them all */
		creators_label(cs->names[pi][i], sizeof(cs->names[pi][i]), r);
		ret = plot_line(cs, pi, json_object_get(r, "series"), "backlog");
		if (ret < 0)
			return ret;
	}
	lat = chart_new(cs, "One creation, by creator count", "microseconds (µs)", nrows);
	if (!lat)
		return -ENOMEM;
	series(lat, "p50", "bar-p50");
	series(lat, "p99", "bar-p99");
	rate = chart_new(cs, "Sandboxes made and destroyed per second", "sandboxes per second",
			 nrows);
	if (!rate)
		return -ENOMEM;
	series(rate, "sandboxtime", "bar-rate");
	series(rate, "bare clone loop", "bar-bare");
	json_array_foreach(rows, i, r) {
		struct st_chart_row *lr = &lat->rows[lat->nrows++], *rr = &rate->rows[rate->nrows++];
		json_t *create = json_object_get(r, "create_us");

		creators_label(lr->label, sizeof(lr->label), r);
		memcpy(rr->label, lr->label, sizeof(rr->label));
		plain_bar(lr, 0, num(create, "p50"));
		plain_bar(lr, 1, num(create, "p99"));
		plain_bar(rr, 0, num(r, "rate_per_s"));
		plain_bar(rr, 1, num(json_object_get(r, "bare"), "rate_per_s"));
	}
	return 0;
}

/*
 * bench syscall/cpu: op and place; bench fork: size and method; bench
 * files/userns: op and place; bench all: each of its benches in turn.
 */
static int bench_charts(struct charts *cs, json_t *doc)
{
	const char *bench = json_string_value(json_object_get(doc, "bench"));
	int is_fork = bench && strcmp(bench, "fork") == 0;
	json_t *rows = json_object_get(doc, "rows"), *r, *sub;
	int is_grid = json_object_get(json_array_get(rows, 0), "per_op") != NULL;
	struct st_chart *c;
	size_t i;

	if (json_is_array(json_object_get(doc, "benches"))) {
		json_array_foreach(json_object_get(doc, "benches"), i, sub) {
			int ret = bench_charts(cs, sub);

			if (ret < 0)
				return ret;
		}
		return 0;
	}
	if (bench && strcmp(bench, "churn") == 0)
		return churn_charts(cs, doc);
	if (is_grid)
		return grid_charts(cs, doc);
	c = chart_new(cs, is_fork ? "Cost of starting a child, by parent size" : "Cost per operation",
		      "microseconds (µs)", json_array_size(rows));
	if (!c)
		return -ENOMEM;
	c->note = "bar: median; whisker: min to p95";
	series(c, is_fork ? "call" : "median", "bar-bench");
	json_array_foreach(rows, i, r) {
		struct st_chart_row *row = &c->rows[c->nrows++];

		if (is_fork)
			snprintf(row->label, sizeof(row->label), "%lld MB %s",
				 (long long)json_integer_value(json_object_get(r, "size_mb")),
				 str(r, "method"));
		else
			snprintf(row->label, sizeof(row->label), "%s %s", str(r, "op"), str(r, "where"));
		stats_bar(row, 0, json_object_get(r, is_fork ? "call_us" : "us"), 1);
	}
	return 0;
}

/* Row of figure @name in @c, added when new; NULL when the chart is full. */
static struct st_chart_row *figure_row(struct st_chart *c, const char **names, size_t max,
				       const char *name)
{
	for (size_t r = 0; r < c->nrows; r++)
		if (strcmp(names[r], name) == 0)
			return &c->rows[r];
	if (c->nrows == max)
		return NULL;
	names[c->nrows] = name;
	snprintf(c->rows[c->nrows].label, sizeof(c->rows[0].label), "%s", name);
	return &c->rows[c->nrows++];
}

static int compare_charts(struct charts *cs, json_t *doc)
{
	json_t *files = json_object_get(doc, "files"), *figs = json_object_get(doc, "figures"), *f;
	size_t nfiles = json_array_size(files), max = json_array_size(figs), i;
	struct st_chart *c = chart_new(cs, "Each file's median over the first file's",
				       "ratio of medians (B/A; 1 = the same)", max);
	const char **names = calloc(max ? max : 1, sizeof(*names));
	const char *paths[ST_CHART_MAX_SERIES];

	if (!c || !names) {
		free(names);
		return -ENOMEM;
	}
	c->note = "first file: 1; whisker: 95% bootstrap interval of the ratio";
	c->reference = 1;
	c->has_reference = 1;
	if (nfiles > ST_CHART_MAX_SERIES)
		nfiles = ST_CHART_MAX_SERIES; /* the table has them all */
	/* The legend names a file by its base name; rows are matched by the whole path. */
	for (size_t d = 0; d < nfiles; d++) {
		const char *path = str(json_array_get(files, d), "path");

		paths[d] = path;
		series(c, strrchr(path, '/') ? strrchr(path, '/') + 1 : path, "bar-file");
	}
	json_array_foreach(figs, i, f) {
		struct st_chart_row *row = figure_row(c, names, max, str(f, "figure"));
		size_t s;

		for (s = 1; s < nfiles; s++)
			if (strcmp(str(f, "file"), paths[s]) == 0)
				break;
		if (!row || s == nfiles)
			continue;
		plain_bar(row, 0, 1);
		plain_bar(row, s, num(f, "ratio"));
		row->bar[s].lo = num(f, "ci_low");
		row->bar[s].hi = num(f, "ci_high");
		row->bar[s].whisker = isfinite(row->bar[s].lo) && isfinite(row->bar[s].hi);
	}
	free(names);
	return 0;
}

static int build(struct charts *cs, json_t *doc, struct st_error *err)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	int ret;

	if (!schema)
		return st_error_set(err, EINVAL, "--svg: the report has no schema");
	if (strcmp(schema, "sandboxtime/v1") == 0)
		ret = sandboxtime_charts(cs, doc);
	else if (strcmp(schema, "sandboxtime/netbench/v1") == 0)
		ret = netbench_charts(cs, doc);
	else if (strcmp(schema, "sandboxtime/bench/v1") == 0)
		ret = bench_charts(cs, doc);
	else if (strcmp(schema, "sandboxtime/compare/v1") == 0)
		ret = compare_charts(cs, doc);
	else
		return st_error_set(err, EINVAL, "--svg: no chart for a %s report", schema);
	return ret < 0 ? st_error_set(err, -ret, "--svg: drawing the charts") : 0;
}

/* "sandboxtime layers: kernel 6.1.0, 2 CPUs, rootless": what the charts were measured on. */
static void host_caption(json_t *doc, char *buf, size_t len)
{
	json_t *h = json_object_get(doc, "host"), *tool = json_object_get(doc, "tool");

	if (!json_is_object(h)) {
		snprintf(buf, len, "sandboxtime %s", str(tool, "version"));
		return;
	}
	snprintf(buf, len, "sandboxtime %s: kernel %s, %lld CPUs, %s, cgroup %s", str(tool, "version"),
		 str(h, "kernel"), (long long)json_integer_value(json_object_get(h, "cpus")),
		 json_is_true(json_object_get(h, "rootless")) ? "rootless" : "root", str(h, "cgroup"));
}

#define CAPTION_H 22.0

int st_svg_write_doc(FILE *out, json_t *doc, int standalone, struct st_error *err)
{
	struct charts cs __attribute__((cleanup(charts_free))) = { .n = 0 };
	double height = CAPTION_H + 8, width = 400, y;
	char caption[256];
	int ret = build(&cs, doc, err);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < cs.np; i++) {
		height += st_plot_height(&cs.p[i]);
		width = st_plot_width(&cs.p[i]) > width ? st_plot_width(&cs.p[i]) : width;
	}
	for (size_t i = 0; i < cs.n; i++) {
		height += st_chart_height(&cs.v[i]);
		width = st_chart_width(&cs.v[i]) > width ? st_chart_width(&cs.v[i]) : width;
	}
	host_caption(doc, caption, sizeof(caption));
	st_svg_open(out, width, height, cs.np ? cs.p[0].title : cs.n ? cs.v[0].title : caption,
		    standalone);
	st_svg_text(out, 10, 16, ST_SVG_START, 11, "#555555", caption);
	y = CAPTION_H;
	for (size_t i = 0; i < cs.np; i++) {
		st_plot_draw(out, &cs.p[i], y);
		y += st_plot_height(&cs.p[i]);
	}
	for (size_t i = 0; i < cs.n; i++) {
		st_chart_draw(out, &cs.v[i], y);
		y += st_chart_height(&cs.v[i]);
	}
	st_svg_close(out);
	if (ferror(out))
		return st_error_set(err, EIO, "--svg: writing the chart");
	return 0;
}
