/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NET_PLAN_H
#define SANDBOXTIME_NET_PLAN_H

#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ip4.h"
#include "sandboxtime/ip6.h"
#include "sandboxtime/ns_net.h"

/*
 * The network layer's plan (net_plan.c): names and addresses decided before
 * the clone, in the caller's (host) namespace. ns_net.c wires it.
 */
struct st_nl;

/*
 * Default address pools: a /30 per sandbox for veth, a /24 per bridge. Picked
 * by pid, then moved on until no host route or address overlaps. IPv6: a /64
 * per sandbox or bridge in one /48 of fd00::/8, subnet IDs from 0x8000 on
 * for bridges.
 */
#define ST_NET_VETH_POOL 0x0ad50000u /* 10.213.0.0/16 */
#define ST_NET_VETH_PREFIX 30
#define ST_NET_BRIDGE_POOL 0x0ad60000u /* 10.214.0.0/16 */
#define ST_NET_BRIDGE_PREFIX 24
#define ST_NET_IP6_POOL "fd5b:7e1d:ab00::"
#define ST_NET_IP6_BRIDGE_FIRST 0x8000u

/*
 * Decides names and addresses in the caller's (host) namespace: addresses
 * that overlap none of its routes or addresses, an existing bridge for
 * --bridge (root only).
 */
int st_net_plan(const struct st_net_opts *o, int rootless, struct st_net_plan *plan,
		struct st_error *err);

/* Releases what the plan holds (the joined namespace's fd). */
void st_net_plan_release(struct st_net_plan *p);

/*
 * Whether this (the caller's) network namespace has IPv6 at all: not when the
 * kernel was booted without it (no /proc/net/if_inet6) or it is switched off
 * (net.ipv6.conf.all.disable_ipv6=1, or .default. for the links we add).
 */
int st_net_ipv6_available(struct st_error *err);

/*
 * The parts of planning, exposed for unit tests. The host is asked through
 * st_nl_ip4_in_use()/st_nl_ip6_in_use() on @nl (a test wraps those).
 */

/*
 * A block of /@prefix in the /16 @pool that overlaps nothing on the host,
 * tried from block @seed (mod the block count) on; EADDRINUSE after 1024.
 */
int st_net_pick_block4(struct st_nl *nl, uint32_t pool, unsigned int prefix, uint32_t seed,
		       struct st_ip4 *block, struct st_error *err);
/* A /64 of the IPv6 pool from subnet ID @first + (@seed mod 0x8000) on. */
int st_net_pick_block6(struct st_nl *nl, unsigned int first, unsigned int seed,
		       struct st_ip6 *block, struct st_error *err);

/* A usage error naming what on the host @a (a network) overlaps; 0 if nothing. */
int st_net_check_free4(struct st_nl *nl, const char *opt, const struct st_ip4 *a,
		       struct st_error *err);
int st_net_check_free6(struct st_nl *nl, const struct st_ip6 *a, struct st_error *err);

/* @a leaves room for a gateway and is neither its network's nor broadcast address. */
int st_net_check_host_part(const char *opt, const struct st_ip4 *a, struct st_error *err);

/* The gateway of @a: its network's first host address, or the second when that is @a. */
struct st_ip4 st_net_gateway4(const struct st_ip4 *a);
struct st_ip6 st_net_gateway6(const struct st_ip6 *a);

/*
 * An address for the sandbox in joined bridge @bridge's subnet, derived from
 * @seed (the pid): never the network's, the broadcast or the bridge's own.
 */
struct st_ip4 st_net_bridge_member4(const struct st_ip4 *bridge, uint32_t seed);
struct st_ip6 st_net_bridge_member6(const struct st_ip6 *bridge, uint32_t seed);

#endif
