/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_IP4_H
#define SANDBOXTIME_IP4_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"

/* An IPv4 address with its prefix length: 10.213.0.2/30. */
struct st_ip4 {
	struct in_addr addr;
	unsigned int prefix;
};

/* Parses "A.B.C.D/N" (N in 1..32) for option @opt. */
int st_ip4_parse(const char *opt, const char *text, struct st_ip4 *out, struct st_error *err);
void st_ip4_format(const struct st_ip4 *a, char *buf, size_t len);

/* The netmask of @prefix, in network byte order. */
uint32_t st_ip4_mask(unsigned int prefix);

/* Whether two prefixes overlap. */
int st_ip4_overlap(const struct st_ip4 *a, const struct st_ip4 *b);

#endif
