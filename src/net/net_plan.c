// SPDX-License-Identifier: MIT
/*
 * The network layer's plan, decided before the clone: names, and IPv4/IPv6
 * blocks that overlap nothing on the host (picked from the pools below by
 * pid, or checked when given), the gateway, a joined bridge's subnet, the
 * namespace to join. The wiring that carries it out is ns_net.c.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "sandboxtime/net_plan.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/util.h"

#define POOL_PREFIX 16
#define MAX_TRIES 1024

/* The pools are net_plan.h's; a pool's blocks are tried from the pid's on. */
#define IP6_PREFIX 64
#define IP6_SUBNETS 0x8000u /* veth's; bridges' follow from ST_NET_IP6_BRIDGE_FIRST */

/* "1" in a /proc/sys file; a file that is not there counts as "0". */
static int sysctl_on(const char *path)
{
	char buf[16];

	return st_read_file(path, buf, sizeof(buf)) > 0 && strcmp(buf, "0") != 0;
}

int st_net_ipv6_available(struct st_error *err)
{
	static const char *const knobs[] = { "all", "default" };

	if (access("/proc/net/if_inet6", F_OK) < 0) {
		st_error_set(err, EAFNOSUPPORT, "--ipv6: this kernel runs without IPv6 (no /proc/net/if_inet6)");
		st_error_hint(err, "boot without ipv6.disable=1, or leave out --ipv6");
		return -EAFNOSUPPORT;
	}
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6", knobs[i]);
		if (sysctl_on(path)) {
			st_error_set(err, EAFNOSUPPORT, "--ipv6: IPv6 is disabled here (net.ipv6.conf.%s.disable_ipv6=1)",
				     knobs[i]);
			st_error_hint(err, "sysctl -w net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0, or leave out --ipv6");
			return -EAFNOSUPPORT;
		}
	}
	return 0;
}

/*
 * Root wires the host itself. Linux has no per-link switch that stops IPv6
 * forwarding (conf/IF/forwarding only makes a link behave as a router's;
 * force_forwarding, 6.17, can only turn it on): the host forwards what the
 * sandbox sends whenever net.ipv6.conf.all.forwarding is 1. So refuse then.
 */
static int check_ipv6_forwarding(struct st_error *err)
{
	if (sysctl_on("/proc/sys/net/ipv6/conf/all/forwarding")) {
		st_error_set(err, EPERM, "--ipv6: this host forwards IPv6 (net.ipv6.conf.all.forwarding=1), and Linux has no per-link switch to keep the sandbox's packets from being routed off the machine");
		st_error_hint(err, "run without root (the outside is then a namespace sandboxtime makes), or leave out --ipv6");
		return -EPERM;
	}
	if (sysctl_on("/proc/sys/net/ipv6/conf/default/force_forwarding")) {
		st_error_set(err, EPERM, "--ipv6: new links forward IPv6 here (net.ipv6.conf.default.force_forwarding=1)");
		st_error_hint(err, "run without root, or leave out --ipv6");
		return -EPERM;
	}
	return 0;
}

/* The first address of @a's network that is not @a itself: the gateway. */
struct st_ip6 st_net_gateway6(const struct st_ip6 *a)
{
	struct st_ip6 gw = st_ip6_network(a);

	gw.addr.s6_addr[15] |= 1;
	if (memcmp(&gw.addr, &a->addr, sizeof(gw.addr)) == 0)
		gw.addr.s6_addr[15] += 1;
	return gw;
}

int st_net_check_free6(struct st_nl *nl, const struct st_ip6 *a, struct st_error *err)
{
	struct st_ip6 net = st_ip6_network(a);
	char what[96], text[64];
	int in_use = 0, ret;

	ret = st_nl_ip6_in_use(nl, &net, &in_use, what, sizeof(what), err);
	if (ret < 0)
		return ret;
	if (!in_use)
		return 0;
	st_ip6_format(&net, text, sizeof(text));
	return st_error_usage(err, "--addr6: %s overlaps %s on this host (choose another block)", text, what);
}

int st_net_pick_block6(struct st_nl *nl, unsigned int first, unsigned int seed,
		       struct st_ip6 *block, struct st_error *err)
{
	unsigned int start = seed % IP6_SUBNETS;
	char what[96];

