// SPDX-License-Identifier: MIT
/*
 * The cgroup layer's steps: make the sandbox's cgroup in each hierarchy
 * (cgroup_mkdir), write its limits (cgroup_limits), move the sandbox into
 * the v1 ones (cgroup_attach; the unified one it is born in) and remove it
 * all at the end (cgroup_rmdir). The plan is cgroup.c's.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/cgroup.h"
#include "sandboxtime/util.h"

/* Writes @value to the file @name of @dir; the error names both. */
static int put(const struct st_cgroup_dir *d, const char *name, const char *value,
	       struct st_error *err)
{
	char path[ST_CG_PATH_MAX + 64];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	ret = st_write_file(path, value);
	if (ret < 0)
		return st_error_set(err, -ret, "cgroup: writing '%s' to %s", value, path);
	return 0;
}

static void num(char *buf, size_t len, int64_t v, const char *unlimited)
{
	if (v < 0)
		snprintf(buf, len, "%s", unlimited);
	else
		snprintf(buf, len, "%lld", (long long)v);
}

static int put_memory(const struct st_cgroup_dir *d, const struct st_cgroup_limits *l,
		      struct st_error *err)
{
	char v[32];

	num(v, sizeof(v), l->memory, d->v2 ? "max" : "-1");
	return put(d, d->v2 ? "memory.max" : "memory.limit_in_bytes", v, err);
}

static int put_cpu(const struct st_cgroup_dir *d, const struct st_cgroup_limits *l,
		   struct st_error *err)
{
	char v[64], q[32];
	int ret = 0;

	if (d->v2) {
		if (l->cpu_quota || l->cpu_period) {
			num(q, sizeof(q), l->cpu_quota ? l->cpu_quota : -1, "max");
			snprintf(v, sizeof(v), "%s %llu", q, (unsigned long long)(l->cpu_period ? l->cpu_period : 100000));
			ret = put(d, "cpu.max", v, err);
		}
		snprintf(v, sizeof(v), "%llu", (unsigned long long)st_cgroup_shares_to_weight(l->cpu_shares));
		if (ret == 0 && l->cpu_shares)
			ret = put(d, "cpu.weight", v, err);
		return ret;
	}
	/* The period first: the kernel checks the quota against it. */
	snprintf(v, sizeof(v), "%llu", (unsigned long long)l->cpu_period);
	if (l->cpu_period)
		ret = put(d, "cpu.cfs_period_us", v, err);
	num(v, sizeof(v), l->cpu_quota, "-1");
	if (ret == 0 && l->cpu_quota)
		ret = put(d, "cpu.cfs_quota_us", v, err);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)l->cpu_shares);
	if (ret == 0 && l->cpu_shares)
		ret = put(d, "cpu.shares", v, err);
	return ret;
}

/* v1 devices.allow/devices.deny, one rule per write, in the config's order. */
static int put_devices(const struct st_cgroup_dir *d, const struct st_cgroup_limits *l, struct st_error *err)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < l->ndevices; i++) {
		const struct st_cg_device *r = &l->devices[i];
		char rule[64], major[24], minor[24];

		num(major, sizeof(major), r->major, "*");
		num(minor, sizeof(minor), r->minor, "*");
		snprintf(rule, sizeof(rule), "%c %s:%s %s", r->type, major, minor, r->access);
		ret = put(d, r->allow ? "devices.allow" : "devices.deny", rule, err);
	}
	return ret;
}

int st_cgroup_write_limits(struct st_cgroup *cg, struct st_error *err)
{
	const struct st_cgroup_limits *l = &cg->lim;
	char v[32];
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < cg->n; i++) {
		const struct st_cgroup_dir *d = &cg->dir[i];

		if ((d->ctrls & (1u << ST_CG_MEMORY)) && l->memory)
			ret = put_memory(d, l, err);
		num(v, sizeof(v), l->pids, "max");
		if (ret == 0 && (d->ctrls & (1u << ST_CG_PIDS)) && l->pids)
			ret = put(d, "pids.max", v, err);
		if (ret == 0 && (d->ctrls & (1u << ST_CG_CPU)))
			ret = put_cpu(d, l, err);
		if (ret == 0 && (d->ctrls & (1u << ST_CG_DEVICES)))
			ret = put_devices(d, l, err);
	}
	return ret;
}

static int has_limits(const struct st_cgroup_limits *l)
{
	return l->memory || l->pids || l->cpu_quota || l->cpu_period || l->cpu_shares || l->ndevices;
}

