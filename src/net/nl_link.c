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

static struct ifinfomsg *put_ifinfo(struct nlmsghdr *nlh)
{
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	ifm->ifi_family = AF_UNSPEC;
	return ifm;
}

struct nlmsghdr *st_nl_msg_link_up(void *buf, uint32_t seq, const char *ifname, int no_forwarding)
{
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_NEWLINK, 0);
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
	return st_nl_talk(nl, st_nl_msg_link_up(nl->buf, ++nl->seq, ifname, no_forwarding), what, err);
}

struct nlmsghdr *st_nl_msg_veth(void *buf, uint32_t seq, const char *name, const char *peer,
				int peer_netns_fd, unsigned int mtu)
{
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
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
	return st_nl_talk(nl, st_nl_msg_veth(nl->buf, ++nl->seq, name, peer, peer_netns_fd, mtu), what,
		       err);
}

struct nlmsghdr *st_nl_msg_bridge(void *buf, uint32_t seq, const char *name, unsigned int mtu)
{
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
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
	return st_nl_talk(nl, st_nl_msg_bridge(nl->buf, ++nl->seq, name, mtu), what, err);
}

struct nlmsghdr *st_nl_msg_macvlan(void *buf, uint32_t seq, const char *name, int parent_index,
				   int netns_fd, unsigned int mtu)
{
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
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
	return st_nl_talk(nl, st_nl_msg_macvlan(nl->buf, ++nl->seq, name, index, netns_fd, mtu), what,
		       err);
}

int st_nl_link_del(struct st_nl *nl, const char *ifname, struct st_error *err)
{
	struct nlmsghdr *nlh = st_nl_prepare(nl, RTM_DELLINK, 0);
	char what[64];

	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	snprintf(what, sizeof(what), "delete link %s", ifname);
	return st_nl_talk(nl, nlh, what, err);
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
	struct nlmsghdr *nlh = st_nl_prepare(nl, RTM_GETLINK, 0);
	struct link_info li = { .index = 0, .kind = kind, .kind_len = kind_len };
	char what[64];
	int ret;

	if (kind && kind_len)
		kind[0] = '\0';
	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	snprintf(what, sizeof(what), "find link %s", ifname);
	ret = st_nl_talk_cb(nl, nlh, link_cb, &li, what, err);
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
	struct nlmsghdr *nlh = st_nl_prepare_dump(nl, RTM_GETLINK);
	struct list_ctx ctx = { .fn = fn, .data = data };

	put_ifinfo(nlh);
	return st_nl_talk_cb(nl, nlh, list_cb, &ctx, "list links", err);
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
	nlh = st_nl_prepare(nl, RTM_NEWLINK, 0);
	put_ifinfo(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, ifname);
	mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)master_index);
	snprintf(what, sizeof(what), "attach %s to bridge %s", ifname, master);
	return st_nl_talk(nl, nlh, what, err);
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
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_GETNSID, 0);
	struct rtgenmsg *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NETNSA_FD, (uint32_t)netns_fd);
	return nlh;
}

int st_nl_nsid_get(struct st_nl *nl, int netns_fd, int *nsid, struct st_error *err)
{
	struct nsid_query q = { .nsid = NETNSA_NSID_NOT_ASSIGNED };
	int ret;

	ret = st_nl_talk_cb(nl, st_nl_msg_getnsid(nl->buf, ++nl->seq, netns_fd), nsid_cb, &q,
			 "get nsid", err);
	if (ret < 0)
		return ret;
	*nsid = q.nsid < 0 ? -1 : q.nsid;
	return 0;
}

int st_nl_batch_link_up(struct st_nl_batch *b, const char *ifname,
			int no_forwarding, struct st_error *err)
{
	uint32_t seq;
	void *room = st_nl_batch_room(b, &seq);

	if (!room)
		return st_nl_batch_full(err);
	what_link_up(b->what[b->n], sizeof(b->what[0]), ifname);
	return st_nl_batch_add(b, st_nl_msg_link_up(room, seq, ifname, no_forwarding));
}

