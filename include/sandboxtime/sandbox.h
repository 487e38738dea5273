/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SANDBOX_H
#define SANDBOXTIME_SANDBOX_H

#include <stdint.h>
#include <sys/resource.h>

#include "sandboxtime/error.h"

#define ST_MAX_STEPS 16

/* One timed configuration step of the real sandbox ("uid_map", "lo_up"). */
struct st_step {
	char name[24];
	double us;
};

struct st_steps {
	size_t n;
	struct st_step v[ST_MAX_STEPS];
};

void st_steps_add(struct st_steps *steps, const char *name, uint64_t ns);

struct st_sandbox_config {
	unsigned int mask; /* layers, already checked for availability */
	int rootless;
	const char *hostname;
	int no_init;
	char *const *argv;
};

struct st_workload {
	int status;     /* raw wait status of the workload */
	int exit_code;  /* as sandboxtime passes it on: status, or 128+N */
	int exec_errno; /* CMD could not be executed: why */
	int clone_errno; /* the sandbox could not be created: why */
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
