// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/ns_dev.h"
#include "sandboxtime/ns_mount.h"
#include "sandboxtime/util.h"

/*
 * In a chroot whose root is not a mount point, "/" cannot be made private
 * (EINVAL): make every mount this process can see private instead, which
 * covers /proc, the only place the sandbox mounts on without a rootfs.
 */
static int make_visible_private(struct st_error *err)
{
	char line[4096], mnt[PATH_MAX];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = 0;

	if (!f)
		return st_error_set(err, errno, "mount: making / private: reading mountinfo");
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		/* mountinfo escapes spaces as \040: such a path is left as it is. */
		if (!strchr(mnt, '\\') && mount(NULL, mnt, NULL, MS_REC | MS_PRIVATE, NULL) < 0 &&
		    errno != ENOENT && errno != EINVAL)
			ret = st_error_set(err, errno, "mount: making %s private (in a chroot)", mnt);
	}
	fclose(f);
	return ret;
}

int st_ns_mount_make_private(struct st_error *err)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return 0;
	if (errno == EINVAL)
		return make_visible_private(err);
	return st_error_set(err, errno, "mount: making / private");
}

int st_ns_mount_proc(struct st_error *err)
{
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return st_error_set(err, errno, "mount: fresh /proc");
	return 0;
}

/* The options of mount(8) that are flags; others with '=' go to the filesystem. */
static const struct {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
	{ "ro", MS_RDONLY, 0 },
	{ "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },
	{ "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },
	{ "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },
	{ "exec", 0, MS_NOEXEC },
	{ "noatime", MS_NOATIME, 0 },
	{ "nodiratime", MS_NODIRATIME, 0 },
	{ "relatime", MS_RELATIME, 0 },
	{ "strictatime", MS_STRICTATIME, 0 },
	{ "sync", MS_SYNCHRONOUS, 0 },
	{ "async", 0, MS_SYNCHRONOUS },
	{ "bind", 0, 0 },
	{ "defaults", 0, 0 },
	/* Every mount here is private already (mount_private): saying so changes nothing. */
	{ "private", 0, 0 },
	{ "rprivate", 0, 0 },
};

static const char *const type_names[ST_MOUNT_NTYPES] = {
	[ST_MOUNT_BIND] = "bind",     [ST_MOUNT_TMPFS] = "tmpfs",   [ST_MOUNT_PROC] = "proc",
	[ST_MOUNT_DEVPTS] = "devpts", [ST_MOUNT_MQUEUE] = "mqueue", [ST_MOUNT_SYSFS] = "sysfs",
	[ST_MOUNT_CGROUP] = "cgroup", [ST_MOUNT_CGROUP2] = "cgroup2",
};

const char *st_mount_type_name(enum st_mount_type t)
{
	return t < ST_MOUNT_NTYPES ? type_names[t] : "?";
}

int st_mount_type_parse(const char *name, enum st_mount_type *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(type_names); i++) {
		if (strcmp(name, type_names[i]) == 0) {
			*out = (enum st_mount_type)i;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * The filesystem options each type takes; NULL: any "key=value" (tmpfs and
 * proc check them themselves). mqueue, sysfs and cgroup are bound or
 * mounted without options, so any is refused rather than dropped.
 */
static int data_option_ok(enum st_mount_type t, const char *opt)
{
	static const char *const devpts[] = { "newinstance", "ptmxmode=", "mode=", "gid=",
					      "uid=",	     "max=" };

	if (t == ST_MOUNT_TMPFS || t == ST_MOUNT_PROC)
		return strchr(opt, '=') && opt[0] != '=';
	if (t != ST_MOUNT_DEVPTS)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(devpts); i++) {
		size_t n = strlen(devpts[i]);

		if (devpts[i][n - 1] == '=' ? strncmp(opt, devpts[i], n) == 0 && opt[n]
					    : strcmp(opt, devpts[i]) == 0)
			return 1;
	}
	return 0;
}

int st_mount_option(struct st_mount *m, const char *opt)
{
	size_t used = strlen(m->data);

	if (strcmp(opt, "rbind") == 0) {
		m->recursive = 1;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(mount_flags); i++) {
		if (strcmp(opt, mount_flags[i].name) == 0) {
			m->flags = (m->flags | mount_flags[i].set) & ~mount_flags[i].clear;
			return 0;
		}
	}
	if (strchr(opt, ',') || !data_option_ok(m->type, opt))
		return -EINVAL;
	if (used + !!used + strlen(opt) >= sizeof(m->data))
		return -E2BIG;
	snprintf(m->data + used, sizeof(m->data) - used, "%s%s", used ? "," : "", opt);
	return 0;
}

int st_mount_dest_ok(const char *dest)
{
	size_t len;

	return dest[0] == '/' && !st_path_dot_component(dest, &len);
}

/* True when @dest is "/@name" (one component), however many slashes it has. */
static int dest_is(const char *dest, const char *name)
{
	const char *d = dest + strspn(dest, "/");
	size_t n = strlen(name);

	return strncmp(d, name, n) == 0 && d[n + strspn(d + n, "/")] == '\0';
}

int st_mount_plan_has_proc(const struct st_mount_plan *p)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (dest_is(p->v[i].dest, "proc"))
			return 1;
	return 0;
}

/*
 * The default devices go into a /dev that the config mounts fresh (tmpfs,
 * as runc spec's): a /dev bound from somewhere has its own already.
 */
static int wants_dev(const struct st_mount_plan *p)
{
	int fresh = 0;

	for (size_t i = 0; p->root && i < p->n; i++)
		if (dest_is(p->v[i].dest, "dev"))
			fresh = p->v[i].type != ST_MOUNT_BIND;
	return fresh;
}

/*
 * @path (relative to @rootfd) resolved as if @rootfd were "/": symlinks and
 * ".." stay inside it, as crun and runc resolve mount destinations.
 */
static int open_in_root(int rootfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	while (*path == '/')
		path++;
	return (int)syscall(SYS_openat2, rootfd, *path ? path : ".", &how, sizeof(how));
}

/* Creates what is missing of @dest in the root: directories, and the last part as a file if @file.
 */
static int make_dest(int rootfd, const char *dest, int file, struct st_error *err)
{
	char path[4096];
	size_t len = strlen(dest);

	if (len >= sizeof(path))
		return st_error_set(err, ENAMETOOLONG, "%s", dest);
	memcpy(path, dest, len + 1);
	for (char *slash = path + 1;; slash++) {
		_cleanup_close_ int parent = -1;
		char *end = strchr(slash, '/');
		char *name;
		int r;

		if (end)
			*end = '\0';
		name = strrchr(path, '/') + 1;
		if (*name) {
			char saved = name[-1];

			name[-1] = '\0';
			parent = open_in_root(rootfd, path, O_PATH | O_DIRECTORY);
			name[-1] = saved;
			if (parent < 0)
				return st_error_set(err, errno, "%s", dest);
			if (!end && file)
				r = mknodat(parent, name, S_IFREG | 0644, 0);
			else
				r = mkdirat(parent, name, 0755);
			if (r < 0 && errno != EEXIST)
				return st_error_set(err, errno, "creating %s in the root", path);
		}
		if (!end)
			return 0;
		*end = '/';
		slash = end;
	}
}

/*
 * The flags a remount must keep: in a user namespace the kernel refuses to
 * clear nosuid, nodev, noexec or the atime mode that the source mount had
 * (they are locked), so a remount read-only repeats them.
 */
static unsigned long locked_flags(const char *path)
{
	static const struct {
		unsigned long st, ms;
	} map[] = {
		{ ST_NOSUID, MS_NOSUID },	  { ST_NODEV, MS_NODEV },
		{ ST_NOEXEC, MS_NOEXEC },	  { ST_NOATIME, MS_NOATIME },
		{ ST_NODIRATIME, MS_NODIRATIME }, { ST_RELATIME, MS_RELATIME },
		{ ST_RDONLY, MS_RDONLY },
	};
	unsigned long flags = 0;
	struct statvfs sv;

	if (statvfs(path, &sv) < 0)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (sv.f_flag & map[i].st)
			flags |= map[i].ms;
	return flags;
}

int st_mount_remount(const char *path, unsigned long flags, struct st_error *err)
{
	flags |= locked_flags(path);
	if (mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | flags, NULL) < 0)
		return st_error_set(err, errno, "remounting %s", path);
	return 0;
}

/* MS_* flags as mount_setattr(2) attributes, for a whole bound tree. */
static int set_tree_flags(int fd, unsigned long flags)
{
	struct mount_attr attr = { 0 };

	if (flags & MS_RDONLY)
		attr.attr_set |= MOUNT_ATTR_RDONLY;
	if (flags & MS_NOSUID)
		attr.attr_set |= MOUNT_ATTR_NOSUID;
	if (flags & MS_NODEV)
		attr.attr_set |= MOUNT_ATTR_NODEV;
	if (flags & MS_NOEXEC)
		attr.attr_set |= MOUNT_ATTR_NOEXEC;
	if (!attr.attr_set)
		return 0;
	return mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr));
}

