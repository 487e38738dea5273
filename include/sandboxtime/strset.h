/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_STRSET_H
#define SANDBOXTIME_STRSET_H

#include <errno.h>
#include <stddef.h>

/*
 * A set of strings, open addressing with an FNV-1a hash (the mount points of
 * a thousand namespaces, asked once per open fd). Zero-initialized is empty.
 */
struct st_strset {
	char **v;
	size_t cap, n; /* cap: 0 or a power of two */
};

int st_strset_has(const struct st_strset *set, const char *s);
/* Adds a copy of @s if it is not in yet: 0, or -ENOMEM. */
int st_strset_add(struct st_strset *set, const char *s);
/* Frees the copies and empties the set. */
void st_strset_free(struct st_strset *set);

#endif
