/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_LEFTOVER_H
#define SANDBOXTIME_LEFTOVER_H

#include <stddef.h>
#include <sys/types.h>

#include "sandboxtime/error.h"

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

/* One leftover link: what `cleanup` deletes and `orphans` reports. */
struct st_leftover_link {
	char name[16];
	pid_t pid;
	enum st_leftover_kind kind;
};

struct st_nl;

/*
 * Appends the leftover links of @nl's namespace to *@v (*@n of them, the
 * array grown with realloc; free() it): all of them, or with @skip_running
 * only those whose sandboxtime is gone; at most @max in all (0: no limit).
 * 0, or the -errno of listing the links (@err) or -ENOMEM (what was found
 * before stays listed).
 */
int st_leftover_list(struct st_nl *nl, int skip_running, size_t max, struct st_leftover_link **v,
		     size_t *n, struct st_error *err);

/*
 * Deletes the links of @v (@n) whose sandboxtime is gone, veths first (a
 * bridge goes last, once nothing is attached to it); keeps those of a
 * running one, counted in *@kept. With @dry_run only says what it would
 * delete; says nothing with @quiet. A link already gone is fine.
 */
int st_leftover_remove(struct st_nl *nl, const struct st_leftover_link *v, size_t n, int dry_run,
		       int quiet, size_t *removed, size_t *kept, struct st_error *err);

#endif
