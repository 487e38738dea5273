/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_LEFTOVER_H
#define SANDBOXTIME_LEFTOVER_H

#include <sys/types.h>

/*
 * As root, the outside ends of sandboxes live in the host's namespace, named
 * stv<pid> (veth) and stbr<pid> (bridge) after the sandboxtime that made
 * them. A SIGKILLed sandboxtime cannot delete them; the name says whose they
 * were, so that they can be found and removed, and nothing else ever is.
 */
enum st_leftover_kind {
	ST_LEFTOVER_NONE,
	ST_LEFTOVER_VETH,
	ST_LEFTOVER_BRIDGE,
};

/* The kind and pid encoded in @name ("stv1234", "stbr99"), or NONE. Pure. */
enum st_leftover_kind st_leftover_parse(const char *name, pid_t *pid);

/*
 * The leftover kind of a link named @name of kind @link_kind ("veth",
 * "bridge"): the name alone is not enough, the kind must be the one it
 * claims. NONE for any other link. Pure.
 */
enum st_leftover_kind st_leftover_link(const char *name, const char *link_kind, pid_t *pid);

/* Whether @pid is a running sandboxtime (its comm), so its links are in use. */
int st_leftover_owner_running(pid_t pid);

#endif
