/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_OCI_PARSE_H
#define SANDBOXTIME_OCI_PARSE_H

/*
 * The config.json reader's own helpers, shared by oci.c (the document, root
 * and mounts), oci_process.c (process) and oci_linux.c (linux). Not for use
 * outside them: st_oci_load() is the interface.
 */
#include <jansson.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/error.h"
#include "sandboxtime/oci.h"

/* A usage error "FILE: PATH: WHAT" (exit 125). */
int _printf_(4, 5) st_oci_bad(struct st_error *err, const char *file, const char *path,
			      const char *fmt, ...);

/*
 * Refuses any key of @obj (at JSON path @path, "" for the top) outside
 * @known: "FILE: .process.consoleSize: is not supported (...)".
 */
int st_oci_check_keys(json_t *obj, const char *file, const char *path,
		      const char *const *known, size_t nknown, struct st_error *err);

/* A JSON array of strings as a NULL-terminated, owned vector in *@out. */
int st_oci_strings(json_t *a, const char *file, const char *path, int need_one, char ***out,
		   struct st_error *err);

/* A JSON integer in [min, max] at @path into *@out. */
int st_oci_int(json_t *v, const char *file, const char *path, long long min, long long max,
	       long long *out, struct st_error *err);

/* Whether the parse is st_oci_load_runtime()'s (an engine's bundle). */
int st_oci_runtime_mode(void);

int st_oci_read_process(json_t *p, const char *file, struct st_oci *o, struct st_error *err);
int st_oci_read_linux(json_t *l, const char *file, struct st_oci *o, struct st_error *err);

#endif
