/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NL_H
#define SANDBOXTIME_NL_H

#include <netinet/in.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ip4.h"
#include "sandboxtime/ip6.h"

/*
 * rtnetlink over libmnl, the project's only netlink user. A socket belongs to
 * the network namespace it was opened in, and so does every name and index
 * it is given. Every request asks for an ACK and takes one round trip; a
 * NLMSG_ERROR becomes -errno, with the kernel's extended-ack text, if any,
 * and the request ("create veth stv1234") in the error message.
 */
struct st_nl;

int st_nl_open(struct st_nl **out, struct st_error *err);
void st_nl_close(struct st_nl *nl);
static inline void st_nl_closep(struct st_nl **nl)
{
	if (*nl)
		st_nl_close(*nl);
	*nl = NULL;
}

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
 * A batch: several requests sent in one sendmsg, their acks read back. The
 * kernel runs them in order and each on its own (one that fails does not stop
 * the next); the error returned names the first request that failed. Requests
 * that need an interface index take it: a batch cannot look one up midway.
 */
#define ST_NL_BATCH_MAX 8
struct st_nl_batch {
	size_t len;
	size_t n;
	uint32_t next_seq;
	uint32_t seq[ST_NL_BATCH_MAX];
	char what[ST_NL_BATCH_MAX][112];
	char buf[4096] __attribute__((aligned(4)));
};

/* A batch for @nl's next sequence numbers; _init numbers from @first_seq (tests). */
void st_nl_batch_begin(struct st_nl *nl, struct st_nl_batch *b);
void st_nl_batch_init(struct st_nl_batch *b, uint32_t first_seq);
int st_nl_batch_link_up(struct st_nl_batch *b, const char *ifname,
			int no_forwarding, struct st_error *err);
int st_nl_batch_addr(struct st_nl_batch *b, int index, const char *ifname,
		     const struct st_ip4 *a, struct st_error *err);
int st_nl_batch_addr6(struct st_nl_batch *b, int index, const char *ifname,
		      const struct st_ip6 *a, struct st_error *err);
int st_nl_batch_route(struct st_nl_batch *b, int index, const char *ifname,
		      struct in_addr gateway, struct st_error *err);
int st_nl_batch_route6(struct st_nl_batch *b, int index, const char *ifname,
		       const struct in6_addr *gateway, struct st_error *err);
/* Sends the batch and reads every ack: 0, or the first failure's -errno. */
int st_nl_batch_send(struct st_nl *nl, struct st_nl_batch *b, struct st_error *err);

/*
 * The id this namespace gives the network namespace @netns_fd (RTM_GETNSID):
 * *@nsid is -1 when none is assigned.
 */
int st_nl_nsid_get(struct st_nl *nl, int netns_fd, int *nsid, struct st_error *err);

/*
 * The requests as bytes, without I/O (the functions above send these), and
 * the reply parser: exposed so that unit tests check messages and replies
 * against captured vectors without a socket.
 */
struct nlmsghdr;
struct nlmsghdr *st_nl_msg_link_up(void *buf, uint32_t seq, const char *ifname, int no_forwarding);
struct nlmsghdr *st_nl_msg_veth(void *buf, uint32_t seq, const char *name, const char *peer,
				int peer_netns_fd, unsigned int mtu);
struct nlmsghdr *st_nl_msg_bridge(void *buf, uint32_t seq, const char *name, unsigned int mtu);
struct nlmsghdr *st_nl_msg_macvlan(void *buf, uint32_t seq, const char *name, int parent_index,
				   int netns_fd, unsigned int mtu);
struct nlmsghdr *st_nl_msg_addr(void *buf, uint32_t seq, int index, const struct st_ip4 *a);
struct nlmsghdr *st_nl_msg_default_route(void *buf, uint32_t seq, int index, struct in_addr gateway);
struct nlmsghdr *st_nl_msg_addr6(void *buf, uint32_t seq, int index, const struct st_ip6 *a);
struct nlmsghdr *st_nl_msg_default_route6(void *buf, uint32_t seq, int index,
					  const struct in6_addr *gateway);
struct nlmsghdr *st_nl_msg_getnsid(void *buf, uint32_t seq, int netns_fd);

/*
 * Runs one buffer of replies to request @seq of port @portid: 0 when the ACK
 * or NLMSG_DONE came, 1 when more is to come, -errno with the kernel's text
 * (extended ack) in @err. @cb sees each data message of a dump.
 */
typedef int (*st_nl_cb)(const struct nlmsghdr *nlh, void *data);
int st_nl_parse_reply(const void *buf, size_t len, uint32_t seq, uint32_t portid, st_nl_cb cb,
		      void *data, const char *what, struct st_error *err);

/*
 * Runs one buffer of replies to batch @b: counts the acks into *@acked and
 * keeps the first failure in *@first_error (and @err); -errno for a reply
 * that is malformed or answers no request of the batch.
 */
int st_nl_batch_parse(struct st_nl_batch *b, const void *buf, size_t len, uint32_t portid,
		      size_t *acked, int *first_error, struct st_error *err);

#endif
