// SPDX-License-Identifier: MIT
/*
 * bench mounts (bench_mounts.h). Each place and round is two processes: the
 * grid's child enters a lab user namespace of its own and starts the drain
 * prober there (userns_count.h); its measuring child enters a user and a
 * mount namespace below it, builds the place's parent state, times the
 * calls and sends the figures back. Everything the measuring child made is
 * owned by its user namespace, which the kernel frees only after all of it,
 * so once the lab counts no user namespace, the last place's network
 * namespaces (freed by cleanup_net in a work queue, a thousand at a time
 * after bg-1000) are gone and cannot weigh on the next place.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/bench_churn.h"
#include "sandboxtime/bench_mounts.h"
#include "sandboxtime/bench_userns.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/host.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/userns_count.h"
#include "sandboxtime/util.h"

#define MAX_USER_NS "/proc/sys/user/max_user_namespaces"
/* The bench's own tmpfs, over /tmp in its private mount namespace: no one else sees it. */
#define SCRATCH "/tmp"
#define SOURCE SCRATCH "/src"
#define FD_MARGIN 32u /* descriptors besides the background's two each */

enum { OP_MOUNT_NS, OP_MOUNT_NS_FREE, OP_NET_NS };

static const char *const mounts_ops[ST_MOUNTS_OPS] = {
	[OP_MOUNT_NS] = "mount_ns",
	[OP_MOUNT_NS_FREE] = "mount_ns_free",
	[OP_NET_NS] = "net_ns",
};


static const char method[] =
	"Each place is a parent state built by the bench in a user and mount namespace of its own "
	"(everything private first): base is the host's mount table as it is; private-N adds a tmpfs "
	"and N bind mounts of a second tmpfs; shared-N the same with that tmpfs shared, so every bind "
	"joins its peer group; bg-N holds N idle sandboxes open (each a mount and a network namespace, "
	"kept by its namespace files, no process). In rounds across places after one unrecorded "
	"round, each place's child timed 3 calls of each operation and reports their mean: "
	"unshare(CLONE_NEWNS), the copy (checked: it holds as many mounts as its parent); setns() "
	"back to the parent, which drops the copy's last reference, so its mounts are torn down "
	"before the call returns; unshare(CLONE_NEWNET) (its free is later, untimed). Between "
	"places the lab waits until the kernel has freed every namespace of the last one (the count "
	"of user namespaces, read through the kernel's limit check), then two RCU grace periods.";

/* Lines of /proc/self/mountinfo: the mounts of this mount namespace. */
static int count_mounts(unsigned int *out)
{
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	char buf[65536];
	unsigned int n = 0;
	ssize_t got;

	if (fd < 0)
		return -errno;
	while ((got = TEMP_FAILURE_RETRY(read(fd, buf, sizeof(buf)))) > 0)
		for (ssize_t i = 0; i < got; i++)
			n += buf[i] == '\n';
	if (got < 0)
		return -errno;
	*out = n;
	return 0;
}

static int fail(struct st_grid_result *r, int errnum, const char *what)
{
	r->failed = 1;
	return st_error_set(&r->err, errnum, "bench mounts: %s", what);
}

