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

struct st_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	char buf[32768]; /* a dump part is at most one page; keep room for several */
};

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

static struct nlmsghdr *msg_start(void *buf, uint32_t seq, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	return nlh;
}

/* A counter, not time(NULL): two requests within one second must differ. */
static struct nlmsghdr *nl_prepare(struct st_nl *nl, uint16_t type, uint16_t flags)
{
	return msg_start(nl->buf, ++nl->seq, type, flags);
}

/*
 * A dump ends with NLMSG_DONE, not an ACK. (Its flag cannot be tested in a
 * request's flags: NLM_F_DUMP shares bits with NLM_F_EXCL and NLM_F_REPLACE.)
 */
static struct nlmsghdr *nl_prepare_dump(struct st_nl *nl, uint16_t type)
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
static int nl_talk_cb(struct st_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
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

static int nl_talk(struct st_nl *nl, struct nlmsghdr *nlh, const char *what, struct st_error *err)
{
	return nl_talk_cb(nl, nlh, NULL, NULL, what, err);
}

static struct ifinfomsg *put_ifinfo(struct nlmsghdr *nlh)
{
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	ifm->ifi_family = AF_UNSPEC;
	return ifm;
}

struct nlmsghdr *st_nl_msg_link_up(void *buf, uint32_t seq, const char *ifname, int no_forwarding)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_NEWLINK, 0);
	struct ifinfomsg *ifm = put_ifinfo(nlh);

	ifm->ifi_change = IFF_UP;
	ifm->ifi_flags = IFF_UP;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	if (no_forwarding) {
		/* IFLA_AF_SPEC { AF_INET { IFLA_INET_CONF { FORWARDING: 0 } } } */
		struct nlattr *spec = mnl_attr_nest_start(nlh, IFLA_AF_SPEC);
		struct nlattr *inet = mnl_attr_nest_start(nlh, AF_INET);
		struct nlattr *conf = mnl_attr_nest_start(nlh, IFLA_INET_CONF);

		mnl_attr_put_u32(nlh, IPV4_DEVCONF_FORWARDING, 0);
		mnl_attr_nest_end(nlh, conf);
		mnl_attr_nest_end(nlh, inet);
		mnl_attr_nest_end(nlh, spec);
	}
	return nlh;
}

static void what_link_up(char *what, size_t len, const char *ifname)
{
	snprintf(what, len, "set %s up", ifname);
}

int st_nl_link_set_up(struct st_nl *nl, const char *ifname, int no_forwarding,
		      struct st_error *err)
{
	char what[64];

	what_link_up(what, sizeof(what), ifname);
	return nl_talk(nl, st_nl_msg_link_up(nl->buf, ++nl->seq, ifname, no_forwarding), what, err);
}

struct nlmsghdr *st_nl_msg_veth(void *buf, uint32_t seq, const char *name, const char *peer,
				int peer_netns_fd, unsigned int mtu)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *linkinfo, *data, *peer_nest;
	struct ifinfomsg *peer_ifm;

	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	/* The peer is a whole ifinfomsg plus attributes, inside VETH_INFO_PEER. */
	peer_nest = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	peer_ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*peer_ifm));
	memset(peer_ifm, 0, sizeof(*peer_ifm));
	peer_ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	if (peer_netns_fd >= 0)
		mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)peer_netns_fd);
	mnl_attr_nest_end(nlh, peer_nest);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh;
}

int st_nl_veth_create(struct st_nl *nl, const char *name, const char *peer, int peer_netns_fd,
		      unsigned int mtu, struct st_error *err)
{
	char what[64];

	snprintf(what, sizeof(what), "create veth %s", name);
	return nl_talk(nl, st_nl_msg_veth(nl->buf, ++nl->seq, name, peer, peer_netns_fd, mtu), what,
		       err);
}

struct nlmsghdr *st_nl_msg_bridge(void *buf, uint32_t seq, const char *name, unsigned int mtu)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *linkinfo;

	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh;
}

int st_nl_bridge_create(struct st_nl *nl, const char *name, unsigned int mtu, struct st_error *err)
{
	char what[64];

	snprintf(what, sizeof(what), "create bridge %s", name);
	return nl_talk(nl, st_nl_msg_bridge(nl->buf, ++nl->seq, name, mtu), what, err);
}

