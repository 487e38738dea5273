// SPDX-License-Identifier: MIT
/*
 * bench fork's document (schema sandboxtime/bench/v1, "bench": "fork"): one
 * row per size and method, described once by fork_cols[] for the table,
 * CSV and JSON. A figure the guards refused (bench_fork.h) has no number in
 * any format: its cells are empty or null and its reason stands instead.
 */
#include <string.h>
#include <unistd.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/report_bench_fork.h"

struct fork_row {
	const struct st_bench_fork *b;
	size_t size; /* index into b->sizes_mb */
	int method;
};

#define ROW(row) ((const struct fork_row *)(row))
#define DOC(doc) ((const struct st_bench_fork *)(doc))

enum { STAT_MEDIAN, STAT_MIN, STAT_P95, STAT_MAX };

/* A column's figure and statistic, packed into st_col.arg. */
#define ARG(fig, stat) ((fig) * 8 + (stat))
#define ARG_FIG(arg) ((enum st_fork_figure)((arg) / 8))
#define ARG_STAT(arg) ((arg) % 8)

static const struct st_fork_cell *row_cell(const struct fork_row *r)
{
	return &r->b->cell[r->size][r->method];
}

/* The figure's statistics; -1 when it was refused or has no sample. */
static int fig_stats(const struct fork_row *r, enum st_fork_figure fig, struct st_stats *st)
{
	const struct st_fork_cell *c = row_cell(r);

	if (c->refused[fig][0] || c->us[fig].n == 0)
		return -1;
	return st_stats_compute(c->us[fig].v, c->us[fig].n, st);
}

static void get_size(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = ROW(row)->b->sizes_mb[ROW(row)->size];
}

static void get_method(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = st_fork_method_names[ROW(row)->method];
}

/* Every sample (JSON) or every statistic (CSV) of a figure; null when refused. */
static void get_samples(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	enum st_fork_figure fig = ARG_FIG(col->arg);

	c->kind = ST_CELL_STATS;
	c->stats = &row_cell(ROW(row))->us[fig];
	c->empty = c->null = row_cell(ROW(row))->refused[fig][0] != '\0';
}

static void get_stat(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	struct st_stats st;

	c->kind = ST_CELL_REAL;
	if (fig_stats(ROW(row), ARG_FIG(col->arg), &st) < 0) {
		c->empty = c->null = 1;
		return;
	}
	switch (ARG_STAT(col->arg)) {
	case STAT_MIN:
		c->d = st.min;
		break;
	case STAT_P95:
		c->d = st.p95;
		break;
	case STAT_MAX:
		c->d = st.max;
		break;
	default:
		c->d = st.median;
		break;
	}
}

/* The median call over the parent's size: what the articles' table divides. */
static void get_per_mb(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	const struct fork_row *r = ROW(row);
	double m = st_bench_fork_median(r->b, r->size, r->method, ST_FORK_CALL);

	c->kind = ST_CELL_REAL;
	c->empty = c->null = m < 0;
	c->d = m / r->b->sizes_mb[r->size];
}

/*
 * The growth per MB over the smallest parent: the median call's increase
 * divided by the MB added, the page-table copy without the fixed cost.
 */
static void get_slope(const struct st_col *col, const void *row, const void *doc,
		      struct st_cell *c)
{
	const struct fork_row *r = ROW(row);
	double m = st_bench_fork_median(r->b, r->size, r->method, ST_FORK_CALL);
	double m0 = st_bench_fork_median(r->b, 0, r->method, ST_FORK_CALL);

	c->kind = ST_CELL_REAL;
	c->empty = c->null = r->size == 0 || m < 0 || m0 < 0;
	if (!c->empty)
		c->d = (m - m0) / (r->b->sizes_mb[r->size] - r->b->sizes_mb[0]);
}

static void get_refused(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	const char *why = row_cell(ROW(row))->refused[ARG_FIG(col->arg)];

	c->text = why;
	c->null = !why[0];
}

/* The table's last column: each refused figure's reason. */
static void get_note(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_fork_cell *cell = row_cell(ROW(row));
	size_t n = 0;

	for (int f = 0; f < ST_FORK_FIGURES; f++)
		if (cell->refused[f][0] && n < sizeof(c->buf))
			n += (size_t)snprintf(c->buf + n, sizeof(c->buf) - n, "%s%s: %s", n ? "; " : "",
					      st_fork_figure_names[f], cell->refused[f]);
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

/* The table's NOTE column only when a figure was refused: no blank column otherwise. */
static int any_refused(const void *doc)
{
	const struct st_bench_fork *b = DOC(doc);

	for (size_t i = 0; i < b->nsizes; i++)
		for (int m = 0; m < ST_FORK_METHODS; m++)
			for (int f = 0; f < ST_FORK_FIGURES; f++)
				if (b->cell[i][m].refused[f][0])
					return 1;
	return 0;
}

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON
#define NUM(h, fig, stat, sh) { .heading = h, .width = 9, .prec = 1, .in = T, .get = get_stat, \
				.arg = ARG(fig, stat), .shown = sh }

