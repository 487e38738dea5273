/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_MOUNT_H
#define SANDBOXTIME_NS_MOUNT_H

#include <stddef.h>

#include "sandboxtime/error.h"
#include "sandboxtime/steps.h"

/*
 * Makes every mount private (MS_REC|MS_PRIVATE), so that nothing mounted in
 * the sandbox propagates back to the host's shared mounts.
 */
int st_ns_mount_make_private(struct st_error *err);

/*
 * Mounts a fresh /proc, so that it shows the sandbox's pid namespace; must run
 * in a process of that namespace.
 */
int st_ns_mount_proc(struct st_error *err);

/*
 * The mount types of an OCI config.json that sandboxtime applies. sysfs
 * falls back to a recursive bind of the host's /sys where the kernel
 * refuses a new one (a user namespace without its own network namespace);
 * cgroup and cgroup2 always bind the host's /sys/fs/cgroup tree (see
 * mount_cgroup in ns_mount.c for why).
 */
enum st_mount_type {
	ST_MOUNT_BIND,
	ST_MOUNT_TMPFS,
	ST_MOUNT_PROC,
	ST_MOUNT_DEVPTS,
	ST_MOUNT_MQUEUE,
	ST_MOUNT_SYSFS,
	ST_MOUNT_CGROUP,
	ST_MOUNT_CGROUP2,
	ST_MOUNT_NTYPES
};

/* "bind", "tmpfs", ...: the name config.json gives the type. */
const char *st_mount_type_name(enum st_mount_type t);

/* The type named @name ("none" is not one: a bind says so by its options), or -EINVAL. */
int st_mount_type_parse(const char *name, enum st_mount_type *out);

/* One entry of config.json's "mounts", checked and resolved. */
struct st_mount {
	enum st_mount_type type;
	char *dest;	     /* absolute, without "." or ".." components */
	char *source;	     /* bind: an absolute host path; otherwise its label or NULL */
	unsigned long flags; /* MS_RDONLY, MS_NOSUID, ... as the options say */
	int recursive;	     /* rbind */
	char data[256];	     /* filesystem options: "size=64k,mode=755" */
};

/*
 * What a config.json asks of the mount layer: its root (pivot_root into it)
 * and its mounts, in order. root NULL: the host's root stays, no pivot_root.
 */
struct st_mount_plan {
	char *file; /* the config.json it came from, for errors */
	char *root; /* absolute, resolved */
	int readonly;
	size_t n;
	struct st_mount *v;
	char **masked;	       /* linux.maskedPaths, NULL-terminated; NULL if none */
	char **readonly_paths; /* linux.readonlyPaths, the same */
};

/*
 * Applies one mount option ("ro", "nosuid", "rbind", "size=64k", ...) to @m.
 * Returns 0, or -EINVAL for an option sandboxtime does not know (or one that
 * asks for a propagation other than private, which is what it makes).
 */
int st_mount_option(struct st_mount *m, const char *opt);

/* True when @dest is absolute and has no "." or ".." component (cannot climb out). */
int st_mount_dest_ok(const char *dest);

/*
 * In the sandbox's own mount namespace, after st_ns_mount_make_private():
 * makes the root a mount point (root_bind), mounts every entry inside it
 * (mount_apply; destinations resolved with RESOLVE_IN_ROOT, so a symlink in
 * the root cannot lead out of it, and missing directories created in the
 * root only), then pivot_root, old_root_detach (and root_readonly). Each
 * part is a timed step.
 */
int st_ns_mount_apply(const struct st_mount_plan *p, struct st_steps *steps, struct st_error *err);

/*
 * Remounts the mount at @path (a bind) with @flags, keeping the flags that
 * a user namespace may not clear (nosuid, nodev, noexec, atime: locked).
 */
int st_mount_remount(const char *path, unsigned long flags, struct st_error *err);

/* True when the plan mounts something on /proc itself. */
int st_mount_plan_has_proc(const struct st_mount_plan *p);

void st_mount_plan_free(struct st_mount_plan *p);

#endif