struct nlmsghdr *st_nl_msg_macvlan(void *buf, uint32_t seq, const char *name, int parent_index,
				   int netns_fd, unsigned int mtu)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *linkinfo, *data;

	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_LINK, (uint32_t)parent_index);
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	/* Born in the target namespace; IFLA_LINK still names the parent here. */
	if (netns_fd >= 0)
		mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)netns_fd);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "macvlan");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	/* Bridge mode: macvlans of one parent reach each other without the parent. */
	mnl_attr_put_u32(nlh, IFLA_MACVLAN_MODE, MACVLAN_MODE_BRIDGE);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return nlh;
}

int st_nl_macvlan_create(struct st_nl *nl, const char *name, const char *parent, int netns_fd,
			 unsigned int mtu, struct st_error *err)
{
	char what[80];
	int index = st_nl_link_index(nl, parent, err);

	if (index < 0)
		return index;
	snprintf(what, sizeof(what), "create macvlan %s on %s", name, parent);
	return nl_talk(nl, st_nl_msg_macvlan(nl->buf, ++nl->seq, name, index, netns_fd, mtu), what,
		       err);
}

int st_nl_link_del(struct st_nl *nl, const char *ifname, struct st_error *err)
{
	struct nlmsghdr *nlh = nl_prepare(nl, RTM_DELLINK, 0);
	char what[64];

	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	snprintf(what, sizeof(what), "delete link %s", ifname);
	return nl_talk(nl, nlh, what, err);
}

struct link_info {
	int index;
	char *kind;
	size_t kind_len;
};

static int linkinfo_cb(const struct nlattr *attr, void *data)
{
	struct link_info *li = data;

	if (mnl_attr_get_type(attr) == IFLA_INFO_KIND &&
	    mnl_attr_validate(attr, MNL_TYPE_STRING) == 0 && li->kind)
		snprintf(li->kind, li->kind_len, "%.*s", (int)mnl_attr_get_payload_len(attr),
			 (const char *)mnl_attr_get_payload(attr));
	return MNL_CB_OK;
}

static int link_attr_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == IFLA_LINKINFO && mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
		mnl_attr_parse_nested(attr, linkinfo_cb, data);
	return MNL_CB_OK;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);
	struct link_info *li = data;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	li->index = ifm->ifi_index;
	mnl_attr_parse(nlh, sizeof(*ifm), link_attr_cb, li);
	return MNL_CB_OK;
}

int st_nl_link_get(struct st_nl *nl, const char *ifname, int *index, char *kind, size_t kind_len,
		   struct st_error *err)
{
	struct nlmsghdr *nlh = nl_prepare(nl, RTM_GETLINK, 0);
	struct link_info li = { .index = 0, .kind = kind, .kind_len = kind_len };
	char what[64];
	int ret;

	if (kind && kind_len)
		kind[0] = '\0';
	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	snprintf(what, sizeof(what), "find link %s", ifname);
	ret = nl_talk_cb(nl, nlh, link_cb, &li, what, err);
	if (ret < 0)
		return ret;
	if (li.index <= 0)
		return st_error_set(err, ENODEV, "netlink: %s", what);
	*index = li.index;
	return 0;
}

struct list_ctx {
	st_nl_link_fn fn;
	void *data;
};

static int list_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);
	struct list_ctx *ctx = data;
	char kind[16] = "";
	struct link_info li = { .index = 0, .kind = kind, .kind_len = sizeof(kind) };
	const struct nlattr *attr;
	const char *name = NULL;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*ifm), link_attr_cb, &li);
	mnl_attr_for_each(attr, nlh, sizeof(*ifm))
		if (mnl_attr_get_type(attr) == IFLA_IFNAME && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			name = mnl_attr_get_str(attr);
	if (name)
		ctx->fn(name, ifm->ifi_index, kind, ctx->data);
	return MNL_CB_OK;
}

int st_nl_link_list(struct st_nl *nl, st_nl_link_fn fn, void *data, struct st_error *err)
{
	struct nlmsghdr *nlh = nl_prepare_dump(nl, RTM_GETLINK);
	struct list_ctx ctx = { .fn = fn, .data = data };

	put_ifinfo(nlh);
	return nl_talk_cb(nl, nlh, list_cb, &ctx, "list links", err);
}

