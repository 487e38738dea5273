/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_USERNS_COUNT_H
#define SANDBOXTIME_USERNS_COUNT_H

#include <stdint.h>
#include <sys/types.h>

#include "sandboxtime/error.h"

/*
 * Asking whether the user namespaces counted in our own user namespace have
 * reached its max_user_namespaces, without creating one: a prober process,
 * chrooted, asks for a new user namespace. create_user_ns() checks the count
 * first and refuses a chrooted caller only after that, so ENOSPC says "the
 * count is at the limit", EPERM "below it", and nothing is ever created.
 * Lowering the limit (in a user namespace of our own: the host's limits are
 * never touched) turns the question into "is the count below N?"; a binary
 * search over N reads the count itself. The prober must be started by a
 * process of the user namespace whose count is asked.
 */
struct st_userns_prober {
	pid_t pid;
	int req_wr, res_rd;
	int limit_fd; /* /proc/sys/user/max_user_namespaces of our namespace, or -1 */
};

int st_userns_prober_start(struct st_userns_prober *p, struct st_error *err);

/* 1: the count is at the limit (ENOSPC), 0: below it (EPERM), or -errno. */
int st_userns_prober_ask(const struct st_userns_prober *p, struct st_error *err);

/* Sets our namespace's max_user_namespaces to @n (kept open: one pwrite each). */
int st_userns_set_limit(struct st_userns_prober *p, uint64_t n, struct st_error *err);

/*
 * The count of user namespaces in our namespace, known to be in [@lo, @hi]:
 * a binary search of limits, then the limit is put back to @restore. Only
 * exact while nobody else creates one: the caller holds its creators off.
 */
int st_userns_count(struct st_userns_prober *p, uint64_t lo, uint64_t hi, uint64_t restore,
		    uint64_t *out, struct st_error *err);

void st_userns_prober_stop(struct st_userns_prober *p);

/* How a drain made sure the kernel's last work was over once the count was zero. */
enum st_settle {
	ST_SETTLE_RCU,   /* two RCU grace periods (membarrier(MEMBARRIER_CMD_GLOBAL)) */
	ST_SETTLE_SLEEP, /* membarrier refused: a 50 ms sleep */
};

/*
 * The count reaching zero is not the end of the kernel's work for what was
 * freed: RCU callbacks and work items still run (docs/bench-notes/
 * 14-drain-settle.md). Two grace periods of our own, or a sleep of a few
 * where membarrier is refused; returns ST_SETTLE_*.
 */
int st_rcu_settle(void);

/*
 * Waits, untimed, until no user namespace is counted in ours (asked with
 * our limit at 1, then put back to @restore), then settles (*@settled_by).
 * -ETIMEDOUT when something is still counted after @timeout_ns (a kernel
 * leak, not a delay), or -errno.
 */
int st_userns_drain(struct st_userns_prober *p, uint64_t restore, uint64_t timeout_ns,
		    int *settled_by, struct st_error *err);

#endif
