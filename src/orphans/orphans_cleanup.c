// SPDX-License-Identifier: MIT
/*
 * orphans --cleanup: what may be removed (pure), and removing it: the bind
 * mounts that alone keep orphaned network namespaces alive. (Not the
 * `cleanup` command, which deletes the links of killed runs, leftover.c;
 * nor a run's teardown of what it made itself, sandbox.c and ns_net.c.)
 *
 * Removal is `ip netns del` made careful: a plain umount(2), not MNT_DETACH,
 * so that a file opened through the mount since the re-check (a new holder)
 * makes the kernel refuse with EBUSY instead of hiding the mount while the
 * namespace lives on; then unlink(2) of the mount point only when it is an
 * empty regular file under a directory cleanup may act in.
 *
 * Mounts in other mount namespaces are left alone: whether such a mount is
 * a propagated copy of ours or that namespace's own (a container's, a
 * service's private /run) cannot be told from mountinfo, and acting in
 * another process's view of the file system is its owner's business. Such
 * a namespace is skipped, with the mount namespace named in the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/orphans_cleanup.h"
#include "sandboxtime/procfs.h"
#include "sandboxtime/util.h"

#ifndef UMOUNT_NOFOLLOW
#define UMOUNT_NOFOLLOW 8
#endif

const char *const st_cleanup_result_names[] = {
	[ST_CLEANUP_REMOVED] = "removed", [ST_CLEANUP_WOULD_REMOVE] = "would remove",
	[ST_CLEANUP_SKIPPED] = "skipped", [ST_CLEANUP_FAILED] = "failed",
	[ST_CLEANUP_GONE] = "gone",
};

const char *const st_cleanup_op_names[] = {
	[ST_CLEANUP_UMOUNT] = "umount",
	[ST_CLEANUP_UNLINK] = "unlink",
	[ST_CLEANUP_KEEP] = "keep",
};

static const char *const default_roots[] = { "/run/netns", "/var/run/netns" };

static int add_root(struct st_cleanup *c, const char *canonical)
{
	char **v;

	for (size_t i = 0; i < c->nroots; i++)
		if (strcmp(c->roots[i], canonical) == 0)
			return 0;
	v = realloc(c->roots, (c->nroots + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	c->roots = v;
	if (!(v[c->nroots] = strdup(canonical)))
		return -ENOMEM;
	c->nroots++;
	return 0;
}

int st_cleanup_roots(struct st_cleanup *c, const char *const *extra, size_t nextra,
		     struct st_error *err)
{
	char real[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(default_roots); i++)
		if (realpath(default_roots[i], real) && add_root(c, real) < 0)
			return st_error_set(err, ENOMEM, "orphans --cleanup");
	for (size_t i = 0; i < nextra; i++) {
		if (!realpath(extra[i], real) || stat(real, &st) < 0)
			return st_error_usage(err,
					      "--cleanup-path: %s: %s (give an existing directory)",
					      extra[i], strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return st_error_usage(err, "--cleanup-path: %s is not a directory",
					      extra[i]);
		if (add_root(c, real) < 0)
			return st_error_set(err, ENOMEM, "orphans --cleanup");
	}
	return 0;
}

int st_cleanup_path_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return path[0] == '/' && path[1] != '\0';
	return strncmp(path, root, n) == 0 && path[n] == '/' && path[n + 1] != '\0';
}

static int under_roots(const char *path, char *const *roots, size_t nroots)
{
	for (size_t i = 0; i < nroots; i++)
		if (st_cleanup_path_under(path, roots[i]))
			return 1;
	return 0;
}

int st_cleanup_eligible(const struct st_netns *ns, uint64_t self_mntns, unsigned int min_age_s,
			char *const *roots, size_t nroots, char *why, size_t len)
{
	size_t mounts = 0;

	why[0] = '\0';
	if (ns->state != ST_NETNS_ORPHAN || ns->processes) {
		snprintf(why, len, "not an orphan: %s", st_netns_state_names[ns->state]);
		return 0;
	}
	for (size_t i = 0; i < ns->nholders; i++) {
		const struct st_holder *h = &ns->holders[i];
		char text[PATH_MAX + 64];

		st_holder_text(h, text, sizeof(text));
		if (h->kind != ST_HOLDER_MOUNT) {
			snprintf(why, len, "held by %s, not only by bind mounts", text);
			return 0;
		}
		if (h->mntns != self_mntns) {
			snprintf(why, len,
				 "also mounted in mount namespace %llu at %s: not entered (its "
				 "owner, or nsenter --mount, may unmount it there)",
				 (unsigned long long)h->mntns, h->path ? h->path : "?");
			return 0;
		}
		if (!h->path || !under_roots(h->path, roots, nroots)) {
			snprintf(why, len,
				 "mounted at %s, outside /run/netns and every --cleanup-path",
				 h->path ? h->path : "?");
			return 0;
		}
		mounts++;
	}
	if (!mounts) {
		snprintf(why, len, "held by nothing cleanup can remove");
		return 0;
	}
	if (ns->age_s < 0) {
		snprintf(why, len,
			 "age unknown (the mount point file's ctime could not be read): kept");
		return 0;
	}
	if (ns->age_s < (double)min_age_s) {
		snprintf(why, len, "younger than --min-age: %.0f s < %u s", ns->age_s, min_age_s);
		return 0;
	}
	return 1;
}

static struct st_cleanup_action *add_action(struct st_cleanup *c, const struct st_netns *ns)
{
	struct st_cleanup_action *v = realloc(c->v, (c->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	c->v = v;
	memset(&v[c->n], 0, sizeof(v[c->n]));
	v[c->n].dev = ns->dev;
	v[c->n].ino = ns->ino;
	return &v[c->n++];
}

static int add_step(struct st_cleanup_action *a, enum st_cleanup_op op, const char *path,
		    const char *why)
{
	struct st_cleanup_step *v = realloc(a->steps, (a->nsteps + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	a->steps = v;
	v[a->nsteps] = (struct st_cleanup_step){ .op = op };
	if (!(v[a->nsteps].path = strdup(path)) || (why && !(v[a->nsteps].why = strdup(why)))) {
		free(v[a->nsteps].path);
		return -ENOMEM;
	}
	a->nsteps++;
	return 0;
}

/* Whether holder @k is the last mount holder of @ns at its path (stacked mounts share one). */
static int last_at_path(const struct st_netns *ns, size_t k)
{
	for (size_t i = k + 1; i < ns->nholders; i++)
		if (strcmp(ns->holders[i].path, ns->holders[k].path) == 0)
			return 0;
	return 1;
}