int st_nl_link_index(struct st_nl *nl, const char *ifname, struct st_error *err)
{
	int index, ret = st_nl_link_get(nl, ifname, &index, NULL, 0, err);

	return ret < 0 ? ret : index;
}

int st_nl_link_set_master(struct st_nl *nl, const char *ifname, const char *master,
			  struct st_error *err)
{
	int master_index = st_nl_link_index(nl, master, err);
	struct nlmsghdr *nlh;
	char what[64];

	if (master_index < 0)
		return master_index;
	nlh = nl_prepare(nl, RTM_NEWLINK, 0);
	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)master_index);
	snprintf(what, sizeof(what), "attach %s to bridge %s", ifname, master);
	return nl_talk(nl, nlh, what, err);
}

/* RTM_NEWADDR of @addr (@len bytes, family @family) on link @index. */
static struct nlmsghdr *msg_addr(void *buf, uint32_t seq, int family, int index, const void *addr,
				 size_t len, unsigned int prefix, unsigned char flags)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));

	ifa->ifa_family = (unsigned char)family;
	ifa->ifa_prefixlen = (unsigned char)prefix;
	ifa->ifa_flags = flags;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = (unsigned int)index;
	mnl_attr_put(nlh, IFA_LOCAL, len, addr);
	mnl_attr_put(nlh, IFA_ADDRESS, len, addr);
	return nlh;
}

struct nlmsghdr *st_nl_msg_addr(void *buf, uint32_t seq, int index, const struct st_ip4 *a)
{
	struct nlmsghdr *nlh =
	    msg_addr(buf, seq, AF_INET, index, &a->addr, sizeof(a->addr), a->prefix, 0);
	struct in_addr brd;

	if (a->prefix < 31) {
		brd.s_addr = a->addr.s_addr | ~st_ip4_mask(a->prefix);
		mnl_attr_put(nlh, IFA_BROADCAST, sizeof(brd), &brd);
	}
	return nlh;
}

/* "add address 10.213.0.2/30 to eth0": what an error about this request says. */
static void what_addr(char *what, size_t len, int family, const void *a, const char *ifname)
{
	char text[INET6_ADDRSTRLEN + 4];

	if (family == AF_INET)
		st_ip4_format(a, text, sizeof(text));
	else
		st_ip6_format(a, text, sizeof(text));
	snprintf(what, len, "add address %s to %s", text, ifname);
}

int st_nl_addr_add(struct st_nl *nl, const char *ifname, const struct st_ip4 *a,
		   struct st_error *err)
{
	int index = st_nl_link_index(nl, ifname, err);
	char what[96];

	if (index < 0)
		return index;
	what_addr(what, sizeof(what), AF_INET, a, ifname);
	return nl_talk(nl, st_nl_msg_addr(nl->buf, ++nl->seq, index, a), what, err);
}

/* The address a dump is searched for: of which family and link, found where. */
struct addr_query {
	int family;
	int index;
	int found;
	uint16_t attr;     /* IFA_LOCAL (IPv4: the address itself) or IFA_ADDRESS (IPv6) */
	int global_only;   /* IPv6: link-local addresses cannot be a gateway's */
	void *addr;        /* out: the address, len bytes */
	size_t len;
	unsigned int *prefix; /* out */
};

/* The first address of q->family on q->index. */
static int addr_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	struct addr_query *q = data;
	struct nlattr *attr;

	if (nlh->nlmsg_type != RTM_NEWADDR || ifa->ifa_family != q->family || q->found ||
	    (int)ifa->ifa_index != q->index || (q->global_only && ifa->ifa_scope != RT_SCOPE_UNIVERSE))
		return MNL_CB_OK;
	mnl_attr_for_each(attr, nlh, sizeof(*ifa)) {
		if (mnl_attr_get_type(attr) == q->attr && mnl_attr_get_payload_len(attr) == q->len) {
			memcpy(q->addr, mnl_attr_get_payload(attr), q->len);
			*q->prefix = ifa->ifa_prefixlen;
			q->found = 1;
		}
	}
	return MNL_CB_OK;
}

