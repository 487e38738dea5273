/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_ORPHANS_CLEANUP_H
#define SANDBOXTIME_ORPHANS_CLEANUP_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/orphans.h"

/*
 * orphans --cleanup: removes the orphans that only bind mounts hold, in our
 * own mount namespace, under /run/netns (or /var/run/netns) or a
 * --cleanup-path, older than --min-age: umount, then unlink the mount point
 * if it is an empty regular file. Anything a process lives in or an fd or a
 * socket holds is never touched; a fresh scan right before acting re-checks.
 */
enum st_cleanup_result {
	ST_CLEANUP_REMOVED,	 /* every mount holder unmounted */
	ST_CLEANUP_WOULD_REMOVE, /* --dry-run */
	ST_CLEANUP_SKIPPED,	 /* not ours to remove: reason says why */
	ST_CLEANUP_FAILED,	 /* tried; reason says what refused */
	ST_CLEANUP_GONE,	 /* vanished between the scan and the re-check */
};

enum st_cleanup_op {
	ST_CLEANUP_UMOUNT,
	ST_CLEANUP_UNLINK,
	ST_CLEANUP_KEEP, /* the mount point file stays: reason in the step */
};

extern const char *const st_cleanup_result_names[];
extern const char *const st_cleanup_op_names[];

#define ST_CLEANUP_REASON_MAX 512

struct st_cleanup_step {
	enum st_cleanup_op op;
	char *path;
	char *why; /* KEEP: why the file stays; otherwise a remark, or NULL */
};

struct st_cleanup_action {
	uint64_t dev, ino;
	enum st_cleanup_result result;
	char reason[ST_CLEANUP_REASON_MAX]; /* empty for removed and would remove */
	struct st_cleanup_step *steps;
	size_t nsteps;
};

struct st_cleanup {
	int dry_run;
	unsigned int min_age_s;
	char **roots; /* canonical directories cleanup may act under */
	size_t nroots;
	struct st_cleanup_action *v;
	size_t n;
	size_t removed; /* removed, or gone by itself */
	size_t left;	/* orphans still there: skipped, failed, or --dry-run */
};

/*
 * The directories cleanup may act under: /run/netns and /var/run/netns where
 * they exist, and each of @extra (--cleanup-path), which must be a directory.
 * All canonical (realpath), without duplicates.
 */
int st_cleanup_roots(struct st_cleanup *c, const char *const *extra, size_t nextra,
		     struct st_error *err);

/* Whether @path lies under the directory @root (both canonical). Pure. */
int st_cleanup_path_under(const char *path, const char *root);

/*
 * Whether orphan @ns may be removed: only mounts hold it, all in mount
 * namespace @self_mntns and under @roots, and its age is known and at least
 * @min_age_s. 1 yes; 0 no, with the reason in @why. Pure.
 */
int st_cleanup_eligible(const struct st_netns *ns, uint64_t self_mntns, unsigned int min_age_s,
			char *const *roots, size_t nroots, char *why, size_t len);

/*
 * Acts on every orphan of @scan (or, with c->dry_run, says what it would do).
 * Root only: the caller checks. Returns -errno only when it could not run at
 * all (out of memory, the re-check scan failed); each namespace's own
 * failure is its action's result.
 */
int st_orphans_cleanup(struct st_cleanup *c, const struct st_orphans *scan, struct st_error *err);

void st_cleanup_free(struct st_cleanup *c);

#endif