/*
 * The directory of @path, opened without following a symbolic link that was
 * put in its place since the scan: /proc/self/fd shows where it really is.
 */
static int open_parent(const char *path, const char **base)
{
	_cleanup_close_ int fd = -1;
	char dir[PATH_MAX], link[64], real[PATH_MAX];
	const char *name;
	ssize_t n;

	if (st_mountpoint_split(path, dir, sizeof(dir), &name) < 0)
		return -EINVAL;
	fd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n < 0)
		return -errno;
	real[n] = '\0';
	if (strcmp(real, dir) != 0)
		return -ELOOP;
	*base = name;
	return take_fd(&fd);
}

/* The mount point file, now bare: unlinked when it is an empty regular file, else kept (a step says
 * why). */
static int remove_file(struct st_cleanup_action *a, int dfd, const char *base, const char *path)
{
	struct statx stx;
	const char *why = NULL;

	if (statx(dfd, base, AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_SIZE, &stx) < 0)
		return errno == ENOENT ? 0 : add_step(a, ST_CLEANUP_KEEP, path, strerror(errno));
	if (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT)
		why = "still a mount point";
	else if (!S_ISREG(stx.stx_mode))
		why = "not a regular file";
	else if (stx.stx_size != 0)
		why = "not empty";
	else if (unlinkat(dfd, base, 0) < 0)
		why = strerror(errno);
	return add_step(a, why ? ST_CLEANUP_KEEP : ST_CLEANUP_UNLINK, path, why);
}

static int unmounted_before(const struct st_cleanup_action *a)
{
	for (size_t k = 0; k < a->nsteps; k++)
		if (a->steps[k].op == ST_CLEANUP_UMOUNT)
			return 1;
	return 0;
}

/* Unmounts one mount holder of @ns at @path, checked to still be @ns; unlinks when @last. */
static int remove_mount(struct st_cleanup_action *a, const struct st_netns *ns, const char *path,
			int last)
{
	_cleanup_close_ int dfd = -1;
	char at[PATH_MAX + 64];
	const char *base = NULL;
	struct stat st;

	dfd = open_parent(path, &base);
	if (dfd < 0) {
		snprintf(a->reason, sizeof(a->reason), "%s: its directory: %s", path,
			 strerror(-dfd));
		return -1;
	}
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != ns->dev ||
	    st.st_ino != ns->ino) {
		/*
		 * An earlier umount of this namespace may have taken this mount
		 * with it: mount propagation between peers (/var/run/netns bound
		 * on /run/netns, a shared /run/netns).
		 */
		if (unmounted_before(a)) {
			if (add_step(a, ST_CLEANUP_UMOUNT, path,
				     "gone with an earlier umount (mount propagation)") < 0)
				return -ENOMEM;
			return last ? remove_file(a, dfd, base, path) : 0;
		}
		snprintf(a->reason, sizeof(a->reason), "%s no longer names this namespace", path);
		return -1;
	}
	snprintf(at, sizeof(at), "/proc/self/fd/%d/%s", dfd, base);
	if (umount2(at, UMOUNT_NOFOLLOW) < 0) {
		snprintf(a->reason, sizeof(a->reason), "umount %s: %s%s", path, strerror(errno),
			 errno == EBUSY ? " (opened since the scan: left alone)" : "");
		return -1;
	}
	if (add_step(a, ST_CLEANUP_UMOUNT, path, NULL) < 0)
		return -ENOMEM;
	return last ? remove_file(a, dfd, base, path) : 0;
}

