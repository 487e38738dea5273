// SPDX-License-Identifier: MIT
/*
 * The namespaces netbench measures in, and their wiring: lo for "host", a
 * veth pair for "veth", two veths on a bridge in a third namespace for
 * "bridge". Addresses come from 10.217.0.0/16; they cannot collide with the
 * host's, because no namespace here has a route out of it.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/ns_user.h"

#define VETH_SERVER "10.217.0.1"
#define VETH_CLIENT "10.217.0.2"
#define VETH_PREFIX 30
#define BRIDGE_SERVER "10.217.1.1"
#define BRIDGE_CLIENT "10.217.1.2"
#define BRIDGE_PREFIX 24
#define PUBLISHED_SERVER "10.217.2.1"
#define PUBLISHED_HOST "10.217.2.254"
#define MACVLAN_SERVER "10.217.3.1"
#define MACVLAN_CLIENT "10.217.3.2"

int st_nb_lab_enter(struct st_error *err)
{
	/* Read before unshare: inside, until mapped, they read as the overflow id. */
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int ret;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) < 0) {
		st_error_set(err, errno, "netbench: creating a user and network namespace");
		if (errno == EPERM)
			st_layer_hint_here(err, errno, ST_LAYER_USER);
		else if (errno == ENOSPC)
			st_error_hint(err, "the limit user.max_user_namespaces or user.max_net_namespaces is reached");
		return -err->errnum;
	}
	ret = st_ns_user_deny_setgroups(getpid(), err);
	if (ret == 0)
		ret = st_ns_user_write_uid_map(getpid(), uid, 0, err);
	if (ret == 0)
		ret = st_ns_user_write_gid_map(getpid(), gid, 0, err);
	if (ret < 0)
		return st_error_wrap(err, "netbench");
	return 0;
}

static struct st_ip4 ip4(const char *text, unsigned int prefix)
{
	struct st_ip4 a = { .prefix = prefix };

	inet_pton(AF_INET, text, &a.addr);
	return a;
}

/* A new network namespace, returned as an fd; the caller stays in the base. */
static int make_ns(struct st_nb_lab *lab, int *out, struct st_error *err)
{
	int fd;

	if (lab->nfds >= ST_NB_LAB_MAX_NS)
		return st_error_set(err, ENOSPC, "netbench: too many namespaces");
	if (unshare(CLONE_NEWNET) < 0)
		return st_error_set(err, errno, "netbench: creating a network namespace");
	fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (setns(lab->base_fd, CLONE_NEWNET) < 0) {
		if (fd >= 0)
			close(fd);
		return st_error_set(err, errno, "netbench: returning to the base namespace");
	}
	if (fd < 0)
		return st_error_set(err, errno, "netbench: opening a network namespace");
	lab->fds[lab->nfds++] = fd;
	*out = fd;
	return 0;
}

/* A netlink socket in namespace @ns_fd (a socket stays where it was opened). */
static int nl_in(const struct st_nb_lab *lab, int ns_fd, struct st_nl **nl, struct st_error *err)
{
	int ret;

	if (setns(ns_fd, CLONE_NEWNET) < 0)
		return st_error_set(err, errno, "netbench: entering a network namespace");
	ret = st_nl_open(nl, err);
	if (setns(lab->base_fd, CLONE_NEWNET) < 0 && ret == 0)
		ret = st_error_set(err, errno, "netbench: returning to the base namespace");
	return ret;
}

/* Address @a on @ifname, then @ifname and lo up, in @nl's namespace. */
static int address_up(struct st_nl *nl, const char *ifname, struct st_ip4 a, struct st_error *err)
{
	int ret = st_nl_addr_add(nl, ifname, &a, err);

	if (ret == 0)
		ret = st_nl_link_set_up(nl, ifname, 0, err);
	if (ret == 0)
		ret = st_nl_link_set_up(nl, "lo", 0, err);
	return ret;
}

static int build_host(struct st_nb_lab *lab, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	int ret = st_nl_open(&nl, err);

	if (ret == 0)
		ret = st_nl_link_set_up(nl, "lo", 0, err);
	if (ret < 0)
		return st_error_wrap(err, "host path");
	lab->ep[ST_NB_HOST].server_ns_fd = lab->base_fd;
	lab->ep[ST_NB_HOST].client_ns_fd = lab->base_fd;
	lab->ep[ST_NB_HOST].server_addr.s_addr = htonl(INADDR_LOOPBACK);
	lab->ep[ST_NB_HOST].client_if = "lo";
	return 0;
}

