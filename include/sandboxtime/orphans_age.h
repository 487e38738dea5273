/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_ORPHANS_AGE_H
#define SANDBOXTIME_ORPHANS_AGE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/orphans.h"

/* The age of one nsfs net mount of our mount namespace: (inode, path) -> seconds, < 0 unknown. */
struct st_mount_age {
	uint64_t ino;
	char *path;
	double age;
};

/*
 * The ages are read in a thread of their own while the main thread walks
 * /proc: closing a clone made by open_tree(2) dissolves it, and that waits
 * for an RCU grace period (2 ms on a quiet host, much more on a busy one).
 */
struct st_orphans_age_job {
	pthread_t thread;
	int started;
	struct st_mount_age *v;
	size_t n;
	int enomem;
};

/* Starts reading the ages of our mount namespace's nsfs net mounts (best effort). */
void st_orphans_age_start(struct st_orphans_age_job *job);
/* Waits for the thread if it runs, and frees what it read. For _cleanup_. */
void st_orphans_age_free(struct st_orphans_age_job *job);

/*
 * Waits for the ages and sets each namespace's age_s: that of the youngest
 * of its mounts in our mount namespace, for namespaces no process lives in.
 */
void st_orphans_mount_ages(struct st_orphans *s, struct st_orphans_age_job *job);

#endif
