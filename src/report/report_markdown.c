// SPDX-License-Identifier: MIT
/*
 * Markdown: the table's columns as a GitHub-flavoured pipe table, to paste
 * into a pull request. Same headings and cells as the aligned table, without
 * the padding; numbers are right-aligned by the delimiter row.
 */
#include <inttypes.h>
#include <string.h>

#include "sandboxtime/report.h"

/* A pipe inside a cell would end it: escape it. */
static void md_text(FILE *out, const char *text)
{
	for (; *text; text++) {
		if (*text == '|' || *text == '\\')
			fputc('\\', out);
		fputc(*text, out);
	}
}

void st_md_header(FILE *out, struct st_cols cols, const void *doc)
{
	for (size_t c = 0; c < cols.n; c++) {
		if (!st_col_shown(&cols.v[c], doc, ST_COL_TABLE))
			continue;
		fputs("| ", out);
		md_text(out, cols.v[c].heading);
		fputc(' ', out);
	}
	fputs("|\n", out);
	for (size_t c = 0; c < cols.n; c++) {
		if (!st_col_shown(&cols.v[c], doc, ST_COL_TABLE))
			continue;
		fputs(cols.v[c].align == ST_ALIGN_LEFT ? "| --- " : "| ---: ", out);
	}
	fputs("|\n", out);
}

static void md_cell(FILE *out, const struct st_col *col, const struct st_cell *cell)
{
	const char *suffix = col->suffix ? col->suffix : "";

	if (cell->empty) {
		fputc('-', out);
		return;
	}
	switch (cell->kind) {
	case ST_CELL_REAL:
		fprintf(out, "%.*f%s", col->prec, cell->d, suffix);
		break;
	case ST_CELL_UINT:
		fprintf(out, "%" PRIu64 "%s", cell->u, suffix);
		break;
	case ST_CELL_INT:
	case ST_CELL_BOOL:
		fprintf(out, "%" PRId64 "%s", cell->i, suffix);
		break;
	default:
		md_text(out, cell->text);
		break;
	}
}

void st_md_row(FILE *out, struct st_cols cols, const void *row, const void *doc)
{
	for (size_t c = 0; c < cols.n; c++) {
		struct st_cell cell;

		if (!st_col_shown(&cols.v[c], doc, ST_COL_TABLE))
			continue;
		fputs("| ", out);
		st_cell_get(&cols.v[c], row, doc, ST_FORMAT_TABLE, &cell);
		md_cell(out, &cols.v[c], &cell);
		st_cell_release(&cell);
		fputc(' ', out);
	}
	fputc('|', out);
}

void st_text_fence(FILE *out, unsigned int style, int open)
{
	if (style & ST_TEXT_MD)
		fputs(open ? "\n```text\n" : "```\n", out);
}

