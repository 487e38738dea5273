// SPDX-License-Identifier: MIT
#include <stdio.h>

#include "sandboxtime/cmd.h"
#include "sandboxtime/orphans.h"
#include "sandboxtime/report.h"

static void closefilep(FILE **f)
{
	if (*f)
		fclose(*f);
	*f = NULL;
}

/*
 * Scan, classify, report; exit 1 when an orphan was found, so that a cron
 * job or a CI step can act on the status alone. The report is the command's
 * product, so it goes to standard output (or -o FILE), as lsns(8) does.
 */
int st_cmd_orphans(const struct st_opts *o, int *exit_code, struct st_error *err)
{
	struct st_orphans scan __attribute__((cleanup(st_orphans_free))) = { 0 };
	_cleanup_(closefilep) FILE *file = NULL;
	struct st_orphans_report r = { .opts = o, .scan = &scan };
	FILE *out = stdout;
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	if (o->output && !o->quiet) {
		file = fopen(o->output, "we");
		if (!file)
			return st_error_set(err, errno, "orphans: -o %s", o->output);
		out = file;
	}
	ret = st_orphans_scan(&scan, err);
	if (ret < 0)
		return ret;
	if (scan.unreadable_processes && !o->quiet)
		fprintf(stderr, "sandboxtime: orphans: warning: %zu processes could not be read%s; %zu held namespaces not verifiable\n",
			scan.unreadable_processes, scan.rootless ? " (not yours: root sees them)" : "",
			scan.unverified);
	if (!o->quiet) {
		st_host_identify(&r.host, -1);
		st_host_collect(&r.host);
		ret = st_orphans_write(&r, out, err);
		if (ret < 0)
			return ret;
		if (file) {
			FILE *f = steal_pointer(&file);

			if (fclose(f) == EOF)
				return st_error_set(err, errno, "orphans: writing %s", o->output);
		}
	}
	*exit_code = scan.orphans ? ST_EXIT_ORPHANS_FOUND : ST_EXIT_OK;
	return 0;
}
