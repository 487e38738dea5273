// SPDX-License-Identifier: MIT
/*
 * bench files: each place is a child that does one pass of every operation
 * over its own directory and sends the times back. The bind and overlay
 * places build their mounts in a user and mount namespace of the child,
 * which the kernel takes down when the child exits, on any path; what the
 * passes leave on the host (a killed child) goes with the scratch
 * directories, which free removes whatever is in them.
 */
#include <fcntl.h>
#include <ftw.h>
#include <linux/magic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_userns.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/util.h"

#define TREE_DIR_FILES 100u

enum { P_TMPFS, P_DISK, P_BIND, P_OVERLAY };
enum { OP_CREATE, OP_WRITE, OP_STAT, OP_FSYNC, OP_UNLINK, OP_UNPACK };

static const char *const files_places[ST_FILES_PLACES] = { "tmpfs", "disk", "bind", "overlay" };
static const char *const files_ops[ST_FILES_OPS] = {
	[OP_CREATE] = "create", [OP_WRITE] = "write_512", [OP_STAT] = "stat",
	[OP_FSYNC] = "fsync",	[OP_UNLINK] = "unlink",	  [OP_UNPACK] = "unpack_tree",
};

static const char method[] =
	"Each place is a child that did one pass per round, after one unrecorded round: create "
	"(open O_CREAT|O_EXCL, close) of every file, write (open, 512 bytes, close), stat, fsync "
	"(open, fsync, close), unlink, then the tree: mkdir of a directory per 100 files and open, "
	"write of 64 to 1023 bytes, close of each (removed untimed). tmpfs is /dev/shm, disk is "
	"/var/tmp; bind is the disk bind-mounted in a user and mount namespace; overlay is overlayfs "
	"there, lower a directory on the disk, upper and work on a tmpfs of the namespace. Every call "
	"is checked and stat's sizes must add up to what was written.";

int st_files_fsync_flag(enum st_files_medium medium, double median_us, char *why, size_t len)
{
	if (medium == ST_FILES_MEMORY)
		snprintf(why, len, "suspiciously fast: durability not proven (memory: fsync makes nothing durable)");
	else if (median_us < ST_FILES_FSYNC_FLOOR_US)
		snprintf(why, len,
			 "suspiciously fast: durability not proven (%.1f us is below the %.0f us floor of a disk's flush)",
			 median_us, ST_FILES_FSYNC_FLOOR_US);
	else
		return 0;
	return 1;
}

static int fail(struct st_grid_result *r, const char *what, const char *path)
{
	r->failed = 1;
	return st_error_set(&r->err, errno, "%s %s", what, path);
}

/* One timed loop over the files: @op on each. */
static int file_loop(const char *dir, unsigned int n, int op, struct st_grid_result *r)
{
	static const char data[ST_FILES_BYTES] = { 'x' };
	char path[PATH_MAX];
	uint64_t t0 = st_now_ns(), size = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct stat st;
		int fd = -1, ok = 1;

		snprintf(path, sizeof(path), "%s/f%06u", dir, i);
		if (op == OP_CREATE)
			ok = (fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644)) >= 0;
		else if (op == OP_WRITE)
			ok = (fd = open(path, O_WRONLY | O_CLOEXEC)) >= 0 &&
			     write(fd, data, sizeof(data)) == (ssize_t)sizeof(data);
		else if (op == OP_STAT)
			ok = stat(path, &st) == 0 && (size += (uint64_t)st.st_size, 1);
		else if (op == OP_FSYNC)
			ok = (fd = open(path, O_WRONLY | O_CLOEXEC)) >= 0 && fsync(fd) == 0;
		else
			ok = unlink(path) == 0;
		if (fd >= 0)
			close(fd);
		if (!ok)
			return fail(r, files_ops[op], path);
	}
	r->v[op] = (double)(st_now_ns() - t0) / n / 1e3;
	if (op == OP_STAT)
		st_guard_checksum(size, (uint64_t)n * ST_FILES_BYTES, "the sizes stat saw",
				  r->refused[op], sizeof(r->refused[op]));
	return 0;
}

