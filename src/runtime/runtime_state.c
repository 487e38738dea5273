// SPDX-License-Identifier: MIT
/*
 * A container's record under --root, as runc keeps one: ROOT/ID holds
 * state.json, the exec fifo (present while the container waits for start)
 * and is flock()ed by every command, so that an engine's concurrent calls
 * on one container take turns. The root is the caller's own: 0700, made by
 * the first create; state.json is read back by later commands and trusted
 * only by the user who can write it (docs/DESIGN.md, "State that outlives a
 * run").
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/runtime.h"
#include "sandboxtime/util.h"

const char *const st_rt_status_names[4] = { "creating", "created", "running", "stopped" };

/*
 * Root of the host: uid 0 mapped to itself over the whole range. Root in a
 * user namespace (rootless podman runs its runtime there) is not: its
 * /run is the host's, not its own.
 */
int st_rt_host_root(void)
{
	char map[128];
	unsigned long inside, outside, count;

	return geteuid() == 0 && st_read_file("/proc/self/uid_map", map, sizeof(map)) > 0 &&
	       sscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3 && inside == 0 && outside == 0 &&
	       count == 4294967295ul;
}

int st_rt_root(struct st_rt_global *g, struct st_error *err)
{
	const char *run = getenv("XDG_RUNTIME_DIR");
	int host_root = st_rt_host_root();
	struct stat st;

	if (!g->root) {
		if (!host_root && (!run || run[0] != '/'))
			return st_error_usage(err, "--root: rootless, and XDG_RUNTIME_DIR is not set: give --root=DIR (a directory of your own)");
		snprintf(g->root_buf, sizeof(g->root_buf), "%s/sandboxtime", host_root ? "/run" : run);
		g->root = g->root_buf;
	}
	if (mkdir(g->root, 0700) < 0 && errno != EEXIST)
		return st_error_set(err, errno, "--root: cannot make %s", g->root);
	if (stat(g->root, &st) < 0)
		return st_error_set(err, errno, "--root: %s", g->root);
	if (!S_ISDIR(st.st_mode))
		return st_error_usage(err, "--root: %s is not a directory", g->root);
	/* Another user's root would be state they chose: a pid to signal, cgroups to remove. */
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return st_error_set(err, EPERM, "--root: %s is not %s's alone (owner %u, mode %03o): use a directory only you can write",
				    g->root, geteuid() == 0 ? "root" : "this user", (unsigned)st.st_uid,
				    (unsigned)(st.st_mode & 0777));
	return 0;
}

int st_rt_id_check(const char *id, struct st_error *err)
{
	size_t len = strlen(id);

	if (!len || len >= ST_RT_ID_MAX || strcmp(id, ".") == 0 || strcmp(id, "..") == 0 ||
	    strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-.") != len)
		return st_error_usage(err, "invalid container id '%s': letters, digits, '_', '+', '-' and '.' only", id);
	return 0;
}

/*
 * One command at a time per container: a POSIX record lock on ROOT/ID/lock.
 * Not flock(): that lock belongs to the open file, which the container's
 * process inherits from create and holds until its exec, so a create
 * killed halfway would leave it locked for good. A record lock belongs to
 * the process alone (a child does not inherit it) and goes when it exits,
 * however it exits. The directory may be gone by the time the lock is
 * ours (a delete that held it): then the container does not exist.
 */
int st_rt_state_lock(struct st_rt_state *s, struct st_error *err)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char path[4200];

	snprintf(path, sizeof(path), "%s/lock", s->dir);
	s->dir_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (s->dir_fd < 0)
		return st_error_set(err, errno == ENOENT ? ENOENT : errno, errno == ENOENT ? "container does not exist: %s" : "container %s: lock", s->id);
	if (TEMP_FAILURE_RETRY(fcntl(s->dir_fd, F_SETLKW, &fl)) < 0)
		return st_error_set(err, errno, "container %s: lock", s->id);
	if (access(path, F_OK) < 0)
		return st_error_set(err, ENOENT, "container does not exist: %s", s->id);
	return 0;
}

static void state_init(const struct st_rt_global *g, const char *id, struct st_rt_state *s)
{
	memset(s, 0, sizeof(*s));
	s->dir_fd = -1;
	snprintf(s->id, sizeof(s->id), "%s", id);
	snprintf(s->dir, sizeof(s->dir), "%s/%s", g->root, id);
}