static int build_veth(struct st_nb_lab *lab, unsigned int mtu, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *srv = NULL;
	_cleanup_(st_nl_closep) struct st_nl *cli = NULL;
	struct st_nb_endpoint *ep = &lab->ep[ST_NB_VETH];
	int ret;

	ret = make_ns(lab, &ep->server_ns_fd, err);
	if (ret == 0)
		ret = make_ns(lab, &ep->client_ns_fd, err);
	if (ret == 0)
		ret = nl_in(lab, ep->server_ns_fd, &srv, err);
	if (ret == 0)
		ret = nl_in(lab, ep->client_ns_fd, &cli, err);
	/* One round trip: the client's end is born in the client's namespace. */
	if (ret == 0)
		ret = st_nl_veth_create(srv, "nbv0", "nbv1", ep->client_ns_fd, mtu, err);
	if (ret == 0)
		ret = address_up(srv, "nbv0", ip4(VETH_SERVER, VETH_PREFIX), err);
	if (ret == 0)
		ret = address_up(cli, "nbv1", ip4(VETH_CLIENT, VETH_PREFIX), err);
	if (ret < 0)
		return st_error_wrap(err, "veth path");
	inet_pton(AF_INET, VETH_SERVER, &ep->server_addr);
	ep->client_if = "nbv1";
	return 0;
}

static int build_bridge(struct st_nb_lab *lab, unsigned int mtu, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *br = NULL;
	_cleanup_(st_nl_closep) struct st_nl *srv = NULL;
	_cleanup_(st_nl_closep) struct st_nl *cli = NULL;
	struct st_nb_endpoint *ep = &lab->ep[ST_NB_BRIDGE];
	int br_fd = -1, ret;

	ret = make_ns(lab, &br_fd, err);
	if (ret == 0)
		ret = make_ns(lab, &ep->server_ns_fd, err);
	if (ret == 0)
		ret = make_ns(lab, &ep->client_ns_fd, err);
	if (ret == 0)
		ret = nl_in(lab, br_fd, &br, err);
	if (ret == 0)
		ret = nl_in(lab, ep->server_ns_fd, &srv, err);
	if (ret == 0)
		ret = nl_in(lab, ep->client_ns_fd, &cli, err);
	if (ret == 0)
		ret = st_nl_bridge_create(br, "nbbr0", mtu, err);
	if (ret == 0)
		ret = st_nl_veth_create(br, "nbs0", "eth0", ep->server_ns_fd, mtu, err);
	if (ret == 0)
		ret = st_nl_veth_create(br, "nbc0", "eth0", ep->client_ns_fd, mtu, err);
	if (ret == 0)
		ret = st_nl_link_set_master(br, "nbs0", "nbbr0", err);
	if (ret == 0)
		ret = st_nl_link_set_master(br, "nbc0", "nbbr0", err);
	/* No STP on a new bridge: its ports forward as soon as they are up. */
	for (const char *const *l = (const char *const[]){ "nbbr0", "nbs0", "nbc0", "lo", NULL };
	     ret == 0 && *l; l++)
		ret = st_nl_link_set_up(br, *l, 0, err);
	if (ret == 0)
		ret = address_up(srv, "eth0", ip4(BRIDGE_SERVER, BRIDGE_PREFIX), err);
	if (ret == 0)
		ret = address_up(cli, "eth0", ip4(BRIDGE_CLIENT, BRIDGE_PREFIX), err);
	if (ret < 0)
		return st_error_wrap(err, "bridge path");
	inet_pton(AF_INET, BRIDGE_SERVER, &ep->server_addr);
	ep->client_if = "eth0";
	return 0;
}

/*
 * host-to-sandbox: the docker0 shape seen from the host. The bridge and the
 * host's veth end live in the base namespace (the "host" of the lab), which
 * holds the bridge's address; the server is in a namespace behind them, the
 * client in the base, reaching the server's address straight (Docker's
 * published port adds a DNAT rule or a proxy on top: not measured here).
 */
