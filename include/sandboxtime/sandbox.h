/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SANDBOX_H
#define SANDBOXTIME_SANDBOX_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/error.h"
#include "sandboxtime/init.h"
#include "sandboxtime/ns_join.h"
#include "sandboxtime/ns_mount.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/steps.h"
#include "sandboxtime/sysctl.h"

struct st_sandbox_config {
	unsigned int mask; /* layers, already checked for availability */
	int rootless;
	const char *hostname;
	int no_init;
	unsigned int kill_after_ms;    /* grace after a terminating signal; 0: none */
	const struct st_net_plan *net; /* the wiring, when net is a layer */
	const struct st_mount_plan *mounts; /* --config's root and mounts, or NULL */
	const struct st_sysctl *sysctl;     /* --config's linux.sysctl */
	size_t nsysctl;
	int map_single; /* root too maps only 0 -> its own ids (config's id mappings) */
	const struct st_ns_join *joins; /* namespaces joined for the clone (config's paths) */
	size_t njoins;
	struct st_exec_spec exec;      /* the workload: argv, env, cwd, hardening */
	struct st_cgroup *cgroup;      /* the cgroup layer's plan, or NULL: none */
};

struct st_workload {
	int status;     /* raw wait status of the workload */
	int exit_code;  /* as sandboxtime passes it on: status, or 128+N */
	int exec_errno; /* CMD could not be executed: why */
	int clone_errno; /* the sandbox could not be created: why */
	int killed_after_grace; /* it outlived --kill-after and was killed */
	pid_t held_pid;  /* exec.hold: the container's process, waiting for start (not waited for) */
	char teardown_error[ST_ERROR_MSG_MAX]; /* the workload ran, the unwiring failed */
	uint64_t wall_ns;
	struct rusage ru;
};

/*
 * Builds the sandbox once with every layer of @cfg, timing each step into
 * @steps, runs CMD in it (under the init unless no_init), forwards signals to
 * it and waits for it. Returns 0 when CMD ran (whatever its exit status, in
 * @w); -errno with @err when sandboxtime failed or CMD could not be executed
 * (then w->exec_errno is set).
 */
int st_sandbox_run(const struct st_sandbox_config *cfg, struct st_steps *steps,
		   struct st_workload *w, struct st_error *err);

#endif
