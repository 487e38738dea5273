/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_FUZZ_H
#define SANDBOXTIME_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @data as a C string of its own (a heap copy, so that ASan sees overreads). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * What main.c does with an error: format it as one line. A message that
 * still holds a newline or any control character after escaping is a bug.
 */
static inline void fuzz_check_error(const struct st_error *err)
{
	char line[1024];

	st_error_format(err, line, sizeof(line));
	for (const char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
}

#endif
