/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_NET_H
#define SANDBOXTIME_NS_NET_H

#include "sandboxtime/error.h"

/* --net modes (DESIGN.md). */
enum st_net_mode {
	ST_NET_NONE, /* a network namespace with only lo, up */
	ST_NET_HOST, /* no network namespace */
	ST_NET_VETH,
	ST_NET_BRIDGE,
	ST_NET_COUNT,
};

extern const char *const st_net_mode_names[ST_NET_COUNT];

int st_ns_net_parse_mode(const char *text, enum st_net_mode *mode, struct st_error *err);

/* In the child, inside the new network namespace: brings lo up. */
int st_ns_net_lo_up(struct st_error *err);

#endif
