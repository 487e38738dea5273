/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_USER_H
#define SANDBOXTIME_NS_USER_H

#include <sys/types.h>

#include "sandboxtime/error.h"

/*
 * The user layer's configuration, written by the parent into the child's
 * /proc/PID files (a process cannot map itself once it has left the parent
 * namespace). Rootless, the caller becomes root inside and only that one id
 * is mapped; with root, the whole id range is mapped onto itself.
 */

/* "deny" into /proc/PID/setgroups: required before an unprivileged gid_map. */
int st_ns_user_deny_setgroups(pid_t pid, struct st_error *err);

int st_ns_user_write_uid_map(pid_t pid, uid_t outer, int identity, struct st_error *err);
int st_ns_user_write_gid_map(pid_t pid, gid_t outer, int identity, struct st_error *err);

/* All three steps for a helper process: the caller becomes root inside. */
int st_ns_user_map_caller(pid_t pid, struct st_error *err);

#endif
