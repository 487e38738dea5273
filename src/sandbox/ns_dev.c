// SPDX-License-Identifier: MIT
/*
 * The runtime spec's default devices in a new root's /dev (config.md,
 * "Default Devices"): what every container may assume is there.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/ns_dev.h"

static const struct {
	const char *name;
	unsigned int major, minor;
} devices[] = {
	{ "null", 1, 3 }, { "zero", 1, 5 },    { "full", 1, 7 },
	{ "random", 1, 8 }, { "urandom", 1, 9 }, { "tty", 5, 0 },
};

static const struct {
	const char *name, *target;
} links[] = {
	{ "ptmx", "pts/ptmx" },		     { "fd", "/proc/self/fd" },
	{ "stdin", "/proc/self/fd/0" },	     { "stdout", "/proc/self/fd/1" },
	{ "stderr", "/proc/self/fd/2" },
};

/* The host's node bound on an empty file of the same name: mknod is not ours to call. */
static int bind_host_node(int devfd, const char *name, struct st_error *err)
{
	_cleanup_close_ int fd = -1;
	char host[64], target[64];

	if (mknodat(devfd, name, S_IFREG | 0644, 0) < 0 && errno != EEXIST)
		return st_error_set(err, errno, "/dev/%s: creating the mount point", name);
	fd = openat(devfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return st_error_set(err, errno, "/dev/%s", name);
	snprintf(host, sizeof(host), "/dev/%s", name);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	if (mount(host, target, NULL, MS_BIND, NULL) < 0)
		return st_error_set(err, errno, "/dev/%s: binding the host's node", name);
	return 0;
}

static int make_device(int devfd, const char *name, dev_t dev, struct st_error *err)
{
	struct stat st;

	if (fstatat(devfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	if (mknodat(devfd, name, S_IFCHR | 0666, dev) == 0) {
		/* The umask took its share of the mode. */
		if (fchmodat(devfd, name, 0666, 0) < 0)
			return st_error_set(err, errno, "/dev/%s: chmod", name);
		return 0;
	}
	/* A user namespace may not make device nodes (EPERM), whatever its capabilities. */
	if (errno != EPERM)
		return st_error_set(err, errno, "/dev/%s: mknod", name);
	return bind_host_node(devfd, name, err);
}

int st_ns_dev_populate(int devfd, struct st_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(devices); i++) {
		int r = make_device(devfd, devices[i].name,
				    makedev(devices[i].major, devices[i].minor), err);

		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < ARRAY_SIZE(links); i++)
		if (symlinkat(links[i].target, devfd, links[i].name) < 0 && errno != EEXIST)
			return st_error_set(err, errno, "/dev/%s: symlink", links[i].name);
	return 0;
}
