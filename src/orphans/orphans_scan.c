// SPDX-License-Identifier: MIT
/*
 * Fills the orphans model from /proc, each source read once per scan:
 *  - processes and threads: /proc/PID/task/TID/ns/net;
 *  - open fds: /proc/PID/fd/N that are nsfs "net:[...]" files, and sockets,
 *    whose namespace SIOCGSKNS tells on a copy of the fd (pidfd_getfd(2):
 *    PTRACE_MODE_ATTACH, so root sees every socket, a user their own);
 *  - bind mounts: nsfs mounts in /proc/PID/mountinfo, read once per mount
 *    namespace (by the inode of /proc/PID/ns/mnt).
 * Processes exit while we read: ENOENT and ESRCH skip the entry, EACCES and
 * EPERM count the process as unreadable.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/nsfs.h>
#include <linux/sockios.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>

#include "sandboxtime/host.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/orphans.h"
#include "sandboxtime/procfs.h"
#include "sandboxtime/util.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
/* listns(2), Linux 6.19: 470 in the generic table that x86-64 and arm64 follow. */
#if defined(__x86_64__) || defined(__aarch64__)
#define ST_NR_LISTNS 470
#endif

struct sock_seen {
	uint64_t sock_ino;
	uint64_t dev, ino; /* its netns; ino 0: unknown */
};

/* A set of strings, open addressing (the mount points of a thousand namespaces). */
struct path_set {
	char **v;
	size_t cap, n; /* cap: 0 or a power of two */
};

static uint64_t hash_str(const char *p)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h;
}

static int path_set_has(const struct path_set *ps, const char *path)
{
	if (!ps->cap)
		return 0;
	for (size_t i = hash_str(path) & (ps->cap - 1); ps->v[i]; i = (i + 1) & (ps->cap - 1))
		if (strcmp(ps->v[i], path) == 0)
			return 1;
	return 0;
}

static void path_set_put(struct path_set *ps, char *owned)
{
	size_t i = hash_str(owned) & (ps->cap - 1);

	while (ps->v[i])
		i = (i + 1) & (ps->cap - 1);
	ps->v[i] = owned;
	ps->n++;
}

static int path_set_add(struct path_set *ps, const char *path)
{
	char *copy;

	if (path_set_has(ps, path))
		return 0;
	if ((ps->n + 1) * 2 > ps->cap) {
		struct path_set bigger = { .cap = ps->cap ? ps->cap * 2 : 64 };

		bigger.v = calloc(bigger.cap, sizeof(char *));
		if (!bigger.v)
			return -ENOMEM;
		for (size_t i = 0; i < ps->cap; i++)
			if (ps->v[i])
				path_set_put(&bigger, ps->v[i]);
		free(ps->v);
		*ps = bigger;
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	path_set_put(ps, copy);
	return 0;
}

static void path_set_free(struct path_set *ps)
{
	for (size_t i = 0; i < ps->cap; i++)
		free(ps->v[i]);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

struct scan_ctx {
	struct st_orphans *s;
	uint64_t nsfs_dev;
	uint64_t self_mntns;
	uint64_t *mntns; /* mount namespaces whose mountinfo was read */
	size_t nmntns;
	struct sock_seen *socks;
	size_t nsocks;
	struct path_set mount_paths; /* every nsfs net mount point seen, as mountinfo shows it */
};

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
	*d = NULL;
}

static int gone(int e)
{
	return e == ENOENT || e == ESRCH;
}

static int denied(int e)
{
	return e == EACCES || e == EPERM;
}

static void set_open_path(struct st_netns *ns, const char *path)
{
	if (!ns->open_path && ns->sock_pid <= 0)
		ns->open_path = strdup(path);
}

static void read_comm(pid_t pid, char *comm, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (st_read_file(path, comm, len) < 0)
		snprintf(comm, len, "?");
}

/*
 * stat(2) of a /proc/PID/ns/TYPE link, from its text "TYPE:[INO]" alone:
 * readlink does not follow the link into nsfs (no nsfs inode to find or
 * make), and every namespace file is on the one nsfs device. Same access
 * check as stat (ptrace read), same errors. Fills st_dev and st_ino only.
 */
static int ns_stat(const struct scan_ctx *c, const char *path, struct stat *st)
{
	char link[64];
	const char *open;
	unsigned long long ino;
	char *end;
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n < 0)
		return -1;
	link[n] = '\0';
	open = strstr(link, ":[");
	if (!open || (errno = 0, ino = strtoull(open + 2, &end, 10), errno) || *end != ']') {
		errno = EINVAL;
		return -1;
	}
	st->st_dev = c->nsfs_dev;
	st->st_ino = ino;
	return 0;
}

