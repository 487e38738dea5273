// SPDX-License-Identifier: MIT
#include <string.h>

#include "sandboxtime/nl.h"
#include "sandboxtime/ns_net.h"

const char *const st_net_mode_names[ST_NET_COUNT] = {
	[ST_NET_NONE] = "none",
	[ST_NET_HOST] = "host",
	[ST_NET_VETH] = "veth",
	[ST_NET_BRIDGE] = "bridge",
};

int st_ns_net_parse_mode(const char *text, enum st_net_mode *mode, struct st_error *err)
{
	for (int m = 0; m < ST_NET_COUNT; m++) {
		if (strcmp(text, st_net_mode_names[m]) != 0)
			continue;
		/* Shipped options never change meaning: refuse rather than fake. */
		if (m == ST_NET_VETH || m == ST_NET_BRIDGE)
			return st_error_usage(err, "--net=%s: not available in this version (use none or host)",
					      text);
		*mode = (enum st_net_mode)m;
		return 0;
	}
	return st_error_usage(err, "--net: unknown mode '%s' (known: host, none, veth, bridge)", text);
}

int st_ns_net_lo_up(struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	int ret = st_nl_open(&nl, err);

	if (ret == 0)
		ret = st_nl_link_set_up(nl, "lo", err);
	return ret;
}
