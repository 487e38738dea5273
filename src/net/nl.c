// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <limits.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/ip.h>
#include <linux/net_namespace.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "sandboxtime/ip4.h"
#include "sandboxtime/ip6.h"
#include "sandboxtime/nl.h"

#define NL_TIMEOUT_S 5

/* mnl hands one pointer to data and error callbacks alike: this carries both. */
struct talk_ctx {
	const char *what;
	struct st_error *err;
	mnl_cb_t cb;
	void *data;
};

int st_nl_open(struct st_nl **out, struct st_error *err)
{
	struct st_nl *nl = calloc(1, sizeof(*nl));
	int one = 1;

	if (!nl)
		return st_error_set(err, ENOMEM, "netlink");
	nl->sock = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl->sock) {
		free(nl);
		return st_error_set(err, errno, "netlink: socket");
	}
	/* Signals wait while we talk: a kernel that never answers must not hang us. */
	struct timeval timeout = { .tv_sec = NL_TIMEOUT_S, .tv_usec = 0 };

	setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	/* Extended acks carry the kernel's own reason; keep them if offered. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int e = errno;

		mnl_socket_close(nl->sock);
		free(nl);
		return st_error_set(err, e, "netlink: bind");
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	*out = nl;
	return 0;
}

void st_nl_close(struct st_nl *nl)
{
	mnl_socket_close(nl->sock);
	free(nl);
}

struct nlmsghdr *st_nl_msg_start(void *buf, uint32_t seq, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	return nlh;
}

/* A counter, not time(NULL): two requests within one second must differ. */
struct nlmsghdr *st_nl_prepare(struct st_nl *nl, uint16_t type, uint16_t flags)
{
	return st_nl_msg_start(nl->buf, ++nl->seq, type, flags);
}

/*
 * A dump ends with NLMSG_DONE, not an ACK. (Its flag cannot be tested in a
 * request's flags: NLM_F_DUMP shares bits with NLM_F_EXCL and NLM_F_REPLACE.)
 */
struct nlmsghdr *st_nl_prepare_dump(struct st_nl *nl, uint16_t type)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	const char **msg = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		*msg = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

/* Turns NLMSG_ERROR into -errno, keeping the kernel's extack text. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct talk_ctx *ctx = data;
	const char *msg = NULL;
	size_t off, echo;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		st_error_set(ctx->err, EBADMSG, "netlink: %s: short error message", ctx->what);
		return MNL_CB_ERROR;
	}
	if (e->error == 0)
		return MNL_CB_STOP;
	/*
	 * The kernel sends -errno, within -MAX_ERRNO (4095)..-1. Anything else
	 * would come back from here as a positive "success" (or, for INT_MIN,
	 * overflow when negated).
	 */
	if (e->error > 0 || e->error < -4095) {
		st_error_set(ctx->err, EBADMSG, "netlink: %s: bad error code %d", ctx->what, e->error);
		return MNL_CB_ERROR;
	}
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/*
		 * With CAP_ACK the request is not echoed: TLVs follow the header.
		 * Otherwise they follow the echo, whose length must lie inside
		 * this message: an unsigned wrap of the offset would send
		 * mnl_attr_parse() 4 GiB away.
		 */
		off = sizeof(*e);
		echo = e->msg.nlmsg_len;
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (echo < sizeof(e->msg) ||
			    echo - sizeof(e->msg) > mnl_nlmsg_get_payload_len(nlh) - sizeof(*e))
				off = 0;
			else
				off += echo - sizeof(e->msg);
		}
		if (off)
			mnl_attr_parse(nlh, (unsigned int)off, extack_attr_cb, &msg);
	}
	if (msg)
		st_error_set(ctx->err, -e->error, "netlink: %s: %s", ctx->what, msg);
	else
		st_error_set(ctx->err, -e->error, "netlink: %s", ctx->what);
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int stop_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_STOP;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;

	return ctx->cb(nlh, ctx->data);
}

/*
 * Whether every message of @buf, padded to 4 bytes, lies inside it. libmnl's
 * mnl_nlmsg_ok() compares (int)nlmsg_len with the bytes left: a length of
 * 2 GiB or more is negative there, passes, and mnl_nlmsg_next() then jumps
 * that far. And its attribute walk ends at the padded end of a message: the
 * kernel always sends the padding, so a reply without it is not the kernel's.
 */
static int reply_framed(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (len > INT_MAX)
		return 0;
	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		size_t n = nlh->nlmsg_len;

		if (n < sizeof(*nlh) || n > len || MNL_ALIGN(n) > len)
			return 0;
		n = MNL_ALIGN(n);
		if (n == len)
			break;
		p += n;
		len -= n;
	}
	return 1;
}

