// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/ip6.h"
#include "sandboxtime/util.h"

int st_ip6_parse(const char *opt, const char *text, struct st_ip6 *out, struct st_error *err)
{
	char buf[INET6_ADDRSTRLEN];
	const char *slash = strchr(text, '/');
	struct st_error ignored;
	uint64_t prefix;

	if (!slash || (size_t)(slash - text) >= sizeof(buf))
		return st_error_usage(err, "%s: '%s' is not an IPv6 address with a prefix (like fd5b:7e1d:ab01:1::2/64)",
				      opt, text);
	snprintf(buf, sizeof(buf), "%.*s", (int)(slash - text), text);
	if (inet_pton(AF_INET6, buf, &out->addr) != 1)
		return st_error_usage(err, "%s: '%s' is not an IPv6 address", opt, buf);
	/* Digits only (st_parse_uint): strtol() would take "/ 64" and "/+64". */
	if (st_parse_uint(opt, slash + 1, 1, 128, &prefix, &ignored) < 0)
		return st_error_usage(err, "%s: '/%s' is not a prefix length from 1 to 128", opt, slash + 1);
	out->prefix = (unsigned int)prefix;
	return 0;
}

void st_ip6_format(const struct st_ip6 *a, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, &a->addr, addr, sizeof(addr));
	snprintf(buf, len, "%s/%u", addr, a->prefix);
}

static struct in6_addr masked(const struct in6_addr *a, unsigned int prefix)
{
	struct in6_addr m = *a;

	for (unsigned int i = 0; i < 16; i++) {
		unsigned int bits = prefix > i * 8 ? prefix - i * 8 : 0;

		if (bits < 8)
			m.s6_addr[i] &= (uint8_t)(0xff00u >> bits);
	}
	return m;
}

struct st_ip6 st_ip6_network(const struct st_ip6 *a)
{
	struct st_ip6 n = { .addr = masked(&a->addr, a->prefix), .prefix = a->prefix };

	return n;
}

int st_ip6_overlap(const struct st_ip6 *a, const struct st_ip6 *b)
{
	unsigned int shorter = a->prefix < b->prefix ? a->prefix : b->prefix;
	struct in6_addr x = masked(&a->addr, shorter), y = masked(&b->addr, shorter);

	return memcmp(&x, &y, sizeof(x)) == 0;
}

int st_ip6_is_ula(const struct in6_addr *a)
{
	return a->s6_addr[0] == 0xfd;
}
