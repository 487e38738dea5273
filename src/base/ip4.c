// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/ip4.h"
#include "sandboxtime/util.h"

uint32_t st_ip4_mask(unsigned int prefix)
{
	return prefix ? htonl(~0u << (32 - prefix)) : 0;
}

int st_ip4_parse(const char *opt, const char *text, struct st_ip4 *out, struct st_error *err)
{
	char buf[INET_ADDRSTRLEN + 4];
	const char *slash = strchr(text, '/');
	struct st_error ignored;
	uint64_t prefix;

	if (!slash || (size_t)(slash - text) >= INET_ADDRSTRLEN)
		return st_error_usage(err, "%s: '%s' is not an IPv4 address with a prefix (like 10.213.0.2/30)",
				      opt, text);
	snprintf(buf, sizeof(buf), "%.*s", (int)(slash - text), text);
	if (inet_pton(AF_INET, buf, &out->addr) != 1)
		return st_error_usage(err, "%s: '%s' is not an IPv4 address", opt, buf);
	/* Digits only (st_parse_uint): strtol() would take "/ 30" and "/+30". */
	if (st_parse_uint(opt, slash + 1, 1, 32, &prefix, &ignored) < 0)
		return st_error_usage(err, "%s: '/%s' is not a prefix length from 1 to 32", opt, slash + 1);
	out->prefix = (unsigned int)prefix;
	return 0;
}

void st_ip4_format(const struct st_ip4 *a, char *buf, size_t len)
{
	char addr[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &a->addr, addr, sizeof(addr));
	snprintf(buf, len, "%s/%u", addr, a->prefix);
}

int st_ip4_overlap(const struct st_ip4 *a, const struct st_ip4 *b)
{
	unsigned int shorter = a->prefix < b->prefix ? a->prefix : b->prefix;
	uint32_t mask = st_ip4_mask(shorter);

	return (a->addr.s_addr & mask) == (b->addr.s_addr & mask);
}
