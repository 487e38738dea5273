// SPDX-License-Identifier: MIT
/*
 * The network layer's wiring, carrying out a plan (net_plan.c): the
 * namespace that stands for the host (rootless), the veth with its peer
 * born inside, the bridge, addresses, routes, and their teardown; entering
 * and leaving a joined namespace. And --net's option text, for now.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/util.h"

const char *const st_net_mode_names[ST_NET_COUNT] = {
	[ST_NET_NONE] = "none",
	[ST_NET_HOST] = "host",
	[ST_NET_VETH] = "veth",
	[ST_NET_BRIDGE] = "bridge",
	[ST_NET_JOIN] = "join",
};

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
		st_layer_advise(err, errno, ST_LAYER_NET, ST_ADVICE_ENTER);
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
