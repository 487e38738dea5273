/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_ORPHANS_DESCRIBE_H
#define SANDBOXTIME_ORPHANS_DESCRIBE_H

#include "sandboxtime/orphans.h"

struct st_nl;

/*
 * Fills, for every namespace of @s, its owner's uid (rootless: the
 * classification needs it), its nsid as @nl's namespace sees it (@nl NULL:
 * none), and as root its interfaces, from one or two short-lived threads
 * that enter the namespaces in turn (orphans_describe.c). A namespace gone
 * since the scan keeps them unknown. 0 or -ENOMEM (or pthread's -errno).
 */
int st_orphans_describe(struct st_orphans *s, struct st_nl *nl);

#endif
