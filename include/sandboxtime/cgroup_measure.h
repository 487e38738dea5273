/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CGROUP_MEASURE_H
#define SANDBOXTIME_CGROUP_MEASURE_H

#include "sandboxtime/cgroup.h"
#include "sandboxtime/error.h"
#include "sandboxtime/stats.h"

/*
 * The cgroup layer in `layers` and a run's measurement (--cgroup): each
 * sample makes a cgroup in every hierarchy the layer uses, writes limits,
 * moves a waiting child into it, lets the child exit, removes the cgroup,
 * and waits for the kernel's deferred part (src/measure/cgroup_measure.c).
 */
enum st_cgm_fig {
	ST_CGM_MKDIR,   /* mkdir in every hierarchy */
	ST_CGM_LIMITS,  /* memory and pids limits written */
	ST_CGM_ATTACH,  /* the child's pid written to every cgroup.procs */
	ST_CGM_RMDIR,   /* rmdir in every hierarchy, the child reaped */
	ST_CGM_FREED_V2, /* rmdir until the parent's cgroup.stat nr_dying_descendants drops */
	ST_CGM_FREED_V1, /* rmdir until /proc/cgroups num_cgroups of a v1 hierarchy drops */
	ST_CGM_COUNT,
};

struct st_cgm_info {
	const char *key;   /* JSON key */
	const char *label; /* table */
};

extern const struct st_cgm_info st_cgm_figures[ST_CGM_COUNT];

struct st_cgroup_measurement {
	int asked;     /* --cgroup: measure it */
	int available; /* measured; else reason says why */
	char reason[2 * ST_ERROR_MSG_MAX];
	const char *mode; /* "v2", "v1", "hybrid" */
	char v1_source[32]; /* the v1 hierarchy whose num_cgroups is watched ("pids") */
	struct st_samples fig[ST_CGM_COUNT];
	unsigned int unobserved[ST_CGM_COUNT]; /* freed: samples with no drop within 1 s */
};

/*
 * Runs @warmup unrecorded and @repeat recorded samples. A host where the
 * layer cannot be used (rootless without delegation) is no error: available
 * is 0 with the reason. -errno with @err on a failure mid-way, -EINTR on a
 * forwarded signal (@interrupted_by set). Everything made is removed.
 */
int st_cgroup_measure(unsigned int warmup, unsigned int repeat, const char *parent,
		      struct st_cgroup_measurement *cm, int *interrupted_by, struct st_error *err);

void st_cgroup_measurement_free(struct st_cgroup_measurement *cm);

#endif