int st_cgroup_mkdirs(struct st_cgroup *cg, struct st_error *err)
{
	for (size_t i = 0; i < cg->n; i++) {
		struct st_cgroup_dir *d = &cg->dir[i];

		if (mkdir(d->path, 0755) < 0) {
			st_error_set(err, errno, "cgroup: mkdir %s", d->path);
			if (errno == EEXIST)
				st_error_hint(err, "another sandbox's, or one left by a killed sandboxtime: "
					      "sandboxtime cleanup removes those");
			return -err->errnum;
		}
		d->made = 1;
		if (d->v2 && cg->v2_fd < 0) {
			cg->v2_fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (cg->v2_fd < 0)
				return st_error_set(err, errno, "cgroup: opening %s", d->path);
		}
	}
	/* clone() has no room for CLONE_INTO_CGROUP: then the v2 one is joined like v1. */
	cg->into_clone = cg->v2_fd >= 0 && cg->clone3;
	return 0;
}

int st_cgroup_create(struct st_cgroup *cg, struct st_steps *steps, struct st_error *err)
{
	int ret = ST_TIMED_STEP(steps, err, "cgroup_mkdir", st_cgroup_mkdirs(cg, err));

	/* Untimed: a run that cannot leave its marker still runs (cleanup then misses it). */
	st_cgroup_marker_write(cg);
	if (ret == 0 && has_limits(&cg->lim))
		ret = ST_TIMED_STEP(steps, err, "cgroup_limits", st_cgroup_write_limits(cg, err));
	return ret;
}

int st_cgroup_move(struct st_cgroup *cg, pid_t pid, int all, struct st_error *err)
{
	char v[16];
	int ret = 0;

	snprintf(v, sizeof(v), "%d", (int)pid);
	for (size_t i = 0; ret == 0 && i < cg->n; i++)
		if (all || !(cg->dir[i].v2 && cg->into_clone))
			ret = put(&cg->dir[i], "cgroup.procs", v, err);
	return ret;
}

int st_cgroup_attach(struct st_cgroup *cg, pid_t pid, struct st_steps *steps, struct st_error *err)
{
	int needed = 0;

	for (size_t i = 0; i < cg->n; i++)
		needed |= !(cg->dir[i].v2 && cg->into_clone);
	if (!needed)
		return 0;
	return ST_TIMED_STEP(steps, err, "cgroup_attach", st_cgroup_move(cg, pid, 0, err));
}

/* SIGKILL to every pid that @dir's cgroup.procs lists: they are in our cgroup, so ours. */
static void kill_members(const char *dir)
{
	char path[ST_CG_PATH_MAX + 32];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%d", &pid) == 1)
		if (pid > 0)
			kill(pid, SIGKILL);
	fclose(f);
}

/*
 * rmdir, retried while the cgroup is still populated (EBUSY): a killed
 * task leaves it only once it has exited, so wait up to five seconds by the
 * clock (on a loaded machine a 1 ms sleep lasts much longer, and a count of
 * tries gave up while the task was still exiting).
 */
#define RMDIR_WAIT_NS (5 * 1000000000ull)

static int rmdir_one(const char *dir)
{
	struct timespec ms = { 0, 1000000 };
	uint64_t start = st_now_ns();

	for (;;) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		if (st_now_ns() - start > RMDIR_WAIT_NS)
			return -EBUSY;
		kill_members(dir);
		nanosleep(&ms, NULL);
	}
}

int st_cgroup_rmdir_tree(const char *path, struct st_error *err)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : st_error_set(err, errno, "cgroup: opening %s", path);
	/* A workload with rights over its cgroup may have made children in it. */
	while (ret == 0 && (e = readdir(d))) {
		char sub[ST_CG_PATH_MAX];

		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) >= sizeof(sub))
			continue;
		ret = st_cgroup_rmdir_tree(sub, err);
	}
	closedir(d);
	if (ret < 0)
		return ret;
	ret = rmdir_one(path);
	return ret < 0 ? st_error_set(err, -ret, "cgroup: rmdir %s", path) : 0;
}

int st_cgroup_rmdirs(struct st_cgroup *cg, struct st_error *err)
{
	int ret = 0;

	closep(&cg->v2_fd);
	for (size_t i = cg->n; i-- > 0;) {
		struct st_cgroup_dir *d = &cg->dir[i];
		int r;

		if (!d->made)
			continue;
		/* Each is tried, so that one that fails leaves only itself behind. */
		r = st_cgroup_rmdir_tree(d->path, ret < 0 ? &(struct st_error){ 0 } : err);
		if (r == 0)
			d->made = 0;
		else if (ret == 0)
			ret = r;
	}
	return ret;
}

int st_cgroup_remove(struct st_cgroup *cg, struct st_steps *steps, struct st_error *err)
{
	int made = 0, ret;

	for (size_t i = 0; i < cg->n; i++)
		made |= cg->dir[i].made;

	if (!made) {
		closep(&cg->v2_fd);
		return 0;
	}
	ret = ST_TIMED_STEP(steps, err, "cgroup_rmdir", st_cgroup_rmdirs(cg, err));
	/* Kept while anything it lists is left: cleanup finishes the job. */
	if (ret == 0)
		st_cgroup_marker_remove();
	return ret;
}
