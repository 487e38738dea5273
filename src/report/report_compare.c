// SPDX-License-Identifier: MIT
/*
 * The sandboxtime/compare/v1 document: one row per figure and later file,
 * described once by compare_cols[] for the table, markdown, CSV and JSON.
 * The header (files, seed, the hosts' differences) stays here, since no
 * column table can say it.
 */
#include <inttypes.h>
#include <string.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_compare.h"

#define ROW(row) ((const struct st_cmp_row *)(row))
#define CMP(doc) ((const struct st_compare *)(doc))

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON

static void get_file(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->b->path;
}

static void get_figure(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->fa->name;
}

enum { V_MEDIAN_A, V_MEDIAN_B, V_RATIO, V_LOW, V_HIGH };

static void get_value(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_ratio *r = &ROW(row)->r;
	const double v[] = { r->median_a, r->median_b, r->ratio, r->ci_low, r->ci_high };
	int known = col->arg < V_RATIO || (col->arg == V_RATIO ? r->has_ratio : r->has_interval);

	c->kind = ST_CELL_REAL;
	c->d = v[col->arg];
	c->empty = c->null = !known;
}

enum { S_SHIFT, S_LOW, S_HIGH };

/* An increment's B - A and its interval; null for every other figure. */
static void get_shift(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_cmp_row *r = ROW(row);
	const double v[] = { r->s.shift, r->s.ci_low, r->s.ci_high };

	c->kind = ST_CELL_REAL;
	c->d = v[col->arg];
	c->empty = c->null = !r->fa->paired || (col->arg != S_SHIFT && !r->s.has_interval);
}

static void get_count(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = col->arg ? ROW(row)->fb->samples.n : ROW(row)->fa->samples.n;
}

static void get_interval(const struct st_col *col, const void *row, const void *doc,
			 struct st_cell *c)
{
	const struct st_ratio *r = &ROW(row)->r;
	const struct st_shift *s = &ROW(row)->s;

	/* An increment's is of B - A, signed, so that it never reads as a ratio. */
	if (ROW(row)->fa->paired && s->has_interval) {
		snprintf(c->buf, sizeof(c->buf), "[%+.2f, %+.2f]", s->ci_low, s->ci_high);
		c->text = c->buf;
		return;
	}
	if (!r->has_interval) {
		c->empty = 1;
		return;
	}
	snprintf(c->buf, sizeof(c->buf), "[%.3f, %.3f]", r->ci_low, r->ci_high);
	c->text = c->buf;
}

static void get_verdict(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_cmp_row *r = ROW(row);

	/* The table says which rows fail --fail-if-slower; JSON and CSV have a key for it. */
	if (r->over_limit && c->format == ST_FORMAT_TABLE)
		snprintf(c->buf, sizeof(c->buf), "slower by >%g%%", CMP(doc)->fail_pct);
	else
		snprintf(c->buf, sizeof(c->buf), "%s", st_cmp_verdict_names[r->verdict]);
	c->text = c->buf;
}

enum { B_HIGHER, B_OVER, B_GATES };

static void get_bool(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const int v[] = { ROW(row)->fa->higher_better, ROW(row)->over_limit, !ROW(row)->fa->no_gate };

	c->kind = ST_CELL_BOOL;
	c->i = v[col->arg];
}

/* Why a figure is not compared, or never gates: null (empty in the table) when nothing to say. */
static void get_why(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	if (!ROW(row)->why[0]) {
		/* No "-" in the table: a blank at the end of the line says it. */
		c->null = c->format != ST_FORMAT_TABLE;
		c->empty = c->null;
		c->text = "";
		return;
	}
	c->text = ROW(row)->why;
}

