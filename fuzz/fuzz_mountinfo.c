// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the mountinfo parser, which reads text that any user
 * can shape (mount points are chosen by whoever mounts). Not part of
 * `make check`; build and run by hand:
 *   clang -std=c17 -D_GNU_SOURCE -Iinclude -g -O1 -fsanitize=fuzzer,address,undefined \
 *     fuzz/fuzz_mountinfo.c src/procfs.c -o build/fuzz_mountinfo
 *   build/fuzz_mountinfo -max_total_time=60 fuzz/corpus/mountinfo
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
