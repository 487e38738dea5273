/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_RUN_H
#define SANDBOXTIME_REPORT_RUN_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/report_layers.h"

/*
 * What only `sandboxtime -- CMD` reports besides the layers: the sandbox's
 * steps, its network, the net steps lab, the workload's security, its
 * cgroup and the workload itself. Sections of the sandboxtime/v1 document
 * (report_layers.c), each a column table (struct st_doc_table).
 */

/* Adds "steps", "network", "net_steps", "security", "cgroup" and "workload" to @doc. */
void st_run_json(json_t *doc, const struct st_report *r);

/* The same sections in CSV, after the layers: one blank-line-separated section each. */
void st_run_write_csv(const struct st_report *r, FILE *out);

/* The "security" section alone: what the workload gave up (@in_userns: its capabilities are a user namespace's). */
struct st_hardening;
json_t *st_run_security_json(const struct st_hardening *h, int in_userns);

/* The same, as the table's sections after the layers. */
void st_run_write_table(const struct st_report *r, FILE *out);

#endif
