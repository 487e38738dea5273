// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/nsfs.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/ns_net.h"

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

const char *const st_net_mode_names[ST_NET_COUNT] = {
	[ST_NET_NONE] = "none",
	[ST_NET_HOST] = "host",
	[ST_NET_VETH] = "veth",
	[ST_NET_BRIDGE] = "bridge",
	[ST_NET_JOIN] = "join",
};

int st_ns_net_parse_mode(const char *text, enum st_net_mode *mode, const char **target,
			 struct st_error *err)
{
	if (strncmp(text, "join:", 5) == 0) {
		if (!text[5])
			return st_error_usage(err, "--net=join: needs a namespace file or a pid (join:/run/netns/NAME, join:PID)");
		*mode = ST_NET_JOIN;
		*target = text + 5;
		return 0;
	}
	for (int m = 0; m < ST_NET_COUNT; m++) {
		if (m == ST_NET_JOIN)
			continue;
		if (strcmp(text, st_net_mode_names[m]) == 0) {
			*mode = (enum st_net_mode)m;
			return 0;
		}
	}
	return st_error_usage(err, "--net: unknown mode '%s' (known: host, none, veth, bridge, join:PATH, join:PID)",
			      text);
}

int st_net_validate_ifname(const char *opt, const char *name, struct st_error *err)
{
	size_t len = strlen(name);

	if (len == 0 || len >= IFNAMSIZ)
		return st_error_usage(err, "%s: '%s' must be 1 to %d bytes long (IFNAMSIZ)", opt, name,
				      IFNAMSIZ - 1);
	if (strpbrk(name, "/: \t\n") || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return st_error_usage(err, "%s: '%s' is not a valid interface name", opt, name);
	return 0;
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
static int plan_joined_bridge(struct st_nl *nl, const struct st_opts *o, int rootless,
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

int st_net_plan(const struct st_opts *o, int rootless, struct st_net_plan *p, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	int bridge = o->net == ST_NET_BRIDGE;
	int ret;

	memset(p, 0, sizeof(*p));
	p->mode = o->net;
	p->mtu = o->mtu;
	p->simulated_host = rootless;
	p->join_fd = -1;
	if (o->net == ST_NET_JOIN && rootless)
		return st_error_set(err, EPERM, "--net=join: entering a network namespace needs CAP_SYS_ADMIN in sandboxtime's own user namespace: run as root");
	if (o->net == ST_NET_JOIN)
		return plan_join(o->join, p, err);
	if (!st_net_wired(o->net))
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
	if (bridge && o->bridge)
		return plan_joined_bridge(nl, o, rootless, p, err);
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
		/* No IPv4 forwarding on what we add to the host: nothing leaves the machine. */
		if (ret == 0)
			ret = ST_TIMED_STEP(steps, err, "bridge_up", st_nl_link_set_up(nl, p->bridge, 1, err));
	}
	if (ret == 0 && p->mode == ST_NET_BRIDGE)
		ret = ST_TIMED_STEP(steps, err, "bridge_attach", st_nl_link_set_master(nl, p->host_if, p->bridge, err));
	else if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "host_addr_add", st_nl_addr_add(nl, p->host_if, &p->outside, err));
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

int st_net_setup_inside(const struct st_net_plan *p, struct st_steps *steps, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	int ret = st_nl_open(&nl, err);

	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "lo_up", st_nl_link_set_up(nl, "lo", 0, err));
	if (ret < 0 || !st_net_wired(p->mode))
		return ret;
	ret = ST_TIMED_STEP(steps, err, "addr_add", st_nl_addr_add(nl, ST_NET_INSIDE_IF, &p->inside, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "link_up", st_nl_link_set_up(nl, ST_NET_INSIDE_IF, 0, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "route_add",
				    st_nl_route_add_default(nl, ST_NET_INSIDE_IF, p->outside.addr, err));
	return ret;
}
