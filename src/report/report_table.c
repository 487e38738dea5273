// SPDX-License-Identifier: MIT
/*
 * The aligned table: a column's heading and cells share its width and
 * alignment; the first column has no space before it, every other one.
 * Numbers are right-aligned, "-" stands for a value that is not there.
 */
#include <inttypes.h>
#include <string.h>

#include "sandboxtime/report.h"

static void aligned(FILE *out, const struct st_col *col, const char *text, int width)
{
	if (col->align == ST_ALIGN_LEFT)
		fprintf(out, "%-*s", width, text);
	else
		fprintf(out, "%*s", width, text);
}

void st_table_header(FILE *out, struct st_cols cols, const void *doc)
{
	int first = 1;

	for (size_t c = 0; c < cols.n; c++) {
		if (!st_col_shown(&cols.v[c], doc, ST_COL_TABLE))
			continue;
		if (!first)
			fputc(' ', out);
		first = 0;
		aligned(out, &cols.v[c], cols.v[c].heading, cols.v[c].width);
	}
}

static void cell_text(FILE *out, const struct st_col *col, const struct st_cell *cell)
{
	const char *suffix = col->suffix ? col->suffix : "";
	int width = col->width - (int)strlen(suffix);

	if (cell->empty) {
		aligned(out, col, "-", col->width);
		return;
	}
	switch (cell->kind) {
	case ST_CELL_REAL:
		fprintf(out, "%*.*f%s", width, col->prec, cell->d, suffix);
		break;
	case ST_CELL_UINT:
		fprintf(out, "%*" PRIu64 "%s", width, cell->u, suffix);
		break;
	case ST_CELL_INT:
	case ST_CELL_BOOL:
		fprintf(out, "%*" PRId64 "%s", width, cell->i, suffix);
		break;
	default:
		aligned(out, col, cell->text, col->width);
		break;
	}
}

void st_table_row(FILE *out, struct st_cols cols, const void *row, const void *doc)
{
	int first = 1;

	for (size_t c = 0; c < cols.n; c++) {
		struct st_cell cell;

		if (!st_col_shown(&cols.v[c], doc, ST_COL_TABLE))
			continue;
		if (!first)
			fputc(' ', out);
		first = 0;
		st_cell_get(&cols.v[c], row, doc, ST_OUT_TABLE, &cell);
		cell_text(out, &cols.v[c], &cell);
		st_cell_release(&cell);
	}
}
