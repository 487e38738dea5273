/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_RESHAPE_H
#define SANDBOXTIME_SECCOMP_RESHAPE_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A seccomp program rewritten to decide the same, in fewer instructions
 * (seccomp_reshape.c): what the program decides from the architecture and
 * the syscall number alone becomes a binary search over ranges of numbers
 * with one outcome each; where it looks further (arguments), the original
 * instructions from that point on are kept as they were.
 *
 * Returns 0 with the new program in *@out (malloc'd, *@out_len
 * instructions), or -1 when the program is not of a shape this handles, the
 * result would not be shorter, or the check of both programs on every
 * boundary of the number ranges disagreed: then the caller keeps @in.
 */
int st_seccomp_reshape(const struct sock_filter *in, size_t len, struct sock_filter **out,
		       size_t *out_len);

#endif
