// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "sandboxtime/cmd.h"
#include "sandboxtime/host.h"
#include "sandboxtime/leftover.h"
#include "sandboxtime/nl.h"

/* At most this many links are looked at in one run. */
#define MAX_LEFTOVERS 256

/*
 * Deletes the links of sandboxtimes that are gone; keeps those of a running
 * one. Veths first: a bridge goes last, once nothing is attached to it.
 * "Running" is judged by /proc/PID/comm in our own pid namespace: run cleanup
 * from the host's, where every sandboxtime's pid is the one in its names.
 */
static int remove_leftovers(struct st_nl *nl, const struct st_leftover_link *v, size_t n,
			    int dry_run, int quiet, size_t *removed, size_t *kept, struct st_error *err)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			const struct st_leftover_link *l = &v[i];
			int ret;

			if ((pass == 0) != (l->kind == ST_LEFTOVER_VETH))
				continue;
			if (st_leftover_owner_running(l->pid)) {
				if (!quiet)
					printf("kept %s: pid %d is a running sandboxtime\n", l->name, l->pid);
				(*kept)++;
				continue;
			}
			if (dry_run) {
				if (!quiet)
					printf("would delete %s: pid %d is no sandboxtime any more\n", l->name, l->pid);
				continue;
			}
			ret = st_nl_link_del(nl, l->name, err);
			if (ret == -ENODEV)
				continue; /* went with its peer's namespace meanwhile */
			if (ret < 0)
				return st_error_wrap(err, "cleanup");
			if (!quiet)
				printf("deleted %s: pid %d is no sandboxtime any more\n", l->name, l->pid);
			(*removed)++;
		}
	}
	return 0;
}

int st_cmd_cleanup(const struct st_opts *o, int *exit_code, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	_cleanup_free_ struct st_leftover_link *v = NULL;
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
		ret = remove_leftovers(nl, v, n, o->dry_run, o->quiet, &removed, &kept, err);
	if (ret < 0)
		return ret;
	if (!o->quiet)
		fprintf(stderr, "sandboxtime: cleanup: %zu leftover link(s), %zu deleted, %zu in use by a running sandboxtime\n",
			n - kept, removed, kept);
	*exit_code = ST_EXIT_OK;
	return fflush(stdout) == EOF ? st_error_set(err, errno, "cleanup: writing") : 0;
}
