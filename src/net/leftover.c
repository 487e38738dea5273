// SPDX-License-Identifier: MIT
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
