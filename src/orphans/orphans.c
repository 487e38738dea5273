// SPDX-License-Identifier: MIT
/*
 * The orphans model: namespaces keyed by (st_dev, st_ino), the processes that
 * live in them and what else holds them; classification. No I/O here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/orphans.h"

const char *const st_netns_state_names[] = {
	[ST_NETNS_ACTIVE] = "active",
	[ST_NETNS_ORPHAN] = "orphan",
	[ST_NETNS_HIDDEN] = "hidden",
	[ST_NETNS_UNVERIFIED] = "unverified",
};

const char *const st_holder_kind_names[] = {
	[ST_HOLDER_MOUNT] = "mount",
	[ST_HOLDER_FD] = "fd",
	[ST_HOLDER_SOCKET] = "socket",
};

struct st_netns *st_orphans_get(struct st_orphans *s, uint64_t dev, uint64_t ino)
{
	struct st_netns *ns;

	/* Most lookups repeat the previous one (threads of a process, a host full of one netns). */
	if (s->hint < s->n && s->v[s->hint].ino == ino && s->v[s->hint].dev == dev)
		return &s->v[s->hint];
	for (size_t i = s->n; i-- > 0;)
		if (s->v[i].ino == ino && s->v[i].dev == dev) {
			s->hint = i;
			return &s->v[i];
		}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct st_netns *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	s->hint = s->n;
	ns = &s->v[s->n++];
	memset(ns, 0, sizeof(*ns));
	ns->dev = dev;
	ns->ino = ino;
	ns->nsid = -1;
	ns->owner_uid = -1;
	ns->sock_fd = -1;
	ns->age_s = -1;
	return ns;
}

int st_orphans_add_process(struct st_orphans *s, uint64_t dev, uint64_t ino, pid_t pid)
{
	struct st_netns *ns = st_orphans_get(s, dev, ino);

	if (!ns)
		return -ENOMEM;
	/* Threads of one process come one after another: count the process once. */
	if (ns->last_pid != pid) {
		ns->processes++;
		ns->last_pid = pid;
	}
	return 0;
}

int st_orphans_add_holder(struct st_orphans *s, uint64_t dev, uint64_t ino,
			  const struct st_holder *h)
{
	struct st_netns *ns = st_orphans_get(s, dev, ino);
	struct st_holder *v;

	if (!ns)
		return -ENOMEM;
	v = realloc(ns->holders, (ns->nholders + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ns->holders = v;
	v[ns->nholders] = *h;
	v[ns->nholders].path = NULL;
	if (h->path && !(v[ns->nholders].path = strdup(h->path)))
		return -ENOMEM;
	ns->nholders++;
	return 0;
}

static int state_rank(enum st_netns_state st)
{
	return st == ST_NETNS_ORPHAN ? 0 : st == ST_NETNS_HIDDEN ? 1 : st == ST_NETNS_ACTIVE ? 2 : 3;
}

static int compare_netns(const void *a, const void *b)
{
	const struct st_netns *x = a, *y = b;
	int r = state_rank(x->state) - state_rank(y->state);

	if (r)
		return r;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

void st_orphans_classify(struct st_orphans *s)
{
	s->active = s->orphans = s->unverified = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct st_netns *ns = &s->v[i];

		if (ns->processes) {
			ns->state = ST_NETNS_ACTIVE;
			s->active++;
		} else if (ns->nholders &&
			   (!s->rootless || !s->unreadable_processes ||
			    (ns->owner_uid >= 0 && (uid_t)ns->owner_uid == s->uid))) {
			/*
			 * Rootless, a process we cannot read may live in any namespace
			 * but the ones of our own user namespaces: those we vouch for.
			 */
			ns->state = ST_NETNS_ORPHAN;
			s->orphans++;
		} else {
			ns->state = ST_NETNS_UNVERIFIED;
			s->unverified++;
		}
	}
	qsort(s->v, s->n, sizeof(*s->v), compare_netns);
}

void st_orphans_free(struct st_orphans *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct st_netns *ns = &s->v[i];

		for (size_t h = 0; h < ns->nholders; h++)
			free(ns->holders[h].path);
		free(ns->holders);
		for (size_t k = 0; k < ns->ninterfaces; k++)
			free(ns->interfaces[k]);
		free(ns->interfaces);
		free(ns->open_path);
	}
	free(s->v);
	free(s->leftovers);
	memset(s, 0, sizeof(*s));
}

void st_holder_text(const struct st_holder *h, char *buf, size_t len)
{
	if (h->kind == ST_HOLDER_MOUNT)
		snprintf(buf, len, "mount:%s", h->path ? h->path : "");
	else
		snprintf(buf, len, "%s:%d/%d(%s)", st_holder_kind_names[h->kind], h->pid, h->fd, h->comm);
}
