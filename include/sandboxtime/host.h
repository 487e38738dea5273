/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_HOST_H
#define SANDBOXTIME_HOST_H

#include <stdint.h>

#include "sandboxtime/steal.h"

/* Facts about the machine that change the figures; every report carries them. */
struct st_host {
	char kernel[65];
	char cpu_model[128];
	int cpus;
	int rootless;
	unsigned int uid;
	int pinned_cpu;    /* -1: not pinned */
	int rcu_expedited; /* /sys/kernel/rcu_expedited, -1 if unknown */
	char cgroup[8];    /* "v1", "v2", "hybrid" or "none" */
	int virtualized;   /* 1: the CPU says it runs under a hypervisor, 0 no, -1 unknown */
	const char *clone_call; /* "clone3", or "clone" where clone3 is missing (see spawn.h) */
	struct st_steal steal;  /* from st_host_identify() to st_host_collect(): over the run */
};

/* What decides how to run: rootless or not, uid, pinning; the steal counts at the start. Cheap. */
void st_host_identify(struct st_host *h, int pinned_cpu);

/*
 * The facts only a report needs (kernel, CPU model, rcu_expedited, cgroup
 * mode, hypervisor): read when the report is written, not on the launch path;
 * and the steal since st_host_identify().
 */
void st_host_collect(struct st_host *h);

/* MemAvailable of /proc/meminfo, in MB: what a bench may take before it starts. */
struct st_error;
int st_host_mem_available_mb(uint64_t *out, struct st_error *err);

/* Rootless: not root, or root of a user namespace that does not map the host's root. */
int st_host_is_rootless(void);

#endif
