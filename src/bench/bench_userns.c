// SPDX-License-Identifier: MIT
/*
 * bench userns: each place is a child that enters its depth of nested user
 * namespaces itself (unshare, then its own maps, as unshare -r does) and
 * times the calls in loops; every call's result is checked, so a loop the
 * compiler or a cache short-cut would show as a mismatch, not a figure.
 */
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandboxtime/bench_userns.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/util.h"

#define UNMAPPED_UID 4000000u /* root's unmapped owner: far above any range a system hands out */

enum { OP_STAT_M, OP_STAT_U, OP_OPEN_M, OP_OPEN_U, OP_ACCESS_M, OP_ACCESS_U, OP_CAPABLE };

static const char *const userns_places[ST_USERNS_PLACES] = { "host", "depth1", "depth2", "depth4",
							      "depth8", "depth16", "depth32" };
static const unsigned int userns_depths[ST_USERNS_PLACES] = { 0, 1, 2, 4, 8, 16, 32 };
static const char *const userns_ops[ST_USERNS_OPS] = {
	[OP_STAT_M] = "stat_mapped",	 [OP_STAT_U] = "stat_unmapped",
	[OP_OPEN_M] = "open_mapped",	 [OP_OPEN_U] = "open_unmapped",
	[OP_ACCESS_M] = "access_mapped", [OP_ACCESS_U] = "access_unmapped",
	[OP_CAPABLE] = "capable_swapoff",
};

static const char method[] =
	"Each place is a child that entered that many nested user namespaces (unshare(CLONE_NEWUSER), "
	"then its own uid_map and gid_map mapping the caller to root, setgroups denied); in rounds "
	"across places after one unrecorded round it timed loops of stat, open+close (O_RDONLY) and "
	"access(R_OK) on a file of its own (mapped) and on a world-readable file of an id no namespace "
	"maps, and swapoff(\"\"), which checks capable(CAP_SYS_ADMIN) before its argument. Every "
	"call's result is checked: the owner stat shows (the overflow id when unmapped), success of "
	"open and access, the same errno from swapoff, EPERM in any namespace.";

int st_userns_enter(unsigned int depth, struct st_error *err)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char map[64];

	for (unsigned int i = 0; i < depth; i++) {
		int ret;

		if (unshare(CLONE_NEWUSER) < 0) {
			ret = st_error_set(err, errno, "user namespace at depth %u", i + 1);
			/* ENOSPC is also the nesting limit (EUSERS before Linux 4.9). */
			if (ret == -ENOSPC || ret == -EUSERS)
				st_error_hint(err, "more than 32 nested user namespaces, the kernel's limit (this "
					      "process may already be nested), or user.max_user_namespaces is reached");
			else
				st_layer_hint_here(err, -ret, ST_LAYER_USER);
			return ret;
		}
		snprintf(map, sizeof(map), "0 %u 1", (unsigned int)uid);
		ret = st_write_file("/proc/self/setgroups", "deny");
		if (ret == 0)
			ret = st_write_file("/proc/self/uid_map", map);
		snprintf(map, sizeof(map), "0 %u 1", (unsigned int)gid);
		if (ret == 0)
			ret = st_write_file("/proc/self/gid_map", map);
		if (ret < 0)
			return st_error_set(err, -ret, "user namespace at depth %u: writing its own maps", i + 1);
		uid = 0;
		gid = 0;
	}
	return 0;
}

static uid_t read_overflow_uid(void)
{
	char buf[32];

	if (st_read_file("/proc/sys/kernel/overflowuid", buf, sizeof(buf)) < 0)
		return 65534;
	return (uid_t)strtoul(buf, NULL, 10);
}