	for (unsigned int i = 0; i < IP6_SUBNETS && i < MAX_TRIES; i++) {
		unsigned int subnet = first + (start + i) % IP6_SUBNETS;
		int in_use = 0, ret;

		inet_pton(AF_INET6, ST_NET_IP6_POOL, &block->addr);
		block->addr.s6_addr[6] = (uint8_t)(subnet >> 8);
		block->addr.s6_addr[7] = (uint8_t)subnet;
		block->prefix = IP6_PREFIX;
		ret = st_nl_ip6_in_use(nl, block, &in_use, what, sizeof(what), err);
		if (ret < 0)
			return ret;
		if (!in_use)
			return 0;
	}
	return st_error_set(err, EADDRINUSE, "--ipv6: the first %u /64 blocks of %s/48 all overlap a route or address here; choose one with --addr6",
			    MAX_TRIES, ST_NET_IP6_POOL);
}

struct st_ip6 st_net_bridge_member6(const struct st_ip6 *bridge, uint32_t seed)
{
	unsigned int host_bits = 128 - bridge->prefix;
	uint32_t room = host_bits >= 32 ? UINT32_MAX - 2 : (1u << host_bits) - 3;
	uint32_t host = 2 + seed % room;
	struct st_ip6 a = st_ip6_network(bridge);

	for (int i = 0; i < 4; i++)
		a.addr.s6_addr[15 - i] |= (uint8_t)(host >> (8 * i));
	if (memcmp(&a.addr, &bridge->addr, sizeof(a.addr)) == 0)
		a.addr.s6_addr[15] ^= 1; /* the other of a pair: still in the block */
	return a;
}

/*
 * --bridge NAME --ipv6: the bridge's global IPv6 address is the gateway; it
 * must be a unique local one (a joined bridge is not ours to check the
 * routes of, but fd00::/8 is never routed on the Internet), and the
 * sandbox's address lies in its block: --addr6, or one derived from the pid.
 */
static int plan_joined_bridge6(struct st_nl *nl, const struct st_net_opts *o, struct st_net_plan *p,
			       struct st_error *err)
{
	char a[64], b[64];
	int ret = st_nl_addr6_get(nl, o->bridge, &p->outside6, err);

	if (ret < 0)
		return st_error_wrap(err, "--ipv6: bridge %s needs a unique local IPv6 address (fd00::/8) to serve as gateway",
				     o->bridge);
	st_ip6_format(&p->outside6, b, sizeof(b));
	if (!st_ip6_is_ula(&p->outside6.addr) || p->outside6.prefix < 64 || p->outside6.prefix > 126)
		return st_error_usage(err, "--ipv6: bridge %s's IPv6 address %s is not in fd00::/8 with a prefix from 64 to 126",
				      o->bridge, b);
	if (!o->addr6_given) {
		p->inside6 = st_net_bridge_member6(&p->outside6, (uint32_t)getpid());
		return 0;
	}
	p->inside6 = o->addr6;
	st_ip6_format(&p->inside6, a, sizeof(a));
	if (memcmp(&p->inside6.addr, &p->outside6.addr, sizeof(p->inside6.addr)) == 0)
		return st_error_usage(err, "--addr6: %s is the address of bridge %s itself (the sandbox's gateway)", a,
				      o->bridge);
	if (p->inside6.prefix != p->outside6.prefix || !st_ip6_overlap(&p->inside6, &p->outside6))
		return st_error_usage(err, "--addr6: %s is not in the IPv6 subnet of bridge %s (%s)", a, o->bridge, b);
	return 0;
}

static int plan_ipv6(struct st_nl *nl, const struct st_net_opts *o, int rootless, struct st_net_plan *p,
		     struct st_error *err)
{
	int ret = st_net_ipv6_available(err);

	if (ret == 0 && !rootless)
		ret = check_ipv6_forwarding(err);
	if (ret < 0)
		return ret;
	p->ipv6 = 1;
	if (o->bridge)
		return plan_joined_bridge6(nl, o, p, err);
	if (o->addr6_given) {
		p->inside6 = o->addr6;
		ret = st_net_check_free6(nl, &p->inside6, err);
	} else {
		struct st_ip6 block;

		ret = st_net_pick_block6(nl, o->mode == ST_NET_BRIDGE ? ST_NET_IP6_BRIDGE_FIRST : 0,
					 (unsigned int)getpid(), &block, err);
		p->inside6 = block;
		p->inside6.addr.s6_addr[15] = 2;
	}
	p->outside6 = st_net_gateway6(&p->inside6);
	return ret;
}

