// SPDX-License-Identifier: MIT
/*
 * What the report says about each namespace found (orphans_scan.c): its
 * interfaces, its nsid and, rootless, its owner; from short-lived threads
 * that open each namespace again and enter it.
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/nsfs.h>
#include <linux/sockios.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandboxtime/nl.h"
#include "sandboxtime/orphans_describe.h"
#include "sandboxtime/procfs.h"
#include "sandboxtime/util.h"

/* An fd on @ns again, checked to be that namespace (a path may now name another). */
static int open_netns(const struct st_netns *ns)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (ns->open_path) {
		fd = open(ns->open_path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	} else if (ns->sock_pid > 0) {
		_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, ns->sock_pid, 0);
		_cleanup_close_ int sfd = -1;

		if (pidfd >= 0 && (sfd = (int)syscall(SYS_pidfd_getfd, pidfd, ns->sock_fd, 0)) >= 0)
			fd = ioctl(sfd, SIOCGSKNS);
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_dev != ns->dev || st.st_ino != ns->ino)
		return -ESTALE;
	return take_fd(&fd);
}

/* The uid owning the user namespace that owns @nsfd (NS_GET_USERNS, NS_GET_OWNER_UID). */
static int owner_uid(int nsfd)
{
	_cleanup_close_ int userns = ioctl(nsfd, NS_GET_USERNS);
	uid_t uid;

	if (userns < 0 || ioctl(userns, NS_GET_OWNER_UID, &uid) < 0)
		return -1;
	return uid > INT_MAX ? -1 : (int)uid;
}

struct names {
	char **v;
	size_t n;
	int enomem;
};

static void add_name(struct names *l, const char *name)
{
	char **v;

	if (l->enomem)
		return;
	v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v || !(v[l->n] = strdup(name))) {
		if (v)
			l->v = v;
		l->enomem = 1;
		return;
	}
	l->v = v;
	l->n++;
}

static void add_name_cb(const char *name, void *data)
{
	add_name(data, name);
}

/*
 * The interface names of @nsfd's namespace. Runs in the describing thread:
 * a network namespace is per thread, so setns(2) moves that thread alone,
 * and /proc/thread-self/net/dev then lists that namespace's interfaces
 * (st_netdev_feed() parses it) without a netlink socket per namespace or
 * the RTNL lock. Root only (CAP_SYS_ADMIN over the namespace). -ENOMEM, or
 * 0 with the names unknown (NULL) when the namespace could not be entered
 * or read.
 */
static int list_interfaces(struct st_netns *ns, int nsfd)
{
	_cleanup_close_ int fd = -1;
	struct names l = { 0 };
	struct st_netdev d;
	ssize_t r;

	if (setns(nsfd, CLONE_NEWNET) < 0)
		return 0;
	fd = open("/proc/thread-self/net/dev", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	st_netdev_init(&d);
	for (;;) {
		size_t room;
		char *at = st_netdev_room(&d, &room);

		r = TEMP_FAILURE_RETRY(read(fd, at, room));
		if (r <= 0)
			break;
		st_netdev_feed(&d, (size_t)r, add_name_cb, &l);
	}
	if (r < 0 || l.enomem) {
		for (size_t k = 0; k < l.n; k++)
			free(l.v[k]);
		free(l.v);
		return l.enomem ? -ENOMEM : 0;
	}
	ns->interfaces = l.v ? l.v : calloc(1, sizeof(char *)); /* known, perhaps empty */
	ns->ninterfaces = l.n;
	return ns->interfaces ? 0 : -ENOMEM;
}

#define DESCRIBE_THREADS 2

struct describe_job {
	struct st_orphans *s;
	struct st_nl *nl;   /* opened in our own namespace: nsid as we see it */
	size_t first, step; /* namespaces first, first + step, ... */
	int ret;
};

/*
 * Owner (rootless: classification needs it), nsid and (root) interfaces of
 * this job's share of the namespaces.
 */
static void *describe_thread(void *arg)
{
	struct describe_job *job = arg;
	struct st_orphans *s = job->s;

	for (size_t i = job->first; i < s->n; i += job->step) {
		struct st_netns *ns = &s->v[i];
		_cleanup_close_ int fd = open_netns(ns);
		struct st_error e = { 0 };

		if (fd < 0)
			continue; /* gone since: its interfaces and nsid stay unknown */
		if (s->rootless)
			ns->owner_uid = owner_uid(fd);
		if (job->nl)
			st_nl_nsid_get(job->nl, fd, &ns->nsid, &e);
		if (!s->rootless && list_interfaces(ns, fd) == -ENOMEM) {
			job->ret = -ENOMEM;
			break;
		}
	}
	return NULL;
}

/*
 * Short-lived threads describe the namespaces, each entering its share in
 * turn: the main thread never leaves our namespace, and no process is forked
 * per namespace (a fork each cost about a millisecond at a thousand). Two
 * threads, each with its own netlink socket, when there are many namespaces.
 */
int st_orphans_describe(struct st_orphans *s, struct st_nl *nl)
{
	struct describe_job jobs[DESCRIBE_THREADS];
	struct st_nl *extra[DESCRIBE_THREADS] = { NULL };
	pthread_t t[DESCRIBE_THREADS];
	size_t n = s->n >= 64 ? DESCRIBE_THREADS : 1, started = 0;
	int ret = 0;

	for (size_t k = 0; k < n; k++) {
		struct st_error e = { 0 };

		if (k > 0 && nl && st_nl_open(&extra[k], &e) < 0)
			extra[k] = NULL; /* this share gets no nsid */
		jobs[k] =
		    (struct describe_job){ .s = s, .nl = k ? extra[k] : nl, .first = k, .step = n };
	}
	for (; started < n; started++) {
		ret = -pthread_create(&t[started], NULL, describe_thread, &jobs[started]);
		if (ret < 0)
			break;
	}
	for (size_t k = 0; k < started; k++) {
		pthread_join(t[k], NULL);
		if (jobs[k].ret < 0)
			ret = jobs[k].ret;
	}
	for (size_t k = 1; k < n; k++)
		st_nl_close(extra[k]);
	return ret;
}