static int plan(struct st_cleanup_action *a, const struct st_netns *ns)
{
	for (size_t k = 0; k < ns->nholders; k++) {
		if (add_step(a, ST_CLEANUP_UMOUNT, ns->holders[k].path, NULL) < 0)
			return -ENOMEM;
		if (last_at_path(ns, k) && add_step(a, ST_CLEANUP_UNLINK, ns->holders[k].path,
						    "if an empty regular file") < 0)
			return -ENOMEM;
	}
	a->result = ST_CLEANUP_WOULD_REMOVE;
	return 0;
}

static int act(struct st_cleanup_action *a, const struct st_netns *ns)
{
	for (size_t k = 0; k < ns->nholders; k++) {
		int ret = remove_mount(a, ns, ns->holders[k].path, last_at_path(ns, k));

		if (ret == -ENOMEM)
			return ret;
		if (ret < 0) {
			a->result = ST_CLEANUP_FAILED;
			return 0;
		}
	}
	a->result = ST_CLEANUP_REMOVED;
	return 0;
}

static void free_steps(struct st_cleanup_action *a)
{
	for (size_t k = 0; k < a->nsteps; k++) {
		free(a->steps[k].path);
		free(a->steps[k].why);
	}
	free(a->steps);
	a->steps = NULL;
	a->nsteps = 0;
}

static const struct st_netns *find(const struct st_orphans *s, uint64_t dev, uint64_t ino)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].dev == dev && s->v[i].ino == ino)
			return &s->v[i];
	return NULL;
}

/*
 * The re-check: a fresh scan of every source, right before acting, for what
 * came since the report's scan (a process that entered, an fd, a new mount).
 * The age stays the first scan's: the files' ctimes have not moved.
 */
static int recheck_and_act(struct st_cleanup *c, const struct st_orphans *scan,
			   struct st_error *err)
{
	struct st_orphans fresh __attribute__((cleanup(st_orphans_free))) = { .sources_only = 1 };
	int ret = st_orphans_scan(&fresh, err);

	if (ret < 0)
		return st_error_wrap(err, "orphans --cleanup: the re-check");
	for (size_t i = 0; i < c->n; i++) {
		struct st_cleanup_action *a = &c->v[i];
		const struct st_netns *now;
		struct st_netns copy;
		char why[ST_CLEANUP_REASON_MAX - 32];

		if (a->result != ST_CLEANUP_WOULD_REMOVE)
			continue;
		free_steps(a); /* the plan: the re-check's holders decide */
		now = find(&fresh, a->dev, a->ino);
		if (!now) {
			a->result = ST_CLEANUP_GONE;
			snprintf(a->reason, sizeof(a->reason),
				 "no longer exists (removed since the scan)");
			continue;
		}
		copy = *now;
		copy.age_s = find(scan, a->dev, a->ino)->age_s;
		if (!st_cleanup_eligible(&copy, scan->self_mntns, c->min_age_s, c->roots, c->nroots,
					 why, sizeof(why))) {
			a->result = ST_CLEANUP_SKIPPED;
			snprintf(a->reason, sizeof(a->reason), "since the scan: %s", why);
			continue;
		}
		ret = act(a, now);
		if (ret < 0)
			return st_error_set(err, -ret, "orphans --cleanup");
	}
	return 0;
}

int st_orphans_cleanup(struct st_cleanup *c, const struct st_orphans *scan, struct st_error *err)
{
	size_t candidates = 0;

	for (size_t i = 0; i < scan->n; i++) {
		const struct st_netns *ns = &scan->v[i];
		struct st_cleanup_action *a;

		if (ns->state != ST_NETNS_ORPHAN)
			continue;
		a = add_action(c, ns);
		if (!a)
			return st_error_set(err, ENOMEM, "orphans --cleanup");
		if (!st_cleanup_eligible(ns, scan->self_mntns, c->min_age_s, c->roots, c->nroots,
					 a->reason, sizeof(a->reason))) {
			a->result = ST_CLEANUP_SKIPPED;
			continue;
		}
		if (plan(a, ns) < 0)
			return st_error_set(err, ENOMEM, "orphans --cleanup");
		candidates++;
	}
	if (candidates && !c->dry_run) {
		int ret = recheck_and_act(c, scan, err);

		if (ret < 0)
			return ret;
	}
	c->removed = c->left = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].result == ST_CLEANUP_REMOVED || c->v[i].result == ST_CLEANUP_GONE)
			c->removed++;
		else
			c->left++;
	}
	return 0;
}

void st_cleanup_free(struct st_cleanup *c)
{
	for (size_t i = 0; i < c->n; i++)
		free_steps(&c->v[i]);
	free(c->v);
	for (size_t i = 0; i < c->nroots; i++)
		free(c->roots[i]);
	free(c->roots);
	memset(c, 0, sizeof(*c));
}
