/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_PATHS_H
#define SANDBOXTIME_NS_PATHS_H

#include "sandboxtime/error.h"
#include "sandboxtime/ns_mount.h"
#include "sandboxtime/steps.h"

/*
 * After pivot_root, in the sandbox's own view: masks each of @p's
 * maskedPaths (a directory under an empty read-only tmpfs, anything else
 * under /dev/null bound on it: step masked_paths), then makes each of its
 * readonlyPaths a read-only bind of itself (step readonly_paths). A path
 * that does not exist is skipped, as runc and crun skip it.
 */
int st_ns_paths_apply(const struct st_mount_plan *p, struct st_steps *steps, struct st_error *err);

#endif
