// SPDX-License-Identifier: MIT
/*
 * Cgroups left by a sandboxtime killed before its teardown (SIGKILL): the
 * directories named sandboxtime-<pid> in any hierarchy, whose pid is no
 * running sandboxtime, and the directories that the marker of such a pid
 * lists (cgroup_marker.c: cgroups the bundle named). `cleanup` kills what
 * is still in them (it is ours) and removes them; those of a running
 * sandboxtime are kept.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/util.h"

/* Deep enough for any delegated parent (user.slice/user-N.slice/user@N.service/...). */
#define MAX_DEPTH 10

struct scan {
	int dry_run, quiet;
	char (*mnt)[256]; /* the hierarchies: a marker's line must lie in one */
	size_t nmnt;
	struct st_cgroup_leftovers *out;
	struct st_error *err;
};

/* The pid of a name "sandboxtime-<pid>", or 0 when it is not one of ours. */
static pid_t name_pid(const char *name)
{
	const char *d = name + strlen(ST_CG_PREFIX);
	long v = 0;

	if (strncmp(name, ST_CG_PREFIX, strlen(ST_CG_PREFIX)) != 0 || !*d || *d == '0')
		return 0;
	for (; *d; d++) {
		if (*d < '0' || *d > '9' || v > 4194304) /* PID_MAX_LIMIT */
			return 0;
		v = v * 10 + (*d - '0');
	}
	return v > 4194304 ? 0 : (pid_t)v;
}

/* Running: /proc/PID/comm is sandboxtime (or the tests' sandboxtime-faults, cut to 15). */
static int owner_running(pid_t pid)
{
	char path[64], comm[32];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	return st_read_file(path, comm, sizeof(comm)) >= 0 && strncmp(comm, "sandboxtime", 11) == 0;
}

static int judge(struct scan *s, const char *path, pid_t pid)
{
	int ret;

	s->out->found++;
	if (owner_running(pid)) {
		if (!s->quiet)
			printf("kept cgroup %s: pid %d is a running sandboxtime\n", path, (int)pid);
		s->out->kept++;
		return 0;
	}
	if (s->dry_run) {
		if (!s->quiet)
			printf("would delete cgroup %s: pid %d is no sandboxtime any more\n", path, (int)pid);
		return 0;
	}
	ret = st_cgroup_rmdir_tree(path, s->err);
	if (ret < 0)
		return st_error_wrap(s->err, "cleanup");
	if (!s->quiet)
		printf("deleted cgroup %s: pid %d is no sandboxtime any more\n", path, (int)pid);
	s->out->removed++;
	return 0;
}

static int walk(struct scan *s, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	/* Gone meanwhile, or a part of the tree that is not ours to read: skipped. */
	if (!d)
		return 0;
	while (ret == 0 && (e = readdir(d))) {
		char sub[ST_CG_PATH_MAX];
		pid_t pid;

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name) >= sizeof(sub))
			continue;
		pid = name_pid(e->d_name);
		if (pid > 0)
			ret = judge(s, sub, pid);
		else if (depth < MAX_DEPTH)
			ret = walk(s, sub, depth + 1);
	}
	closedir(d);
	return ret;
}

/* A marker's line: an absolute directory inside one of the hierarchies, no '.' or '..'. */
static int inside_hierarchy(const struct scan *s, const char *path)
{
	size_t dot_len;

	if (st_path_dot_component(path, &dot_len))
		return 0;
	for (size_t i = 0; i < s->nmnt; i++) {
		size_t n = strlen(s->mnt[i]);

		if (strncmp(path, s->mnt[i], n) == 0 && path[n] == '/' && path[n + 1])
			return 1;
	}
	return 0;
}

/* One marker, the file @name (a pid) in @dir: its directories judged as a named one is. */
static int marker(struct scan *s, const char *dir, const char *name)
{
	char path[512], line[ST_CG_PATH_MAX + 2];
	pid_t pid = 0;
	struct stat st;
	FILE *f;
	int ret = 0, kept;

	for (const char *p = name; *p; p++)
		if (*p < '0' || *p > '9' || (pid = pid * 10 + (*p - '0')) > 4194304)
			return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	/* Only a regular file of our own user is a marker: anything else is left alone. */
	if (!f || fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		if (f)
			fclose(f);
		return 0;
	}
	kept = owner_running(pid);
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (inside_hierarchy(s, line) && access(line, F_OK) == 0)
			ret = judge(s, line, pid);
	}
	fclose(f);
	if (ret == 0 && !kept && !s->dry_run)
		unlink(path);
	return ret;
}

static int markers(struct scan *s)
{
	char dir[256];
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (st_cgroup_marker_dir(dir, sizeof(dir)) < 0 || !(d = opendir(dir)))
		return 0;
	while (ret == 0 && (e = readdir(d)))
		if (e->d_name[0] != '.')
			ret = marker(s, dir, e->d_name);
	closedir(d);
	return ret;
}

int st_cgroup_cleanup(int dry_run, int quiet, struct st_cgroup_leftovers *out, struct st_error *err)
{
	struct scan s = { .dry_run = dry_run, .quiet = quiet, .out = out, .err = err };
	char mnt[16][256];
	size_t n = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = st_cgroup_mounts(mnt, ARRAY_SIZE(mnt), &n, err);
	/* No cgroup hierarchy: nothing can have been left in one. */
	if (ret == -ENOENT)
		return 0;
	s.mnt = mnt;
	s.nmnt = n;
	for (size_t i = 0; ret == 0 && i < n; i++)
		ret = walk(&s, mnt[i], 0);
	if (ret == 0)
		ret = markers(&s);
	return ret;
}
