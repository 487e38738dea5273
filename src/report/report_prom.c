// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition format 0.0.4: "# HELP" and "# TYPE" before each
 * metric family, label values escaped (backslash, double quote, line feed).
 * A node exporter's textfile collector or a scrape of -o FILE reads it.
 */
#include <inttypes.h>
#include <string.h>

#include "sandboxtime/report.h"

size_t st_prom_escape_label(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in; in++) {
		const char *rep = NULL;
		char one[2] = { *in, '\0' };

		if (*in == '\\')
			rep = "\\\\";
		else if (*in == '"')
			rep = "\\\"";
		else if (*in == '\n')
			rep = "\\n";
		else
			rep = one;
		for (; *rep; rep++, n++)
			if (len && n < len - 1)
				out[n] = *rep;
	}
	if (len)
		out[n < len ? n : len - 1] = '\0';
	return n;
}

void st_prom_family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}


/* One sample: its labels (@label's text escaped, then the column's own) and value. */
static void sample(FILE *out, const struct st_col *col, const struct st_col *label, const void *row,
		   const void *doc)
{
	struct st_cell cell, name;
	char text[1024];

	st_cell_get(col, row, doc, ST_FORMAT_PROMETHEUS, &cell);
	if (cell.empty) {
		st_cell_release(&cell);
		return;
	}
	fputs(col->prom, out);
	if (label) {
		st_cell_get(label, row, doc, ST_FORMAT_PROMETHEUS, &name);
		st_prom_escape_label(name.text, text, sizeof(text));
		fprintf(out, "{%s=\"%s\"%s%s}", label->name, text, col->prom_label ? "," : "",
			col->prom_label ? col->prom_label : "");
		st_cell_release(&name);
	}
	if (cell.kind == ST_CELL_UINT)
		fprintf(out, " %" PRIu64 "\n", cell.u);
	else
		fprintf(out, " %.9g\n", cell.d);
	st_cell_release(&cell);
}

void st_prom_rows(FILE *out, struct st_cols cols, const struct st_col *label,
		  const void *const *rows, size_t nrows, const void *doc)
{
	size_t c = 0;

	while (c < cols.n) {
		const struct st_col *first = &cols.v[c];
		size_t end = c + 1;

		if (!first->prom || !st_col_shown(first, doc, ST_COL_PROM)) {
			c++;
			continue;
		}
		while (end < cols.n && cols.v[end].prom && !strcmp(cols.v[end].prom, first->prom))
			end++;
		st_prom_family(out, first->prom, first->help);
		for (size_t r = 0; r < nrows; r++)
			for (size_t k = c; k < end; k++)
				if (st_col_shown(&cols.v[k], doc, ST_COL_PROM))
					sample(out, &cols.v[k], label, rows[r], doc);
		c = end;
	}
}