/*
 * The host's tree at @host bound on @target with every mount beneath it,
 * and the flags set on all of them: what rootless runtimes do for /sys.
 */
static int bind_tree(const char *host, int rootfd, const struct st_mount *m, const char *target)
{
	_cleanup_close_ int again = -1;

	if (mount(host, target, NULL, MS_BIND | MS_REC, NULL) < 0)
		return -1;
	/* Reopened: the caller's fd is beneath the new mount. */
	again = open_in_root(rootfd, m->dest, O_PATH);
	if (again < 0)
		return -1;
	return set_tree_flags(again, m->flags);
}

/*
 * A new filesystem of @m's type on @target. sysfs: a new one needs the
 * network namespace's owner (a rootless sandbox without its own network
 * namespace is refused, EPERM), so then the host's /sys is bound, as
 * rootless runc and crun do. cgroup, cgroup2: sandboxtime makes no cgroup
 * of its own (yet), and outside a cgroup namespace a new cgroup v1 or v2
 * mount would show the host's hierarchies anyway; on a hybrid host
 * (v1 controllers under a tmpfs, as here) a cgroup2 mount would show only
 * the empty unified one. So both bind the host's /sys/fs/cgroup tree, the
 * same view as root and rootless.
 */
/* @opts ("a,b=1,c") without the options that start with @prefix, into @out. */
static void drop_option(const char *opts, const char *prefix, char *out, size_t len)
{
	size_t n = 0, plen = strlen(prefix);

	out[0] = '\0';
	for (const char *o = opts; *o; o += strcspn(o, ","), o += *o == ',') {
		size_t olen = strcspn(o, ",");

		if (strncmp(o, prefix, plen) != 0 && n < len)
			n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? "," : "", (int)olen, o);
	}
}

