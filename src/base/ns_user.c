// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "sandboxtime/ns_user.h"
#include "sandboxtime/util.h"

static int write_proc(pid_t pid, const char *file, const char *data, struct st_error *err)
{
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, file);
	ret = st_write_file(path, data);
	if (ret < 0)
		return st_error_set(err, -ret, "user namespace: writing '%s' to %s", data, path);
	return 0;
}

int st_ns_user_deny_setgroups(pid_t pid, struct st_error *err)
{
	return write_proc(pid, "setgroups", "deny", err);
}

static int write_map(pid_t pid, const char *file, unsigned int outer, int identity,
		     struct st_error *err)
{
	char map[64];

	if (identity)
		snprintf(map, sizeof(map), "0 0 4294967295");
	else
		snprintf(map, sizeof(map), "0 %u 1", outer);
	return write_proc(pid, file, map, err);
}

int st_ns_user_write_uid_map(pid_t pid, uid_t outer, int identity, struct st_error *err)
{
	return write_map(pid, "uid_map", outer, identity, err);
}

int st_ns_user_write_gid_map(pid_t pid, gid_t outer, int identity, struct st_error *err)
{
	return write_map(pid, "gid_map", outer, identity, err);
}

int st_ns_user_map_caller(pid_t pid, struct st_error *err)
{
	int ret = st_ns_user_deny_setgroups(pid, err);

	if (ret == 0)
		ret = st_ns_user_write_uid_map(pid, geteuid(), 0, err);
	if (ret == 0)
		ret = st_ns_user_write_gid_map(pid, getegid(), 0, err);
	return ret;
}
