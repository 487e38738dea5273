// SPDX-License-Identifier: MIT
#include <sys/mount.h>

#include "sandboxtime/ns_mount.h"

int st_ns_mount_make_private(struct st_error *err)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return st_error_set(err, errno, "mount: making / private");
	return 0;
}

int st_ns_mount_proc(struct st_error *err)
{
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return st_error_set(err, errno, "mount: fresh /proc");
	return 0;
}
