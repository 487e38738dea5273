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
 *
 * st_orphans_scan() then has them described (orphans_describe.c), the
 * mounts' ages read (orphans_age.c) and sandboxtime's leftover links listed
 * (leftover.c), and classifies.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/nsfs.h>
#include <linux/sockios.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>

#include "sandboxtime/host.h"
#include "sandboxtime/leftover.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/orphans.h"
#include "sandboxtime/orphans_age.h"
#include "sandboxtime/orphans_describe.h"
#include "sandboxtime/procfs.h"
#include "sandboxtime/strset.h"
#include "sandboxtime/util.h"

/* listns(2), Linux 6.19: 470 in the generic table that x86-64 and arm64 follow. */
#if defined(__x86_64__) || defined(__aarch64__)
#define ST_NR_LISTNS 470
#endif

/* A path under the proc root: "/proc/PID/task/TID/ns/net" and the like, or a fixture's. */
#define PROC_PATH_MAX 512

struct sock_seen {
	uint64_t sock_ino;
	uint64_t dev, ino; /* its netns; ino 0: unknown */
};

struct scan_ctx {
	struct st_orphans *s;
	const char *proc;  /* "/proc", or a fixture tree's root */
	uint64_t nsfs_dev;
	uint64_t self_mntns;
	uint64_t *mntns; /* mount namespaces whose mountinfo was read */
	size_t nmntns;
	struct sock_seen *socks;
	size_t nsocks;
	struct st_strset mount_paths; /* every nsfs net mount point seen, as mountinfo shows it */
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

static void read_comm(const struct scan_ctx *c, pid_t pid, char *comm, size_t len)
{
	char path[PROC_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d/comm", c->proc, pid);
	if (st_read_file(path, comm, len) < 0)
		snprintf(comm, len, "?");
}

/*
 * stat(2) of a /proc/PID/ns/TYPE link, from its text "TYPE:[INO]" alone:
 * readlink does not follow the link into nsfs (no nsfs inode to find or
 * make), and every namespace file is on the one nsfs device. Same access
 * check as stat (ptrace read), same errors. Fills st_dev and st_ino only.
 * (And a fixture tree's links, which point nowhere, read the same.)
 */
static int ns_of_link(const struct scan_ctx *c, const char *link, struct stat *st)
{
	const char *open = strstr(link, ":[");
	unsigned long long ino;
	char *end;

	if (!open || (errno = 0, ino = strtoull(open + 2, &end, 10), errno) || *end != ']') {
		errno = EINVAL;
		return -1;
	}
	st->st_dev = c->nsfs_dev;
	st->st_ino = ino;
	return 0;
}

static int ns_stat(const struct scan_ctx *c, const char *path, struct stat *st)
{
	char link[64];
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n < 0)
		return -1;
	link[n] = '\0';
	return ns_of_link(c, link, st);
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
	char path[PROC_PATH_MAX];
	struct dirent *e;
	struct stat st;
	int denied_once = 0;

	own->st_ino = 0;
	snprintf(path, sizeof(path), "%s/%d/task", c->proc, pid);
	if (stat(path, &st) < 0) {
		if (denied(errno))
			*readable = 0;
		return gone(errno) || denied(errno) ? 0 : -errno;
	}
	if (st.st_nlink == 3) {
		snprintf(path, sizeof(path), "%s/%d/ns/net", c->proc, pid);
		if (ns_stat(c, path, own) < 0) {
			own->st_ino = 0;
			if (denied(errno))
				*readable = 0;
			return 0; /* gone: it exited */
		}
		*readable = 1;
		return add_lived_in(c, pid, path, own);
	}
	snprintf(path, sizeof(path), "%s/%d/task", c->proc, pid);
	d = opendir(path);
	if (!d) {
		if (denied(errno))
			*readable = 0;
		return gone(errno) || denied(errno) ? 0 : -errno;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%d/task/%s/ns/net", c->proc, pid, e->d_name);
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
	char path[PROC_PATH_MAX], *line = NULL;
	size_t cap = 0;
	struct stat st;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%d/ns/mnt", c->proc, pid);
	if (ns_stat(c, path, &st) < 0)
		return 0; /* gone, or not ours to read */
	ret = seen_mntns(c, st.st_ino);
	if (ret != 0)
		return ret < 0 ? ret : 0;
	snprintf(path, sizeof(path), "%s/%d/mountinfo", c->proc, pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		struct st_mountinfo m;
		unsigned long long ino;
		struct st_holder h = { .kind = ST_HOLDER_MOUNT, .pid = 0, .fd = -1 };
		char open_path[PROC_PATH_MAX + PATH_MAX];
		uint64_t dev;

		/* Cheap filter first: most lines are not nsfs. */
		if (!strstr(line, " nsfs ") || st_mountinfo_parse(line, &m) < 0 ||
		    strcmp(m.fstype, "nsfs") != 0 || st_nsfs_root_inode(m.root, "net", &ino) < 0)
			continue;
		dev = makedev(m.major, m.minor);
		h.path = m.mountpoint;
		h.mntns = st.st_ino;
		if (st_orphans_add_holder(c->s, dev, ino, &h) < 0 ||
		    st_strset_add(&c->mount_paths, m.mountpoint) < 0) {
			ret = -ENOMEM;
			break;
		}
		/* Open it later from here: the path as this process sees it. */
		if (st.st_ino == c->self_mntns)
			snprintf(open_path, sizeof(open_path), "%s", m.mountpoint);
		else
			snprintf(open_path, sizeof(open_path), "%s/%d/root%s", c->proc, pid, m.mountpoint);
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
	char path[PROC_PATH_MAX];

	if (statx(dirfd(d), name, AT_STATX_DONT_SYNC, STATX_INO, &stx) < 0 ||
	    makedev(stx.stx_dev_major, stx.stx_dev_minor) != c->nsfs_dev)
		return 0;
	snprintf(path, sizeof(path), "%s/%d/fd/%d", c->proc, pid, fd);
	nsfd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	return nsfd >= 0 && ioctl(nsfd, NS_GET_NSTYPE) == CLONE_NEWNET;
}

/* fd @fd of @pid (command @comm) is on the namespace of @st: a holder, and a way to open it. */
static int add_fd_holder(struct scan_ctx *c, pid_t pid, int fd, const char *comm, const struct stat *st)
{
	struct st_holder h = { .kind = ST_HOLDER_FD, .pid = pid, .fd = fd };
	char path[PROC_PATH_MAX];

	snprintf(h.comm, sizeof(h.comm), "%s", comm);
	if (st_orphans_add_holder(c->s, st->st_dev, st->st_ino, &h) < 0)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%d/fd/%d", c->proc, pid, fd);
	set_open_path(st_orphans_get(c->s, st->st_dev, st->st_ino), path);
	return 0;
}

static int scan_fds(struct scan_ctx *c, pid_t pid, const struct stat *own)
{
	_cleanup_(closedirp) DIR *d = NULL;
	_cleanup_close_ int pidfd = -1;
	char path[PROC_PATH_MAX], link[PATH_MAX], comm[16] = "";
	struct stat st;
	struct dirent *e;
	int has_own = own->st_ino != 0;

	snprintf(path, sizeof(path), "%s/%d/fd", c->proc, pid);
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
		/* "net:[INO]" names its namespace; a path must be asked (nsfs_path_fd). */
		if (strncmp(link, "net:[", 5) == 0 ||
		    ((strcmp(link, "/") == 0 || st_strset_has(&c->mount_paths, link)) &&
		     nsfs_path_fd(c, d, e->d_name, pid, fd))) {
			if (link[0] == '/' ? fstatat(dirfd(d), e->d_name, &st, 0) < 0 || st.st_dev != c->nsfs_dev
					   : ns_of_link(c, link, &st) < 0)
				continue;
			if (!comm[0])
				read_comm(c, pid, comm, sizeof(comm));
			if (add_fd_holder(c, pid, fd, comm, &st) < 0)
				return -ENOMEM;
		} else if (sscanf(link, "socket:[%llu]", &sock_ino) == 1) {
			if (!comm[0])
				read_comm(c, pid, comm, sizeof(comm));
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

/*
 * Every process under c->proc, our own mount points first: fds opened
 * through them are recognized wherever they are.
 */
static int scan_processes(struct scan_ctx *c, pid_t self, struct st_error *err)
{
	_cleanup_(closedirp) DIR *proc = NULL;
	struct dirent *e;
	int ret = self > 0 ? scan_mounts(c, self) : 0;

	if (ret < 0)
		return st_error_set(err, -ret, "orphans: %s/self/mountinfo", c->proc);
	proc = opendir(c->proc);
	if (!proc)
		return st_error_set(err, errno, "orphans: %s", c->proc);
	while ((e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		/* Ourselves too: our mount namespace may be one nobody else we can read is in. */
		if (*end || pid <= 0)
			continue;
		ret = scan_process(c, (pid_t)pid);
		if (ret < 0)
			return st_error_set(err, -ret, "orphans: scanning %s", c->proc);
	}
	return 0;
}

static void scan_ctx_free(struct scan_ctx *c)
{
	free(c->mntns);
	free(c->socks);
	st_strset_free(&c->mount_paths);
}

int st_orphans_scan_proc(struct st_orphans *s, const struct st_orphans_proc *p, struct st_error *err)
{
	_cleanup_(scan_ctx_free) struct scan_ctx c = {
		.s = s, .proc = p->root, .nsfs_dev = p->nsfs_dev, .self_mntns = p->self_mntns
	};

	s->self_mntns = p->self_mntns;
	return scan_processes(&c, p->self, err);
}

int st_orphans_scan(struct st_orphans *s, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	_cleanup_(st_orphans_age_free) struct st_orphans_age_job ages = { 0 };
	struct st_orphans_proc proc = { .root = "/proc", .self = getpid() };
	struct stat st;
	int ret;

	s->rootless = st_host_is_rootless();
	s->uid = geteuid();
	if (stat("/proc/self/ns/net", &st) < 0)
		return st_error_set(err, errno, "orphans: /proc/self/ns/net");
	proc.nsfs_dev = st.st_dev;
	if (stat("/proc/self/ns/mnt", &st) == 0)
		proc.self_mntns = st.st_ino;
	s->listns_errno = listns_errno();
	if (!s->rootless && !s->sources_only)
		st_orphans_age_start(&ages);
	ret = st_orphans_scan_proc(s, &proc, err);
	if (ret < 0)
		return ret;
	if (s->sources_only) {
		/* A re-check before --cleanup acts: what holds what, nothing more. */
		st_orphans_classify(s);
		return 0;
	}
	if (!s->rootless)
		st_orphans_mount_ages(s, &ages);
	if (st_nl_open(&nl, err) < 0)
		nl = NULL; /* no nsid, no leftovers: the namespaces are still worth reporting */
	ret = st_orphans_describe(s, nl);
	if (ret < 0)
		return st_error_set(err, -ret, "orphans: describing namespaces");
	if (nl) {
		struct st_error lerr = { 0 };

		/* Only those of a sandboxtime that is gone: a running one's are in use. */
		st_leftover_list(nl, 1, 0, &s->leftovers, &s->nleftovers, &lerr);
	}
	st_error_clear(err);
	st_orphans_classify(s);
	return 0;
}
