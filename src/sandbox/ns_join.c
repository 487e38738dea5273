// SPDX-License-Identifier: MIT
/*
 * Joining existing namespaces for the sandbox (linux.namespaces[].path):
 * sandboxtime steps into them for the clone only, as it does for
 * --net=join, so that the child is born there, and steps back out.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/ns_join.h"

int st_ns_join_ok(enum st_layer layer, const char **why)
{
	switch (layer) {
	case ST_LAYER_UTS:
	case ST_LAYER_IPC:
	case ST_LAYER_PID:	/* pid and time: for the children, which the clone is */
	case ST_LAYER_CGROUP:
	case ST_LAYER_TIME:
		return 0;
	case ST_LAYER_USER:
		*why = "joining a user namespace cannot be undone: sandboxtime could not step back out";
		return -EINVAL;
	case ST_LAYER_MOUNT:
		*why = "joining a mount namespace moves sandboxtime's own root and cwd; not built";
		return -EINVAL;
	default:
		*why = "network is joined through --net=join";
		return -EINVAL;
	}
}

static int enter_one(const struct st_ns_join *j, int *restore, struct st_error *err)
{
	const struct st_layer_info *l = &st_layers[j->layer];
	_cleanup_close_ int target = open(j->path, O_RDONLY | O_CLOEXEC), own = -1;
	char path[64];

	if (target < 0)
		return st_error_set(err, errno, "joining the %s namespace %s", l->name, j->path);
	snprintf(path, sizeof(path), "/proc/self/ns/%s", l->ns_file);
	/* pid and time: what the children get is *_for_children, and that is what we restore. */
	if (j->layer == ST_LAYER_PID || j->layer == ST_LAYER_TIME)
		snprintf(path, sizeof(path), "/proc/self/ns/%s_for_children", l->ns_file);
	own = open(path, O_RDONLY | O_CLOEXEC);
	if (own < 0)
		return st_error_set(err, errno, "joining the %s namespace: opening %s", l->name, path);
	if (setns(target, (int)l->flag) < 0)
		return st_error_set(err, errno, "joining the %s namespace %s%s", l->name, j->path,
				    errno == EINVAL ? " (not a namespace of that type)" : "");
	*restore = take_fd(&own);
	return 0;
}

int st_ns_join_enter(const struct st_ns_join *v, size_t n, int *restore, struct st_steps *steps,
		     struct st_error *err)
{
	for (size_t i = 0; i < n; i++)
		restore[i] = -1;
	for (size_t i = 0; i < n; i++) {
		char step[24];
		int r;

		snprintf(step, sizeof(step), "join_%s", st_layers[v[i].layer].name);
		r = ST_TIMED_STEP(steps, err, step, enter_one(&v[i], &restore[i], err));
		if (r < 0)
			return r;
	}
	return 0;
}

int st_ns_join_leave(const struct st_ns_join *v, size_t n, int *restore, struct st_error *err)
{
	int ret = 0;

	for (size_t i = n; i-- > 0;) {
		if (restore[i] < 0)
			continue;
		if (setns(restore[i], (int)st_layers[v[i].layer].flag) < 0 && ret == 0)
			ret = st_error_set(err, errno, "returning to our own %s namespace",
					   st_layers[v[i].layer].name);
		closep(&restore[i]);
	}
	return ret;
}