static struct st_ip4 ip4_at(uint32_t host_order, unsigned int prefix)
{
	struct st_ip4 a = { .addr = { .s_addr = htonl(host_order) }, .prefix = prefix };

	return a;
}

static uint32_t network_of(const struct st_ip4 *a)
{
	return ntohl(a->addr.s_addr & st_ip4_mask(a->prefix));
}

/* The first host address of @a's network that is not @a itself: the gateway. */
struct st_ip4 st_net_gateway4(const struct st_ip4 *a)
{
	uint32_t net = network_of(a);
	uint32_t gw = net + 1 == ntohl(a->addr.s_addr) ? net + 2 : net + 1;

	return ip4_at(gw, a->prefix);
}

int st_net_check_host_part(const char *opt, const struct st_ip4 *a, struct st_error *err)
{
	uint32_t host = ntohl(a->addr.s_addr) & ~ntohl(st_ip4_mask(a->prefix));
	char text[32];

	st_ip4_format(a, text, sizeof(text));
	if (a->prefix > 30)
		return st_error_usage(err, "%s: %s leaves no room for a gateway (use a prefix of 30 or less)",
				      opt, text);
	if (host == 0 || host == ~ntohl(st_ip4_mask(a->prefix)))
		return st_error_usage(err, "%s: %s is the network or broadcast address", opt, text);
	return 0;
}

int st_net_check_free4(struct st_nl *nl, const char *opt, const struct st_ip4 *a,
		       struct st_error *err)
{
	char what[64], text[32];
	int in_use = 0, ret;

	ret = st_nl_ip4_in_use(nl, a, &in_use, what, sizeof(what), err);
	if (ret < 0)
		return ret;
	if (!in_use)
		return 0;
	st_ip4_format(a, text, sizeof(text));
	return st_error_usage(err, "%s: %s overlaps %s on this host (choose another range)", opt, text,
			      what);
}

int st_net_pick_block4(struct st_nl *nl, uint32_t pool, unsigned int prefix, uint32_t seed,
		       struct st_ip4 *block, struct st_error *err)
{
	uint32_t blocks = 1u << (prefix - POOL_PREFIX);
	uint32_t start = seed % blocks;
	char what[64], text[32];

	for (uint32_t i = 0; i < blocks && i < MAX_TRIES; i++) {
		int in_use = 0, ret;

		*block = ip4_at(pool + (((start + i) % blocks) << (32 - prefix)), prefix);
		ret = st_nl_ip4_in_use(nl, block, &in_use, what, sizeof(what), err);
		if (ret < 0)
			return ret;
		if (!in_use)
			return 0;
	}
	*block = ip4_at(pool, POOL_PREFIX);
	st_ip4_format(block, text, sizeof(text));
	return st_error_set(err, EADDRINUSE, "--net: the first %u /%u blocks of %s all overlap a route or address here; choose one with --addr",
			    blocks < MAX_TRIES ? blocks : MAX_TRIES, prefix, text);
}

struct st_ip4 st_net_bridge_member4(const struct st_ip4 *bridge, uint32_t seed)
{
	uint32_t size = ~ntohl(st_ip4_mask(bridge->prefix)) + 1;
	uint32_t host = size > 4 ? 2 + seed % (size - 3) : 2;
	struct st_ip4 a = ip4_at(network_of(bridge) + host, bridge->prefix);

	if (a.addr.s_addr == bridge->addr.s_addr)
		a = ip4_at(ntohl(a.addr.s_addr) - 1, bridge->prefix);
	return a;
}

/* --bridge NAME: an existing bridge, and an address for us in its subnet. */
static int plan_joined_bridge(struct st_nl *nl, const struct st_net_opts *o, int rootless,
			      struct st_net_plan *p, struct st_error *err)
{
	char kind[16];
	int index, ret;

