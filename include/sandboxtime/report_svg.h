/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_SVG_H
#define SANDBOXTIME_REPORT_SVG_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/error.h"

/*
 * The charts of a report, drawn from its JSON document (the same one --json
 * writes, so a chart never shows what the document does not say):
 * sandboxtime/v1 (a run, layers), netbench/v1, bench/v1 and compare/v1.
 * @standalone: a file of its own (XML declaration); else inline in HTML.
 */
int st_svg_write_doc(FILE *out, json_t *doc, int standalone, struct st_error *err);

#endif
