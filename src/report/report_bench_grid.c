// SPDX-License-Identifier: MIT
/*
 * The document of a bench measured as places x operations (bench_grid.h):
 * one row per place and operation, described once by grid_cols[] for the
 * table, CSV and JSON. A refused figure has no number in any format (empty,
 * "-" or null) and its reason stands instead; an unavailable place keeps its
 * rows, with the kernel's reason.
 */
#include <string.h>

#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/report_bench_grid.h"

struct grid_row {
	const struct st_bench_grid *g;
	size_t place, op;
};

#define ROW(row) ((const struct grid_row *)(row))
#define DOC(doc) ((const struct st_bench_grid *)(doc))

enum { STAT_MEDIAN, STAT_MIN, STAT_P95, STAT_MAX };

static const struct st_grid_cell *row_cell(const struct grid_row *r)
{
	return &r->g->cell[r->place][r->op];
}

static int row_shown(const struct grid_row *r)
{
	return !r->g->unavailable[r->place][0] && !row_cell(r)->refused[0] && row_cell(r)->v.n > 0;
}

static void get_place(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->g->places[ROW(row)->place];
}

static void get_op(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->g->ops[ROW(row)->op];
}

static void get_unit(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = st_grid_op_unit(ROW(row)->g, ROW(row)->op);
}

/* The table shows a unit column only where the operations' units differ. */
static int units_differ(const void *doc)
{
	return DOC(doc)->op_units != NULL;
}

static void get_samples(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	c->kind = ST_CELL_STATS;
	c->stats = &row_cell(ROW(row))->v;
	c->empty = c->null = !row_shown(ROW(row));
}

static void get_stat(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_grid_cell *cell = row_cell(ROW(row));
	struct st_stats st;

	c->kind = ST_CELL_REAL;
	if (!row_shown(ROW(row)) || st_stats_compute(cell->v.v, cell->v.n, &st) < 0) {
		c->empty = c->null = 1;
		return;
	}
	c->d = col->arg == STAT_MIN ? st.min : col->arg == STAT_P95 ? st.p95 :
	       col->arg == STAT_MAX ? st.max : st.median;
}

/* Against the first place that has the operation (the host): how many times its median. */
static void get_ratio(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct grid_row *r = ROW(row);
	double m = st_grid_median(r->g, r->place, r->op), m0 = st_grid_median(r->g, 0, r->op);

	c->kind = ST_CELL_REAL;
	c->empty = c->null = m < 0 || m0 <= 0;
	c->d = c->empty ? 0 : m / m0;
}

static void get_text(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct grid_row *r = ROW(row);
	const char *t = col->arg == 0 ? r->g->unavailable[r->place] :
			col->arg == 1 ? row_cell(r)->refused : row_cell(r)->flag;

	/* A refusal or flag of an unavailable place says nothing more. */
	if (col->arg != 0 && r->g->unavailable[r->place][0])
		t = "";
	c->text = t;
	c->null = c->empty = !t[0];
}

/* The table's last column: unavailable, refused or flagged, and why. */
static void get_note(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct grid_row *r = ROW(row);

	if (r->g->unavailable[r->place][0])
		snprintf(c->buf, sizeof(c->buf), "unavailable: %s", r->g->unavailable[r->place]);
	else
		snprintf(c->buf, sizeof(c->buf), "%s", row_cell(r)->refused[0] ? row_cell(r)->refused :
			 row_cell(r)->flag);
	c->text = c->buf;
}

static int p95_shown(const void *doc)
{
	return st_stats_p95_meaningful(DOC(doc)->repeat);
}

static int max_shown(const void *doc)
{
	return !p95_shown(doc);
}

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON

