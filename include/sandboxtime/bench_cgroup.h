/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_CGROUP_H
#define SANDBOXTIME_BENCH_CGROUP_H

#include "sandboxtime/bench_grid.h"
#include "sandboxtime/cgroup.h"

/*
 * `bench cgroup` (issue 13.4): does a limit cost anything while the workload
 * runs? The same measuring process runs in each place: `host` (the cgroups
 * sandboxtime itself is in), `cgroup` (a new cgroup below them in every
 * hierarchy, no limit), `memory-limit` (a memory limit of
 * ST_CGB_MEMORY_LIMIT, above the working set, so the limit is checked on
 * every charge but never reached) and `cpu-quota` (ST_CGB_QUOTA_US of CPU
 * time per ST_CGB_PERIOD_US). Each place's cgroup is made for the round and
 * removed after it, by the process that made it.
 *
 * Operations: `fault` (first write to each 4 KiB page of a fresh anonymous
 * mapping, huge pages off: one page fault, allocation and memory charge
 * each), `populate` (the same pages allocated and charged by the kernel in
 * one MADV_POPULATE_WRITE call, no fault), `unmap` (munmap of those pages:
 * freed and uncharged), all in ns per page; and `wakeup_p50`, `wakeup_p99`,
 * `wakeup_max` (how late a 1 ms sleep wakes, in us, while a thread of the
 * same process spins on a CPU: under the quota, the spinner uses up the
 * period's time and the whole cgroup waits, the sleeper too).
 */
#define ST_CGB_MB 64u                     /* the working set of the memory operations */
#define ST_CGB_MEMORY_LIMIT (256ull << 20) /* memory-limit's limit: 4x the working set */
#define ST_CGB_QUOTA_US 50000             /* cpu-quota: half of one CPU */
#define ST_CGB_PERIOD_US 100000
#define ST_CGB_WINDOW_MS 500u             /* the wake-up operations' time per round */
#define ST_CGB_SLEEP_US 1000u
#define ST_CGB_DEFAULT_REPEAT 5u

struct st_bench_cgroup {
	struct st_bench_grid g;
	const char *parent;             /* --cgroup=PARENT, or NULL: sandboxtime's own cgroups */
	char host_memcg[ST_CG_PATH_MAX]; /* the memory cgroup the host place runs in, or "" */
};

/* @parent: --cgroup=PARENT (NULL: under sandboxtime's own cgroups). */
int st_bench_cgroup_prepare(struct st_bench_cgroup *b, unsigned int repeat, const char *parent,
			    struct st_error *err);
extern const struct st_grid_bench st_bench_cgroup_grid;

#endif