/* The place's mounts: a tmpfs over SCRATCH, a second one at SOURCE, N binds of it. */
static int build_table(const struct st_mounts_place *pl, struct st_grid_result *r)
{
	unsigned int before, after;
	char path[64];

	if (pl->mounts == 0)
		return 0;
	if (count_mounts(&before) < 0)
		return fail(r, errno, "reading /proc/self/mountinfo");
	if (mount("sandboxtime-mounts", SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m") < 0 ||
	    mkdir(SOURCE, 0755) < 0 ||
	    mount("sandboxtime-source", SOURCE, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k") < 0)
		return fail(r, errno, "a tmpfs for the bind mounts");
	/* SCRATCH stays private: a mount on it propagates nowhere, so the group grows by one per bind. */
	if (pl->propagation == ST_MOUNTS_SHARED && mount(NULL, SOURCE, NULL, MS_SHARED, NULL) < 0)
		return fail(r, errno, "making the bind mounts' source shared");
	for (unsigned int i = 0; i < pl->mounts; i++) {
		snprintf(path, sizeof(path), SCRATCH "/m%u", i);
		if (mkdir(path, 0755) < 0 || mount(SOURCE, path, NULL, MS_BIND, NULL) < 0) {
			snprintf(path, sizeof(path), "bind mount %u of %u", i + 1, pl->mounts);
			if (errno == ENOSPC)
				st_error_hint(&r->err, "fs.mount-max is lower than the table: raise it or lower --mounts");
			return fail(r, errno, path);
		}
	}
	if (count_mounts(&after) < 0)
		return fail(r, errno, "reading /proc/self/mountinfo");
	if (after != before + 2 + pl->mounts) {
		r->failed = 1;
		return st_error_set(&r->err, EPROTO,
				    "bench mounts: the table holds %u mounts after adding %u to %u",
				    after, pl->mounts + 2, before);
	}
	return 0;
}

/* @n idle sandboxes: a mount and a network namespace each, kept by their files in @fds. */
static int hold_background(unsigned int n, int mnt0, int net0, int *fds, struct st_grid_result *r)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 2ull * n + FD_MARGIN) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (unsigned int i = 0; i < n; i++) {
		if (unshare(CLONE_NEWNS | CLONE_NEWNET) < 0) {
			st_layer_hint_here(&r->err, errno, ST_LAYER_NET);
			return fail(r, errno, "an idle sandbox (mount and network namespace)");
		}
		fds[2 * i] = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
		fds[2 * i + 1] = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (fds[2 * i] < 0 || fds[2 * i + 1] < 0)
			return fail(r, errno, "holding an idle sandbox's namespace files");
		if (setns(mnt0, CLONE_NEWNS) < 0 || setns(net0, CLONE_NEWNET) < 0)
			return fail(r, errno, "setns() back from an idle sandbox");
	}
	return 0;
}

static ino_t ns_ino(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_ino : 0;
}

struct timing {
	uint64_t ns[ST_MOUNTS_OPS];
	unsigned int good[ST_MOUNTS_OPS];
};

/* One call of each operation from the parent state; the checks are untimed. */
static int time_calls(int mnt0, int net0, unsigned int parent_mounts, struct timing *t,
		      struct st_grid_result *r)
{
	ino_t m0 = ns_ino("/proc/self/ns/mnt"), n0 = ns_ino("/proc/self/ns/net");
	unsigned int copied = 0;
	uint64_t a, b;

	a = st_now_ns();
	if (unshare(CLONE_NEWNS) < 0)
		return fail(r, errno, "unshare(CLONE_NEWNS)");
	t->ns[OP_MOUNT_NS] += st_now_ns() - a;
	t->good[OP_MOUNT_NS] += count_mounts(&copied) == 0 && copied == parent_mounts;
	a = st_now_ns();
	if (setns(mnt0, CLONE_NEWNS) < 0)
		return fail(r, errno, "setns() back to the parent mount namespace");
	t->ns[OP_MOUNT_NS_FREE] += st_now_ns() - a;
	t->good[OP_MOUNT_NS_FREE] += ns_ino("/proc/self/ns/mnt") == m0;
	a = st_now_ns();
	if (unshare(CLONE_NEWNET) < 0) {
		st_layer_hint_here(&r->err, errno, ST_LAYER_NET);
		return fail(r, errno, "unshare(CLONE_NEWNET)");
	}
	b = st_now_ns();
	t->ns[OP_NET_NS] += b - a;
	t->good[OP_NET_NS] += ns_ino("/proc/self/ns/net") != n0;
	if (setns(net0, CLONE_NEWNET) < 0)
		return fail(r, errno, "setns() back to the parent network namespace");
	return 0;
}

/* The measuring child: builds @pl's state below the lab and times the calls. */
static void measure_place(void *arg, struct st_grid_result *r)
{
	const struct st_mounts_place *pl = arg;
	_cleanup_close_ int mnt0 = -1, net0 = -1;
	_cleanup_free_ int *fds = NULL;
	struct timing t = { 0 };
	unsigned int parent = 0;

	if (st_userns_enter(1, &r->err) < 0) {
		r->failed = 1;
		return;
	}
	/* A network namespace of its own too: setns() back needs its owner to be ours. */
	if (unshare(CLONE_NEWNS | CLONE_NEWNET) < 0) {
		st_layer_hint_here(&r->err, errno, ST_LAYER_MOUNT);
		fail(r, errno, "a mount and network namespace of its own");
		return;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		fail(r, errno, "making its mount namespace private");
		return;
	}
	fds = calloc(2 * (size_t)pl->background + 1, sizeof(*fds));
	if (!fds) {
		fail(r, ENOMEM, "the idle sandboxes' descriptors");
		return;
	}
	mnt0 = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	net0 = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (mnt0 < 0 || net0 < 0) {
		fail(r, errno, "opening its own namespace files");
		return;
	}
	if (build_table(pl, r) < 0 || hold_background(pl->background, mnt0, net0, fds, r) < 0)
		return;
	if (count_mounts(&parent) < 0) {
		fail(r, errno, "reading /proc/self/mountinfo");
		return;
	}
	for (unsigned int i = 0; i < ST_MOUNTS_CALLS; i++)
		if (time_calls(mnt0, net0, parent, &t, r) < 0)
			return;
	for (int op = 0; op < ST_MOUNTS_OPS; op++) {
		r->v[op] = (double)t.ns[op] / ST_MOUNTS_CALLS / 1000.0;
		st_guard_checksum(t.good[op], ST_MOUNTS_CALLS, mounts_ops[op], r->refused[op],
				  sizeof(r->refused[op]));
	}
	/* The background's files close with the process: the lab's drain waits for their frees. */
}

static int read_limit(const char *path, uint64_t *out, struct st_error *err)
{
	char buf[64];
	int ret = st_read_file(path, buf, sizeof(buf));

	if (ret < 0)
		return st_error_set(err, -ret, "bench mounts: reading %s", path);
	buf[strcspn(buf, "\n")] = '\0';
	return st_parse_uint(path, buf, 0, UINT64_MAX, out, err);
}

/* The grid's child: a lab user namespace, the measuring child in it, then the drain. */
static void sample(const struct st_bench_grid *g, size_t place, void *ctx, struct st_grid_result *r)
{
	struct st_bench_mounts *b = ctx;
	struct st_userns_prober prober = { .pid = -1, .req_wr = -1, .res_rd = -1, .limit_fd = -1 };
	struct st_error err;
	char what[64];
	uint64_t restore = 0;
	int settled_by, ret;

	(void)g;
	ret = st_userns_enter(1, &err);
	if (ret == 0)
		ret = read_limit(MAX_USER_NS, &restore, &err);
	if (ret == 0)
		ret = st_userns_prober_start(&prober, &err);
	snprintf(what, sizeof(what), "bench mounts: %s", b->place[place].name);
	if (ret == 0)
		ret = st_grid_in_child(what, measure_place, &b->place[place], r, &err);
	if (ret == 0)
		ret = st_userns_drain(&prober, restore, ST_MOUNTS_DRAIN_TIMEOUT_NS, &settled_by, &err);
	st_userns_prober_stop(&prober);
	if (ret < 0 && !r->failed) {
		r->failed = 1;
		r->err = err;
	}
}

/* The places: base, then private-N and shared-N for each count, then bg-N. */
static int make_places(struct st_bench_mounts *b, const unsigned int *counts, size_t ncounts,
		       const unsigned int *background, size_t nbackground, struct st_error *err)
{
	size_t n = 0;

	b->place[n++] = (struct st_mounts_place){ .name = "base" };
	for (size_t i = 0; i < ncounts; i++)
		for (int p = ST_MOUNTS_PRIVATE; p <= ST_MOUNTS_SHARED; p++) {
			struct st_mounts_place *pl = &b->place[n++];

			*pl = (struct st_mounts_place){ .mounts = counts[i], .propagation = p };
			snprintf(pl->name, sizeof(pl->name), "%s-%u", p == ST_MOUNTS_SHARED ? "shared" : "private",
				 counts[i]);
		}
	for (size_t i = 0; i < nbackground; i++) {
		struct st_mounts_place *pl;

		if (background[i] == 0) /* base is that */
			continue;
		if (background[i] > b->max_alive)
			return st_error_set(err, EINVAL,
					    "bench mounts: --background=%u is more than --max-alive=%u sandboxes alive: raise --max-alive or lower --background",
					    background[i], b->max_alive);
		pl = &b->place[n++];
		*pl = (struct st_mounts_place){ .background = background[i] };
		snprintf(pl->name, sizeof(pl->name), "bg-%u", background[i]);
	}
	return (int)n;
}

/* The largest place against the machine's limits, with the numbers. */
static int check_limits(const struct st_bench_mounts *b, size_t nplaces, struct st_error *err)
{
	unsigned int most_mounts = 0, most_bg = 0;
	uint64_t max_mnt = UINT64_MAX, max_net = UINT64_MAX, mount_max = UINT64_MAX, avail_mb, need_mb;
	struct rlimit rl;
	int ret = 0;

	for (size_t i = 0; i < nplaces; i++) {
		most_mounts = b->place[i].mounts > most_mounts ? b->place[i].mounts : most_mounts;
		most_bg = b->place[i].background > most_bg ? b->place[i].background : most_bg;
	}
	/* A missing file: a kernel without the limit, which the calls themselves would report. */
	if (access("/proc/sys/user/max_mnt_namespaces", F_OK) == 0)
		ret = read_limit("/proc/sys/user/max_mnt_namespaces", &max_mnt, err);
	if (ret == 0 && access("/proc/sys/user/max_net_namespaces", F_OK) == 0)
		ret = read_limit("/proc/sys/user/max_net_namespaces", &max_net, err);
	if (ret == 0 && access("/proc/sys/fs/mount-max", F_OK) == 0)
		ret = read_limit("/proc/sys/fs/mount-max", &mount_max, err);
	if (ret < 0)
		return ret;
	/* The bench's own namespaces and the measured copy come on top of the background. */
	if (max_mnt < most_bg + 4ull || max_net < most_bg + 4ull)
		return st_error_set(err, ENOSPC,
				    "bench mounts: --background=%u needs %u mount and network namespaces, /proc/sys/user/max_mnt_namespaces is %llu and max_net_namespaces %llu: lower --background",
				    most_bg, most_bg + 4, (unsigned long long)max_mnt,
				    (unsigned long long)max_net);
	if (mount_max < (uint64_t)b->host_mounts + most_mounts + 2)
		return st_error_set(err, ENOSPC,
				    "bench mounts: --mounts=%u makes a table of %u mounts, /proc/sys/fs/mount-max is %llu: lower --mounts",
				    most_mounts, b->host_mounts + most_mounts + 2,
				    (unsigned long long)mount_max);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max < 2ull * most_bg + FD_MARGIN)
		return st_error_set(err, EMFILE,
				    "bench mounts: --background=%u holds %u namespace files, the hard RLIMIT_NOFILE is %llu: lower --background or raise the limit (ulimit -Hn)",
				    most_bg, 2 * most_bg, (unsigned long long)rl.rlim_max);
	ret = st_host_mem_available_mb(&avail_mb, err);
	if (ret < 0)
		return st_error_wrap(err, "bench mounts");
	need_mb = (uint64_t)most_bg * (ST_CHURN_NET_KB + ST_CHURN_NS_KB) / 1024 + ST_CHURN_MARGIN_MB;
	if (need_mb > avail_mb)
		return st_error_set(err, ENOMEM,
				    "bench mounts: --background=%u may hold %llu MB, MemAvailable is %llu MB: lower --background",
				    most_bg, (unsigned long long)need_mb, (unsigned long long)avail_mb);
	return 0;
}

