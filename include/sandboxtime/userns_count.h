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

#endif