static int tree_file(const char *dir, unsigned int i, int create, struct st_grid_result *r)
{
	static const char data[1024] = { 'y' };
	char path[PATH_MAX];
	size_t len = 64 + (i * 37u) % 960u;
	int fd;

	snprintf(path, sizeof(path), "%s/d%04u", dir, i / TREE_DIR_FILES);
	if (i % TREE_DIR_FILES == 0 && create && mkdir(path, 0755) < 0)
		return fail(r, "mkdir", path);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/t%03u", i % TREE_DIR_FILES);
	if (!create)
		return unlink(path) == 0 ? 0 : fail(r, "unlink", path);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(r, "create", path);
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return fail(r, "write", path);
	}
	close(fd);
	return 0;
}

/* Unpacks the tree (timed), then removes it (not timed). */
static int tree(const char *dir, unsigned int n, struct st_grid_result *r)
{
	char path[PATH_MAX];
	uint64_t t0 = st_now_ns();

	for (unsigned int i = 0; i < n; i++)
		if (tree_file(dir, i, 1, r) < 0)
			return -1;
	r->v[OP_UNPACK] = (double)(st_now_ns() - t0) / n / 1e3;
	for (unsigned int i = 0; i < n; i++) {
		if (tree_file(dir, i, 0, r) < 0)
			return -1;
		snprintf(path, sizeof(path), "%s/d%04u", dir, i / TREE_DIR_FILES);
		if ((i + 1) % TREE_DIR_FILES == 0 || i + 1 == n)
			if (rmdir(path) < 0)
				return fail(r, "rmdir", path);
	}
	return 0;
}

static void pass(const struct st_bench_files *b, const char *dir, struct st_grid_result *r)
{
	char files[PATH_MAX], t[PATH_MAX];

	snprintf(files, sizeof(files), "%s/files", dir);
	snprintf(t, sizeof(t), "%s/tree", dir);
	if (mkdir(files, 0755) < 0 || mkdir(t, 0755) < 0) {
		fail(r, "mkdir in", dir);
		return;
	}
	for (int op = OP_CREATE; op <= OP_UNLINK; op++)
		if (file_loop(files, b->files, op, r) < 0)
			return;
	if (tree(t, b->tree_files, r) < 0)
		return;
	if (rmdir(files) < 0 || rmdir(t) < 0)
		fail(r, "rmdir in", dir);
}

/* A user and mount namespace of the child's own, whose mounts never reach the host. */
static int private_mounts(struct st_error *err)
{
	int ret = st_userns_enter(1, err);

	if (ret < 0)
		return ret;
	if (unshare(CLONE_NEWNS) < 0)
		return st_error_set(err, errno, "mount namespace");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return st_error_set(err, errno, "making / private");
	return 0;
}

static int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int a = 0, b = 0;

	return uname(&u) == 0 && sscanf(u.release, "%d.%d", &a, &b) == 2 &&
	       (a > major || (a == major && b >= minor));
}

