/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_USERNS_H
#define SANDBOXTIME_BENCH_USERNS_H

#include <limits.h>
#include <sys/types.h>

#include "sandboxtime/bench_grid.h"

/*
 * `bench userns`: what a user namespace costs the calls that look at ids
 * (issue 14.4), which the articles did not measure: stat, open and access
 * of a file owned by an id the namespace maps and of one it does not, and a
 * call guarded by capable() (swapoff("") checks CAP_SYS_ADMIN in the initial
 * namespace before it looks at its argument), on the host and at nesting
 * depths 1, 2, 4, 8, 16 and 32 (the kernel's limit). Nanoseconds per call.
 */
#define ST_USERNS_PLACES 7
#define ST_USERNS_OPS 7
#define ST_USERNS_CALLS 20000u

struct st_bench_userns {
	struct st_bench_grid g;
	unsigned int depth[ST_USERNS_PLACES];
	unsigned int calls;
	char dir[PATH_MAX];        /* the scratch directory (removed by free) */
	char mapped[PATH_MAX];     /* a file of the caller's own */
	char unmapped[PATH_MAX];   /* a world-readable file of another id */
	uid_t unmapped_uid;        /* its owner, as the host sees it */
	uid_t overflow_uid;        /* what a namespace shows for an id it does not map */
};

int st_bench_userns_prepare(struct st_bench_userns *b, unsigned int repeat, unsigned int calls,
			    struct st_error *err);
extern const struct st_grid_bench st_bench_userns_grid;

/*
 * Enters @depth nested user namespaces, each mapping the caller (root of the
 * one before) to root: the calling process must be single-threaded.
 */
int st_userns_enter(unsigned int depth, struct st_error *err);

#endif
