/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_PROFILE_H
#define SANDBOXTIME_SECCOMP_PROFILE_H

#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * The profile compiler (seccomp_profile.c): a parsed OCI/Docker seccomp
 * profile to a BPF program in @out (prog, len, rules, unknown names,
 * load_flags), judged against the workload's capabilities @caps and the
 * running kernel and architecture. Errors name @file and the JSON path.
 * st_seccomp_compile_json() (seccomp_filter.h) is its no-cache entry.
 */
struct json_t;
struct st_seccomp;

int st_seccomp_profile_compile(struct json_t *doc, const char *file, uint64_t caps,
			       struct st_seccomp *out, struct st_error *err);

#endif
