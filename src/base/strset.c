// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/strset.h"

static uint64_t hash_str(const char *p)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h;
}

int st_strset_has(const struct st_strset *ps, const char *path)
{
	if (!ps->cap)
		return 0;
	for (size_t i = hash_str(path) & (ps->cap - 1); ps->v[i]; i = (i + 1) & (ps->cap - 1))
		if (strcmp(ps->v[i], path) == 0)
			return 1;
	return 0;
}

static void strset_put(struct st_strset *ps, char *owned)
{
	size_t i = hash_str(owned) & (ps->cap - 1);

	while (ps->v[i])
		i = (i + 1) & (ps->cap - 1);
	ps->v[i] = owned;
	ps->n++;
}

int st_strset_add(struct st_strset *ps, const char *path)
{
	char *copy;

	if (st_strset_has(ps, path))
		return 0;
	if ((ps->n + 1) * 2 > ps->cap) {
		struct st_strset bigger = { .cap = ps->cap ? ps->cap * 2 : 64 };

		bigger.v = calloc(bigger.cap, sizeof(char *));
		if (!bigger.v)
			return -ENOMEM;
		for (size_t i = 0; i < ps->cap; i++)
			if (ps->v[i])
				strset_put(&bigger, ps->v[i]);
		free(ps->v);
		*ps = bigger;
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	strset_put(ps, copy);
	return 0;
}

void st_strset_free(struct st_strset *ps)
{
	for (size_t i = 0; i < ps->cap; i++)
		free(ps->v[i]);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}
