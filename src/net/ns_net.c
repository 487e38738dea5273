// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "sandboxtime/nl.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/util.h"

/*
 * Default address pools: a /30 per sandbox for veth, a /24 per bridge. Picked
 * by pid, then moved on until no host route or address overlaps.
 */
#define VETH_POOL 0x0ad50000u /* 10.213.0.0/16 */
#define VETH_PREFIX 30
#define BRIDGE_POOL 0x0ad60000u /* 10.214.0.0/16 */
#define BRIDGE_PREFIX 24
#define POOL_PREFIX 16
#define MAX_TRIES 1024

/*
 * IPv6: a /64 per sandbox (veth) or per bridge, in one /48 of the unique
 * local block with a fixed, randomly drawn global ID (RFC 4193): subnet IDs
 * 0x0000-0x7fff for veth, 0x8000-0xffff for bridges. Picked by pid and moved
 * on like the IPv4 blocks.
 */
#define IP6_POOL "fd5b:7e1d:ab00::"
#define IP6_PREFIX 64
#define IP6_SUBNETS 0x8000u
#define IP6_BRIDGE_FIRST 0x8000u

const char *const st_net_mode_names[ST_NET_COUNT] = {
	[ST_NET_NONE] = "none",
	[ST_NET_HOST] = "host",
	[ST_NET_VETH] = "veth",
	[ST_NET_BRIDGE] = "bridge",
	[ST_NET_JOIN] = "join",
};

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
static struct st_ip6 gateway6_for(const struct st_ip6 *a)
{
	struct st_ip6 gw = st_ip6_network(a);

	gw.addr.s6_addr[15] |= 1;
	if (memcmp(&gw.addr, &a->addr, sizeof(gw.addr)) == 0)
		gw.addr.s6_addr[15] += 1;
	return gw;
}

static int check_free6(struct st_nl *nl, const struct st_ip6 *a, struct st_error *err)
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

/* A /64 of the pool, from subnet ID @first on, that nothing on this host uses. */
static int pick_block6(struct st_nl *nl, unsigned int first, struct st_ip6 *block,
		       struct st_error *err)
{
	unsigned int start = (unsigned int)getpid() % IP6_SUBNETS;
	char what[96];

	for (unsigned int i = 0; i < IP6_SUBNETS && i < MAX_TRIES; i++) {
		unsigned int subnet = first + (start + i) % IP6_SUBNETS;
		int in_use = 0, ret;

		inet_pton(AF_INET6, IP6_POOL, &block->addr);
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
			    MAX_TRIES, IP6_POOL);
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
		unsigned int host_bits = 128 - p->outside6.prefix;
		uint32_t room = host_bits >= 32 ? UINT32_MAX - 2 : (1u << host_bits) - 3;
		uint32_t host = 2 + (uint32_t)getpid() % room;

		p->inside6 = st_ip6_network(&p->outside6);
		for (int i = 0; i < 4; i++)
			p->inside6.addr.s6_addr[15 - i] |= (uint8_t)(host >> (8 * i));
		if (memcmp(&p->inside6.addr, &p->outside6.addr, sizeof(p->inside6.addr)) == 0)
			p->inside6.addr.s6_addr[15] ^= 1; /* the other of a pair: still in the block */
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
		ret = check_free6(nl, &p->inside6, err);
	} else {
		struct st_ip6 block;

		ret = pick_block6(nl, o->mode == ST_NET_BRIDGE ? IP6_BRIDGE_FIRST : 0, &block, err);
		p->inside6 = block;
		p->inside6.addr.s6_addr[15] = 2;
	}
	p->outside6 = gateway6_for(&p->inside6);
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
static struct st_ip4 gateway_for(const struct st_ip4 *a)
{
	uint32_t net = network_of(a);
	uint32_t gw = net + 1 == ntohl(a->addr.s_addr) ? net + 2 : net + 1;

	return ip4_at(gw, a->prefix);
}

static int check_host_part(const char *opt, const struct st_ip4 *a, struct st_error *err)
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