/* clang-format off */
static const struct st_col compare_cols[] = {
	{ .name = "file", .key = "file", .in = C | J, .get = get_file,
	  .help = "the file compared with the first one (B)" },
	{ .name = "figure", .key = "figure", .heading = "figure", .width = 44, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_figure, .help = "the figure's path in the documents" },
	{ .name = "median_a", .key = "median_a", .heading = "A", .width = 11, .prec = 3, .csv_prec = 6,
	  .in = T | C | J, .get = get_value, .arg = V_MEDIAN_A, .help = "median in the first file" },
	{ .name = "median_b", .key = "median_b", .heading = "B", .width = 11, .prec = 3, .csv_prec = 6,
	  .in = T | C | J, .get = get_value, .arg = V_MEDIAN_B, .help = "median in the later file" },
	{ .name = "ratio", .key = "ratio", .heading = "B/A", .width = 7, .prec = 3, .csv_prec = 6,
	  .in = T | C | J, .get = get_value, .arg = V_RATIO, .help = "median B over median A" },
	{ .name = "shift", .key = "shift", .heading = "B-A", .width = 9, .prec = 2, .csv_prec = 6,
	  .in = T | C | J, .get = get_shift, .arg = S_SHIFT,
	  .help = "increments only: median B minus median A, in the figure's unit" },
	{ .name = "interval", .heading = "95% interval", .width = 16, .in = T, .get = get_interval },
	{ .name = "ci_low", .key = "ci_low", .csv_prec = 6, .in = C | J, .get = get_value, .arg = V_LOW,
	  .help = "95% bootstrap interval of the ratio, low end" },
	{ .name = "ci_high", .key = "ci_high", .csv_prec = 6, .in = C | J, .get = get_value,
	  .arg = V_HIGH, .help = "and high end" },
	{ .name = "shift_ci_low", .key = "shift_ci_low", .csv_prec = 6, .in = C | J, .get = get_shift,
	  .arg = S_LOW,
	  .help = "increments: 95% bootstrap interval of B - A from each file's rounds, low end" },
	{ .name = "shift_ci_high", .key = "shift_ci_high", .csv_prec = 6, .in = C | J,
	  .get = get_shift, .arg = S_HIGH, .help = "and high end" },
	{ .name = "verdict", .key = "verdict", .heading = "verdict", .width = 12, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_verdict,
	  .help = "within noise, slower, faster, no interval or no ratio" },
	{ .name = "samples_a", .key = "samples_a", .in = C | J, .get = get_count, .arg = 0 },
	{ .name = "samples_b", .key = "samples_b", .in = C | J, .get = get_count, .arg = 1 },
	{ .name = "higher_is_better", .key = "higher_is_better", .in = C | J, .get = get_bool,
	  .arg = B_HIGHER },
	{ .name = "over_limit", .key = "over_limit", .in = C | J, .get = get_bool, .arg = B_OVER },
	{ .name = "gates", .key = "gates", .in = C | J, .get = get_bool, .arg = B_GATES,
	  .help = "false for a figure that is not a cost (an untimed wait): it never fails --fail-if-slower" },
	{ .name = "why", .key = "why", .heading = "", .width = 1, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_why,
	  .help = "why a figure has no ratio or no interval, or why it never gates" },
};
/* clang-format on */

static json_t *host_differences_json(const struct st_compare *c)
{
	json_t *diffs = json_array();
	char buf[128];

	for (size_t k = 0; k < c->nfacts; k++) {
		json_t *values = json_array();

		for (size_t d = 0; d < c->ndocs; d++) {
			st_cmp_doc_host_fact(&c->docs[d], c->facts[k], buf, sizeof(buf));
			json_array_append_new(values, json_string(buf));
		}
		json_array_append_new(diffs, json_pack("{s:s,s:o}", "fact", c->facts[k], "values", values));
	}
	return diffs;
}

static json_t *files_json(const struct st_compare *c)
{
	json_t *files = json_array();

	for (size_t d = 0; d < c->ndocs; d++) {
		const struct st_cmp_doc *doc = &c->docs[d];
		json_t *host = json_object_get(doc->root, "host");
		json_t *steal = json_object_get(host, "steal");

		json_array_append_new(files, json_pack("{s:s,s:s,s:s,s:O,s:I,s:I,s:O}", "path", doc->path,
						       "schema",
						       json_string_value(json_object_get(doc->root, "schema")),
						       "kind", doc->kind, "host", host ? host : json_null(),
						       "figures", (json_int_t)doc->nfig, "unmatched",
						       (json_int_t)c->unmatched[d], "steal",
						       steal ? steal : json_null()));
	}
	return files;
}

json_t *st_compare_json(const struct st_compare *c)
{
	json_t *doc = json_object(), *rows = json_array();
	char seed[24];

	for (size_t i = 0; i < c->nrows; i++)
		json_array_append_new(rows, st_json_row(ST_COLS(compare_cols), &c->rows[i], c));
	/* A string: JSON numbers lose a 64-bit seed's low digits in many readers. */
	snprintf(seed, sizeof(seed), "%" PRIu64, c->seed.value);
	json_object_set_new(doc, "schema", json_string(ST_SCHEMA_COMPARE));
	json_object_set_new(doc, "tool", st_report_tool_json());
	json_object_set_new(doc, "seed", json_string(seed));
	json_object_set_new(doc, "seed_from", json_string(c->seed.given ? "option" : "files"));
	json_object_set_new(doc, "resamples", json_integer((json_int_t)c->resamples));
	json_object_set_new(doc, "fail_if_slower_pct",
			    c->fail_pct >= 0 ? json_real(c->fail_pct) : json_null());
	json_object_set_new(doc, "files", files_json(c));
	json_object_set_new(doc, "host_differences", host_differences_json(c));
	json_object_set_new(doc, "figures", rows);
	json_object_set_new(doc, "over_limit", json_integer((json_int_t)c->over_limit));
	return doc;
}

