// SPDX-License-Identifier: MIT
/*
 * Links left by killed runs: stv<pid>/stbr<pid> in the host's namespace
 * whose sandboxtime is gone. Found here for `orphans` (reported) and
 * `cleanup` (deleted, st_leftover_remove).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/leftover.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/util.h"

enum st_leftover_kind st_leftover_parse(const char *name, pid_t *pid)
{
	static const struct {
		const char *prefix;
		enum st_leftover_kind kind;
	} rows[] = { { "stbr", ST_LEFTOVER_BRIDGE }, { "stv", ST_LEFTOVER_VETH } };

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		size_t len = strlen(rows[i].prefix);
		const char *digits = name + len;
		long v = 0;

		if (strncmp(name, rows[i].prefix, len) != 0 || !*digits || *digits == '0')
			continue;
		for (const char *d = digits; *d; d++) {
			if (*d < '0' || *d > '9' || v > 4194304) /* PID_MAX_LIMIT */
				return ST_LEFTOVER_NONE;
			v = v * 10 + (*d - '0');
		}
		if (v > 4194304)
			return ST_LEFTOVER_NONE;
		*pid = (pid_t)v;
		return rows[i].kind;
	}
	return ST_LEFTOVER_NONE;
}

int st_leftover_owner_running(pid_t pid)
{
	char path[64], comm[32];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (st_read_file(path, comm, sizeof(comm)) < 0)
		return 0;
	return strcmp(comm, "sandboxtime") == 0;
}

enum st_leftover_kind st_leftover_link(const char *name, const char *link_kind, pid_t *pid)
{
	pid_t p;
	enum st_leftover_kind k = st_leftover_parse(name, &p);

	if (k == ST_LEFTOVER_NONE || strcmp(link_kind, k == ST_LEFTOVER_BRIDGE ? "bridge" : "veth") != 0)
		return ST_LEFTOVER_NONE;
	*pid = p;
	return k;
}

struct leftover_scan {
	struct st_leftover_link **v;
	size_t *n;
	size_t max;
	int skip_running;
	int enomem;
};

static void collect(const char *name, int index, const char *kind, void *data)
{
	struct leftover_scan *scan = data;
	struct st_leftover_link *v;
	enum st_leftover_kind k;
	pid_t pid;

	k = st_leftover_link(name, kind, &pid);
	if (k == ST_LEFTOVER_NONE || scan->enomem || (scan->max && *scan->n >= scan->max) ||
	    (scan->skip_running && st_leftover_owner_running(pid)))
		return;
	v = realloc(*scan->v, (*scan->n + 1) * sizeof(*v));
	if (!v) {
		scan->enomem = 1;
		return;
	}
	*scan->v = v;
	snprintf(v[*scan->n].name, sizeof(v[*scan->n].name), "%s", name);
	v[*scan->n].pid = pid;
	v[*scan->n].kind = k;
	(*scan->n)++;
}

int st_leftover_list(struct st_nl *nl, int skip_running, size_t max, struct st_leftover_link **v,
		     size_t *n, struct st_error *err)
{
	struct leftover_scan scan = { .v = v, .n = n, .max = max, .skip_running = skip_running };
	int ret = st_nl_link_list(nl, collect, &scan, err);

	if (ret == 0 && scan.enomem)
		ret = st_error_set(err, ENOMEM, "listing leftover links");
	return ret;
}

/*
 * Deletes the links of sandboxtimes that are gone; keeps those of a running
 * one. Veths first: a bridge goes last, once nothing is attached to it.
 * "Running" is judged by /proc/PID/comm in our own pid namespace: run cleanup
 * from the host's, where every sandboxtime's pid is the one in its names.
 */
int st_leftover_remove(struct st_nl *nl, const struct st_leftover_link *v, size_t n,
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
