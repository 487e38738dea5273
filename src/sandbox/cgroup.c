// SPDX-License-Identifier: MIT
/*
 * The cgroup layer's plan: which hierarchies this host has (v2, v1 or
 * hybrid), where the sandbox's cgroup goes in each, and whether we may make
 * it there. Pure reading of /proc; making and removing is cgroup_run.c.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

#define MAX_HIERS 16

static const char *const ctrl_names[ST_CG_NCTRL] = { "memory", "pids", "cpu", "devices" };

/* One mounted hierarchy and our own cgroup in it. */
struct hier {
	char mnt[256];  /* mount point */
	char root[256]; /* the hierarchy's path mounted there ("/" outside containers) */
	char own[ST_CG_PATH_MAX];
	unsigned int ctrls; /* v1: the controllers of ours it has */
	int v2, have_own;
};

int st_cgroup_path_check(const char *what, const char *path, int absolute, struct st_error *err)
{
	const char *dot;
	size_t len;

	if (!*path)
		return st_error_usage(err, "%s: empty cgroup path", what);
	if (absolute && path[0] != '/')
		return st_error_usage(err, "%s: '%s' must be an absolute cgroup path (/a/b)", what, path);
	if (strchr(path, ':'))
		return st_error_usage(err, "%s: '%s': systemd's slice:prefix:name form is not supported "
				      "(give a cgroup path, /a/b)", what, path);
	if (strlen(path) >= ST_CG_PATH_MAX / 2)
		return st_error_usage(err, "%s: cgroup path too long", what);
	dot = st_path_dot_component(path, &len);
	if (dot)
		return st_error_usage(err, "%s: '%s' has a '%.*s' component (it would leave "
				      "the parent cgroup)", what, path, (int)len, dot);
	return 0;
}

uint64_t st_cgroup_shares_to_weight(uint64_t shares)
{
	if (shares == 0)
		return 0;
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	/* runc's linear map: 2 -> 1, 1024 -> 39, 262144 -> 10000. */
	return 1 + ((shares - 2) * 9999) / 262142;
}

/* The controllers of ours in a v1 mount's super options ("rw,cpu,cpuacct"). */
static unsigned int v1_ctrls(const char *opts)
{
	char buf[256], *save = NULL;
	unsigned int m = 0;

	snprintf(buf, sizeof(buf), "%s", opts);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		for (int c = 0; c < ST_CG_NCTRL; c++)
			if (strcmp(t, ctrl_names[c]) == 0)
				m |= 1u << c;
	return m;
}

/* One mountinfo line: "36 25 0:32 ROOT MNT OPTS ... - FSTYPE SOURCE SUPER". */
static void read_mount(char *line, struct hier *h, size_t *n)
{
	char root[256], mnt[256], fstype[32], super[256];
	char *dash = strstr(line, " - ");
	unsigned int ctrls = 0;

	if (!dash || *n == MAX_HIERS ||
	    sscanf(line, "%*s %*s %*s %255s %255s", root, mnt) != 2 ||
	    sscanf(dash + 3, "%31s %*s %255s", fstype, super) != 2)
		return;
	if (strcmp(fstype, "cgroup") == 0) {
		ctrls = v1_ctrls(super);
		if (!ctrls)
			return;
	} else if (strcmp(fstype, "cgroup2") != 0) {
		return;
	}
	/* A hierarchy mounted twice is used once, where it was mounted first. */
	for (size_t i = 0; i < *n; i++)
		if (h[i].v2 == !ctrls && h[i].ctrls == ctrls)
			return;
	memset(&h[*n], 0, sizeof(h[*n]));
	snprintf(h[*n].mnt, sizeof(h[*n].mnt), "%s", mnt);
	snprintf(h[*n].root, sizeof(h[*n].root), "%s", root);
	h[*n].ctrls = ctrls;
	h[*n].v2 = !ctrls;
	(*n)++;
}

static int read_mounts(const char *mountinfo, struct hier *h, size_t *n, struct st_error *err)
{
	_cleanup_fclose_ FILE *f = fopen(mountinfo, "re");
	char line[1024];

	if (!f)
		return st_error_set(err, errno, "cgroup: reading %s", mountinfo);
	while (fgets(line, sizeof(line), f))
		read_mount(line, h, n);
	if (*n == 0)
		return st_error_set(err, ENOENT, "cgroup: no cgroup or cgroup2 hierarchy is mounted "
				    "(%s)", mountinfo);
	return 0;
}