/* Process @pid lives in the namespace of @path (stat @st): counted, and a way to open it. */
static int add_lived_in(struct scan_ctx *c, pid_t pid, const char *path, const struct stat *st)
{
	struct st_netns *ns;

	if (st_orphans_add_process(c->s, st->st_dev, st->st_ino, pid) < 0)
		return -ENOMEM;
	ns = st_orphans_get(c->s, st->st_dev, st->st_ino);
	if (!ns->open_path)
		set_open_path(ns, path);
	return 0;
}

/*
 * Every thread's netns: a thread may have left its process's namespace with
 * setns(). /proc/PID/task has 2 + threads links, so a process of one thread
 * (most of them) costs one stat of /proc/PID/ns/net instead of reading the
 * task directory. @own: the namespace of the process (its leader's), for
 * scan_fds; st_ino 0 when unknown.
 */
static int scan_tasks(struct scan_ctx *c, pid_t pid, int *readable, struct stat *own)
{
	_cleanup_(closedirp) DIR *d = NULL;
	char path[96];
	struct dirent *e;
	struct stat st;
	int denied_once = 0;

	own->st_ino = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	if (stat(path, &st) < 0) {
		if (denied(errno))
			*readable = 0;
		return gone(errno) || denied(errno) ? 0 : -errno;
	}
	if (st.st_nlink == 3) {
		snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
		if (ns_stat(c, path, own) < 0) {
			own->st_ino = 0;
			if (denied(errno))
				*readable = 0;
			return 0; /* gone: it exited */
		}
		*readable = 1;
		return add_lived_in(c, pid, path, own);
	}
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d) {
		if (denied(errno))
			*readable = 0;
		return gone(errno) || denied(errno) ? 0 : -errno;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/ns/net", pid, e->d_name);
		if (ns_stat(c, path, &st) < 0) {
			if (denied(errno))
				denied_once = 1;
			continue; /* gone: the thread exited */
		}
		if (add_lived_in(c, pid, path, &st) < 0)
			return -ENOMEM;
		if (atoi(e->d_name) == pid)
			*own = st;
		*readable = 1;
	}
	if (denied_once && *readable < 0)
		*readable = 0;
	return 0;
}

