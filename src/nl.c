// SPDX-License-Identifier: MIT
#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sandboxtime/nl.h"

struct st_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	char buf[8192];
};

struct talk_ctx {
	const char *what;
	struct st_error *err;
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
	/* A counter, not time(NULL): two requests in one second must differ. */
	nl->seq = (unsigned int)time(NULL);
	*out = nl;
	return 0;
}

void st_nl_close(struct st_nl *nl)
{
	mnl_socket_close(nl->sock);
	free(nl);
}

static struct nlmsghdr *nl_prepare(struct st_nl *nl, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
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
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return st_error_set(ctx->err, EBADMSG, "netlink: %s: short error message", ctx->what),
		       MNL_CB_ERROR;
	if (e->error == 0)
		return MNL_CB_STOP;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/* With CAP_ACK the request is not echoed: TLVs follow the header. */
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(e->msg);
		mnl_attr_parse(nlh, off, extack_attr_cb, &msg);
	}
	if (msg)
		st_error_set(ctx->err, -e->error, "netlink: %s: %s", ctx->what, msg);
	else
		st_error_set(ctx->err, -e->error, "netlink: %s", ctx->what);
	errno = -e->error;
	return MNL_CB_ERROR;
}

static int nl_talk(struct st_nl *nl, struct nlmsghdr *nlh, const char *what, struct st_error *err)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = error_cb };
	struct talk_ctx ctx = { .what = what, .err = err };
	ssize_t n;
	int ret;

	st_error_clear(err);
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return st_error_set(err, errno, "netlink: %s: send", what);
	do {
		n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (n < 0)
			return st_error_set(err, errno, "netlink: %s: receive", what);
		ret = mnl_cb_run2(nl->buf, (size_t)n, nlh->nlmsg_seq, nl->portid, NULL, &ctx, ctl,
				  ARRAY_SIZE(ctl));
	} while (ret == MNL_CB_OK);
	if (ret == MNL_CB_ERROR) {
		if (err->msg[0])
			return -err->errnum;
		return st_error_set(err, errno, "netlink: %s", what);
	}
	return 0;
}

int st_nl_link_set_up(struct st_nl *nl, const char *ifname, struct st_error *err)
{
	struct nlmsghdr *nlh = nl_prepare(nl, RTM_NEWLINK, 0);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	char what[64];

	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_change = IFF_UP;
	ifm->ifi_flags = IFF_UP;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	snprintf(what, sizeof(what), "set %s up", ifname);
	return nl_talk(nl, nlh, what, err);
}
