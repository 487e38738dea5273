/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_MOUNTS_H
#define SANDBOXTIME_BENCH_MOUNTS_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/bench_grid.h"

/*
 * `bench mounts` (issue 15.2): what a new mount namespace costs against the
 * size of the mount table it copies, and what new mount and network
 * namespaces cost with many sandboxes already alive. Each place is a parent
 * state, built by the bench in namespaces of its own: `base` (the host's
 * table as it is, nothing alive), `private-N` and `shared-N` (N bind mounts
 * added, private or all in one shared peer group), `bg-N` (N idle
 * sandboxes, each a mount and a network namespace held open by its
 * namespace files, no process). Each operation is timed in every place:
 * unshare(CLONE_NEWNS) (the copy), setns() back (its teardown: the copy's
 * last reference goes) and unshare(CLONE_NEWNET). Microseconds per call.
 */
#define ST_MOUNTS_MAX_COUNTS 5   /* --mounts values */
#define ST_MOUNTS_MAX_BACKGROUND 5 /* --background values */
#define ST_MOUNTS_MAX_MOUNTS 50000u
#define ST_MOUNTS_OPS 3
#define ST_MOUNTS_CALLS 3u /* calls of each operation per place and round: a round's figure is their mean */
#define ST_MOUNTS_DEFAULT_REPEAT 10u
#define ST_MOUNTS_DRAIN_TIMEOUT_NS (30ull * 1000000000ull)

enum st_mounts_propagation { ST_MOUNTS_PRIVATE, ST_MOUNTS_SHARED };

/* One place: the parent state every operation starts from. */
struct st_mounts_place {
	char name[24];
	unsigned int mounts;     /* bind mounts added to the host's table */
	enum st_mounts_propagation propagation;
	unsigned int background; /* idle sandboxes held open */
};

struct st_bench_mounts {
	struct st_bench_grid g;
	struct st_mounts_place place[ST_GRID_MAX_PLACES];
	unsigned int host_mounts; /* lines of /proc/self/mountinfo at the start */
	unsigned int max_alive;
};

/*
 * Checks the machine's limits (user.max_mnt_namespaces, max_net_namespaces,
 * fs.mount-max, RLIMIT_NOFILE, MemAvailable) against the largest place and
 * refuses with the numbers; @counts and @background as --mounts and
 * --background give them (at least one each: the options hold the
 * defaults), @max_alive: --max-alive.
 */
int st_bench_mounts_prepare(struct st_bench_mounts *b, unsigned int repeat,
			    const unsigned int *counts, size_t ncounts, const unsigned int *background,
			    size_t nbackground, unsigned int max_alive, struct st_error *err);
extern const struct st_grid_bench st_bench_mounts_grid;

#endif
