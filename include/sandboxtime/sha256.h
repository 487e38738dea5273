/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SHA256_H
#define SANDBOXTIME_SHA256_H

#include <stddef.h>

/*
 * SHA-256 (FIPS 180-4) of a buffer, for naming what was loaded: the report
 * gives the digest of the seccomp program handed to the kernel, so that two
 * runs can be compared by more than an instruction count. None of the
 * libraries sandboxtime links has one, and it is ~100 lines.
 */
#define ST_SHA256_LEN 32
#define ST_SHA256_HEX (2 * ST_SHA256_LEN + 1)

void st_sha256(const void *data, size_t len, unsigned char out[ST_SHA256_LEN]);

/* The digest as 64 lower-case hex digits, NUL-terminated. */
void st_sha256_hex(const void *data, size_t len, char out[ST_SHA256_HEX]);

#endif