int st_bench_mounts_prepare(struct st_bench_mounts *b, unsigned int repeat,
			    const unsigned int *counts, size_t ncounts, const unsigned int *background,
			    size_t nbackground, unsigned int max_alive, struct st_error *err)
{
	const char *names[ST_GRID_MAX_PLACES];
	int n, ret;

	memset(b, 0, sizeof(*b));
	/* The defaults are --mounts' and --background's (src/cmd/cli_options.c). */
	if (ncounts == 0 || nbackground == 0)
		return st_error_set(err, EINVAL, "bench mounts: no --mounts or no --background values");
	if (ncounts > ST_MOUNTS_MAX_COUNTS || nbackground > ST_MOUNTS_MAX_BACKGROUND)
		return st_error_set(err, EINVAL, "bench mounts: at most %d --mounts and %d --background values",
				    ST_MOUNTS_MAX_COUNTS, ST_MOUNTS_MAX_BACKGROUND);
	b->max_alive = max_alive;
	n = make_places(b, counts, ncounts, background, nbackground, err);
	if (n < 0)
		return n;
	ret = count_mounts(&b->host_mounts);
	if (ret < 0)
		return st_error_set(err, -ret, "bench mounts: reading /proc/self/mountinfo");
	ret = check_limits(b, (size_t)n, err);
	if (ret < 0)
		return ret;
	for (int i = 0; i < n; i++)
		names[i] = b->place[i].name;
	ret = st_grid_init(&b->g, "mounts", "us", repeat, names, (size_t)n, mounts_ops, ST_MOUNTS_OPS,
			   err);
	if (ret < 0)
		return ret;
	/* The grid keeps the pointers: the names live in b->place, not on this stack. */
	b->g.method = method;
	st_grid_set_config(&b->g, "host_mounts", b->host_mounts);
	st_grid_set_config(&b->g, "calls_per_round", ST_MOUNTS_CALLS);
	st_grid_set_config(&b->g, "max_alive", b->max_alive);
	return 0;
}

