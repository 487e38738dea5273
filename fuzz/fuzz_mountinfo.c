// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the mountinfo parser, which reads text that any user
 * can shape (mount points are chosen by whoever mounts). `make fuzz` runs
 * it on fuzz/corpus/fuzz_mountinfo (it found no seeds under the old name,
 * fuzz/corpus/mountinfo, and started from nothing).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	}
	free(line);
	return 0;
}