static int check_free(struct st_nl *nl, const char *opt, const struct st_ip4 *a,
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

/* A block of @prefix in the /16 @pool that nothing on this host uses. */
static int pick_block(struct st_nl *nl, uint32_t pool, unsigned int prefix, struct st_ip4 *block,
		      struct st_error *err)
{
	uint32_t blocks = 1u << (prefix - POOL_PREFIX);
	uint32_t start = (uint32_t)getpid() % blocks;
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
		uint32_t size = ~ntohl(st_ip4_mask(p->outside.prefix)) + 1;
		uint32_t host = size > 4 ? 2 + (uint32_t)getpid() % (size - 3) : 2;

		p->inside = ip4_at(network_of(&p->outside) + host, p->outside.prefix);
		if (p->inside.addr.s_addr == p->outside.addr.s_addr)
			p->inside = ip4_at(ntohl(p->inside.addr.s_addr) - 1, p->outside.prefix);
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
	return check_host_part("--addr", &p->inside, err);
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

int st_net_enter_joined(const struct st_net_plan *p, int *restore_fd, struct st_steps *steps,
			struct st_error *err)
{
	_cleanup_close_ int own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	uint64_t t0;

	if (own < 0)
		return st_error_set(err, errno, "--net=join: opening own network namespace");
	t0 = st_now_ns();
	if (setns(p->join_fd, CLONE_NEWNET) < 0) {
		st_error_set(err, errno, "--net=join: cannot enter '%s'", p->join_target);
		if (errno == EPERM)
			st_error_hint(err, "entering a network namespace needs CAP_SYS_ADMIN over it and in sandboxtime's own user namespace: run as root");
		return -err->errnum;
	}
	st_steps_add(steps, "setns", st_now_ns() - t0);
	*restore_fd = take_fd(&own);
	return 0;
}

int st_net_leave_joined(int *restore_fd, struct st_error *err)
{
	int ret = 0;

	if (*restore_fd < 0)
		return 0;
	if (setns(*restore_fd, CLONE_NEWNET) < 0)
		ret = st_error_set(err, errno, "--net=join: returning to own network namespace");
	closep(restore_fd);
	return ret;
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
			ret = check_host_part("--addr", &p->inside, err);
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

		ret = check_free(nl, "--addr", &net, err);
	} else {
		struct st_ip4 block;

		ret = pick_block(nl, bridge ? BRIDGE_POOL : VETH_POOL, bridge ? BRIDGE_PREFIX : VETH_PREFIX,
				 &block, err);
		p->inside = ip4_at(network_of(&block) + 2, block.prefix);
	}
	p->outside = gateway_for(&p->inside);
	if (ret == 0 && o->ipv6)
		ret = plan_ipv6(nl, o, rootless, p, err);
	p->batch = o->batch;
	return ret;
}

int st_net_make_outside_ns(int *outside_fd, int *own_fd, struct st_nl **nl, struct st_error *err)
{
	_cleanup_close_ int own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	_cleanup_close_ int outside = -1;
	int ret;

	if (own < 0)
		return st_error_set(err, errno, "net: opening own network namespace");
	if (unshare(CLONE_NEWNET) < 0)
		return st_error_set(err, errno, "net: creating the namespace that stands for the host");
	outside = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (outside < 0)
		return st_error_set(err, errno, "net: opening the outside namespace");
	/* A netlink socket stays in the namespace it was opened in. */
	ret = st_nl_open(nl, err);
	if (ret == 0)
		ret = st_nl_link_set_up(*nl, "lo", 0, err);
	if (setns(own, CLONE_NEWNET) < 0 && ret == 0)
		ret = st_error_set(err, errno, "net: returning to the sandbox's namespace");
	if (ret < 0)
		return ret;
	*outside_fd = take_fd(&outside);
	*own_fd = take_fd(&own);
	return 0;
}

int st_net_setup_outside(struct st_nl *nl, const struct st_net_plan *p, int sandbox_netns_fd,
			 struct st_net_made *made, struct st_steps *steps, struct st_error *err)
{
	int ret;

	/* NLM_F_EXCL: a name that exists is an error, so success means it is ours. */
	ret = ST_TIMED_STEP(steps, err, "veth_create",
			    st_nl_veth_create(nl, p->host_if, ST_NET_INSIDE_IF, sandbox_netns_fd, p->mtu, err));
	made->veth = ret == 0;
	if (ret == 0 && p->mode == ST_NET_BRIDGE && !p->bridge_joined) {
		ret = ST_TIMED_STEP(steps, err, "bridge_create", st_nl_bridge_create(nl, p->bridge, p->mtu, err));
		made->bridge = ret == 0;
		if (ret == 0)
			ret = ST_TIMED_STEP(steps, err, "bridge_addr_add", st_nl_addr_add(nl, p->bridge, &p->outside, err));
		if (ret == 0 && p->ipv6)
			ret = ST_TIMED_STEP(steps, err, "bridge_addr6_add",
					    st_nl_addr6_add(nl, p->bridge, &p->outside6, err));
		/* No IPv4 forwarding on what we add to the host: nothing leaves the machine. */
		if (ret == 0)
			ret = ST_TIMED_STEP(steps, err, "bridge_up", st_nl_link_set_up(nl, p->bridge, 1, err));
	}
	if (ret == 0 && p->mode == ST_NET_BRIDGE)
		ret = ST_TIMED_STEP(steps, err, "bridge_attach", st_nl_link_set_master(nl, p->host_if, p->bridge, err));
	else if (ret == 0) {
		ret = ST_TIMED_STEP(steps, err, "host_addr_add", st_nl_addr_add(nl, p->host_if, &p->outside, err));
		if (ret == 0 && p->ipv6)
			ret = ST_TIMED_STEP(steps, err, "host_addr6_add",
					    st_nl_addr6_add(nl, p->host_if, &p->outside6, err));
	}
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "host_link_up", st_nl_link_set_up(nl, p->host_if, 1, err));
	return ret;
}

