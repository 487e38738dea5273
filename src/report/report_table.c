// SPDX-License-Identifier: MIT
/*
 * The aligned table: a column's heading and cells share its width and
 * alignment; the first column has no space before it, every other one.
 * Numbers are right-aligned, "-" stands for a value that is not there.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		st_cell_get(&cols.v[c], row, doc, ST_FORMAT_TABLE, &cell);
		cell_text(out, &cols.v[c], &cell);
		st_cell_release(&cell);
	}
}

/* ---- the style of a text report ------------------------------------------ */

/* https://no-color.org: a NO_COLOR that is set and not empty turns colour off; --color=always wins. */
unsigned int st_text_style(const struct st_output *o, FILE *out)
{
	const char *no_color = getenv("NO_COLOR");
	int tty = isatty(fileno(out));
	unsigned int style = 0;

	if (o->format == ST_FORMAT_MARKDOWN)
		return ST_TEXT_MD;
	if (o->color == ST_COLOR_ALWAYS ||
	    (o->color == ST_COLOR_AUTO && tty && !(no_color && *no_color)))
		style |= ST_TEXT_COLOR;
	if (tty || o->color == ST_COLOR_ALWAYS)
		style |= ST_TEXT_BARS;
	return style;
}

void st_text_header(FILE *out, unsigned int style, struct st_cols cols, const void *doc)
{
	char sgr[16];

	if (style & ST_TEXT_MD) {
		st_md_header(out, cols, doc);
		return;
	}
	fputs(st_text_sgr(style, "1", sgr, sizeof(sgr)), out);
	st_table_header(out, cols, doc);
	fputs(st_text_reset(style), out);
	fputc('\n', out);
}

void st_text_row(FILE *out, unsigned int style, struct st_cols cols, const void *row,
		 const void *doc)
{
	if (style & ST_TEXT_MD)
		st_md_row(out, cols, row, doc);
	else
		st_table_row(out, cols, row, doc);
}

const char *st_text_sgr(unsigned int style, const char *sgr, char *buf, size_t len)
{
	if (!(style & ST_TEXT_COLOR))
		return "";
	snprintf(buf, len, "\033[%sm", sgr);
	return buf;
}

const char *st_text_reset(unsigned int style)
{
	return style & ST_TEXT_COLOR ? "\033[0m" : "";
}
