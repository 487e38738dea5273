// SPDX-License-Identifier: MIT
/*
 * How long ago an orphan's mount came: the ctime of the file under its nsfs
 * mount, read through a clone of the directory's mount alone (open_tree(2)),
 * in a thread of its own while the scan walks /proc. Root only.
 */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/orphans_age.h"
#include "sandboxtime/procfs.h"

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif

/* A clone of @dir's mount alone (no submounts): its files as they are under the mounts. */
struct dir_clone {
	char *dir;
	int fd; /* -errno: could not be cloned */
};

struct age_ctx {
	struct dir_clone *v;
	size_t n;
	double now;
};

static void age_ctx_free(struct age_ctx *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].dir);
		if (a->v[i].fd >= 0)
			close(a->v[i].fd);
	}
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/* The clone of @dir, made once per directory (open_tree(2), CAP_SYS_ADMIN). */
static int dir_clone_fd(struct age_ctx *a, const char *dir)
{
	struct dir_clone *v;

	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].dir, dir) == 0)
			return a->v[i].fd;
	v = realloc(a->v, (a->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	a->v = v;
	v[a->n].dir = strdup(dir);
	if (!v[a->n].dir)
		return -ENOMEM;
	v[a->n].fd = (int)syscall(SYS_open_tree, AT_FDCWD, dir, OPEN_TREE_CLONE | O_CLOEXEC);
	if (v[a->n].fd < 0)
		v[a->n].fd = -errno;
	return v[a->n++].fd;
}

/*
 * Seconds since @path's own file (the one the nsfs mount covers) changed.
 * A stat of @path would show the nsfs inode, whose times say when the kernel
 * last made that inode, not when the mount came; `ip netns add` creates the
 * file right before it mounts on it.
 */
static double mount_file_age(struct age_ctx *a, const char *path)
{
	char dir[PATH_MAX];
	const char *base;
	struct stat st;
	double age;
	int fd;

	if (st_mountpoint_split(path, dir, sizeof(dir), &base) < 0)
		return -1;
	fd = dir_clone_fd(a, dir);

	if (fd < 0 || fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	age = a->now - ((double)st.st_ctim.tv_sec + (double)st.st_ctim.tv_nsec / 1e9);
	return age > 0 ? age : 0; /* a clock set back */
}



static void *age_thread(void *arg)
{
	struct st_orphans_age_job *job = arg;
	struct age_ctx a = { 0 };
	struct timespec now;
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return NULL;
	clock_gettime(CLOCK_REALTIME, &now);
	a.now = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	while (getline(&line, &cap, f) > 0 && !job->enomem) {
		struct st_mountinfo m;
		unsigned long long ino;
		struct st_mount_age *v;

		if (!strstr(line, " nsfs ") || st_mountinfo_parse(line, &m) < 0 ||
		    strcmp(m.fstype, "nsfs") != 0 || st_nsfs_root_inode(m.root, "net", &ino) < 0)
			continue;
		v = realloc(job->v, (job->n + 1) * sizeof(*v));
		if (!v || !(v[job->n].path = strdup(m.mountpoint))) {
			if (v)
				job->v = v;
			job->enomem = 1;
			break;
		}
		job->v = v;
		v[job->n].ino = ino;
		v[job->n].age = mount_file_age(&a, m.mountpoint);
		job->n++;
	}
	free(line);
	fclose(f);
	age_ctx_free(&a);
	return NULL;
}

void st_orphans_age_start(struct st_orphans_age_job *job)
{
	job->started = pthread_create(&job->thread, NULL, age_thread, job) == 0;
}

void st_orphans_age_free(struct st_orphans_age_job *job)
{
	if (job->started)
		pthread_join(job->thread, NULL);
	job->started = 0;
	for (size_t i = 0; i < job->n; i++)
		free(job->v[i].path);
	free(job->v);
	job->v = NULL;
	job->n = 0;
}

/*
 * Root: the age of each namespace that no process lives in and that a mount
 * in our own mount namespace holds, from the youngest such mount's file;
 * unknown when one of them cannot be read (or came after the ages were
 * read). Mounts of other mount namespaces are out of open_tree(2)'s reach
 * and do not count.
 */
void st_orphans_mount_ages(struct st_orphans *s, struct st_orphans_age_job *job)
{
	if (!job->started)
		return;
	pthread_join(job->thread, NULL);
	job->started = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct st_netns *ns = &s->v[i];
		double age = -1;

		if (ns->processes)
			continue;
		for (size_t h = 0; h < ns->nholders; h++) {
			const struct st_holder *m = &ns->holders[h];
			double one = -1;

			if (m->kind != ST_HOLDER_MOUNT || m->mntns != s->self_mntns || !m->path)
				continue;
			for (size_t k = 0; k < job->n; k++)
				if (job->v[k].ino == ns->ino &&
				    strcmp(job->v[k].path, m->path) == 0)
					one = job->v[k].age;
			if (one < 0) {
				age = -1;
				break;
			}
			if (age < 0 || one < age)
				age = one;
		}
		ns->age_s = age;
	}
}
