/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_FILES_H
#define SANDBOXTIME_BENCH_FILES_H

#include <limits.h>

#include "sandboxtime/bench_grid.h"

/*
 * `bench files` (issue 14.3): create, write (512 bytes), stat, fsync and
 * unlink of N files (3000 by default), and unpacking a tree of 4N/3 small
 * files (4000) in directories of 100, on tmpfs (/dev/shm), on the host's
 * disk (/var/tmp), through a bind mount in a user and mount namespace, and
 * on overlayfs there (lower: a directory on the disk; upper and work: a
 * tmpfs of the namespace). Microseconds per operation.
 */
#define ST_FILES_PLACES 4
#define ST_FILES_OPS 6
#define ST_FILES_MAX 100000u
#define ST_FILES_BYTES 512u
#define ST_FILES_DEFAULT_REPEAT 5u

/*
 * The floor under an fsync that made 512 new bytes durable on a disk: a
 * journal commit and a cache flush of the device. The fastest devices with
 * power-loss protection take tens of microseconds; below this, the device or
 * a hypervisor acknowledged a flush it did not do. On memory (tmpfs, and
 * overlayfs with a tmpfs upper) nothing is made durable: always flagged.
 */
#define ST_FILES_FSYNC_FLOOR_US 50.0

enum st_files_medium { ST_FILES_MEMORY, ST_FILES_DISK };

struct st_bench_files {
	struct st_bench_grid g;
	unsigned int files, tree_files;
	char tmpfs_dir[PATH_MAX]; /* scratch directories: removed by free, whatever is in them */
	char disk_dir[PATH_MAX];
	enum st_files_medium medium[ST_FILES_PLACES];
};

/* @files per pass, at least 1 (--files, 3000 by default). */
int st_bench_files_prepare(struct st_bench_files *b, unsigned int repeat, unsigned int files,
			   struct st_error *err);
extern const struct st_grid_bench st_bench_files_grid;

/*
 * The fsync flag of a figure that stands: on memory always, on disk when the
 * median @median_us is below ST_FILES_FSYNC_FLOOR_US. Writes it to @why and
 * returns 1, or returns 0. Pure.
 */
int st_files_fsync_flag(enum st_files_medium medium, double median_us, char *why, size_t len);

#endif
