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

/* RTM_NEWADDR of @addr (@len bytes, family @family) on link @index. */
static struct nlmsghdr *msg_addr(void *buf, uint32_t seq, int family, int index, const void *addr,
				 size_t len, unsigned int prefix, unsigned char flags)
{
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
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
	return st_nl_talk(nl, st_nl_msg_addr(nl->buf, ++nl->seq, index, a), what, err);
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
	nlh = st_nl_prepare_dump(nl, RTM_GETADDR);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = (unsigned char)q->family;
	snprintf(what, sizeof(what), "list %saddresses of %s", v6, ifname);
	ret = st_nl_talk_cb(nl, nlh, addr_cb, q, what, err);
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
	struct nlmsghdr *nlh = st_nl_msg_start(buf, seq, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
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
	return st_nl_talk(nl, st_nl_msg_default_route(nl->buf, ++nl->seq, index, gateway), what, err);
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
	return st_nl_talk(nl, st_nl_msg_addr6(nl->buf, ++nl->seq, index, a), what, err);
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
	return st_nl_talk(nl, st_nl_msg_default_route6(nl->buf, ++nl->seq, index, gateway), what, err);
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
	nlh = st_nl_prepare_dump(nl, RTM_GETROUTE);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)q->family;
	ret = st_nl_talk_cb(nl, nlh, route_cb, q, "list routes", err);
	if (ret == 0 && !q->in_use) {
		nlh = st_nl_prepare_dump(nl, RTM_GETADDR);
		g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
		g->rtgen_family = (unsigned char)q->family;
		ret = st_nl_talk_cb(nl, nlh, addr_overlap_cb, q, "list addresses", err);
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


int st_nl_batch_addr(struct st_nl_batch *b, int index, const char *ifname,
		     const struct st_ip4 *a, struct st_error *err)
{
	uint32_t seq;
	void *room = st_nl_batch_room(b, &seq);

	if (!room)
		return st_nl_batch_full(err);
	what_addr(b->what[b->n], sizeof(b->what[0]), AF_INET, a, ifname);
	return st_nl_batch_add(b, st_nl_msg_addr(room, seq, index, a));
}

int st_nl_batch_addr6(struct st_nl_batch *b, int index, const char *ifname,
		      const struct st_ip6 *a, struct st_error *err)
{
	uint32_t seq;
	void *room = st_nl_batch_room(b, &seq);

	if (!room)
		return st_nl_batch_full(err);
	what_addr(b->what[b->n], sizeof(b->what[0]), AF_INET6, a, ifname);
	return st_nl_batch_add(b, st_nl_msg_addr6(room, seq, index, a));
}

int st_nl_batch_route(struct st_nl_batch *b, int index, const char *ifname,
		      struct in_addr gateway, struct st_error *err)
{
	uint32_t seq;
	void *room = st_nl_batch_room(b, &seq);

	if (!room)
		return st_nl_batch_full(err);
	what_route(b->what[b->n], sizeof(b->what[0]), AF_INET, &gateway, ifname);
	return st_nl_batch_add(b, st_nl_msg_default_route(room, seq, index, gateway));
}

int st_nl_batch_route6(struct st_nl_batch *b, int index, const char *ifname,
		       const struct in6_addr *gateway, struct st_error *err)
{
	uint32_t seq;
	void *room = st_nl_batch_room(b, &seq);

	if (!room)
		return st_nl_batch_full(err);
	what_route(b->what[b->n], sizeof(b->what[0]), AF_INET6, gateway, ifname);
	return st_nl_batch_add(b, st_nl_msg_default_route6(room, seq, index, gateway));
}