static int seen_mntns(struct scan_ctx *c, uint64_t ino)
{
	uint64_t *v;

	for (size_t i = 0; i < c->nmntns; i++)
		if (c->mntns[i] == ino)
			return 1;
	v = realloc(c->mntns, (c->nmntns + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->mntns = v;
	c->mntns[c->nmntns++] = ino;
	return 0;
}

/* The nsfs "net:[...]" mounts of @pid's mount namespace, once per namespace. */
static int scan_mounts(struct scan_ctx *c, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	struct stat st;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	if (ns_stat(c, path, &st) < 0)
		return 0; /* gone, or not ours to read */
	ret = seen_mntns(c, st.st_ino);
	if (ret != 0)
		return ret < 0 ? ret : 0;
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		struct st_mountinfo m;
		unsigned long long ino;
		struct st_holder h = { .kind = ST_HOLDER_MOUNT, .pid = 0, .fd = -1 };
		char open_path[PATH_MAX + 32];
		uint64_t dev;

		/* Cheap filter first: most lines are not nsfs. */
		if (!strstr(line, " nsfs ") || st_mountinfo_parse(line, &m) < 0 ||
		    strcmp(m.fstype, "nsfs") != 0 || st_nsfs_root_inode(m.root, "net", &ino) < 0)
			continue;
		dev = makedev(m.major, m.minor);
		h.path = m.mountpoint;
		h.mntns = st.st_ino;
		if (st_orphans_add_holder(c->s, dev, ino, &h) < 0 ||
		    path_set_add(&c->mount_paths, m.mountpoint) < 0) {
			ret = -ENOMEM;
			break;
		}
		/* Open it later from here: the path as this process sees it. */
		if (st.st_ino == c->self_mntns)
			snprintf(open_path, sizeof(open_path), "%s", m.mountpoint);
		else
			snprintf(open_path, sizeof(open_path), "/proc/%d/root%s", pid, m.mountpoint);
		set_open_path(st_orphans_get(c->s, dev, ino), open_path);
	}
	free(line);
	fclose(f);
	return ret;
}

/* The netns of socket @fd of @pidfd, through a copy of the fd; -errno if refused. */
static int socket_netns(int pidfd, int fd, struct stat *st)
{
	_cleanup_close_ int sfd = -1, nsfd = -1;

	sfd = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (sfd < 0)
		return -errno;
	nsfd = ioctl(sfd, SIOCGSKNS);
	if (nsfd < 0)
		return -errno;
	return fstat(nsfd, st) < 0 ? -errno : 0;
}

static struct sock_seen *sock_lookup(struct scan_ctx *c, uint64_t sock_ino)
{
	for (size_t i = 0; i < c->nsocks; i++)
		if (c->socks[i].sock_ino == sock_ino)
			return &c->socks[i];
	return NULL;
}

static int sock_remember(struct scan_ctx *c, uint64_t sock_ino, uint64_t dev, uint64_t ino)
{
	struct sock_seen *v = realloc(c->socks, (c->nsocks + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	c->socks = v;
	c->socks[c->nsocks++] = (struct sock_seen){ sock_ino, dev, ino };
	return 0;
}

/* A socket holder is recorded only outside the holder's own netns: those explain nothing. */
static int scan_socket(struct scan_ctx *c, pid_t pid, int fd, unsigned long long sock_ino,
		       int *pidfd, const struct stat *own, const char *comm)
{
	struct sock_seen *seen = sock_lookup(c, sock_ino);
	struct st_holder h = { .kind = ST_HOLDER_SOCKET, .pid = pid, .fd = fd };
	uint64_t dev, ino;
	struct stat st;
	int ret;

	if (seen) {
		dev = seen->dev;
		ino = seen->ino;
	} else {
		if (*pidfd == -1) {
			*pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
			if (*pidfd < 0)
				*pidfd = -2; /* gone or refused: no second try */
		}
		ret = *pidfd >= 0 ? socket_netns(*pidfd, fd, &st) : -EPERM;
		if (ret == -EBADF || ret == -ESRCH || ret == -ENOENT)
			return 0; /* closed meanwhile */
		if (ret < 0) {
			c->s->sockets_unchecked++;
			return sock_remember(c, sock_ino, 0, 0);
		}
		dev = st.st_dev;
		ino = st.st_ino;
		if (sock_remember(c, sock_ino, dev, ino) < 0)
			return -ENOMEM;
	}
	if (!ino || (own && own->st_dev == dev && own->st_ino == ino))
		return 0;
	snprintf(h.comm, sizeof(h.comm), "%s", comm);
	ret = st_orphans_add_holder(c->s, dev, ino, &h);
	if (ret == 0) {
		struct st_netns *ns = st_orphans_get(c->s, dev, ino);

		if (!ns->open_path && ns->sock_pid <= 0) {
			ns->sock_pid = pid;
			ns->sock_fd = fd;
		}
	}
	return ret;
}

/*
 * Whether fd @name of @pid, whose link is a path, is a network namespace's
 * nsfs file opened through a bind mount (`exec 7</run/netns/x`): its link
 * shows the mount's path, not net:[...]. Only links that are an nsfs mount
 * point seen in some mountinfo, or "/" (what a file of a mount detached
 * since, umount -l or ip netns del, shows), are asked; statx with
 * AT_STATX_DONT_SYNC, so that no network file system is asked anything, and
 * only nsfs files are then opened, to ask their type. A file opened through
 * a mount the scan has not read yet is missed; --cleanup's plain umount of
 * that mount fails with EBUSY while the file is open.
 */
static int nsfs_path_fd(const struct scan_ctx *c, DIR *d, const char *name, pid_t pid, int fd)
{
	_cleanup_close_ int nsfd = -1;
	struct statx stx;
	char path[64];

	if (statx(dirfd(d), name, AT_STATX_DONT_SYNC, STATX_INO, &stx) < 0 ||
	    makedev(stx.stx_dev_major, stx.stx_dev_minor) != c->nsfs_dev)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	nsfd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	return nsfd >= 0 && ioctl(nsfd, NS_GET_NSTYPE) == CLONE_NEWNET;
}

static int scan_fds(struct scan_ctx *c, pid_t pid, const struct stat *own)
{
	_cleanup_(closedirp) DIR *d = NULL;
	_cleanup_close_ int pidfd = -1;
	char path[96], link[PATH_MAX], comm[16] = "";
	struct stat st;
	struct dirent *e;
	int has_own = own->st_ino != 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	if (!d)
		return 0; /* gone, or not ours */
	while ((e = readdir(d))) {
		unsigned long long sock_ino;
		ssize_t n;
		int fd, ret;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		n = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = '\0';
		fd = atoi(e->d_name);
		if (strncmp(link, "net:[", 5) == 0 ||
		    ((strcmp(link, "/") == 0 || path_set_has(&c->mount_paths, link)) &&
		     nsfs_path_fd(c, d, e->d_name, pid, fd))) {
			struct st_holder h = { .kind = ST_HOLDER_FD, .pid = pid, .fd = fd };

			if (fstatat(dirfd(d), e->d_name, &st, 0) < 0 || st.st_dev != c->nsfs_dev)
				continue;
			if (!comm[0])
				read_comm(pid, comm, sizeof(comm));
			snprintf(h.comm, sizeof(h.comm), "%s", comm);
			if (st_orphans_add_holder(c->s, st.st_dev, st.st_ino, &h) < 0)
				return -ENOMEM;
			snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
			set_open_path(st_orphans_get(c->s, st.st_dev, st.st_ino), path);
		} else if (sscanf(link, "socket:[%llu]", &sock_ino) == 1) {
			if (!comm[0])
				read_comm(pid, comm, sizeof(comm));
			ret = scan_socket(c, pid, fd, sock_ino, &pidfd, has_own ? own : NULL, comm);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int scan_process(struct scan_ctx *c, pid_t pid)
{
	int readable = -1, ret;
	struct stat own;

	ret = scan_tasks(c, pid, &readable, &own);
	if (ret < 0)
		return ret;
	if (readable == 0) {
		c->s->unreadable_processes++;
		return 0;
	}
	if (readable < 0)
		return 0; /* exited while we read */
	ret = scan_mounts(c, pid);
	if (ret < 0)
		return ret;
	return scan_fds(c, pid, &own);
}

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
static int describe(struct st_orphans *s, struct st_nl *nl)
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

/* The age of one nsfs net mount of our mount namespace: (inode, path) -> seconds, < 0 unknown. */
struct mount_age {
	uint64_t ino;
	char *path;
	double age;
};

/*
 * The ages are read in a thread of their own while the main thread walks
 * /proc: closing a clone made by open_tree(2) dissolves it, and that waits
 * for an RCU grace period (2 ms on a quiet host, much more on a busy one).
 */
struct age_job {
	pthread_t thread;
	int started;
	struct mount_age *v;
	size_t n;
	int enomem;
};

static void *age_thread(void *arg)
{
	struct age_job *job = arg;
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
		struct mount_age *v;

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

static void age_job_start(struct age_job *job)
{
	job->started = pthread_create(&job->thread, NULL, age_thread, job) == 0;
}

static void age_job_free(struct age_job *job)
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
static void mount_ages(struct st_orphans *s, struct age_job *job)
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

/*
 * Whether the kernel's own list of namespaces could be read: listns(2) with a
 * request it must refuse (NULL) fails with ENOSYS before Linux 6.19 and with
 * EFAULT or EINVAL after. 0: available (this version does not read it yet).
 */
static int listns_errno(void)
{
#ifdef ST_NR_LISTNS
	if (syscall(ST_NR_LISTNS, NULL, NULL, 0, 0) < 0 && errno == ENOSYS)
		return ENOSYS;
	return 0;
#else
	return ENOSYS; /* no syscall number known for this architecture */
#endif
}

static void collect_leftover(const char *name, int index, const char *kind, void *data)
{
	struct st_orphans *s = data;
	struct st_leftover_link *v;
	pid_t pid;
	enum st_leftover_kind k = st_leftover_link(name, kind, &pid);

	if (k == ST_LEFTOVER_NONE || st_leftover_owner_running(pid))
		return;
	v = realloc(s->leftovers, (s->nleftovers + 1) * sizeof(*v));
	if (!v)
		return;
	s->leftovers = v;
	snprintf(v[s->nleftovers].name, sizeof(v[s->nleftovers].name), "%s", name);
	v[s->nleftovers].pid = pid;
	v[s->nleftovers].kind = k;
	s->nleftovers++;
}

int st_orphans_scan(struct st_orphans *s, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	_cleanup_(closedirp) DIR *proc = NULL;
	_cleanup_(age_job_free) struct age_job ages = { 0 };
	struct scan_ctx c = { .s = s };
	struct dirent *e;
	struct stat st;
	int ret = 0;

	s->rootless = st_host_is_rootless();
	s->uid = geteuid();
	if (stat("/proc/self/ns/net", &st) < 0)
		return st_error_set(err, errno, "orphans: /proc/self/ns/net");
	c.nsfs_dev = st.st_dev;
	if (stat("/proc/self/ns/mnt", &st) == 0)
		c.self_mntns = st.st_ino;
	s->self_mntns = c.self_mntns;
	s->listns_errno = listns_errno();
	if (!s->rootless && !s->sources_only)
		age_job_start(&ages);
	/* Our own mount points first: fds opened through them are recognized wherever they are. */
	ret = scan_mounts(&c, getpid());
	if (ret < 0) {
		free(c.mntns);
		path_set_free(&c.mount_paths);
		return st_error_set(err, -ret, "orphans: /proc/self/mountinfo");
	}
	proc = opendir("/proc");
	if (!proc) {
		free(c.mntns);
		path_set_free(&c.mount_paths);
		return st_error_set(err, errno, "orphans: /proc");
	}
	while ((e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		/* Ourselves too: our mount namespace may be one nobody else we can read is in. */
		if (*end || pid <= 0)
			continue;
		ret = scan_process(&c, (pid_t)pid);
		if (ret < 0)
			break;
	}
	free(c.mntns);
	free(c.socks);
	path_set_free(&c.mount_paths);
	if (ret < 0)
		return st_error_set(err, -ret, "orphans: scanning /proc");
	if (s->sources_only) {
		/* A re-check before --cleanup acts: what holds what, nothing more. */
		st_orphans_classify(s);
		return 0;
	}
	if (!s->rootless)
		mount_ages(s, &ages);
	if (st_nl_open(&nl, err) < 0)
		nl = NULL; /* no nsid, no leftovers: the namespaces are still worth reporting */
	ret = describe(s, nl);
	if (ret < 0)
		return st_error_set(err, -ret, "orphans: describing namespaces");
	if (nl) {
		struct st_error lerr = { 0 };

		st_nl_link_list(nl, collect_leftover, s, &lerr);
	}
	st_error_clear(err);
	st_orphans_classify(s);
	return 0;
}