/* /proc/self/cgroup: "4:memory:/a/b" for v1, "0::/a/b" for the unified one. */
static int read_own(const char *self_cgroup, struct hier *h, size_t n, struct st_error *err)
{
	_cleanup_fclose_ FILE *f = fopen(self_cgroup, "re");
	char line[ST_CG_PATH_MAX + 128];

	if (!f)
		return st_error_set(err, errno, "cgroup: reading %s", self_cgroup);
	while (fgets(line, sizeof(line), f)) {
		char *list = strchr(line, ':'), *path = list ? strchr(list + 1, ':') : NULL;
		unsigned int ctrls;

		if (!path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		ctrls = v1_ctrls(list + 1);
		for (size_t i = 0; i < n; i++) {
			if ((h[i].v2 && list[1] == '\0') || (!h[i].v2 && ctrls && ctrls == h[i].ctrls)) {
				snprintf(h[i].own, sizeof(h[i].own), "%s", path);
				h[i].have_own = 1;
			}
		}
	}
	return 0;
}

/* "/a" + "b" without a double slash. */
static void join(char *out, size_t len, const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 0 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	snprintf(out, len, "%.*s/%s", (int)la, a, b);
}

/* The sandbox's cgroup as a path of hierarchy @h, then as a directory under its mount. */
static int place(const struct st_cgroup_spec *spec, pid_t pid, const struct hier *h,
		 struct st_cgroup_dir *d, struct st_error *err)
{
	char name[32], target[ST_CG_PATH_MAX], fs[ST_CG_PATH_MAX + 256];
	const char *parent = spec->parent ? spec->parent : h->own;
	size_t lr = strlen(h->root);

	snprintf(name, sizeof(name), ST_CG_PREFIX "%d", (int)pid);
	if (spec->path && spec->path[0] == '/')
		snprintf(target, sizeof(target), "%s", spec->path);
	else
		join(target, sizeof(target), parent, spec->path ? spec->path : name);
	if (strcmp(h->root, "/") == 0)
		lr = 0;
	else if (strncmp(target, h->root, lr) != 0 || (target[lr] && target[lr] != '/'))
		return st_error_set(err, EACCES, "cgroup: %s is outside the part of the hierarchy "
				    "mounted at %s (%s)", target, h->mnt, h->root);
	join(fs, sizeof(fs), h->mnt, target + lr);
	if (strlen(fs) >= sizeof(d->path))
		return st_error_set(err, ENAMETOOLONG, "cgroup: %s", fs);
	memcpy(d->path, fs, strlen(fs) + 1);
	d->v2 = h->v2;
	d->ctrls = h->ctrls;
	return 0;
}

/* The parent must exist, and be ours to write in. */
static int check_parent(const char *dir, struct st_error *err)
{
	char parent[ST_CG_PATH_MAX];
	struct stat st;
	char *slash;

	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	if (stat(parent, &st) < 0)
		return st_error_set(err, errno, "cgroup: the parent cgroup %s", parent);
	if (access(parent, W_OK) < 0) {
		st_error_set(err, errno, "cgroup: %s is not writable by uid %u (no delegated cgroup)",
			     parent, (unsigned int)geteuid());
		st_error_hint(err, "run as root, or pass --cgroup=PARENT naming a cgroup delegated to "
			      "you, as systemd-run --user -p Delegate=yes makes");
		return -err->errnum;
	}
	return 0;
}

/* Whether the parent of @dir enables controller @c for its children (v2). */
static int v2_enabled(const char *dir, int c)
{
	char path[ST_CG_PATH_MAX + 32], buf[512], *save = NULL;
	char *slash;

	snprintf(path, sizeof(path), "%s", dir);
	slash = strrchr(path, '/');
	if (!slash)
		return 0;
	snprintf(slash, sizeof(path) - (size_t)(slash - path), "/cgroup.subtree_control");
	if (st_read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save))
		if (strcmp(t, ctrl_names[c]) == 0)
			return 1;
	return 0;
}

