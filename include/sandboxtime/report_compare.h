/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_COMPARE_H
#define SANDBOXTIME_REPORT_COMPARE_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/compare.h"
#include "sandboxtime/error.h"
#include "sandboxtime/output.h"

#define ST_SCHEMA_COMPARE "sandboxtime/compare/v1"

/* The sandboxtime/compare/v1 document. */
json_t *st_compare_json(const struct st_compare *c);

/* Its formats (struct st_doc_format of report.h): table, json, csv or markdown. */
struct st_doc_format;
extern const struct st_doc_format st_compare_format;

#endif
