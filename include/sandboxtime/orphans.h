/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_ORPHANS_H
#define SANDBOXTIME_ORPHANS_H

#include <stdint.h>
#include <sys/types.h>

#include "sandboxtime/error.h"
#include "sandboxtime/leftover.h"

/*
 * Network namespaces and what keeps them alive, from util-linux lsns's
 * sources: processes and threads (/proc/PID/task/TID/ns/net), open fds on
 * nsfs files and sockets (SIOCGSKNS), and nsfs bind mounts in every mount
 * namespace. A namespace is (st_dev, st_ino) of its nsfs file, never a path.
 *
 * The model (add, classify) is pure, so that unit tests build sources by
 * hand; st_orphans_scan() fills it from /proc.
 */
enum st_holder_kind {
	ST_HOLDER_MOUNT,
	ST_HOLDER_FD,
	ST_HOLDER_SOCKET,
};

struct st_holder {
	enum st_holder_kind kind;
	pid_t pid;        /* fd, socket */
	int fd;           /* fd, socket */
	char comm[16];    /* fd, socket */
	char *path;       /* mount: the mount point, in namespace mntns (owned) */
	uint64_t mntns;   /* mount: inode of the mount namespace */
};

enum st_netns_state {
	ST_NETNS_ACTIVE,
	ST_NETNS_ORPHAN,
	ST_NETNS_HIDDEN,     /* listns(2), Linux 6.19+: never set on older kernels */
	ST_NETNS_UNVERIFIED, /* rootless: held, but an unreadable process may live in it */
};

extern const char *const st_netns_state_names[];
extern const char *const st_holder_kind_names[];

struct st_netns {
	uint64_t dev;
	uint64_t ino;
	size_t processes;     /* distinct processes with a thread in it */
	pid_t last_pid;       /* to count a process once, whatever its threads */
	struct st_holder *holders;
	size_t nholders;
	enum st_netns_state state;
	char **interfaces;    /* NULL: unknown (rootless, or it went away) */
	size_t ninterfaces;
	int nsid;             /* -1: none assigned (JSON null) */
	int owner_uid;        /* uid owning its user namespace, -1 unknown */
	/*
	 * Seconds since the youngest of its mount point files in our mount
	 * namespace changed (their ctime, under the nsfs mount): the kernel
	 * records no time for a mount or an fd. < 0: unknown. Root only, and
	 * only for namespaces no process lives in.
	 */
	double age_s;
	/* How to open it again: a path, or a socket (pid, fd) for pidfd_getfd. */
	char *open_path;
	pid_t sock_pid;
	int sock_fd;
};

struct st_orphans {
	struct st_netns *v;
	size_t n, cap;
	size_t hint; /* index of the last namespace looked up */
	size_t active, orphans, unverified;
	size_t unreadable_processes;
	size_t sockets_unchecked; /* pidfd_getfd refused: their netns is not known */
	int rootless;
	uid_t uid;
	uint64_t self_mntns; /* our mount namespace's inode: mounts we can reach */
	int sources_only;    /* set before a scan: no interfaces, nsid, ages, leftovers */
	int listns_errno;    /* why the kernel's own list was not read (ENOSYS: before 6.19) */
	struct st_leftover_link *leftovers; /* of gone sandboxtimes (leftover.h) */
	size_t nleftovers;
};

/* The namespace (@dev, @ino), added if new; NULL when out of memory. */
struct st_netns *st_orphans_get(struct st_orphans *s, uint64_t dev, uint64_t ino);

/* Process @pid (one of its threads) lives in (@dev, @ino). Counted once per pid. */
int st_orphans_add_process(struct st_orphans *s, uint64_t dev, uint64_t ino, pid_t pid);

/* @h holds (@dev, @ino); h->path is copied. */
int st_orphans_add_holder(struct st_orphans *s, uint64_t dev, uint64_t ino,
			  const struct st_holder *h);

/*
 * Sets each namespace's state and the counts, then sorts: orphans first,
 * then by inode. Rootless with unreadable processes, a namespace that no
 * visible process lives in is an orphan only when its user namespace is
 * the caller's (owner_uid); otherwise it is unverified: not an orphan. Pure.
 */
void st_orphans_classify(struct st_orphans *s);

void st_orphans_free(struct st_orphans *s);

/* "mount:/run/netns/x", "fd:1234/7(bash)", "socket:1234/3(sshd)": for table, CSV and labels. */
void st_holder_text(const struct st_holder *h, char *buf, size_t len);

/*
 * Scans this host (as far as the caller may see): every source once, then
 * interfaces (root: from short-lived threads that enter each namespace), nsid
 * and the stv/stbr leftovers of sandboxtime in our own namespace. Then
 * classifies.
 */
int st_orphans_scan(struct st_orphans *s, struct st_error *err);

/*
 * The sources alone (orphans_scan.c), from the process tree under @root
 * ("/proc", or a fixture tree for tests): namespace links, fds and
 * mountinfo. Namespace files are told apart by the text of their links
 * ("net:[INO]"), all on nsfs device @nsfs_dev; @self_mntns is our mount
 * namespace's inode, and @self (0: none) a process whose mounts are read
 * first. No describing, no classifying.
 */
struct st_orphans_proc {
	const char *root;
	uint64_t nsfs_dev;
	uint64_t self_mntns;
	pid_t self;
};

int st_orphans_scan_proc(struct st_orphans *s, const struct st_orphans_proc *p,
			 struct st_error *err);

#endif
