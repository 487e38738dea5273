// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the mountinfo parser, which reads text that any user
 * can shape (mount points are chosen by whoever mounts). `make fuzz` runs
 * it on fuzz/corpus/fuzz_mountinfo (it found no seeds under the old name,
 * fuzz/corpus/mountinfo, and started from nothing).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The split of a mount point (what the mount ages and --cleanup open): the
 * directory and the name put back together are the path again.
 */
static void check_split(const char *path)
{
	char dir[64], joined[64 + 4096];
	const char *base;

	if (st_mountpoint_split(path, dir, sizeof(dir), &base) < 0)
		return;
	if (base <= path || base > path + strlen(path) || !*base || strchr(base, '/') ||
	    strlen(dir) >= sizeof(dir))
		abort();
	if (strcmp(dir, "/") == 0) {
		if (strspn(path, "/") != (size_t)(base - path))
			abort(); /* "/x" (or "//x": the same file) */
		return;
	}
	snprintf(joined, sizeof(joined), "%s/%s", dir, base);
	if (strlen(path) < sizeof(joined) - 1 && strcmp(joined, path) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct st_mountinfo m;
	unsigned long long ino;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (st_mountinfo_parse(line, &m) == 0) {
		/* Every field must be a string inside the line, decoded no longer than it was. */
		if (strlen(m.root) > size || strlen(m.mountpoint) > size || strlen(m.fstype) > size ||
		    strlen(m.source) > size || strlen(m.super_options) > size || strlen(m.options) > size)
			abort();
		st_nsfs_root_inode(m.root, "net", &ino);
		check_split(m.mountpoint);
	}
	free(line);
	return 0;
}
