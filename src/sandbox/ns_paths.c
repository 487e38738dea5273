// SPDX-License-Identifier: MIT
/*
 * linux.maskedPaths and linux.readonlyPaths: what runc spec hides in /proc
 * and /sys (kcore, keys, timer_list, firmware, ...) and what it leaves
 * readable only (/proc/sys, sysrq-trigger, ...).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/ns_paths.h"

/* @path opened without following it out of the root (it is "/" now); -1 with errno. */
static int open_path(const char *path)
{
	return open(path, O_PATH | O_CLOEXEC);
}

static int mask_one(const char *path, struct st_error *err)
{
	_cleanup_close_ int fd = open_path(path);
	char target[64];
	struct stat st;
	int r;

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		return st_error_set(err, errno, "maskedPaths: %s", path);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	if (S_ISDIR(st.st_mode))
		r = mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	else
		r = mount("/dev/null", target, NULL, MS_BIND, NULL);
	if (r < 0)
		return st_error_set(err, errno, "maskedPaths: %s%s", path,
				    S_ISDIR(st.st_mode) ? "" : " (binding /dev/null on it)");
	return 0;
}

static int readonly_one(const char *path, struct st_error *err)
{
	_cleanup_close_ int fd = open_path(path), again = -1;
	char target[64];

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return st_error_set(err, errno, "readonlyPaths: %s", path);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	if (mount(target, target, NULL, MS_BIND | MS_REC, NULL) < 0)
		return st_error_set(err, errno, "readonlyPaths: %s", path);
	/* Reopened: the first fd is beneath the new mount. */
	again = open_path(path);
	if (again < 0)
		return st_error_set(err, errno, "readonlyPaths: %s", path);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", again);
	if (st_mount_remount(target, MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, err) < 0)
		return st_error_wrap(err, "readonlyPaths: %s", path);
	return 0;
}

static int each(char *const *paths, int (*fn)(const char *, struct st_error *),
		struct st_error *err)
{
	for (size_t i = 0; paths && paths[i]; i++) {
		int r = fn(paths[i], err);

		if (r < 0)
			return r;
	}
	return 0;
}

int st_ns_paths_apply(const struct st_mount_plan *p, struct st_steps *steps, struct st_error *err)
{
	int ret = 0;

	if (p->masked)
		ret = ST_TIMED_STEP(steps, err, "masked_paths", each(p->masked, mask_one, err));
	if (ret == 0 && p->readonly_paths)
		ret = ST_TIMED_STEP(steps, err, "readonly_paths",
				    each(p->readonly_paths, readonly_one, err));
	return ret;
}
