/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_UTIL_H
#define SANDBOXTIME_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * Reads at most @len - 1 bytes of @path into @buf, NUL-terminated, trailing
 * newline removed. Returns the length or -errno.
 */
int st_read_file(const char *path, char *buf, size_t len);

/* Writes @data to @path in one write(2), as /proc and /sys files require. */
int st_write_file(const char *path, const char *data);

/* A close-on-exec pipe in *@rd and *@wr; -errno with @err set to @what ("bench: pipe"). */
/* write(2) until all of @len is written (EINTR retried); 0 or -errno (-EIO: nothing written). */
int st_write_all(int fd, const void *buf, size_t len);

/* The first of @names (in order) that $PATH (default /usr/bin:/bin) holds executable, into @out; -ENOENT. */
int st_find_on_path(const char *const *names, size_t n, char *out, size_t len);

int st_pipe(int *rd, int *wr, const char *what, struct st_error *err);

/*
 * Parses a decimal unsigned number in [min, max] for option @what; rejects
 * signs, trailing garbage and overflow. Returns 0 or -EINVAL with @err set.
 */
int st_parse_uint(const char *what, const char *text, uint64_t min, uint64_t max,
		  uint64_t *out, struct st_error *err);

/* Frees a NULL-terminated vector of strings and the strings; NULL is fine. */
void st_strv_free(char **v);

/* The first "." or ".." component of @path (its length in @len), or NULL: a path that cannot climb. */
const char *st_path_dot_component(const char *path, size_t *len);

#endif
