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
 *
 * This is the core: the socket, requests and replies (open, prepare, talk)
 * and batches. One small builder per object sits beside it: links, veths,
 * bridges and nsids in nl_link.c (nl_link.h), addresses and routes in
 * nl_addr.c (nl_addr.h); both headers come with this one.
 */
struct mnl_socket;

/* Its fields are the core's; the builders take a request buffer and a sequence number from it. */
struct st_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	char buf[32768]; /* a dump part is at most one page; keep room for several */
};

int st_nl_open(struct st_nl **out, struct st_error *err);
void st_nl_close(struct st_nl *nl);
static inline void st_nl_closep(struct st_nl **nl)
{
	if (*nl)
		st_nl_close(*nl);
	*nl = NULL;
}

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

/*
 * A batch for @nl's next sequence numbers; _init numbers from @first_seq
 * (tests). The requests a batch can hold are built in nl_link.c (link up) and
 * nl_addr.c (addresses, routes).
 */
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
 * The reply parser, without I/O: exposed so that unit tests check replies
 * against captured vectors without a socket (the requests' bytes are built
 * by st_nl_msg_*() in nl_link.h and nl_addr.h).
 */
struct nlmsghdr;

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

/*
 * For the builders (nl_link.c, nl_addr.c), not for callers: a request's
 * header with NLM_F_REQUEST | NLM_F_ACK | @flags; the same in @nl's buffer
 * with its next sequence number (a counter, never time(NULL)); a dump's; and
 * one round trip, replies of a dump through @cb, the kernel's error in @err.
 */
struct nlmsghdr *st_nl_msg_start(void *buf, uint32_t seq, uint16_t type, uint16_t flags);
struct nlmsghdr *st_nl_prepare(struct st_nl *nl, uint16_t type, uint16_t flags);
struct nlmsghdr *st_nl_prepare_dump(struct st_nl *nl, uint16_t type);
int st_nl_talk_cb(struct st_nl *nl, struct nlmsghdr *nlh, st_nl_cb cb, void *data,
		  const char *what, struct st_error *err);
int st_nl_talk(struct st_nl *nl, struct nlmsghdr *nlh, const char *what, struct st_error *err);
/* A batch's room for one more request (NULL when full: then st_nl_batch_full()), and counting it in. */
void *st_nl_batch_room(struct st_nl_batch *b, uint32_t *seq);
int st_nl_batch_add(struct st_nl_batch *b, const struct nlmsghdr *nlh);
int st_nl_batch_full(struct st_error *err);

#include "sandboxtime/nl_addr.h"
#include "sandboxtime/nl_link.h"

#endif