static int mount_overlay(const char *disk, char *merged, size_t len, struct st_error *err)
{
	char tmp[PATH_MAX], opts[3 * PATH_MAX + 64];
	struct utsname u;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/ovl_tmp", disk);
	snprintf(merged, len, "%s/ovl_merged", disk);
	if (mount("tmpfs", tmp, "tmpfs", 0, "mode=0755") < 0)
		return st_error_set(err, errno, "tmpfs for overlayfs's upper");
	snprintf(opts, sizeof(opts), "%s/upper", tmp);
	if (mkdir(opts, 0755) < 0)
		return st_error_set(err, errno, "%s", opts);
	snprintf(opts, sizeof(opts), "%s/work", tmp);
	if (mkdir(opts, 0755) < 0)
		return st_error_set(err, errno, "%s", opts);
	snprintf(opts, sizeof(opts), "lowerdir=%s/ovl_lower,upperdir=%s/upper,workdir=%s/work", disk, tmp,
		 tmp);
	if (mount("overlay", merged, "overlay", 0, opts) == 0)
		return 0;
	ret = st_error_set(err, errno, "overlayfs in a user namespace");
	if (!kernel_at_least(5, 11) && uname(&u) == 0) {
		char hint[ST_ERROR_MSG_MAX];

		snprintf(hint, sizeof(hint), "overlayfs in a user namespace needs Linux 5.11 or later; this is %s",
			 u.release);
		st_error_hint(err, hint);
	}
	return ret;
}

static void sample(const struct st_bench_grid *g, size_t place, void *ctx, struct st_grid_result *r)
{
	const struct st_bench_files *b = ctx;
	char dir[PATH_MAX], src[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", place == P_TMPFS ? b->tmpfs_dir : b->disk_dir);
	if (place == P_BIND || place == P_OVERLAY) {
		if (private_mounts(&r->err) < 0) {
			r->failed = 1;
			return;
		}
	}
	if (place == P_BIND) {
		snprintf(src, sizeof(src), "%s/bind_src", b->disk_dir);
		snprintf(dir, sizeof(dir), "%s/bind_dst", b->disk_dir);
		if (mount(src, dir, NULL, MS_BIND, NULL) < 0) {
			r->failed = 1;
			st_error_set(&r->err, errno, "bind mount of %s", src);
			return;
		}
	}
	if (place == P_OVERLAY && mount_overlay(b->disk_dir, dir, sizeof(dir), &r->err) < 0) {
		r->failed = 1;
		return;
	}
	if (place == P_DISK)
		snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/plain");
	pass(b, dir, r);
}

static int is_memory(const char *dir)
{
	struct statfs s;

	return statfs(dir, &s) == 0 && (s.f_type == TMPFS_MAGIC || s.f_type == RAMFS_MAGIC);
}

static int scratch(char *dir, size_t len, const char *parent, struct st_error *err)
{
	snprintf(dir, len, "%s/sandboxtime-files-XXXXXX", parent);
	if (mkdtemp(dir))
		return 0;
	dir[0] = '\0';
	return st_error_set(err, errno, "bench files: a scratch directory in %s", parent);
}

/* The disk's directories: one per place, and overlayfs's lower with a file in it. */
static int disk_layout(const char *disk, struct st_error *err)
{
	static const char *const dirs[] = { "plain", "bind_src", "bind_dst", "ovl_lower", "ovl_tmp",
					    "ovl_merged" };
	char path[PATH_MAX];
	int fd;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", disk, dirs[i]);
		if (mkdir(path, 0755) < 0)
			return st_error_set(err, errno, "bench files: %s", path);
	}
	snprintf(path, sizeof(path), "%s/ovl_lower/lower_file", disk);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return st_error_set(err, errno, "bench files: %s", path);
	close(fd);
	return 0;
}

int st_bench_files_prepare(struct st_bench_files *b, unsigned int repeat, unsigned int files,
			   struct st_error *err)
{
	int ret;

