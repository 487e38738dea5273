// SPDX-License-Identifier: MIT
/*
 * CSV: one header line, then one line per row; no units in cells, the units
 * in the header ("setup_median_us"). A stats column is one field per
 * statistic, then its count.
 */
#include <inttypes.h>
#include <string.h>

#include "sandboxtime/report.h"

/* The statistics of a stats column, in the order of their fields. */
static const char *const stat_names[] = { "min", "median", "p95", "mean", "stddev" };

/* RFC 4180: quote a field that holds a comma, a quote or a line break. */
void st_csv_field(FILE *out, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (; *text; text++) {
		if (*text == '"')
			fputc('"', out);
		fputc(*text, out);
	}
	fputc('"', out);
}

static void col_header(FILE *out, const struct st_col *col)
{
	const char *sep = col->unit ? "_" : "", *unit = col->unit ? col->unit : "";

	if (!col->stats) {
		fprintf(out, "%s%s%s", col->name, sep, unit);
		return;
	}
	for (size_t k = 0; k < sizeof(stat_names) / sizeof(stat_names[0]); k++)
		fprintf(out, "%s%s_%s%s%s", k ? "," : "", col->name, stat_names[k], sep, unit);
	fprintf(out, ",%s_n", col->name);
}

void st_csv_header(FILE *out, struct st_cols cols, const void *doc)
{
	int first = 1;

	for (size_t c = 0; c < cols.n; c++) {
		if (!st_col_shown(&cols.v[c], doc, ST_COL_CSV))
			continue;
		if (!first)
			fputc(',', out);
		first = 0;
		col_header(out, &cols.v[c]);
	}
	fputc('\n', out);
}

static void stats_fields(FILE *out, int prec, const struct st_samples *s, int empty)
{
	struct st_stats st;

	if (empty || !s || !s->n || st_stats_compute(s->v, s->n, &st) < 0) {
		fputs(",,,,,", out);
		return;
	}
	fprintf(out, "%.*f,%.*f,%.*f,%.*f,%.*f,%zu", prec, st.min, prec, st.median, prec, st.p95, prec,
		st.mean, prec, st.stddev, st.n);
}

static void cell_fields(FILE *out, const struct st_col *col, const struct st_cell *cell)
{
	if (col->stats) {
		stats_fields(out, col->csv_prec, cell->stats, cell->empty);
		return;
	}
	if (cell->empty)
		return;
	switch (cell->kind) {
	case ST_CELL_REAL:
		fprintf(out, "%.*f", col->csv_prec, cell->d);
		break;
	case ST_CELL_UINT:
		fprintf(out, "%" PRIu64, cell->u);
		break;
	case ST_CELL_INT:
	case ST_CELL_BOOL:
		fprintf(out, "%" PRId64, cell->i);
		break;
	case ST_CELL_TEXT:
		st_csv_field(out, cell->text);
		break;
	default:
		break;
	}
}

void st_csv_row(FILE *out, struct st_cols cols, const void *row, const void *doc)
{
	int first = 1;

	for (size_t c = 0; c < cols.n; c++) {
		struct st_cell cell;

		if (!st_col_shown(&cols.v[c], doc, ST_COL_CSV))
			continue;
		if (!first)
			fputc(',', out);
		first = 0;
		st_cell_get(&cols.v[c], row, doc, ST_FORMAT_CSV, &cell);
		cell_fields(out, &cols.v[c], &cell);
		st_cell_release(&cell);
	}
	fputc('\n', out);
}
