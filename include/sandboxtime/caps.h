/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CAPS_H
#define SANDBOXTIME_CAPS_H

#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * The workload's capabilities, as a bit mask over CAP_* numbers. By default
 * Docker's set, in the bounding, permitted and effective sets; inheritable
 * and ambient stay empty (as Docker and runc since CVE-2022-24769). Rootless,
 * these are capabilities in the sandbox's user namespace only.
 */
#define ST_CAPS_ALL (~0ull)

/* Docker's default capability set. */
uint64_t st_caps_default(void);

/*
 * Applies --cap-drop then --cap-add to *@mask: comma lists of names with or
 * without "CAP_", any case; "ALL" drops or adds everything.
 */
int st_caps_edit(uint64_t *mask, const char *drop, const char *add, struct st_error *err);

/* "CAP_CHOWN,CAP_KILL,..." for the report. */
void st_caps_format(uint64_t mask, char *buf, size_t len);

/*
 * In the process about to exec the workload: drops every capability outside
 * @mask from the bounding set, clears ambient and inheritable, and sets
 * permitted and effective to @mask. An exec'd root process then gets exactly
 * the bounding set.
 */
int st_caps_apply(uint64_t mask, struct st_error *err);

#endif