static int delete_link(struct st_nl *nl, const char *name, const char *step, struct st_steps *steps,
		       struct st_error *err)
{
	uint64_t t0 = st_now_ns();
	int ret = st_fault(step, err);

	if (ret < 0)
		return ret;
	ret = st_nl_link_del(nl, name, err);

	/* A veth also dies with its peer's namespace: gone already is fine, and said. */
	if (ret == 0 || ret == -ENODEV)
		st_steps_add_flagged(steps, step, st_now_ns() - t0, ret == -ENODEV);
	return ret == -ENODEV ? 0 : ret;
}

int st_net_teardown_outside(struct st_nl *nl, const struct st_net_plan *p,
			    const struct st_net_made *made, struct st_steps *steps, struct st_error *err)
{
	struct st_error err2;
	int ret = 0;

	if (made->veth)
		ret = delete_link(nl, p->host_if, "veth_delete", steps, err);
	if (made->bridge) {
		int ret2 = delete_link(nl, p->bridge, "bridge_delete", steps, ret < 0 ? &err2 : err);

		if (ret == 0)
			ret = ret2;
	}
	return ret;
}

/*
 * --net-batch: the same requests as below after one lookup of eth0's index,
 * in one sendmsg, timed as one step; a failure still names its request.
 */
static int setup_inside_batched(struct st_nl *nl, const struct st_net_plan *p, struct st_error *err)
{
	struct st_nl_batch b;
	int index = st_nl_link_index(nl, ST_NET_INSIDE_IF, err);
	int ret = index < 0 ? index : 0;

	st_nl_batch_begin(nl, &b);
	if (ret == 0)
		ret = st_nl_batch_link_up(&b, "lo", 0, err);
	if (ret == 0)
		ret = st_nl_batch_addr(&b, index, ST_NET_INSIDE_IF, &p->inside, err);
	if (ret == 0)
		ret = st_nl_batch_link_up(&b, ST_NET_INSIDE_IF, 0, err);
	if (ret == 0)
		ret = st_nl_batch_route(&b, index, ST_NET_INSIDE_IF, p->outside.addr, err);
	if (ret == 0 && p->ipv6)
		ret = st_nl_batch_addr6(&b, index, ST_NET_INSIDE_IF, &p->inside6, err);
	if (ret == 0 && p->ipv6)
		ret = st_nl_batch_route6(&b, index, ST_NET_INSIDE_IF, &p->outside6.addr, err);
	return ret < 0 ? ret : st_nl_batch_send(nl, &b, err);
}

int st_net_setup_inside_nl(struct st_nl *nl, const struct st_net_plan *p, struct st_steps *steps,
			   struct st_error *err)
{
	int ret;

	if (p->batch && st_net_wired(p->mode))
		return ST_TIMED_STEP(steps, err, "inside_batch", setup_inside_batched(nl, p, err));
	ret = ST_TIMED_STEP(steps, err, "lo_up", st_nl_link_set_up(nl, "lo", 0, err));
	if (ret < 0 || !st_net_wired(p->mode))
		return ret;
	ret = ST_TIMED_STEP(steps, err, "addr_add", st_nl_addr_add(nl, ST_NET_INSIDE_IF, &p->inside, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "link_up", st_nl_link_set_up(nl, ST_NET_INSIDE_IF, 0, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "route_add",
				    st_nl_route_add_default(nl, ST_NET_INSIDE_IF, p->outside.addr, err));
	/* After link_up: the kernel refuses a route through a link that is down. */
	if (ret == 0 && p->ipv6)
		ret = ST_TIMED_STEP(steps, err, "addr6_add",
				    st_nl_addr6_add(nl, ST_NET_INSIDE_IF, &p->inside6, err));
	if (ret == 0 && p->ipv6)
		ret = ST_TIMED_STEP(steps, err, "route6_add",
				    st_nl_route6_add_default(nl, ST_NET_INSIDE_IF, &p->outside6.addr, err));
	return ret;
}

int st_net_setup_inside(const struct st_net_plan *p, struct st_steps *steps, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	int ret = st_nl_open(&nl, err);

	return ret < 0 ? ret : st_net_setup_inside_nl(nl, p, steps, err);
}