int st_rt_state_new(const struct st_rt_global *g, const char *id, struct st_rt_state *s, struct st_error *err)
{
	struct timespec now;
	struct tm tm;

	state_init(g, id, s);
	if (mkdir(s->dir, 0700) < 0) {
		if (errno == EEXIST)
			return st_error_set(err, EEXIST, "container with id exists: %s", id);
		return st_error_set(err, errno, "container %s: mkdir %s", id, s->dir);
	}
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	snprintf(s->created, sizeof(s->created), "%04d-%02d-%02dT%02d:%02d:%02d.%09ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, now.tv_nsec);
	return st_rt_state_lock(s, err);
}

static int read_state(struct st_rt_state *s, struct st_error *err)
{
	char path[4200];
	json_auto_t *doc = NULL;
	json_error_t jerr;
	json_t *dirs, *v;
	size_t i;

	snprintf(path, sizeof(path), "%s/state.json", s->dir);
	doc = json_load_file(path, 0, &jerr);
	/* No file yet: create is still making it, or died before it wrote one. */
	if (!doc)
		return errno == ENOENT || access(path, F_OK) < 0 ? 0 : st_error_set(err, EIO, "container %s: %s: %s", s->id, path, jerr.text);
	s->pid = (pid_t)json_integer_value(json_object_get(doc, "pid"));
	s->start_ticks = (unsigned long long)json_integer_value(json_object_get(doc, "pid_start"));
	snprintf(s->bundle, sizeof(s->bundle), "%s", json_string_value(json_object_get(doc, "bundle")) ?: "");
	snprintf(s->created, sizeof(s->created), "%s", json_string_value(json_object_get(doc, "created")) ?: "");
	v = json_object_get(doc, "annotations");
	s->annotations = json_is_object(v) ? json_incref(v) : NULL;
	v = json_object_get(doc, "hooks");
	s->hooks = json_is_object(v) ? json_incref(v) : NULL;
	dirs = json_object_get(doc, "cgroup_dirs");
	json_array_foreach(dirs, i, v) {
		if (s->ncgroup < ST_CG_MAX_DIRS && json_is_string(v))
			snprintf(s->cgroup_dirs[s->ncgroup++], ST_CG_PATH_MAX, "%s", json_string_value(v));
	}
	return 0;
}

int st_rt_state_open(const struct st_rt_global *g, const char *id, struct st_rt_state *s, struct st_error *err)
{
	int ret;

	state_init(g, id, s);
	ret = st_rt_id_check(id, err);
	if (ret < 0)
		return ret;
	if (access(s->dir, F_OK) < 0)
		return st_error_set(err, ENOENT, "container does not exist: %s", id);
	ret = st_rt_state_lock(s, err);
	return ret < 0 ? ret : read_state(s, err);
}

int st_rt_state_save(const struct st_rt_state *s, struct st_error *err)
{
	json_auto_t *doc = st_rt_state_json(s);
	json_t *dirs = json_array();
	char path[4200], tmp[4300];

	for (size_t i = 0; i < s->ncgroup; i++)
		json_array_append_new(dirs, json_string(s->cgroup_dirs[i]));
	json_object_set_new(doc, "pid_start", json_integer((json_int_t)s->start_ticks));
	json_object_set_new(doc, "cgroup_dirs", dirs);
	if (s->hooks)
		json_object_set(doc, "hooks", s->hooks);
	snprintf(path, sizeof(path), "%s/state.json", s->dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (json_dump_file(doc, tmp, JSON_COMPACT) < 0 || rename(tmp, path) < 0) {
		int e = errno ? errno : EIO;

		unlink(tmp);
		return st_error_set(err, e, "container %s: writing %s", s->id, path);
	}
	return 0;
}

int st_rt_state_remove(struct st_rt_state *s, struct st_error *err)
{
	DIR *d = opendir(s->dir);
	struct dirent *de;

	if (!d)
		return errno == ENOENT ? 0 : st_error_set(err, errno, "container %s: %s", s->id, s->dir);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	if (rmdir(s->dir) < 0 && errno != ENOENT)
		return st_error_set(err, errno, "container %s: removing %s", s->id, s->dir);
	return 0;
}

void st_rt_state_close(struct st_rt_state *s)
{
	closep(&s->dir_fd); /* and with it the record lock */
	json_decref(s->annotations);
	json_decref(s->hooks);
	s->annotations = s->hooks = NULL;
}

void st_rt_fifo_path(const struct st_rt_state *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s/exec.fifo", s->dir);
}

unsigned long long st_rt_pid_start(pid_t pid)
{
	char path[64], buf[1024], state;
	unsigned long long start = 0;
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (pid <= 0 || st_read_file(path, buf, sizeof(buf)) < 0 || !(p = strrchr(buf, ')')))
		return 0;
	/* After "(comm)": state, then 18 fields, then starttime (field 22). */
	if (sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
		   &state, &start) != 2)
		return 0;
	/* A zombie has ended: its parent (the engine) has yet to reap it. */
	return state == 'Z' || state == 'X' ? 0 : start;
}

enum st_rt_status st_rt_status(const struct st_rt_state *s)
{
	char fifo[4200];

	if (!s->pid)
		return ST_RT_CREATING;
	if (st_rt_pid_start(s->pid) != s->start_ticks)
		return ST_RT_STOPPED;
	st_rt_fifo_path(s, fifo, sizeof(fifo));
	return access(fifo, F_OK) == 0 ? ST_RT_CREATED : ST_RT_RUNNING;
}

json_t *st_rt_state_json(const struct st_rt_state *s)
{
	enum st_rt_status st = st_rt_status(s);
	char rootfs[4200];

	snprintf(rootfs, sizeof(rootfs), "%s/rootfs", s->bundle);
	/* runc says "stopped" of a container whose create did not finish: there is nothing to run. */
	return json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:o}", "ociVersion", "1.0.2", "id", s->id, "status",
			 st_rt_status_names[st == ST_RT_CREATING ? ST_RT_STOPPED : st], "pid",
			 st == ST_RT_STOPPED || st == ST_RT_CREATING ? 0 : (int)s->pid, "bundle", s->bundle,
			 "rootfs", rootfs, "created", s->created, "owner", "", "annotations",
			 s->annotations ? json_incref(s->annotations) : json_object());
}

int st_rt_write_pid_file(const char *path, pid_t pid, struct st_error *err)
{
	char tmp[4200], buf[32];
	_cleanup_close_ int fd = -1;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, getpid());
	snprintf(buf, sizeof(buf), "%d", pid);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || st_write_all(fd, buf, strlen(buf)) < 0 || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		return st_error_set(err, e, "--pid-file: writing %s", path);
	}
	return 0;
}