/* Dumps the addresses of q->family and keeps @ifname's first; ENOENT: it has none. */
static int addr_get(struct st_nl *nl, const char *ifname, struct addr_query *q, struct st_error *err)
{
	const char *v6 = q->family == AF_INET6 ? "IPv6 " : "";
	struct nlmsghdr *nlh;
	struct rtgenmsg *g;
	char what[64];
	int ret;

	q->index = st_nl_link_index(nl, ifname, err);
	if (q->index < 0)
		return q->index;
	nlh = nl_prepare_dump(nl, RTM_GETADDR);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = (unsigned char)q->family;
	snprintf(what, sizeof(what), "list %saddresses of %s", v6, ifname);
	ret = nl_talk_cb(nl, nlh, addr_cb, q, what, err);
	if (ret < 0)
		return ret;
	if (!q->found)
		return st_error_set(err, ENOENT, "%s has no %s address", ifname,
				    q->family == AF_INET6 ? "global IPv6" : "IPv4");
	return 0;
}

int st_nl_addr_get(struct st_nl *nl, const char *ifname, struct st_ip4 *a, struct st_error *err)
{
	struct addr_query q = { .family = AF_INET, .attr = IFA_LOCAL, .addr = &a->addr,
				.len = sizeof(a->addr), .prefix = &a->prefix };

	return addr_get(nl, ifname, &q, err);
}

int st_nl_addr6_get(struct st_nl *nl, const char *ifname, struct st_ip6 *a, struct st_error *err)
{
	struct addr_query q = { .family = AF_INET6, .attr = IFA_ADDRESS, .global_only = 1,
				.addr = &a->addr, .len = sizeof(a->addr), .prefix = &a->prefix };

	return addr_get(nl, ifname, &q, err);
}

/* RTM_NEWROUTE of a default route via @gateway (@len bytes, family @family) out of link @index. */
static struct nlmsghdr *msg_default_route(void *buf, uint32_t seq, int family, int index,
					  const void *gateway, size_t len)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = 0;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_GATEWAY, len, gateway);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)index);
	return nlh;
}

struct nlmsghdr *st_nl_msg_default_route(void *buf, uint32_t seq, int index, struct in_addr gateway)
{
	return msg_default_route(buf, seq, AF_INET, index, &gateway, sizeof(gateway));
}

static void what_route(char *what, size_t len, int family, const void *gateway, const char *ifname)
{
	char gw[INET6_ADDRSTRLEN];

	inet_ntop(family, gateway, gw, sizeof(gw));
	snprintf(what, len, "add default %sroute via %s dev %s", family == AF_INET6 ? "IPv6 " : "", gw,
		 ifname);
}

int st_nl_route_add_default(struct st_nl *nl, const char *ifname, struct in_addr gateway,
			    struct st_error *err)
{
	int index = st_nl_link_index(nl, ifname, err);
	char what[96];

	if (index < 0)
		return index;
	what_route(what, sizeof(what), AF_INET, &gateway, ifname);
	return nl_talk(nl, st_nl_msg_default_route(nl->buf, ++nl->seq, index, gateway), what, err);
}

struct nlmsghdr *st_nl_msg_addr6(void *buf, uint32_t seq, int index, const struct st_ip6 *a)
{
	/*
	 * No duplicate address detection: the block is ours and checked free,
	 * and DAD would keep the address tentative (unusable) for ~1-2 s
	 * (dad_transmits x retrans_time) after the link comes up.
	 */
	return msg_addr(buf, seq, AF_INET6, index, &a->addr, sizeof(a->addr), a->prefix,
			IFA_F_NODAD);
}

int st_nl_addr6_add(struct st_nl *nl, const char *ifname, const struct st_ip6 *a,
		    struct st_error *err)
{
	int index = st_nl_link_index(nl, ifname, err);
	char what[96];

	if (index < 0)
		return index;
	what_addr(what, sizeof(what), AF_INET6, a, ifname);
	return nl_talk(nl, st_nl_msg_addr6(nl->buf, ++nl->seq, index, a), what, err);
}

struct nlmsghdr *st_nl_msg_default_route6(void *buf, uint32_t seq, int index,
					  const struct in6_addr *gateway)
{
	return msg_default_route(buf, seq, AF_INET6, index, gateway, sizeof(*gateway));
}

int st_nl_route6_add_default(struct st_nl *nl, const char *ifname, const struct in6_addr *gateway,
			     struct st_error *err)
{
	int index = st_nl_link_index(nl, ifname, err);
	char what[128];

	if (index < 0)
		return index;
	what_route(what, sizeof(what), AF_INET6, gateway, ifname);
	return nl_talk(nl, st_nl_msg_default_route6(nl->buf, ++nl->seq, index, gateway), what, err);
}