	if (rootless)
		return st_error_usage(err, "--bridge: joining a host bridge needs root (rootless, the outside is a namespace sandboxtime makes)");
	ret = st_nl_link_get(nl, o->bridge, &index, kind, sizeof(kind), err);
	if (ret == -ENODEV)
		return st_error_usage(err, "--bridge: no interface '%s' on this host", o->bridge);
	if (ret < 0)
		return ret;
	if (strcmp(kind, "bridge") != 0)
		return st_error_usage(err, "--bridge: '%s' is a %s, not a bridge", o->bridge,
				      kind[0] ? kind : "plain device");
	ret = st_nl_addr_get(nl, o->bridge, &p->outside, err);
	if (ret < 0)
		return st_error_wrap(err, "--bridge: the bridge needs an IPv4 address to serve as gateway");
	snprintf(p->bridge, sizeof(p->bridge), "%s", o->bridge);
	p->bridge_joined = 1;
	if (!o->addr) {
		p->inside = st_net_bridge_member4(&p->outside, (uint32_t)getpid());
	} else if (p->inside.addr.s_addr == p->outside.addr.s_addr) {
		char b[32];

		st_ip4_format(&p->outside, b, sizeof(b));
		return st_error_usage(err, "--addr: %s is the address of bridge %s itself (the sandbox's gateway)",
				      b, o->bridge);
	} else if (!st_ip4_overlap(&p->inside, &p->outside) || p->inside.prefix != p->outside.prefix) {
		char a[32], b[32];

		st_ip4_format(&p->inside, a, sizeof(a));
		st_ip4_format(&p->outside, b, sizeof(b));
		return st_error_usage(err, "--addr: %s is not in the subnet of bridge %s (%s)", a, o->bridge, b);
	}
	return st_net_check_host_part("--addr", &p->inside, err);
}

/* join:PID means that process's namespace; anything else is a namespace file. */
static int plan_join(const char *target, struct st_net_plan *p, struct st_error *err)
{
	_cleanup_close_ int fd = -1;
	const char *t = target;

	while (*t >= '0' && *t <= '9')
		t++;
	if (!*t)
		snprintf(p->join_target, sizeof(p->join_target), "/proc/%s/ns/net", target);
	else
		snprintf(p->join_target, sizeof(p->join_target), "%s", target);
	fd = open(p->join_target, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return st_error_set(err, errno, "--net=join: cannot open '%s'", p->join_target);
	/* NS_GET_NSTYPE (Linux 4.11): a file of any other kind is refused here, not at setns. */
	if (ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWNET)
		return st_error_usage(err, "--net=join: '%s' is not a network namespace", p->join_target);
	p->join_fd = take_fd(&fd);
	return 0;
}

void st_net_plan_release(struct st_net_plan *p)
{
	closep(&p->join_fd);
}

int st_net_plan(const struct st_net_opts *o, int rootless, struct st_net_plan *p, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	int bridge = o->mode == ST_NET_BRIDGE;
	int ret;

	memset(p, 0, sizeof(*p));
	p->mode = o->mode;
	p->mtu = o->mtu;
	p->simulated_host = rootless;
	p->join_fd = -1;
	if (o->mode == ST_NET_JOIN && rootless)
		return st_error_set(err, EPERM, "--net=join: entering a network namespace needs CAP_SYS_ADMIN in sandboxtime's own user namespace: run as root");
	if (o->mode == ST_NET_JOIN)
		return plan_join(o->join, p, err);
	if (!st_net_wired(o->mode))
		return 0;
	snprintf(p->host_if, sizeof(p->host_if), "stv%d", getpid());
	snprintf(p->bridge, sizeof(p->bridge), "stbr%d", getpid());
	if (o->addr) {
		ret = st_ip4_parse("--addr", o->addr, &p->inside, err);
		if (ret == 0)
			ret = st_net_check_host_part("--addr", &p->inside, err);
		if (ret < 0)
			return ret;
	}
	/* Reading routes needs no privilege: rootless checks the real host too. */
	ret = st_nl_open(&nl, err);
	if (ret < 0)
		return ret;
	if (bridge && o->bridge) {
		ret = plan_joined_bridge(nl, o, rootless, p, err);
		if (ret == 0 && o->ipv6)
			ret = plan_ipv6(nl, o, rootless, p, err);
		p->batch = o->batch;
		return ret;
	}
	if (o->addr) {
		struct st_ip4 net = ip4_at(network_of(&p->inside), p->inside.prefix);

		ret = st_net_check_free4(nl, "--addr", &net, err);
	} else {
		struct st_ip4 block;

		ret = st_net_pick_block4(nl, bridge ? ST_NET_BRIDGE_POOL : ST_NET_VETH_POOL,
					 bridge ? ST_NET_BRIDGE_PREFIX : ST_NET_VETH_PREFIX, (uint32_t)getpid(),
					 &block, err);
		p->inside = ip4_at(network_of(&block) + 2, block.prefix);
	}
	p->outside = st_net_gateway4(&p->inside);
	if (ret == 0 && o->ipv6)
		ret = plan_ipv6(nl, o, rootless, p, err);
	p->batch = o->batch;
	return ret;
}