static const struct st_col fork_cols[] = {
	{ .name = "size", .unit = "mb", .key = "size_mb", .heading = "SIZE_MB", .width = 7, .in = T | C | J,
	  .get = get_size, .help = "MB the parent touched, every 4 KiB page" },
	{ .name = "method", .key = "method", .heading = "METHOD", .width = 14, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_method, .help = "how the child was made" },
	{ .name = "call", .unit = "us", .key = "call_us", .csv_prec = 3, .stats = 1, .in = C | J,
	  .get = get_samples, .arg = ARG(ST_FORK_CALL, 0),
	  .help = "the call until it returned in the parent, microseconds" },
	{ .key = "call_median_us", .in = J, .get = get_stat, .arg = ARG(ST_FORK_CALL, STAT_MEDIAN),
	  .help = "median of call_us" },
	NUM("call", ST_FORK_CALL, STAT_MEDIAN, NULL),
	NUM("min", ST_FORK_CALL, STAT_MIN, NULL),
	NUM("p95", ST_FORK_CALL, STAT_P95, p95_shown),
	NUM("max", ST_FORK_CALL, STAT_MAX, max_shown),
	{ .name = "total", .unit = "us", .key = "total_us", .csv_prec = 3, .stats = 1, .in = C | J,
	  .get = get_samples, .arg = ARG(ST_FORK_TOTAL, 0),
	  .help = "from the call until waitpid reaped the child, microseconds" },
	{ .key = "total_median_us", .in = J, .get = get_stat, .arg = ARG(ST_FORK_TOTAL, STAT_MEDIAN),
	  .help = "median of total_us" },
	NUM("total", ST_FORK_TOTAL, STAT_MEDIAN, NULL),
	NUM("min", ST_FORK_TOTAL, STAT_MIN, NULL),
	NUM("p95", ST_FORK_TOTAL, STAT_P95, p95_shown),
	NUM("max", ST_FORK_TOTAL, STAT_MAX, max_shown),
	{ .name = "call_per_mb", .unit = "us", .key = "call_us_per_mb", .csv_prec = 4, .in = C | J,
	  .get = get_per_mb, .help = "median call divided by size_mb" },
	{ .name = "call_slope_per_mb", .unit = "us", .key = "call_slope_us_per_mb", .heading = "+us/MB",
	  .width = 8, .prec = 3, .csv_prec = 4, .in = T | C | J, .get = get_slope,
	  .help = "median call's growth per MB over the smallest size (null there)" },
	{ .name = "call_refused", .key = "call_refused", .in = C | J, .get = get_refused,
	  .arg = ARG(ST_FORK_CALL, 0), .help = "why call is not shown, or null" },
	{ .name = "total_refused", .key = "total_refused", .in = C | J, .get = get_refused,
	  .arg = ARG(ST_FORK_TOTAL, 0), .help = "why total is not shown, or null" },
	{ .heading = "NOTE", .align = ST_ALIGN_LEFT, .in = T, .get = get_note, .shown = any_refused,
	  .help = "why a figure is not shown" },
};

#undef NUM
#undef T
#undef C
#undef J

/* The method of the whole table, said once. */
static const char method_note[] =
	"Each size is a worker process that touched every 4 KiB page of a buffer of that size "
	"(MADV_NOHUGEPAGE, read back, resident), then made children on request, in rounds across "
	"sizes and methods after one unrecorded round: fork and clone3_ns (the sandbox's namespace "
	"flags) copy its page tables and their child _exit()s at once; vfork_exec and posix_spawn "
	"execute the program in config.exec; clone_vm_vfork's child shares the memory and returns "
	"at once. call: until the call returned in the parent; total: until waitpid reaped the child.";

static const char guard_note[] =
	"A figure whose fastest sample is below the clock's resolution, or, for fork and "
	"clone3_ns, below config.floor_us_per_mb per MB touched, is impossible: it is not "
	"shown, and *_refused says why.";