/* The network asked about, in either family. */
struct in_use_query {
	int family;
	const struct st_ip4 *net4;
	const struct st_ip6 *net6;
	int in_use;
	char *what;
	size_t what_len;
};

static void check_overlap(struct in_use_query *q, const void *addr, unsigned int prefix,
			  const char *kind)
{
	char text[INET6_ADDRSTRLEN + 4];

	/* A default route (::/0, 0.0.0.0/0) overlaps everything and says nothing: skip it. */
	if (q->in_use || prefix == 0)
		return;
	if (q->family == AF_INET) {
		struct st_ip4 other = { .prefix = prefix };

		memcpy(&other.addr, addr, sizeof(other.addr));
		if (!st_ip4_overlap(q->net4, &other))
			return;
		st_ip4_format(&other, text, sizeof(text));
	} else {
		struct st_ip6 other = { .prefix = prefix };

		memcpy(&other.addr, addr, sizeof(other.addr));
		if (!st_ip6_overlap(q->net6, &other))
			return;
		st_ip6_format(&other, text, sizeof(text));
	}
	q->in_use = 1;
	snprintf(q->what, q->what_len, "%s %s", kind, text);
}

static size_t addr_len(int family)
{
	return family == AF_INET ? sizeof(struct in_addr) : sizeof(struct in6_addr);
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	struct in_use_query *q = data;
	struct nlattr *attr;

	if (nlh->nlmsg_type != RTM_NEWROUTE || rtm->rtm_family != q->family)
		return MNL_CB_OK;
	mnl_attr_for_each(attr, nlh, sizeof(*rtm))
		if (mnl_attr_get_type(attr) == RTA_DST &&
		    mnl_attr_get_payload_len(attr) == addr_len(q->family))
			check_overlap(q, mnl_attr_get_payload(attr), rtm->rtm_dst_len, "route");
	return MNL_CB_OK;
}

/* IPv4 names the address IFA_LOCAL; IPv6 IFA_ADDRESS (IFA_LOCAL only with a peer). */
static int addr_overlap_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	struct in_use_query *q = data;
	struct nlattr *attr;

	if (nlh->nlmsg_type != RTM_NEWADDR || ifa->ifa_family != q->family)
		return MNL_CB_OK;
	mnl_attr_for_each(attr, nlh, sizeof(*ifa)) {
		uint16_t type = mnl_attr_get_type(attr);

		if ((type == IFA_LOCAL || (type == IFA_ADDRESS && q->family == AF_INET6)) &&
		    mnl_attr_get_payload_len(attr) == addr_len(q->family))
			check_overlap(q, mnl_attr_get_payload(attr), ifa->ifa_prefixlen, "address");
	}
	return MNL_CB_OK;
}

static int ip_in_use(struct st_nl *nl, struct in_use_query *q, int *in_use, struct st_error *err)
{
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	struct rtgenmsg *g;
	int ret;

	/* All tables: a policy-routing table can claim the range too. */
	nlh = nl_prepare_dump(nl, RTM_GETROUTE);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)q->family;
	ret = nl_talk_cb(nl, nlh, route_cb, q, "list routes", err);
	if (ret == 0 && !q->in_use) {
		nlh = nl_prepare_dump(nl, RTM_GETADDR);
		g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
		g->rtgen_family = (unsigned char)q->family;
		ret = nl_talk_cb(nl, nlh, addr_overlap_cb, q, "list addresses", err);
	}
	if (ret == 0)
		*in_use = q->in_use;
	return ret;
}

int st_nl_ip4_in_use(struct st_nl *nl, const struct st_ip4 *net, int *in_use, char *what,
		     size_t what_len, struct st_error *err)
{
	struct in_use_query q = { .family = AF_INET, .net4 = net, .what = what, .what_len = what_len };

	return ip_in_use(nl, &q, in_use, err);
}

int st_nl_ip6_in_use(struct st_nl *nl, const struct st_ip6 *net, int *in_use, char *what,
		     size_t what_len, struct st_error *err)
{
	struct in_use_query q = { .family = AF_INET6, .net6 = net, .what = what, .what_len = what_len };

	return ip_in_use(nl, &q, in_use, err);
}

struct nsid_query {
	int nsid;
};

