/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_MOUNT_H
#define SANDBOXTIME_NS_MOUNT_H

#include "sandboxtime/error.h"

/*
 * Makes every mount private (MS_REC|MS_PRIVATE), so that nothing mounted in
 * the sandbox propagates back to the host's shared mounts.
 */
int st_ns_mount_make_private(struct st_error *err);

/*
 * Mounts a fresh /proc, so that it shows the sandbox's pid namespace; must run
 * in a process of that namespace.
 */
int st_ns_mount_proc(struct st_error *err);

#endif