/* "kernel: A 6.1.0, B 6.18.4": one line per fact in which a file differs. */
static void host_lines(const struct st_compare *c, FILE *out, const char *bullet)
{
	char buf[128];

	if (!c->nfacts) {
		fprintf(out, "%shosts: same kernel, CPUs, rootless, cgroup mode, rcu_expedited and version\n",
			bullet);
		return;
	}
	for (size_t k = 0; k < c->nfacts; k++) {
		fprintf(out, "%shost %s differs:", bullet, c->facts[k]);
		for (size_t d = 0; d < c->ndocs; d++) {
			st_cmp_doc_host_fact(&c->docs[d], c->facts[k], buf, sizeof(buf));
			fprintf(out, "%s %s %s", d ? "," : "", c->docs[d].path, buf);
		}
		fputc('\n', out);
	}
}

/* The file's host.steal.share, or -1 where the report has none (older reports, or unreadable). */
static double steal_share(const struct st_cmp_doc *d)
{
	json_t *s = json_object_get(json_object_get(json_object_get(d->root, "host"), "steal"), "share");

	return json_is_number(s) ? json_number_value(s) : -1;
}

/*
 * A warning when any file had steal: its figures include waits for another
 * guest, and a ratio may show the hypervisor rather than the change.
 */
static void steal_lines(const struct st_compare *c, FILE *out, const char *bullet)
{
	int any = 0, flagged = 0;

	for (size_t d = 0; d < c->ndocs; d++) {
		double s = steal_share(&c->docs[d]);

		any |= s > 0;
		flagged |= s > ST_STEAL_FLAG_SHARE;
	}
	if (!any)
		return;
	fprintf(out, "%s%s: hypervisor steal during", bullet, flagged ? "WARNING steal" : "steal");
	for (size_t d = 0; d < c->ndocs; d++) {
		double s = steal_share(&c->docs[d]);

		if (s > 0)
			fprintf(out, " %s %.2f%%", c->docs[d].path, 100.0 * s);
	}
	fprintf(out, "%s\n", flagged ? ": figures there include another guest's work" : "");
}

static void header_lines(const struct st_compare *c, FILE *out, unsigned int style)
{
	int md = style & ST_TEXT_MD;
	const char *q = md ? "`" : "";

	fprintf(out, "%s: base %s%s%s, %zu resamples, seed %" PRIu64 " (%s--seed=%" PRIu64
		" replays the intervals)\n", md ? "**sandboxtime compare**" : "sandboxtime compare", q,
		c->docs[0].path, q, c->resamples, c->seed.value,
		c->seed.given ? "" : "from the files' bytes; ", c->seed.value);
	if (md)
		fputc('\n', out);
	host_lines(c, out, md ? "- " : "");
	steal_lines(c, out, md ? "- " : "");
}

/* The rows of later file @b: one table (or markdown table) each. */
static void file_block(const struct st_compare *c, const struct st_cmp_doc *b, size_t d, FILE *out,
		       unsigned int style)
{
	struct st_cols cols = ST_COLS(compare_cols);
	int md = style & ST_TEXT_MD;
	char sgr[16];

	fprintf(out, "\n%s%s -> %s: %zu figure(s) in both", md ? "### " : "", c->docs[0].path, b->path,
		c->docs[0].nfig - c->unmatched[d]);
	if (c->unmatched[d])
		fprintf(out, ", %zu of the first file's not in it", c->unmatched[d]);
	fputs(md ? "\n\n" : "\n", out);
	st_text_header(out, style, cols, c);
	for (size_t i = 0; i < c->nrows; i++) {
		enum st_cmp_verdict v = c->rows[i].verdict;

		if (c->rows[i].b != b)
			continue;
		/* In colour a significant difference shows: slower red, faster green. */
		if (v == ST_CMP_SLOWER || v == ST_CMP_FASTER)
			fputs(st_text_sgr(style, v == ST_CMP_SLOWER ? "31" : "32", sgr, sizeof(sgr)), out);
		st_text_row(out, style, cols, &c->rows[i], c);
		if (v == ST_CMP_SLOWER || v == ST_CMP_FASTER)
			fputs(st_text_reset(style), out);
		fputc('\n', out);
	}
}

static void write_text(const struct st_compare *c, FILE *out, unsigned int style)
{
	header_lines(c, out, style);
	for (size_t d = 1; d < c->ndocs; d++)
		file_block(c, &c->docs[d], d, out, style);
	if (c->fail_pct >= 0)
		fprintf(out, "\n--fail-if-slower=%g: %zu figure(s) significantly slower by more than that\n",
			c->fail_pct, c->over_limit);
}

static void write_csv(const struct st_compare *c, FILE *out)
{
	st_csv_header(out, ST_COLS(compare_cols), c);
	for (size_t i = 0; i < c->nrows; i++)
		st_csv_row(out, ST_COLS(compare_cols), &c->rows[i], c);
}

static json_t *compare_json(const void *doc)
{
	return st_compare_json(doc);
}

static int compare_csv(const void *doc, FILE *out, struct st_error *err)
{
	write_csv(doc, out);
	return 0;
}

/* The table and markdown: @style has ST_TEXT_MD for markdown (st_text_style). */
static int compare_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	write_text(doc, out, style);
	return 0;
}

const struct st_doc_format st_compare_format = {
	.json = compare_json, .csv = compare_csv, .text = compare_text,
};
