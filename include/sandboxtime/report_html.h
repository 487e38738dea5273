/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_HTML_H
#define SANDBOXTIME_REPORT_HTML_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/error.h"

/*
 * One self-contained HTML page (nothing fetched: no script, no stylesheet,
 * no font, no image but the inline SVG) with a report's charts, drawn from
 * @doc, and its table, as @table writes it for @ctx.
 */
int st_html_write(FILE *out, const char *title, json_t *doc,
		  int (*table)(const void *ctx, FILE *out, struct st_error *err), const void *ctx,
		  struct st_error *err);

#endif
