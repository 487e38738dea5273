/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NET_STEPS_H
#define SANDBOXTIME_NET_STEPS_H

#include "sandboxtime/error.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/stats.h"

#define ST_NET_STEPS_MAX 20

/*
 * --net-steps-repeat: what wiring a sandbox costs, with a median and a
 * spread. A worker in a network namespace of its own (in a user namespace of
 * its own when rootless) wires a fresh network namespace N times the way a
 * sandbox is wired (veth pair with the peer born inside, addresses, up, the
 * bridge steps, then the inside: lo, eth0's addresses, up, the default
 * routes, one step each or one batch) and unwires it, timing every step. Done in that private lab,
 * as root too, so that nothing of it touches the host and both modes measure
 * the same thing.
 */
struct st_net_steps {
	unsigned int repeat;
	size_t n;
	struct st_net_step {
		char name[24];
		struct st_samples us;
	} step[ST_NET_STEPS_MAX];
};

int st_net_steps_measure(enum st_net_mode mode, unsigned int mtu, int ipv6, int batch, unsigned int repeat, int rootless,
			 struct st_net_steps *out, struct st_error *err);

void st_net_steps_free(struct st_net_steps *s);

#endif