static int mount_fs(const struct st_mount *m, int rootfd, const char *target)
{
	const char *data = m->data[0] ? m->data : NULL;

	if (m->type == ST_MOUNT_CGROUP || m->type == ST_MOUNT_CGROUP2)
		return bind_tree("/sys/fs/cgroup", rootfd, m, target);
	if (mount(m->source ? m->source : type_names[m->type], target, type_names[m->type], m->flags,
		  data) == 0)
		return 0;
	if (m->type == ST_MOUNT_SYSFS && errno == EPERM)
		return bind_tree("/sys", rootfd, m, target);
	/*
	 * devpts refuses a gid= the namespace that owns it cannot map (root
	 * of rootless podman's user namespace, gid=5): without it, as runc
	 * and crun retry, the ptys get the creating process's group.
	 */
	if (m->type == ST_MOUNT_DEVPTS && errno == EINVAL && data && strstr(data, "gid=")) {
		char without[sizeof(m->data)];

		drop_option(data, "gid=", without, sizeof(without));
		return mount(type_names[m->type], target, type_names[m->type], m->flags, without);
	}
	return -1;
}

static int mount_one(int rootfd, const struct st_mount *m, int create, struct st_error *err)
{
	_cleanup_close_ int fd = -1, again = -1;
	unsigned long per_mount = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME |
				  MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME;
	char target[64];
	struct stat st;
	int r;

	if (m->type == ST_MOUNT_BIND && stat(m->source, &st) < 0)
		return st_error_set(err, errno, "bind source %s", m->source);
	fd = open_in_root(rootfd, m->dest, O_PATH);
	if (fd < 0 && errno == ENOENT && create) {
		r = make_dest(rootfd, m->dest, m->type == ST_MOUNT_BIND && !S_ISDIR(st.st_mode),
			      err);
		if (r < 0)
			return r;
		fd = open_in_root(rootfd, m->dest, O_PATH);
	}
	if (fd < 0)
		return st_error_set(
		    err, errno, "%s on %s%s", st_mount_type_name(m->type), m->dest,
		    errno == ENOENT ? " (it does not exist; create it, or give root.path)" : "");
	/* The fd, not the path: what was resolved inside the root is what gets the mount. */
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	if (m->type != ST_MOUNT_BIND)
		r = mount_fs(m, rootfd, target);
	else
		r = mount(m->source, target, NULL, MS_BIND | (m->recursive ? MS_REC : 0), NULL);
	if (r < 0)
		return st_error_set(err, errno, "%s on %s", st_mount_type_name(m->type), m->dest);
	if (m->type != ST_MOUNT_BIND || !(m->flags & per_mount))
		return 0;
	/* A bind takes its flags only by a remount of the new mount (reopened: fd is beneath it).
	 */
	again = open_in_root(rootfd, m->dest, O_PATH);
	if (again < 0)
		return st_error_set(err, errno, "bind on %s", m->dest);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", again);
	r = st_mount_remount(target, m->flags & per_mount, err);
	return r < 0 ? st_error_wrap(err, "bind on %s", m->dest) : 0;
}

