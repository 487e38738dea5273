// SPDX-License-Identifier: MIT
/*
 * --html=FILE: a page to attach to a ticket. The charts are the --svg
 * document inline; the tables are the terminal table, escaped into <pre>
 * (its columns are aligned for a fixed-width font, and every figure the
 * table has is on the page). Styles are inline: the page must open from a
 * mail attachment with no network.
 */
#include <errno.h>
#include <stdlib.h>

#include "sandboxtime/report_html.h"
#include "sandboxtime/report_svg.h"
#include "sandboxtime/svg.h"

static const char style[] =
	"body{font-family:DejaVu Sans,Verdana,sans-serif;margin:1.5em;color:#000;background:#fff}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}"
	"pre{font-family:DejaVu Sans Mono,monospace;font-size:12px;background:#f6f6f6;"
	"padding:0.8em;overflow-x:auto}"
	"figure{margin:0}@media print{pre{white-space:pre-wrap}}";

/* The table as text, from a memory stream (so that a write error reaches us). */
static int table_text(int (*table)(const void *, FILE *, struct st_error *), const void *ctx,
		      char **text, struct st_error *err)
{
	size_t len = 0;
	FILE *mem = open_memstream(text, &len);
	int ret;

	if (!mem)
		return st_error_set(err, errno, "--html: the table");
	ret = table(ctx, mem, err);
	if (fclose(mem) == EOF && ret == 0)
		ret = st_error_set(err, errno, "--html: the table");
	return ret;
}

int st_html_write(FILE *out, const char *title, json_t *doc,
		  int (*table)(const void *ctx, FILE *out, struct st_error *err), const void *ctx,
		  struct st_error *err)
{
	char *text = NULL;
	int ret = table_text(table, ctx, &text, err);

	if (ret < 0) {
		free(text);
		return ret;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	st_xml_escape(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
	st_xml_escape(out, title);
	fputs("</h1>\n<h2>Charts</h2>\n<figure>\n", out);
	ret = st_svg_write_doc(out, doc, 0, err);
	fputs("</figure>\n<h2>Tables</h2>\n<pre>", out);
	st_xml_escape(out, text ? text : "");
	fputs("</pre>\n</body>\n</html>\n", out);
	free(text);
	if (ret == 0 && ferror(out))
		ret = st_error_set(err, EIO, "--html: writing the page");
	return ret;
}
