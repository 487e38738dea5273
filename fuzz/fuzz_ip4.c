// SPDX-License-Identifier: MIT
/*
 * st_ip4_parse() on any --addr value; what it accepts must print back
 * (st_ip4_format) to text that parses to the same address and prefix.
 */
#include <arpa/inet.h>

#include "sandboxtime/ip4.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct st_error err = { 0 };
	struct st_ip4 a, b;
	char back[INET_ADDRSTRLEN + 4];

	if (st_ip4_parse("--addr", text, &a, &err) < 0) {
		fuzz_check_error(&err);
	} else {
		if (a.prefix < 1 || a.prefix > 32)
			abort();
		st_ip4_format(&a, back, sizeof(back));
		if (st_ip4_parse("--addr", back, &b, &err) < 0 || a.addr.s_addr != b.addr.s_addr ||
		    a.prefix != b.prefix)
			abort();
		if (!st_ip4_overlap(&a, &b))
			abort();
	}
	free(text);
	return 0;
}
