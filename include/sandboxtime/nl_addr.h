/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NL_ADDR_H
#define SANDBOXTIME_NL_ADDR_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ip4.h"
#include "sandboxtime/ip6.h"

/*
 * rtnetlink requests about addresses and routes (nl_addr.c): add, get, the
 * default routes, and whether a block overlaps anything of the namespace.
 * The socket, the round trip and batches are nl.h's.
 */
struct st_nl;

int st_nl_addr_add(struct st_nl *nl, const char *ifname, const struct st_ip4 *a,
		   struct st_error *err);

/*
 * Adds an IPv6 address with IFA_F_NODAD: usable at once, where duplicate
 * address detection would hold it tentative for ~1-2 s.
 */
int st_nl_addr6_add(struct st_nl *nl, const char *ifname, const struct st_ip6 *a,
		    struct st_error *err);

/* The first IPv4 address of @ifname, or -ENOENT. */
int st_nl_addr_get(struct st_nl *nl, const char *ifname, struct st_ip4 *a, struct st_error *err);
/* The first global-scope IPv6 address of @ifname, or -ENOENT. */
int st_nl_addr6_get(struct st_nl *nl, const char *ifname, struct st_ip6 *a, struct st_error *err);

int st_nl_route_add_default(struct st_nl *nl, const char *ifname, struct in_addr gateway,
			    struct st_error *err);

int st_nl_route6_add_default(struct st_nl *nl, const char *ifname, const struct in6_addr *gateway,
			     struct st_error *err);

/*
 * Whether @net overlaps any IPv4 route (any table) or address of this
 * namespace; *@what names the first one that does.
 */
int st_nl_ip4_in_use(struct st_nl *nl, const struct st_ip4 *net, int *in_use, char *what,
		     size_t what_len, struct st_error *err);
/* The same for IPv6. */
int st_nl_ip6_in_use(struct st_nl *nl, const struct st_ip6 *net, int *in_use, char *what,
		     size_t what_len, struct st_error *err);

/*
 * The requests as bytes, without I/O (the functions above send these):
 * exposed so that unit tests check them against captured vectors.
 */
struct nlmsghdr;
struct nlmsghdr *st_nl_msg_addr(void *buf, uint32_t seq, int index, const struct st_ip4 *a);
struct nlmsghdr *st_nl_msg_default_route(void *buf, uint32_t seq, int index, struct in_addr gateway);
struct nlmsghdr *st_nl_msg_addr6(void *buf, uint32_t seq, int index, const struct st_ip6 *a);
struct nlmsghdr *st_nl_msg_default_route6(void *buf, uint32_t seq, int index,
					  const struct in6_addr *gateway);

#endif
