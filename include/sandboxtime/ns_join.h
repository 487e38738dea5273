/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_JOIN_H
#define SANDBOXTIME_NS_JOIN_H

#include <stddef.h>

#include "sandboxtime/error.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/steps.h"

/*
 * A namespace the sandbox joins instead of making (config.json's
 * linux.namespaces[].path): uts, ipc, pid, cgroup or time. network goes
 * through --net=join; user and mount are refused (see st_ns_join_ok).
 */
struct st_ns_join {
	enum st_layer layer;
	char *path;
};

/* 0 when @layer may be joined, or -EINVAL with the reason in @why. */
int st_ns_join_ok(enum st_layer layer, const char **why);

/*
 * Enters each namespace of @v (root only: the way back out needs
 * CAP_SYS_ADMIN over our own namespaces) for the clone, which inherits
 * them; each a timed step "join_<layer>". @restore (n fds, -1 when not
 * entered) says how to return: st_ns_join_leave(), on every path.
 */
int st_ns_join_enter(const struct st_ns_join *v, size_t n, int *restore, struct st_steps *steps,
		     struct st_error *err);
int st_ns_join_leave(const struct st_ns_join *v, size_t n, int *restore, struct st_error *err);

#endif