static int nsid_attr_cb(const struct nlattr *attr, void *data)
{
	struct nsid_query *q = data;

	if (mnl_attr_get_type(attr) == NETNSA_NSID && mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		q->nsid = (int)mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int nsid_cb(const struct nlmsghdr *nlh, void *data)
{
	if (nlh->nlmsg_type == RTM_NEWNSID)
		mnl_attr_parse(nlh, sizeof(struct rtgenmsg), nsid_attr_cb, data);
	return MNL_CB_OK;
}

struct nlmsghdr *st_nl_msg_getnsid(void *buf, uint32_t seq, int netns_fd)
{
	struct nlmsghdr *nlh = msg_start(buf, seq, RTM_GETNSID, 0);
	struct rtgenmsg *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NETNSA_FD, (uint32_t)netns_fd);
	return nlh;
}

int st_nl_nsid_get(struct st_nl *nl, int netns_fd, int *nsid, struct st_error *err)
{
	struct nsid_query q = { .nsid = NETNSA_NSID_NOT_ASSIGNED };
	int ret;

	ret = nl_talk_cb(nl, st_nl_msg_getnsid(nl->buf, ++nl->seq, netns_fd), nsid_cb, &q,
			 "get nsid", err);
	if (ret < 0)
		return ret;
	*nsid = q.nsid < 0 ? -1 : q.nsid;
	return 0;
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
static void *batch_room(struct st_nl_batch *b, uint32_t *seq)
{
	if (b->n == ST_NL_BATCH_MAX || b->len + MNL_SOCKET_BUFFER_SIZE / 8 > sizeof(b->buf))
		return NULL;
	*seq = b->next_seq++;
	b->seq[b->n] = *seq;
	return b->buf + b->len;
}

static int batch_add(struct st_nl_batch *b, const struct nlmsghdr *nlh)
{
	b->len += MNL_ALIGN(nlh->nlmsg_len);
	b->n++;
	return 0;
}

static int batch_full(struct st_error *err)
{
	return st_error_set(err, ENOBUFS, "netlink: batch: more than %d requests", ST_NL_BATCH_MAX);
}

int st_nl_batch_link_up(struct st_nl_batch *b, const char *ifname,
			int no_forwarding, struct st_error *err)
{
	uint32_t seq;
	void *room = batch_room(b, &seq);

	if (!room)
		return batch_full(err);
	what_link_up(b->what[b->n], sizeof(b->what[0]), ifname);
	return batch_add(b, st_nl_msg_link_up(room, seq, ifname, no_forwarding));
}

int st_nl_batch_addr(struct st_nl_batch *b, int index, const char *ifname,
		     const struct st_ip4 *a, struct st_error *err)
{
	uint32_t seq;
	void *room = batch_room(b, &seq);

	if (!room)
		return batch_full(err);
	what_addr(b->what[b->n], sizeof(b->what[0]), AF_INET, a, ifname);
	return batch_add(b, st_nl_msg_addr(room, seq, index, a));
}

int st_nl_batch_addr6(struct st_nl_batch *b, int index, const char *ifname,
		      const struct st_ip6 *a, struct st_error *err)
{
	uint32_t seq;
	void *room = batch_room(b, &seq);

	if (!room)
		return batch_full(err);
	what_addr(b->what[b->n], sizeof(b->what[0]), AF_INET6, a, ifname);
	return batch_add(b, st_nl_msg_addr6(room, seq, index, a));
}

int st_nl_batch_route(struct st_nl_batch *b, int index, const char *ifname,
		      struct in_addr gateway, struct st_error *err)
{
	uint32_t seq;
	void *room = batch_room(b, &seq);

	if (!room)
		return batch_full(err);
	what_route(b->what[b->n], sizeof(b->what[0]), AF_INET, &gateway, ifname);
	return batch_add(b, st_nl_msg_default_route(room, seq, index, gateway));
}

int st_nl_batch_route6(struct st_nl_batch *b, int index, const char *ifname,
		       const struct in6_addr *gateway, struct st_error *err)
{
	uint32_t seq;
	void *room = batch_room(b, &seq);

	if (!room)
		return batch_full(err);
	what_route(b->what[b->n], sizeof(b->what[0]), AF_INET6, gateway, ifname);
	return batch_add(b, st_nl_msg_default_route6(room, seq, index, gateway));
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
