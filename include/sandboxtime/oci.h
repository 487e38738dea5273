/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_OCI_H
#define SANDBOXTIME_OCI_H

#include <jansson.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ns_mount.h"

#define ST_OCI_IGNORED_MAX 512

/*
 * The subset of an OCI runtime-spec config.json that sandboxtime applies:
 * process.args/env/cwd (terminal must be false), process.capabilities
 * (bounding), process.noNewPrivileges, hostname, linux.namespaces (types;
 * a path only for network, as join), linux.seccomp, root (path, readonly;
 * relative to the file's directory) and mounts of type proc, tmpfs and bind.
 * The rest is listed once
 * in @ignored, never silently dropped. Options given on the command line
 * win over the file.
 */
struct st_oci {
	char **args;      /* NULL-terminated; NULL if absent */
	char **env;       /* NULL-terminated; NULL if absent */
	char *cwd;
	char *hostname;
	int has_ns;
	unsigned int ns_mask;
	char *net_path;   /* a network namespace path: --net=join:PATH */
	int has_caps;
	uint64_t caps;    /* process.capabilities.bounding */
	int has_nnp;
	int nnp;
	json_t *seccomp;  /* linux.seccomp, a profile object (owned reference) */
	struct st_mount_plan mounts;	  /* root and mounts; mounts.root NULL for "/" */
	char ignored[ST_OCI_IGNORED_MAX]; /* "process.rlimits,..." */
};

/*
 * Reads @path. Errors name the file, the JSON path and the problem:
 * "config.json: .linux.namespaces[2].type: unknown namespace type \"foo\"".
 */
int st_oci_load(const char *path, struct st_oci *out, struct st_error *err);

void st_oci_free(struct st_oci *o);

#endif