	memset(b, 0, sizeof(*b));
	/* The default is --files' (src/cmd/cli_options.c). */
	if (files == 0)
		return st_error_set(err, EINVAL, "bench files: no files per pass");
	ret = st_grid_init(&b->g, "files", "us", repeat, files_places, ST_FILES_PLACES, files_ops,
			   ST_FILES_OPS, err);
	if (ret < 0)
		return ret;
	b->files = files;
	b->tree_files = b->files + b->files / 3;
	b->g.method = method;
	st_grid_set_config(&b->g, "files", b->files);
	st_grid_set_config(&b->g, "tree_files", b->tree_files);
	st_grid_set_config(&b->g, "bytes", ST_FILES_BYTES);
	st_grid_set_config(&b->g, "fsync_floor_us", ST_FILES_FSYNC_FLOOR_US);
	b->medium[P_TMPFS] = b->medium[P_OVERLAY] = ST_FILES_MEMORY;
	b->medium[P_DISK] = b->medium[P_BIND] = ST_FILES_DISK;
	ret = scratch(b->tmpfs_dir, sizeof(b->tmpfs_dir), "/dev/shm", err);
	if (ret == 0 && !is_memory(b->tmpfs_dir))
		snprintf(b->g.unavailable[P_TMPFS], sizeof(b->g.unavailable[P_TMPFS]),
			 "/dev/shm is not tmpfs here");
	if (ret == 0)
		ret = scratch(b->disk_dir, sizeof(b->disk_dir), "/var/tmp", err);
	if (ret == 0 && is_memory(b->disk_dir))
		for (int p = P_DISK; p <= P_BIND; p++)
			snprintf(b->g.unavailable[p], sizeof(b->g.unavailable[p]),
				 "/var/tmp is tmpfs here: there is no disk to measure");
	return ret == 0 ? disk_layout(b->disk_dir, err) : ret;
}

static void flag_fsync(struct st_bench_files *b)
{
	for (int p = 0; p < ST_FILES_PLACES; p++) {
		struct st_grid_cell *c = &b->g.cell[p][OP_FSYNC];
		double m = st_grid_median(&b->g, (size_t)p, OP_FSYNC);

		if (m >= 0)
			st_files_fsync_flag(b->medium[p], m, c->flag, sizeof(c->flag));
	}
}

static void summarize(struct st_bench_files *b)
{
	const struct st_bench_grid *g = &b->g;
	double ct = st_grid_median(g, P_TMPFS, OP_CREATE), cd = st_grid_median(g, P_DISK, OP_CREATE);
	double cb = st_grid_median(g, P_BIND, OP_CREATE), co = st_grid_median(g, P_OVERLAY, OP_CREATE);
	double ut = st_grid_median(g, P_TMPFS, OP_UNPACK), uo = st_grid_median(g, P_OVERLAY, OP_UNPACK);
	double fd = st_grid_median(g, P_DISK, OP_FSYNC);
	static const char not_shown[] =
		"not shown: reads from a cold cache, large files, and whether the disk really made the "
		"data durable (only the floor can cast doubt)";

	if (ct < 0 || cd < 0 || cb < 0 || co < 0 || ut < 0 || uo < 0 || fd < 0)
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine some places were unavailable or figures refused (NOTE says why); "
			 "the rest are us per operation; %s.", not_shown);
	else
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine creating a file took %.2f us on tmpfs, %.2f us on the disk, %.2f us "
			 "through a bind mount and %.2f us on overlayfs (%.2fx tmpfs, its upper); unpacking a tree "
			 "cost %.2f us per file on overlayfs against %.2f us on tmpfs, and an fsync on the "
			 "disk %.1f us%s; %s.",
			 ct, cd, cb, co, co / ct, uo, ut, fd,
			 fd < ST_FILES_FSYNC_FLOOR_US ? " (suspiciously fast)" : "", not_shown);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	/* Best effort: what cannot go is reported by nothing, and the rest still goes. */
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Only inside a directory this process made with mkdtemp: never anything else. */
static void remove_tree(char *dir)
{
	if (!dir[0])
		return;
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	dir[0] = '\0';
}

static void free_files(void *ctx)
{
	struct st_bench_files *b = ctx;

	remove_tree(b->tmpfs_dir);
	remove_tree(b->disk_dir);
}

static void finish(void *ctx)
{
	struct st_bench_files *b = ctx;

	flag_fsync(b);
	summarize(b);
}

const struct st_grid_bench st_bench_files_grid =
	ST_GRID_BENCH(struct st_bench_files, sample, finish, free_files);
