/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_PROCESS_H
#define SANDBOXTIME_PROCESS_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandboxtime/error.h"
#include "sandboxtime/steps.h"

#define ST_PROCESS_MAX_GROUPS 32
#define ST_PROCESS_MAX_RLIMITS 16

/*
 * What config.json's process asks of the workload's process beyond argv,
 * env and cwd: process.rlimits, process.oomScoreAdj and process.user (uid,
 * gid, additionalGids). Fixed size: it lives in the exec spec that the
 * sandbox's processes inherit.
 */
struct st_process {
	size_t nrlimits;
	struct {
		int resource; /* RLIMIT_* */
		struct rlimit lim;
	} rlimits[ST_PROCESS_MAX_RLIMITS];
	int has_oom;
	int oom_score_adj;
	int has_user;
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	gid_t groups[ST_PROCESS_MAX_GROUPS];
};

/* RLIMIT_NOFILE for "RLIMIT_NOFILE", or -1. */
int st_process_rlimit_parse(const char *name);

/*
 * In the process about to exec the workload, before it gives up its
 * capabilities: setrlimit for each limit (step rlimits), oom_score_adj
 * (step oom_score_adj), then setgroups, setresgid and setresuid keeping the
 * permitted capabilities (PR_SET_KEEPCAPS), with the effective set raised
 * again so that the capability step after it still can drop what it drops
 * (step user_ids), as runc does. Each part only when @p has it.
 */
int st_process_apply(const struct st_process *p, struct st_steps *steps, struct st_error *err);

#endif