static int build_host_to_sandbox(struct st_nb_lab *lab, unsigned int mtu, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *host = NULL;
	_cleanup_(st_nl_closep) struct st_nl *srv = NULL;
	struct st_nb_endpoint *ep = &lab->ep[ST_NB_HOST_TO_SANDBOX];
	int ret;

	ep->client_ns_fd = lab->base_fd;
	ret = make_ns(lab, &ep->server_ns_fd, err);
	if (ret == 0)
		ret = st_nl_open(&host, err);
	if (ret == 0)
		ret = nl_in(lab, ep->server_ns_fd, &srv, err);
	if (ret == 0)
		ret = st_nl_bridge_create(host, "nbbr1", mtu, err);
	if (ret == 0)
		ret = st_nl_veth_create(host, "nbh0", "eth0", ep->server_ns_fd, mtu, err);
	if (ret == 0)
		ret = st_nl_link_set_master(host, "nbh0", "nbbr1", err);
	if (ret == 0)
		ret = st_nl_link_set_up(host, "nbh0", 0, err);
	if (ret == 0)
		ret = address_up(host, "nbbr1", ip4(PUBLISHED_HOST, BRIDGE_PREFIX), err);
	if (ret == 0)
		ret = address_up(srv, "eth0", ip4(PUBLISHED_SERVER, BRIDGE_PREFIX), err);
	if (ret < 0)
		return st_error_wrap(err, "host-to-sandbox path");
	inet_pton(AF_INET, PUBLISHED_SERVER, &ep->server_addr);
	ep->client_if = "nbbr1";
	return 0;
}

/*
 * macvlan: the server's and the client's eth0 are bridge-mode macvlans of one
 * parent in the base namespace, which their traffic never crosses (macvlan
 * hands a frame from one sibling to the other itself). The parent is one end
 * of a veth pair, up with its peer so that it has carrier: the dummy device
 * would do the same but is not built into every kernel.
 */
static int build_macvlan(struct st_nb_lab *lab, unsigned int mtu, struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *host = NULL;
	_cleanup_(st_nl_closep) struct st_nl *srv = NULL;
	_cleanup_(st_nl_closep) struct st_nl *cli = NULL;
	struct st_nb_endpoint *ep = &lab->ep[ST_NB_MACVLAN];
	int ret;

	ret = make_ns(lab, &ep->server_ns_fd, err);
	if (ret == 0)
		ret = make_ns(lab, &ep->client_ns_fd, err);
	if (ret == 0)
		ret = st_nl_open(&host, err);
	if (ret == 0)
		ret = nl_in(lab, ep->server_ns_fd, &srv, err);
	if (ret == 0)
		ret = nl_in(lab, ep->client_ns_fd, &cli, err);
	if (ret == 0)
		ret = st_nl_veth_create(host, "nbm0", "nbm1", -1, mtu, err);
	for (const char *const *l = (const char *const[]){ "nbm0", "nbm1", NULL }; ret == 0 && *l; l++)
		ret = st_nl_link_set_up(host, *l, 0, err);
	if (ret == 0)
		ret = st_nl_macvlan_create(host, "eth0", "nbm0", ep->server_ns_fd, mtu, err);
	if (ret == 0)
		ret = st_nl_macvlan_create(host, "eth0", "nbm0", ep->client_ns_fd, mtu, err);
	if (ret == 0)
		ret = address_up(srv, "eth0", ip4(MACVLAN_SERVER, BRIDGE_PREFIX), err);
	if (ret == 0)
		ret = address_up(cli, "eth0", ip4(MACVLAN_CLIENT, BRIDGE_PREFIX), err);
	if (ret < 0)
		return st_error_wrap(err, "macvlan path");
	inet_pton(AF_INET, MACVLAN_SERVER, &ep->server_addr);
	ep->client_if = "eth0";
	return 0;
}

int st_nb_lab_build(struct st_nb_lab *lab, unsigned int mask, unsigned int mtu,
		    struct st_error *err)
{
	int ret = 0;

	memset(lab, 0, sizeof(*lab));
	lab->mask = mask;
	lab->base_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (lab->base_fd < 0)
		return st_error_set(err, errno, "netbench: opening the base namespace");
	if (mask & (1u << ST_NB_HOST))
		ret = build_host(lab, err);
	if (ret == 0 && (mask & (1u << ST_NB_VETH)))
		ret = build_veth(lab, mtu, err);
	if (ret == 0 && (mask & (1u << ST_NB_BRIDGE)))
		ret = build_bridge(lab, mtu, err);
	if (ret == 0 && (mask & (1u << ST_NB_HOST_TO_SANDBOX)))
		ret = build_host_to_sandbox(lab, mtu, err);
	if (ret == 0 && (mask & (1u << ST_NB_MACVLAN)))
		ret = build_macvlan(lab, mtu, err);
	return ret;
}

void st_nb_lab_release(struct st_nb_lab *lab)
{
	for (size_t i = 0; i < lab->nfds; i++)
		closep(&lab->fds[i]);
	lab->nfds = 0;
	closep(&lab->base_fd);
}
