// SPDX-License-Identifier: MIT
/*
 * The state marker of a cgroup whose name does not say it is ours
 * (linux.cgroupsPath: the bundle names it): a file named for the pid of
 * the sandboxtime that made it, one directory per line, in a directory only
 * its user can write (/run/sandboxtime/cgroups as root, else
 * $XDG_RUNTIME_DIR/sandboxtime/cgroups). Written after the directories are
 * made and removed with them; a sandboxtime killed before its teardown
 * leaves it, and `cleanup` (cgroup_leftover.c) removes what it lists. A
 * sandboxtime-<pid> directory needs none: its name is the marker.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/cgroup.h"

int st_cgroup_marker_dir(char *buf, size_t len)
{
	const char *run = getenv("XDG_RUNTIME_DIR");

	if (geteuid() == 0)
		run = "/run";
	if (!run || run[0] != '/')
		return -ENOENT;
	return (size_t)snprintf(buf, len, "%s/sandboxtime/cgroups", run) < len ? 0 : -ENAMETOOLONG;
}

static int marker_path(pid_t pid, char *buf, size_t len)
{
	char dir[256];
	int ret = st_cgroup_marker_dir(dir, sizeof(dir));

	if (ret < 0)
		return ret;
	return (size_t)snprintf(buf, len, "%s/%d", dir, (int)pid) < len ? 0 : -ENAMETOOLONG;
}

/* A made directory whose last component is not sandboxtime-<pid>. */
static int needs_marker(const struct st_cgroup *cg)
{
	for (size_t i = 0; i < cg->n; i++) {
		const char *base = strrchr(cg->dir[i].path, '/');

		if (cg->dir[i].made && strncmp(base ? base + 1 : cg->dir[i].path, ST_CG_PREFIX,
					       strlen(ST_CG_PREFIX)) != 0)
			return 1;
	}
	return 0;
}

/* mkdir -p of the marker directory; the levels it makes are 0700. */
static int make_dirs(const char *path)
{
	char p[256];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return -errno;
		if (!s)
			return 0;
		*s = '/';
	}
}

int st_cgroup_marker_write(const struct st_cgroup *cg)
{
	char path[320], tmp[340], dir[256];
	FILE *f;
	int ret;

	if (!needs_marker(cg))
		return 0;
	ret = st_cgroup_marker_dir(dir, sizeof(dir));
	if (ret == 0)
		ret = make_dirs(dir);
	if (ret == 0)
		ret = marker_path(getpid(), path, sizeof(path));
	if (ret < 0)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	for (size_t i = 0; i < cg->n; i++)
		if (cg->dir[i].made)
			fprintf(f, "%s\n", cg->dir[i].path);
	/* rename: cleanup never reads half a marker. */
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		ret = -errno;
		unlink(tmp);
	}
	return ret;
}

void st_cgroup_marker_remove(void)
{
	char path[320];

	if (marker_path(getpid(), path, sizeof(path)) == 0)
		unlink(path);
}
