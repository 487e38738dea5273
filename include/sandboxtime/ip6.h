/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_IP6_H
#define SANDBOXTIME_IP6_H

#include <netinet/in.h>
#include <stddef.h>

#include "sandboxtime/error.h"

/* An IPv6 address with its prefix length: fd5b:7e1d:ab01:1c2::2/64. */
struct st_ip6 {
	struct in6_addr addr;
	unsigned int prefix;
};

/* Parses "ADDR/N" (N in 1..128) for option @opt. */
int st_ip6_parse(const char *opt, const char *text, struct st_ip6 *out, struct st_error *err);
void st_ip6_format(const struct st_ip6 *a, char *buf, size_t len);

/* @a with every bit past its prefix cleared: the network it is in. */
struct st_ip6 st_ip6_network(const struct st_ip6 *a);

/* Whether two prefixes overlap. */
int st_ip6_overlap(const struct st_ip6 *a, const struct st_ip6 *b);

/* Whether @a lies in fd00::/8, the locally assigned half of the unique local block (RFC 4193). */
int st_ip6_is_ula(const struct in6_addr *a);

#endif