void st_bench_fork_summary(const struct st_bench_fork *b, char *buf, size_t len)
{
	static const char not_shown[] =
		"not shown: the copy-on-write faults parent and child pay after fork, a parent on huge "
		"pages (these buffers use 4 KiB pages), and exec of a program bigger than";
	size_t last = b->nsizes - 1;
	double fl = st_bench_fork_median(b, last, ST_FORK_FORK, ST_FORK_CALL);
	double f0 = st_bench_fork_median(b, 0, ST_FORK_FORK, ST_FORK_CALL);
	double sl = st_bench_fork_median(b, last, ST_FORK_POSIX_SPAWN, ST_FORK_CALL);
	double s0 = st_bench_fork_median(b, 0, ST_FORK_POSIX_SPAWN, ST_FORK_CALL);

	if (fl < 0 || f0 < 0 || sl < 0 || s0 < 0)
		snprintf(buf, len, "On this machine some figures were refused as impossible (NOTE says why), so "
			 "the instrument cannot be trusted here; %s %s.", not_shown, b->exec_path);
	else if (last == 0)
		snprintf(buf, len, "On this machine fork() of a parent with %u MB touched took %.1f us and "
			 "posix_spawn() %.1f us; %s %s.", b->sizes_mb[0], fl, sl, not_shown, b->exec_path);
	else
		snprintf(buf, len,
			 "On this machine fork() took %.1f us with %u MB touched against %.1f us with %u MB "
			 "(%.3f us per MB more: the page tables are copied in the call) and posix_spawn() "
			 "%.1f against %.1f us; %s %s.",
			 fl, b->sizes_mb[last], f0, b->sizes_mb[0],
			 (fl - f0) / (b->sizes_mb[last] - b->sizes_mb[0]), sl, s0, not_shown, b->exec_path);
}

static json_t *config_json(const struct st_bench_fork *b)
{
	json_t *sizes = json_array(), *ns = json_array();

	for (size_t i = 0; i < b->nsizes; i++)
		json_array_append_new(sizes, json_integer(b->sizes_mb[i]));
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (b->mask & ST_LAYER_BIT(l))
			json_array_append_new(ns, json_string(st_layers[l].name));
	return json_pack("{s:I,s:o,s:o,s:s,s:I,s:f,s:f,s:s}", "repeat", (json_int_t)b->repeat,
			 "sizes_mb", sizes, "ns", ns, "exec", b->exec_path, "mem_available_mb",
			 (json_int_t)b->mem_available_mb, "clock_resolution_us", b->resolution_us,
			 "floor_us_per_mb", ST_FORK_FLOOR_US_PER_MB, "pages", "4 KiB (MADV_NOHUGEPAGE)");
}

/* Rows in the table's order: by size, then by method. */
#define FOR_EACH_ROW(bench, row)                                                    \
	for (struct fork_row row = { .b = (bench) }; row.size < (bench)->nsizes;      \
	     row.method = (row.method + 1) % ST_FORK_METHODS, row.size += row.method == 0)

json_t *st_bench_fork_json(const struct st_bench_fork_report *r)
{
	const struct st_bench_fork *b = r->b;
	json_t *rows = json_array();
	char summary[768];

	FOR_EACH_ROW(b, row)
		json_array_append_new(rows, st_json_row(ST_COLS(fork_cols), &row, b));
	st_bench_fork_summary(b, summary, sizeof(summary));
	return json_pack("{s:s,s:o,s:o,s:s,s:o,s:o,s:[s,s,s]}", "schema", ST_SCHEMA_BENCH, "tool",
			 st_report_tool_json(), "host", st_report_host_json(r->host), "bench", "fork",
			 "config", config_json(b), "rows", rows, "notes", summary, method_note,
			 guard_note);
}

/* The table in @style (ST_TEXT_*): markdown makes it a pipe table. */
int st_bench_fork_write_table(const struct st_bench_fork_report *r, FILE *out, unsigned int style)
{
	const struct st_bench_fork *b = r->b;
	char summary[768];

	st_report_host_line(out, r->host);
	fprintf(out, "bench fork: %u rounds across %zu sizes and %d methods after one warm-up round; "
		"microseconds; %s; +us/MB: the median call's growth per MB over %u MB\n\n",
		b->repeat, b->nsizes, ST_FORK_METHODS,
		p95_shown(b) ? "p95" : "max: the slowest sample (p95 from 41 samples)", b->sizes_mb[0]);
	st_text_header(out, style, ST_COLS(fork_cols), b);
	FOR_EACH_ROW(b, row) {
		st_text_row(out, style, ST_COLS(fork_cols), &row, b);
		fputc('\n', out);
	}
	st_bench_fork_summary(b, summary, sizeof(summary));
	fprintf(out, "\n%s\n", summary);
	return 0;
}

static json_t *fork_json(const void *doc)
{
	return st_bench_fork_json(doc);
}

static int fork_csv(const void *doc, FILE *out, struct st_error *err)
{
	const struct st_bench_fork_report *r = doc;

	st_csv_header(out, ST_COLS(fork_cols), r->b);
	FOR_EACH_ROW(r->b, row)
		st_csv_row(out, ST_COLS(fork_cols), &row, r->b);
	return 0;
}

static int fork_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	return st_bench_fork_write_table(doc, out, style);
}

const struct st_doc_format st_bench_fork_format = { .json = fork_json, .csv = fork_csv, .text = fork_text };

int st_bench_fork_report_write(const void *ctx, FILE *out, struct st_error *err)
{
	const struct st_bench_fork_report *r = ctx;

	return st_doc_write(&st_bench_fork_format, r->out, r, out, "bench fork", err);
}
