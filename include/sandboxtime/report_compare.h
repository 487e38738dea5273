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

/* Writes @c in @format (table, json, csv or markdown). */
/* @style (ST_TEXT_*): the table's colour; markdown comes from @format. */
int st_compare_write(const struct st_compare *c, enum st_format format, unsigned int style,
		     FILE *out, struct st_error *err);

#endif
