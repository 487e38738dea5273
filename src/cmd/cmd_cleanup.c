// SPDX-License-Identifier: MIT
/*
 * The `cleanup` command: deletes the stv/stbr links that sandboxtimes
 * killed before their own teardown left in the host's namespace
 * (leftover.c finds, judges and deletes them), and the sandboxtime-<pid>
 * cgroups they left (cgroup_leftover.c). Not `orphans --cleanup`
 * (orphaned namespaces' bind mounts, orphans_cleanup.c), nor the teardown
 * by which every run undoes what it made (sandbox.c, ns_net.c).
 */
#include <stdio.h>
#include <string.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/host.h"
#include "sandboxtime/leftover.h"
#include "sandboxtime/nl.h"

/* At most this many links are looked at in one run. */
#define MAX_LEFTOVERS 256

int st_cmd_cleanup(const struct st_cleanup_opts *o, const struct st_output *out, int *exit_code,
		   struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	_cleanup_free_ struct st_leftover_link *v = NULL;
	struct st_cgroup_leftovers cg = { 0 };
	size_t n = 0, removed = 0, kept = 0;
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	/* Rootless sandboxes put nothing in the host's namespace: nothing to clean. */
	if (st_host_is_rootless() && !o->dry_run)
		return st_error_set(err, EPERM, "cleanup: deleting links in the host's network namespace needs root (try --dry-run to list them)");
	ret = st_nl_open(&nl, err);
	if (ret == 0)
		ret = st_leftover_list(nl, 0, MAX_LEFTOVERS, &v, &n, err);
	if (ret == 0)
		ret = st_leftover_remove(nl, v, n, o->dry_run, out->quiet, &removed, &kept, err);
	if (ret == 0)
		ret = st_cgroup_cleanup(o->dry_run, out->quiet, &cg, err);
	if (ret < 0)
		return ret;
	if (!out->quiet)
		fprintf(stderr, "sandboxtime: cleanup: %zu leftover link(s), %zu deleted, %zu in use by a running sandboxtime; "
			"%zu leftover cgroup(s), %zu deleted, %zu in use\n",
			n - kept, removed, kept, cg.found - cg.kept, cg.removed, cg.kept);
	*exit_code = ST_EXIT_OK;
	return fflush(stdout) == EOF ? st_error_set(err, errno, "cleanup: writing") : 0;
}
