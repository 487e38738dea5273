/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CHURN_LAB_H
#define SANDBOXTIME_CHURN_LAB_H

#include <stdatomic.h>
#include <stdint.h>

#include "sandboxtime/bench_churn.h"
#include "sandboxtime/error.h"
#include "sandboxtime/histogram.h"

/*
 * bench churn's lab and creators, and the memory they share with the main
 * process (one MAP_SHARED mapping made before the lab is cloned): the
 * counters a sample reads, the sequence that holds new clones off while it
 * reads, and the results.
 */

/* What one creator leaves in the shared memory. */
struct st_churn_creator {
	struct st_hist create, cycle, wire;
	uint64_t created, reaped, throttled, collisions;
	uint64_t last_reap_ns;
	int failed;
	struct st_error err;
};

struct st_churn_shared {
	atomic_int stop;     /* the main process got a signal: stop creating */
	atomic_int cut;      /* the lab failed: its creators stop as on a signal */
	atomic_uint probe_seq; /* odd while the lab reads the count: new clone3() calls wait */
	atomic_int finished; /* creators done with this run */
	atomic_uint_fast64_t created, reaped;
	uint64_t deadline_ns; /* --duration: the measured run's end (written before the start), or 0 */
	struct st_churn_creator creator[ST_CHURN_MAX_PARALLEL];
	struct st_churn_level level[ST_CHURN_MAX_LEVELS];
};

/* What the lab answers when it is done: how many levels, or why not. */
struct st_churn_result {
	int failed;
	int stopped; /* shared->stop was seen: the run was cut short, nothing is left */
	size_t done;
	struct st_error err;
};

/*
 * The lab process (in its own user namespace, root there): waits for EOF
 * on @go_rd, runs every level of @b into @sh, writes one struct
 * st_churn_result to @res_wr and exits.
 */
void st_churn_lab_main(const struct st_bench_churn *b, struct st_churn_shared *sh, int go_rd,
		       int res_wr) __attribute__((noreturn));

#endif