static unsigned int wanted_ctrls(const struct st_cgroup_limits *l)
{
	return (l->memory ? 1u << ST_CG_MEMORY : 0) | (l->pids ? 1u << ST_CG_PIDS : 0) |
	       (l->cpu_quota || l->cpu_period || l->cpu_shares ? 1u << ST_CG_CPU : 0) |
	       (l->ndevices ? 1u << ST_CG_DEVICES : 0);
}

/* Every limit needs its controller: a v1 hierarchy, else the unified one. */
static int assign_limits(struct st_cgroup *cg, struct st_error *err)
{
	unsigned int want = wanted_ctrls(&cg->lim), have = 0;
	struct st_cgroup_dir *v2 = NULL;

	for (size_t i = 0; i < cg->n; i++) {
		have |= cg->dir[i].ctrls;
		if (cg->dir[i].v2)
			v2 = &cg->dir[i];
	}
	for (int c = 0; c < ST_CG_NCTRL; c++) {
		if (!(want & (1u << c)) || (have & (1u << c)))
			continue;
		if (c == ST_CG_DEVICES)
			return st_error_set(err, EOPNOTSUPP, "cgroup: linux.resources.devices allows devices, which "
					    "needs the v1 devices controller here (cgroup v2 filters devices with a "
					    "BPF program, which sandboxtime does not load yet)");
		if (v2 && v2_enabled(v2->path, c)) {
			v2->ctrls |= 1u << c;
			continue;
		}
		return st_error_set(err, EOPNOTSUPP, "cgroup: the %s limit needs the %s controller, "
				    "which is neither a v1 hierarchy here nor enabled for the "
				    "children of %s%s (cgroup.subtree_control)", ctrl_names[c],
				    ctrl_names[c], v2 ? v2->path : "the unified hierarchy",
				    v2 ? "'s parent" : "");
	}
	return 0;
}

int st_cgroup_plan_at(const struct st_cgroup_spec *spec, pid_t pid, const char *mountinfo,
		      const char *self_cgroup, struct st_cgroup *cg, struct st_error *err)
{
	struct hier h[MAX_HIERS];
	size_t n = 0;
	int ret, v1 = 0, v2 = 0;

	memset(cg, 0, sizeof(*cg));
	cg->v2_fd = -1;
	cg->lim = spec->lim;
	ret = read_mounts(mountinfo, h, &n, err);
	if (ret == 0)
		ret = read_own(self_cgroup, h, n, err);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		/* Mounted, but not ours (a hierarchy of another namespace): left alone. */
		if (!h[i].have_own || cg->n == ST_CG_MAX_DIRS)
			continue;
		/* The devices hierarchy only for device rules (v1 mounts it alone). */
		if (h[i].ctrls == 1u << ST_CG_DEVICES && !spec->lim.ndevices)
			continue;
		ret = place(spec, pid, &h[i], &cg->dir[cg->n], err);
		if (ret == 0)
			ret = check_parent(cg->dir[cg->n].path, err);
		v2 |= h[i].v2;
		v1 |= !h[i].v2;
		cg->n++;
	}
	if (ret == 0 && cg->n == 0)
		ret = st_error_set(err, ENOENT, "cgroup: %s lists none of the mounted hierarchies", self_cgroup);
	if (ret == 0)
		ret = assign_limits(cg, err);
	cg->mode = v1 && v2 ? "hybrid" : v2 ? "v2" : "v1";
	if (ret < 0)
		cg->n = 0;
	return ret;
}

int st_cgroup_plan(const struct st_cgroup_spec *spec, struct st_cgroup *cg, struct st_error *err)
{
	int ret = st_cgroup_plan_at(spec, getpid(), "/proc/self/mountinfo", "/proc/self/cgroup", cg, err);

	cg->clone3 = strcmp(st_clone_call(), "clone3") == 0;
	return ret;
}

int st_cgroup_mounts(char (*mnt)[256], size_t max, size_t *n, struct st_error *err)
{
	struct hier h[MAX_HIERS];
	size_t nh = 0;
	int ret = read_mounts("/proc/self/mountinfo", h, &nh, err);

	*n = 0;
	for (size_t i = 0; ret == 0 && i < nh && *n < max; i++)
		snprintf(mnt[(*n)++], 256, "%s", h[i].mnt);
	return ret;
}
