// SPDX-License-Identifier: MIT
/*
 * st_ip6_parse() and st_net_parse_addr6() on any --addr6 value: what the
 * first accepts must print back (st_ip6_format) to text that parses to the
 * same address and prefix, and its network must hold it; what the second
 * accepts is a ULA host address with a prefix from 64 to 126.
 */
#include <arpa/inet.h>

#include "sandboxtime/ip6.h"
#include "sandboxtime/cli_parse.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct st_error err = { 0 };
	struct st_ip6 a, b, net;
	char back[INET6_ADDRSTRLEN + 4];

	if (st_ip6_parse("--addr6", text, &a, &err) < 0) {
		fuzz_check_error(&err);
	} else {
		const char *n = strrchr(text, '/');

		/* ADDR/N: N is decimal digits, nothing else (no sign, no blank). */
		if (a.prefix < 1 || a.prefix > 128 || !n ||
		    strspn(n + 1, "0123456789") != strlen(n + 1))
			abort();
		st_ip6_format(&a, back, sizeof(back));
		if (st_ip6_parse("--addr6", back, &b, &err) < 0 ||
		    memcmp(&a.addr, &b.addr, sizeof(a.addr)) != 0 || a.prefix != b.prefix)
			abort();
		net = st_ip6_network(&a);
		if (!st_ip6_overlap(&a, &b) || !st_ip6_overlap(&net, &a) || net.prefix != a.prefix)
			abort();
		/* The network of a network is itself. */
		b = st_ip6_network(&net);
		if (memcmp(&b.addr, &net.addr, sizeof(b.addr)) != 0)
			abort();
	}
	st_error_clear(&err);
	if (st_net_parse_addr6(text, &a, &err) < 0) {
		fuzz_check_error(&err);
	} else {
		net = st_ip6_network(&a);
		if (!st_ip6_is_ula(&a.addr) || a.prefix < 64 || a.prefix > 126 ||
		    memcmp(&net.addr, &a.addr, sizeof(a.addr)) == 0)
			abort();
	}
	free(text);
	return 0;
}
