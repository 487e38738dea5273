/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_OCI_H
#define SANDBOXTIME_OCI_H

#include <jansson.h>
#include <stdint.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/error.h"
#include "sandboxtime/ns_join.h"
#include "sandboxtime/ns_mount.h"
#include "sandboxtime/process.h"
#include "sandboxtime/sysctl.h"

/*
 * What sandboxtime applies of an OCI runtime-spec config.json (the whole of
 * what `runc spec` and `runc spec --rootless` write):
 * process.args/env/cwd (terminal must be false), process.user, rlimits and
 * oomScoreAdj, process.capabilities, process.noNewPrivileges, hostname,
 * linux.namespaces (types; with a path, joined: network as --net=join,
 * uts, ipc, pid, cgroup and time for the clone),
 * linux.uidMappings/gidMappings (0 -> the caller's id, one id), linux.sysctl
 * (namespaced keys), linux.maskedPaths/readonlyPaths, linux.seccomp,
 * linux.resources (memory.limit, pids.limit, cpu shares/quota/period, and
 * the deny-all device rule), linux.cgroupsPath, root (path, readonly;
 * relative to the file's directory) and mounts (mount.h's types). Any other
 * key is refused, naming it. Options given on the command line win over the
 * file.
 */
struct st_oci {
	char **args;      /* NULL-terminated; NULL if absent */
	char **env;       /* NULL-terminated; NULL if absent */
	int terminal;     /* process.terminal (the runtime's create and exec only) */
	char *cwd;
	char *hostname;
	int has_ns;
	unsigned int ns_mask;
	char *net_path;   /* a network namespace path: --net=join:PATH */
	struct st_ns_join joins[ST_LAYER_COUNT]; /* other namespaces with a path */
	size_t njoins;
	int has_caps;
	uint64_t caps;    /* process.capabilities.bounding */
	int has_nnp;
	int nnp;
	json_t *seccomp;  /* linux.seccomp, a profile object (owned reference) */
	struct st_process process; /* process.user, rlimits, oomScoreAdj */
	struct st_sysctl *sysctl;  /* linux.sysctl */
	size_t nsysctl;
	int has_maps;              /* uidMappings/gidMappings: 0 -> caller, size 1 */
	struct st_mount_plan mounts; /* root, mounts, masked and read-only paths */
	struct st_cgroup_spec cgroup; /* resources' limits, cgroupsPath (enabled: either) */
	char *cgroups_path;           /* owns cgroup.path */
};

/*
 * Reads @path. Errors name the file, the JSON path and the problem:
 * "config.json: .linux.namespaces[2].type: unknown namespace type \"foo\"".
 */
int st_oci_load(const char *path, struct st_oci *out, struct st_error *err);

/*
 * The same for an engine's bundle (the OCI runtime's create and exec):
 * read as runc reads it. Keys sandboxtime does not apply are ignored,
 * except a security one the host enforces (apparmorProfile with AppArmor
 * on, SELinux labels with SELinux enforcing), which is refused, naming it;
 * process.terminal may be true (the runtime makes the pty); hooks are the
 * runtime's.
 */
int st_oci_load_runtime(const char *path, struct st_oci *out, struct st_error *err);

/* An exec's process.json, read the same way (oci_process.c's reader). */
int st_oci_read_process_runtime(json_t *p, const char *file, struct st_oci *o, struct st_error *err);

void st_oci_free(struct st_oci *o);

#endif
