/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NL_LINK_H
#define SANDBOXTIME_NL_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * rtnetlink requests about links (nl_link.c): up, veth, bridge, macvlan,
 * master, delete, look-ups and the nsid of a namespace. The socket, the
 * round trip and batches are nl.h's.
 */
struct st_nl;

/*
 * Sets link @ifname up. With @no_forwarding, also turns IPv4 forwarding off
 * on it in the same request, so that nothing that arrives on it is routed on.
 */
int st_nl_link_set_up(struct st_nl *nl, const char *ifname, int no_forwarding,
		      struct st_error *err);

/*
 * Creates a veth pair: @name here, @peer born directly in the network
 * namespace @peer_netns_fd (one round trip, nothing to move). @mtu 0 keeps
 * the kernel's default.
 */
int st_nl_veth_create(struct st_nl *nl, const char *name, const char *peer, int peer_netns_fd,
		      unsigned int mtu, struct st_error *err);

int st_nl_bridge_create(struct st_nl *nl, const char *name, unsigned int mtu, struct st_error *err);
/* A bridge-mode macvlan on @parent (in @nl's namespace), born in @netns_fd (-1: here). */
int st_nl_macvlan_create(struct st_nl *nl, const char *name, const char *parent, int netns_fd,
			 unsigned int mtu, struct st_error *err);

/* Attaches @ifname to the bridge @master (IFLA_MASTER). */
int st_nl_link_set_master(struct st_nl *nl, const char *ifname, const char *master,
			  struct st_error *err);

/* Deletes @ifname; -ENODEV if it is already gone (a veth dies with its peer's netns). */
int st_nl_link_del(struct st_nl *nl, const char *ifname, struct st_error *err);

/*
 * Looks @ifname up: its index and, if @kind is given, the kind of link
 * ("bridge", "veth"; "" for a plain device).
 */
int st_nl_link_get(struct st_nl *nl, const char *ifname, int *index, char *kind, size_t kind_len,
		   struct st_error *err);

/* The index of @ifname (one RTM_GETLINK), or -errno. */
int st_nl_link_index(struct st_nl *nl, const char *ifname, struct st_error *err);

/* Calls @fn for every link of the namespace (a dump). */
typedef void (*st_nl_link_fn)(const char *name, int index, const char *kind, void *data);
int st_nl_link_list(struct st_nl *nl, st_nl_link_fn fn, void *data, struct st_error *err);

/*
 * The id this namespace gives the network namespace @netns_fd (RTM_GETNSID):
 * *@nsid is -1 when none is assigned.
 */
int st_nl_nsid_get(struct st_nl *nl, int netns_fd, int *nsid, struct st_error *err);

/*
 * The requests as bytes, without I/O (the functions above send these):
 * exposed so that unit tests check them against captured vectors.
 */
struct nlmsghdr;
struct nlmsghdr *st_nl_msg_link_up(void *buf, uint32_t seq, const char *ifname, int no_forwarding);
struct nlmsghdr *st_nl_msg_veth(void *buf, uint32_t seq, const char *name, const char *peer,
				int peer_netns_fd, unsigned int mtu);
struct nlmsghdr *st_nl_msg_bridge(void *buf, uint32_t seq, const char *name, unsigned int mtu);
struct nlmsghdr *st_nl_msg_macvlan(void *buf, uint32_t seq, const char *name, int parent_index,
				   int netns_fd, unsigned int mtu);
struct nlmsghdr *st_nl_msg_getnsid(void *buf, uint32_t seq, int netns_fd);

#endif