/* As root, a file of our own chowned away; rootless, a file of root's that all can read. */
static int make_files(struct st_bench_userns *b, struct st_error *err)
{
	static const char *const roots[] = { "/etc/passwd", "/etc/hostname", "/bin/sh" };
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	int fd;

	/* $TMPDIR, else /tmp: a TMPDIR this user cannot write is not a reason to fail. */
	snprintf(b->dir, sizeof(b->dir), "%s/sandboxtime-userns-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(b->dir)) {
		snprintf(b->dir, sizeof(b->dir), "/tmp/sandboxtime-userns-XXXXXX");
		if (!mkdtemp(b->dir)) {
			b->dir[0] = '\0';
			return st_error_set(err, errno, "bench userns: a scratch directory in /tmp");
		}
	}
	chmod(b->dir, 0755);
	snprintf(b->mapped, sizeof(b->mapped), "%s/mapped", b->dir);
	fd = open(b->mapped, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return st_error_set(err, errno, "bench userns: %s", b->mapped);
	close(fd);
	if (geteuid() == 0) {
		snprintf(b->unmapped, sizeof(b->unmapped), "%s/unmapped", b->dir);
		fd = open(b->unmapped, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return st_error_set(err, errno, "bench userns: %s", b->unmapped);
		/* Root of a user namespace cannot give a file an id it does not map: EINVAL. */
		if (fchown(fd, UNMAPPED_UID, UNMAPPED_UID) == 0) {
			close(fd);
			b->unmapped_uid = UNMAPPED_UID;
			return 0;
		}
		close(fd);
		unlink(b->unmapped);
		b->unmapped[0] = '\0';
	}
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++)
		if (stat(roots[i], &st) == 0 && st.st_uid != geteuid() && (st.st_mode & S_IROTH) &&
		    S_ISREG(st.st_mode)) {
			snprintf(b->unmapped, sizeof(b->unmapped), "%s", roots[i]);
			b->unmapped_uid = st.st_uid;
			return 0;
		}
	return st_error_set(err, ENOENT, "bench userns: no world-readable file of another id (/etc/passwd, ...)");
}

struct loop {
	uint64_t ns;
	unsigned int good;
	int errnum;
};

static struct loop loop_stat(const char *path, unsigned int n, uid_t want)
{
	struct loop l = { 0 };
	struct stat st;
	uint64_t t0 = st_now_ns();

	for (unsigned int i = 0; i < n; i++)
		l.good += stat(path, &st) == 0 && st.st_uid == want;
	l.ns = st_now_ns() - t0;
	return l;
}

static struct loop loop_open(const char *path, unsigned int n)
{
	struct loop l = { 0 };
	uint64_t t0 = st_now_ns();

	for (unsigned int i = 0; i < n; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		l.good += fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	l.ns = st_now_ns() - t0;
	return l;
}

static struct loop loop_access(const char *path, unsigned int n)
{
	struct loop l = { 0 };
	uint64_t t0 = st_now_ns();

	for (unsigned int i = 0; i < n; i++)
		l.good += access(path, R_OK) == 0;
	l.ns = st_now_ns() - t0;
	return l;
}

/* swapoff(""): capable(CAP_SYS_ADMIN) first; past it, "" is ENOENT. Nothing is ever swapped off. */
static struct loop loop_capable(unsigned int n)
{
	struct loop l = { 0 };
	uint64_t t0;

	syscall(SYS_swapoff, "");
	l.errnum = errno;
	t0 = st_now_ns();
	for (unsigned int i = 0; i < n; i++)
		l.good += syscall(SYS_swapoff, "") < 0 && errno == l.errnum;
	l.ns = st_now_ns() - t0;
	return l;
}

static void put(struct st_grid_result *r, int op, struct loop l, unsigned int n)
{
	r->v[op] = (double)l.ns / n;
	st_guard_checksum(l.good, n, userns_ops[op], r->refused[op], sizeof(r->refused[op]));
}

static void sample(const struct st_bench_grid *g, size_t place, void *ctx, struct st_grid_result *r)
{
	const struct st_bench_userns *b = ctx;
	unsigned int depth = b->depth[place], n = b->calls;
	uid_t mapped = depth ? 0 : geteuid(), unmapped = depth ? b->overflow_uid : b->unmapped_uid;
	struct loop cap;

	if (st_userns_enter(depth, &r->err) < 0) {
		r->failed = 1;
		return;
	}
	put(r, OP_STAT_M, loop_stat(b->mapped, n, mapped), n);
	put(r, OP_STAT_U, loop_stat(b->unmapped, n, unmapped), n);
	put(r, OP_OPEN_M, loop_open(b->mapped, n), n);
	put(r, OP_OPEN_U, loop_open(b->unmapped, n), n);
	put(r, OP_ACCESS_M, loop_access(b->mapped, n), n);
	put(r, OP_ACCESS_U, loop_access(b->unmapped, n), n);
	cap = loop_capable(n);
	put(r, OP_CAPABLE, cap, n);
	if (depth && cap.errnum != EPERM)
		snprintf(r->refused[OP_CAPABLE], sizeof(r->refused[OP_CAPABLE]),
			 "impossible: capable(CAP_SYS_ADMIN) passed inside a user namespace (%s)",
			 strerror(cap.errnum));
	snprintf(r->flag[OP_CAPABLE], sizeof(r->flag[OP_CAPABLE]), "%s",
		 cap.errnum == EPERM ? "refused (EPERM)" : "granted (then ENOENT)");
}

int st_bench_userns_prepare(struct st_bench_userns *b, unsigned int repeat, unsigned int calls,
			    struct st_error *err)
{
	int ret;

	memset(b, 0, sizeof(*b));
	ret = st_grid_init(&b->g, "userns", "ns", repeat, userns_places, ST_USERNS_PLACES, userns_ops,
			   ST_USERNS_OPS, err);
	if (ret < 0)
		return ret;
	memcpy(b->depth, userns_depths, sizeof(b->depth));
	b->calls = calls ? calls : ST_USERNS_CALLS;
	b->overflow_uid = read_overflow_uid();
	b->g.method = method;
	st_grid_set_config(&b->g, "calls", b->calls);
	return make_files(b, err);
}

static void summarize(void *ctx)
{
	struct st_bench_userns *b = ctx;
	const struct st_bench_grid *g = &b->g;
	double h = st_grid_median(g, 0, OP_STAT_M), d1 = st_grid_median(g, 1, OP_STAT_M);
	double d32 = st_grid_median(g, ST_USERNS_PLACES - 1, OP_STAT_M);
	double u1 = st_grid_median(g, 1, OP_STAT_U);

	if (h < 0 || d1 < 0 || d32 < 0 || u1 < 0)
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine some places were unavailable or figures refused (NOTE says why); "
			 "the rest are ns per call; not shown: the cost of creating the namespaces, "
			 "and calls that map ids in bulk (getgroups, credentials of other tasks).");
	else
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine stat() of a mapped file took %.0f ns on the host, %.0f ns in a "
			 "user namespace and %.0f ns 32 namespaces deep (%+.2f ns per level), and %.0f ns "
			 "for an unmapped owner at depth 1: the kernel maps ids through the current "
			 "namespace's own table, not up the chain; not shown: the cost of creating the "
			 "namespaces, and calls that map ids in bulk (getgroups, other tasks' credentials).",
			 h, d1, d32, (d32 - d1) / 31, u1);
}

static void free_userns(void *ctx)
{
	struct st_bench_userns *b = ctx;

	if (b->dir[0]) {
		if (b->unmapped[0] && strncmp(b->unmapped, b->dir, strlen(b->dir)) == 0)
			unlink(b->unmapped);
		unlink(b->mapped);
		rmdir(b->dir);
		b->dir[0] = '\0';
	}
}

const struct st_grid_bench st_bench_userns_grid =
	ST_GRID_BENCH(struct st_bench_userns, sample, summarize, free_userns);