/* The place that is private-N (@shared 0) or shared-N for the largest N, or -1. */
static int largest(const struct st_bench_mounts *b, enum st_mounts_propagation p)
{
	int best = -1;

	for (size_t i = 1; i < b->g.nplaces; i++)
		if (b->place[i].mounts && b->place[i].propagation == p &&
		    (best < 0 || b->place[i].mounts > b->place[best].mounts))
			best = (int)i;
	return best;
}

static int most_background(const struct st_bench_mounts *b)
{
	int best = -1;

	for (size_t i = 1; i < b->g.nplaces; i++)
		if (b->place[i].background && (best < 0 || b->place[i].background > b->place[best].background))
			best = (int)i;
	return best;
}

static void summarize(void *ctx)
{
	struct st_bench_mounts *b = ctx;
	const struct st_bench_grid *g = &b->g;
	int pv = largest(b, ST_MOUNTS_PRIVATE), sh = largest(b, ST_MOUNTS_SHARED), bg = most_background(b);
	double base = st_grid_median(g, 0, OP_MOUNT_NS), net0 = st_grid_median(g, 0, OP_NET_NS);
	double cp = pv < 0 ? -1 : st_grid_median(g, (size_t)pv, OP_MOUNT_NS);
	double cs = sh < 0 ? -1 : st_grid_median(g, (size_t)sh, OP_MOUNT_NS);
	double fp = pv < 0 ? -1 : st_grid_median(g, (size_t)pv, OP_MOUNT_NS_FREE);
	double nb = bg < 0 ? -1 : st_grid_median(g, (size_t)bg, OP_NET_NS);
	double mb = bg < 0 ? -1 : st_grid_median(g, (size_t)bg, OP_MOUNT_NS);
	const char *tail = "not shown: mount events propagating into the copies (nothing is "
			   "mounted while they live), and the RCU-deferred frees after setns() returns.";

	if (base < 0 || cp < 0 || cs < 0 || fp < 0 || nb < 0 || mb < 0 || net0 <= 0) {
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine some places were unavailable or figures refused (NOTE says "
			 "why); the rest are microseconds per call; %s", tail);
		return;
	}
	snprintf(b->g.summary, sizeof(b->g.summary),
		 "On this machine a new mount namespace copying the host's %u mounts took %.0f us; "
		 "with %u more it took %.0f us private (%.2f us per mount) and %.0f us shared (%.2fx), "
		 "and its teardown %.0f us; with %u idle sandboxes alive a mount namespace took %.0f us "
		 "and a network namespace %.0f us (%.2fx its base); %s",
		 b->host_mounts, base, b->place[pv].mounts, cp, (cp - base) / b->place[pv].mounts, cs,
		 cs / cp, fp, b->place[bg].background, mb, nb, nb / net0, tail);
}

const struct st_grid_bench st_bench_mounts_grid =
	ST_GRID_BENCH(struct st_bench_mounts, sample, summarize, NULL);