static int apply_mounts(int rootfd, const struct st_mount_plan *p, struct st_error *err)
{
	for (size_t i = 0; i < p->n; i++) {
		int r = mount_one(rootfd, &p->v[i], p->root != NULL, err);

		if (r < 0)
			return st_error_wrap(err, "%s: .mounts[%zu]", p->file ? p->file : "config",
					     i);
	}
	return 0;
}

/* The idiom of crun and runc: no directory for the old root is needed, nor left. */
static int pivot(int rootfd, struct st_error *err)
{
	if (fchdir(rootfd) < 0)
		return st_error_set(err, errno, "chdir to the root");
	if (syscall(SYS_pivot_root, ".", ".") < 0)
		return st_error_set(err, errno, "pivot_root");
	return 0;
}

/*
 * The old root is now stacked on "."; detach it, and every host mount with
 * it. A step of its own: a lazy unmount waits for an RCU grace period.
 */
static int detach_old_root(struct st_error *err)
{
	if (umount2(".", MNT_DETACH) < 0)
		return st_error_set(err, errno, "detaching the old root");
	if (chdir("/") < 0)
		return st_error_set(err, errno, "chdir /");
	return 0;
}

static int bind_root(const char *root, struct st_error *err)
{
	/* pivot_root needs a mount point; MS_REC keeps what is mounted beneath the root. */
	if (mount(root, root, NULL, MS_BIND | MS_REC, NULL) < 0)
		return st_error_set(err, errno, "bind-mounting the root %s onto itself", root);
	return 0;
}

static int populate_dev(int rootfd, struct st_error *err)
{
	_cleanup_close_ int devfd = open_in_root(rootfd, "dev", O_PATH | O_DIRECTORY);

	if (devfd < 0)
		return st_error_set(err, errno, "/dev in the root");
	return st_ns_dev_populate(devfd, err);
}

int st_ns_mount_apply(const struct st_mount_plan *p, struct st_steps *steps, struct st_error *err)
{
	_cleanup_close_ int rootfd = -1;
	int ret = 0;

	if (p->root)
		ret = ST_TIMED_STEP(steps, err, "root_bind", bind_root(p->root, err));
	if (ret < 0)
		return ret;
	/* Opened after the bind, so that the mounts go onto the new mount, not beneath it. */
	rootfd = open(p->root ? p->root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return st_error_set(err, errno, "root %s", p->root ? p->root : "/");
	if (p->n)
		ret = ST_TIMED_STEP(steps, err, "mount_apply", apply_mounts(rootfd, p, err));
	if (ret == 0 && wants_dev(p))
		ret = ST_TIMED_STEP(steps, err, "dev_populate", populate_dev(rootfd, err));
	if (ret == 0 && p->root)
		ret = ST_TIMED_STEP(steps, err, "pivot_root", pivot(rootfd, err));
	if (ret == 0 && p->root)
		ret = ST_TIMED_STEP(steps, err, "old_root_detach", detach_old_root(err));
	if (ret == 0 && p->readonly)
		ret = ST_TIMED_STEP(steps, err, "root_readonly", st_mount_remount("/", MS_RDONLY, err));
	return ret;
}

void st_mount_plan_free(struct st_mount_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].dest);
		free(p->v[i].source);
	}
	free(p->v);
	free(p->root);
	free(p->file);
	st_strv_free(p->masked);
	st_strv_free(p->readonly_paths);
	memset(p, 0, sizeof(*p));
}