int st_nl_parse_reply(const void *buf, size_t len, uint32_t seq, uint32_t portid, st_nl_cb cb,
		      void *data, const char *what, struct st_error *err)
{
	/* With a control array, libmnl skips every type it has no entry for: DONE too. */
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = noop_cb,
		[NLMSG_ERROR] = error_cb,
		[NLMSG_DONE] = stop_cb,
		[NLMSG_OVERRUN] = noop_cb,
	};
	struct talk_ctx ctx = { .what = what, .err = err, .cb = cb, .data = data };
	int ret;

	if (!reply_framed(buf, len))
		return st_error_set(err, EBADMSG, "netlink: %s: bad reply (a message overruns it)", what);
	errno = 0;
	ret = mnl_cb_run2(buf, len, seq, portid, cb ? data_cb : NULL, &ctx, ctl, ARRAY_SIZE(ctl));
	if (ret == MNL_CB_OK)
		return 1;
	if (ret == MNL_CB_ERROR) {
		if (err->msg[0])
			return -err->errnum;
		/* libmnl's own checks: a reply to another request, or a malformed one. */
		return st_error_set(err, errno ? errno : EPROTO, "netlink: %s: bad reply", what);
	}
	return 0;
}

/*
 * Sends @nlh and runs the replies through @cb (for dumps) until the ACK or
 * NLMSG_DONE; the error callback keeps the kernel's reason in @err.
 */
int st_nl_talk_cb(struct st_nl *nl, struct nlmsghdr *nlh, st_nl_cb cb, void *data,
		      const char *what, struct st_error *err)
{
	unsigned int seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	st_error_clear(err);
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return st_error_set(err, errno, "netlink: %s: send", what);
	do {
		n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return st_error_set(err, ETIMEDOUT, "netlink: %s: no answer from the kernel", what);
		if (n < 0)
			return st_error_set(err, errno, "netlink: %s: receive", what);
		ret = st_nl_parse_reply(nl->buf, (size_t)n, seq, nl->portid, cb, data, what, err);
	} while (ret == 1);
	return ret;
}

int st_nl_talk(struct st_nl *nl, struct nlmsghdr *nlh, const char *what, struct st_error *err)
{
	return st_nl_talk_cb(nl, nlh, NULL, NULL, what, err);
}


/*
 * Batches: several requests in one sendmsg. rtnetlink runs them in order,
 * each on its own, and acknowledges each (a failed one does not stop the
 * ones after it); the acks come back one datagram each.
 */
void st_nl_batch_init(struct st_nl_batch *b, uint32_t first_seq)
{
	b->len = 0;
	b->n = 0;
	b->next_seq = first_seq;
}

void st_nl_batch_begin(struct st_nl *nl, struct st_nl_batch *b)
{
	st_nl_batch_init(b, nl->seq + 1);
}

/* The place of the next request, with its sequence number; NULL when full. */
void *st_nl_batch_room(struct st_nl_batch *b, uint32_t *seq)
{
	if (b->n == ST_NL_BATCH_MAX || b->len + MNL_SOCKET_BUFFER_SIZE / 8 > sizeof(b->buf))
		return NULL;
	*seq = b->next_seq++;
	b->seq[b->n] = *seq;
	return b->buf + b->len;
}

int st_nl_batch_add(struct st_nl_batch *b, const struct nlmsghdr *nlh)
{
	b->len += MNL_ALIGN(nlh->nlmsg_len);
	b->n++;
	return 0;
}

int st_nl_batch_full(struct st_error *err)
{
	return st_error_set(err, ENOBUFS, "netlink: batch: more than %d requests", ST_NL_BATCH_MAX);
}

int st_nl_batch_parse(struct st_nl_batch *b, const void *buf, size_t len, uint32_t portid,
		      size_t *acked, int *first_error, struct st_error *err)
{
	const unsigned char *p = buf;
	struct st_error later = { 0 };

	if (!reply_framed(buf, len))
		return st_error_set(err, EBADMSG, "netlink: batch: bad reply (a message overruns it)");
	while (len >= sizeof(struct nlmsghdr)) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		size_t n = MNL_ALIGN(nlh->nlmsg_len), i;
		int ret;

		for (i = 0; i < b->n && b->seq[i] != nlh->nlmsg_seq; i++)
			;
		if (i == b->n)
			return st_error_set(err, EPROTO, "netlink: batch: a reply to no request of it (sequence %u)",
					    nlh->nlmsg_seq);
		/* The first failure is the one reported: later ones often follow from it. */
		ret = st_nl_parse_reply(nlh, n, b->seq[i], portid, NULL, NULL, b->what[i],
					*first_error ? &later : err);
		if (ret <= 0)
			(*acked)++;
		if (ret < 0 && !*first_error)
			*first_error = ret;
		p += n;
		len -= n;
	}
	return 0;
}

int st_nl_batch_send(struct st_nl *nl, struct st_nl_batch *b, struct st_error *err)
{
	size_t acked = 0;
	int first_error = 0;
	ssize_t n;

	st_error_clear(err);
	if (b->n == 0)
		return 0;
	/* Its numbers are spent: the socket's next request must not reuse one. */
	if (b->next_seq - 1 > nl->seq)
		nl->seq = b->next_seq - 1;
	if (mnl_socket_sendto(nl->sock, b->buf, b->len) < 0)
		return st_error_set(err, errno, "netlink: %s (and %zu more): send", b->what[0], b->n - 1);
	while (acked < b->n) {
		int ret;

		n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return st_error_set(err, ETIMEDOUT, "netlink: batch: no answer from the kernel");
		if (n < 0)
			return st_error_set(err, errno, "netlink: batch: receive");
		ret = st_nl_batch_parse(b, nl->buf, (size_t)n, nl->portid, &acked, &first_error, err);
		if (ret < 0)
			return ret;
	}
	return first_error;
}