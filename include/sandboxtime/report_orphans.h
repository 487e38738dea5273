/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_ORPHANS_H
#define SANDBOXTIME_REPORT_ORPHANS_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/output.h"

struct st_orphans;
struct st_cleanup;

#define ST_SCHEMA_ORPHANS "sandboxtime/orphans/v1"

/* `orphans`: what one scan found, and how to show it. */
struct st_orphans_report {
	const struct st_output *out;
	int all; /* the table shows active namespaces too */
	struct st_host host;
	const struct st_orphans *scan;
	const struct st_cleanup *cleanup; /* NULL: no --cleanup */
};

/* The sandboxtime/orphans/v1 document (new reference). */
json_t *st_orphans_json(const struct st_orphans_report *r);
/* Writes @r in the format of r->out->format. */
/* Its formats (struct st_doc_format of report.h), on a struct st_orphans_report. */
struct st_doc_format;
extern const struct st_doc_format st_orphans_format;
int st_orphans_write_json(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_table(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_csv(const struct st_orphans_report *r, FILE *out, struct st_error *err);
int st_orphans_write_prom(const struct st_orphans_report *r, FILE *out, struct st_error *err);
/* The Prometheus text of a --textfile: st_orphans_write_prom() plus when the scan ended and took. */
int st_orphans_write_textfile(const struct st_orphans_report *r, double scan_time_s,
			      double scan_duration_s, FILE *out, struct st_error *err);

#endif