static const struct st_col grid_cols[] = {
	{ .name = "place", .key = "place", .heading = "PLACE", .width = 16, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_place, .help = "where it ran" },
	{ .name = "op", .key = "op", .heading = "OP", .width = 15, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_op, .help = "the operation" },
	{ .name = "unit", .key = "unit", .heading = "UNIT", .width = 4, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_unit, .shown = units_differ,
	  .help = "the unit of per_op and its statistics (ns or us)" },
	{ .name = "per_op", .key = "per_op", .csv_prec = 4, .stats = 1, .in = C | J, .get = get_samples,
	  .help = "time per operation in unit (config.unit when there is no unit), one sample per round" },
	{ .key = "median", .in = J, .get = get_stat, .arg = STAT_MEDIAN, .help = "median of per_op" },
	{ .heading = "median", .width = 10, .prec = 3, .in = T, .get = get_stat, .arg = STAT_MEDIAN },
	{ .heading = "min", .width = 10, .prec = 3, .in = T, .get = get_stat, .arg = STAT_MIN },
	{ .heading = "p95", .width = 10, .prec = 3, .in = T, .get = get_stat, .arg = STAT_P95,
	  .shown = p95_shown },
	{ .heading = "max", .width = 10, .prec = 3, .in = T, .get = get_stat, .arg = STAT_MAX,
	  .shown = max_shown },
	{ .name = "vs_first", .key = "vs_first", .heading = "x_first", .width = 7, .prec = 2,
	  .csv_prec = 3, .in = T | C | J, .get = get_ratio,
	  .help = "median over the first place's median of the same operation" },
	{ .name = "unavailable", .key = "unavailable", .in = C | J, .get = get_text, .arg = 0,
	  .help = "why the place was not measured, or null" },
	{ .name = "refused", .key = "refused", .in = C | J, .get = get_text, .arg = 1,
	  .help = "why the figure is impossible, or null" },
	{ .name = "flag", .key = "flag", .in = C | J, .get = get_text, .arg = 2,
	  .help = "a warning about a figure that stands, or null" },
	{ .heading = "NOTE", .align = ST_ALIGN_LEFT, .in = T, .get = get_note,
	  .help = "unavailable, refused or flagged, and why" },
};

#undef T
#undef C
#undef J

static const char guard_note[] =
	"A figure whose fastest sample is below the clock's resolution, or whose work did not "
	"check out (a checksum), is impossible: it is not shown and refused says why; a place "
	"the kernel refused is unavailable, with its reason, and the rest ran.";

static json_t *config_json(const struct st_bench_grid *g)
{
	json_t *c = json_pack("{s:I,s:s,s:f}", "repeat", (json_int_t)g->repeat, "unit", g->unit,
			      "clock_resolution_us", g->resolution_us);

	for (size_t i = 0; i < g->nconfig; i++)
		json_object_set_new(c, g->config[i].key, json_real(g->config[i].value));
	return c;
}

#define FOR_EACH_ROW(grid, row)                                                   \
	for (struct grid_row row = { .g = (grid) }; row.place < (grid)->nplaces;    \
	     row.op = (row.op + 1) % (grid)->nops, row.place += row.op == 0)

json_t *st_bench_grid_json(const struct st_bench_grid_report *r)
{
	const struct st_bench_grid *g = r->g;
	json_t *rows = json_array();

	FOR_EACH_ROW(g, row)
		json_array_append_new(rows, st_json_row(ST_COLS(grid_cols), &row, g));
	return json_pack("{s:s,s:o,s:o,s:s,s:o,s:o,s:[s,s,s]}", "schema", ST_SCHEMA_BENCH, "tool",
			 st_report_tool_json(), "host", st_report_host_json(r->host), "bench", g->bench,
			 "config", config_json(g), "rows", rows, "notes", g->summary, g->method, guard_note);
}

int st_bench_grid_write_table(const struct st_bench_grid_report *r, FILE *out, unsigned int style)
{
	const struct st_bench_grid *g = r->g;

	st_report_host_line(out, r->host);
	fprintf(out, "bench %s: %u rounds across %zu places after one warm-up round; %s per operation; %s; "
		"x_first: the median over %s's\n\n", g->bench, g->repeat, g->nplaces,
		g->op_units ? "UNIT" : g->unit,
		p95_shown(g) ? "p95" : "max: the slowest sample (p95 from 41 rounds)", g->places[0]);
	st_text_header(out, style, ST_COLS(grid_cols), g);
	FOR_EACH_ROW(g, row) {
		st_text_row(out, style, ST_COLS(grid_cols), &row, g);
		fputc('\n', out);
	}
	fprintf(out, "\n%s\n", g->summary);
	return 0;
}

static json_t *grid_json(const void *doc)
{
	return st_bench_grid_json(doc);
}

static int grid_csv(const void *doc, FILE *out, struct st_error *err)
{
	const struct st_bench_grid_report *r = doc;

	st_csv_header(out, ST_COLS(grid_cols), r->g);
	FOR_EACH_ROW(r->g, row)
		st_csv_row(out, ST_COLS(grid_cols), &row, r->g);
	return 0;
}

static int grid_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	return st_bench_grid_write_table(doc, out, style);
}

const struct st_doc_format st_bench_grid_format = { .json = grid_json, .csv = grid_csv, .text = grid_text };

int st_bench_grid_report_write(const void *ctx, FILE *out, struct st_error *err)
{
	const struct st_bench_grid_report *r = ctx;
	char what[64];

	snprintf(what, sizeof(what), "bench %s", r->g->bench);
	return st_doc_write(&st_bench_grid_format, r->out, r, out, what, err);
}
