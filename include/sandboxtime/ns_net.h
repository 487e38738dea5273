/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_NET_H
#define SANDBOXTIME_NS_NET_H

#include <net/if.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ip4.h"
#include "sandboxtime/ip6.h"
#include "sandboxtime/steps.h"

struct st_nl;
struct st_opts;

/* --net modes (docs/DESIGN.md). */
enum st_net_mode {
	ST_NET_NONE,   /* a network namespace with only lo, up */
	ST_NET_HOST,   /* no network namespace */
	ST_NET_VETH,   /* eth0 inside, paired with an outside end */
	ST_NET_BRIDGE, /* the outside end on a bridge: the docker0 shape */
	ST_NET_JOIN,   /* an existing network namespace: a pod, a pool */
	ST_NET_COUNT,
};

extern const char *const st_net_mode_names[ST_NET_COUNT];

#define ST_NET_INSIDE_IF "eth0"

/*
 * Everything about the sandbox's wiring, decided before the clone. With root
 * the outside is the host's network namespace; without root it is a network
 * namespace the sandbox makes in its own user namespace to stand for the host
 * (it holds the outside end and the bridge, and dies with the sandbox).
 */
struct st_net_plan {
	enum st_net_mode mode;
	int simulated_host;      /* rootless: the outside is ours, not the host's */
	char host_if[IFNAMSIZ];  /* the outside end of the veth: stv<pid> */
	char bridge[IFNAMSIZ];   /* stbr<pid>, or the --bridge joined */
	int bridge_joined;       /* --bridge: it existed, it stays */
	struct st_ip4 inside;    /* eth0's address */
	struct st_ip4 outside;   /* the outside end's address, or the bridge's */
	unsigned int mtu;        /* 0: the kernel's default */
	int ipv6;                /* --ipv6: the addresses below too */
	struct st_ip6 inside6;   /* eth0's IPv6 address */
	struct st_ip6 outside6;  /* the outside end's, or the bridge's: the IPv6 gateway */
	int batch;               /* --net-batch: configure the inside in one sendmsg */
	char join_target[256];   /* join: the namespace file we enter */
	int join_fd;             /* join: open on it, owned by the plan (-1 otherwise) */
};

/* Releases what the plan holds (the joined namespace's fd). */
void st_net_plan_release(struct st_net_plan *p);

/*
 * join: enters the namespace of the plan in the calling process (the
 * sandbox is cloned into it), keeping a handle on the one it leaves in
 * *@restore_fd for st_net_leave_joined(). Timed as the step "setns".
 */
int st_net_enter_joined(const struct st_net_plan *p, int *restore_fd, struct st_steps *steps,
			struct st_error *err);
int st_net_leave_joined(int *restore_fd, struct st_error *err);

/* Parses --net: a mode name, or join:PATH / join:PID (*@target points after "join:"). */
int st_ns_net_parse_mode(const char *text, enum st_net_mode *mode, const char **target,
			 struct st_error *err);

/*
 * Parses --addr6: an address in fd00::/8 (unique local, never routed on the
 * Internet) with a prefix from 64 to 126 that leaves room for a gateway.
 */
int st_net_parse_addr6(const char *text, struct st_ip6 *out, struct st_error *err);

/*
 * Whether this (the caller's) network namespace has IPv6 at all: not when the
 * kernel was booted without it (no /proc/net/if_inet6) or it is switched off
 * (net.ipv6.conf.all.disable_ipv6=1, or .default. for the links we add).
 */
int st_net_ipv6_available(struct st_error *err);

/* Checks an interface name option: 1 to IFNAMSIZ-1 bytes, no '/', no blanks. */
int st_net_validate_ifname(const char *opt, const char *name, struct st_error *err);

/* Whether @mode wires the sandbox to an outside (veth or bridge). */
static inline int st_net_wired(enum st_net_mode mode)
{
	return mode == ST_NET_VETH || mode == ST_NET_BRIDGE;
}

/*
 * Decides names and addresses in the caller's (host) namespace: addresses
 * that overlap none of its routes or addresses, an existing bridge for
 * --bridge (root only).
 */
int st_net_plan(const struct st_opts *o, int rootless, struct st_net_plan *plan,
		struct st_error *err);

/*
 * Rootless, in the sandbox (root of its user namespace): makes the network
 * namespace that stands for the host (lo up) and returns an fd to it in
 * *@outside_fd and a netlink socket in it in *@nl, leaving the caller where it
 * was; *@own_fd is the caller's own namespace.
 */
int st_net_make_outside_ns(int *outside_fd, int *own_fd, struct st_nl **nl, struct st_error *err);

/* What setup_outside created: teardown deletes exactly that, never a name it found. */
struct st_net_made {
	int veth;
	int bridge;
};

/*
 * Wires the outside end through @nl (a socket in the outside namespace): the
 * veth with its peer born as eth0 in @sandbox_netns_fd, the bridge, their
 * addresses, forwarding off, up. Each step is timed into @steps.
 */
int st_net_setup_outside(struct st_nl *nl, const struct st_net_plan *p, int sandbox_netns_fd,
			 struct st_net_made *made, struct st_steps *steps, struct st_error *err);

/*
 * Deletes what setup_outside made (@made), tolerating what the kernel has
 * removed already: the veth goes with the sandbox's namespace, and the step is
 * then recorded as already gone.
 */
int st_net_teardown_outside(struct st_nl *nl, const struct st_net_plan *p,
			    const struct st_net_made *made, struct st_steps *steps, struct st_error *err);

/*
 * Inside the sandbox's network namespace: lo up, and when wired eth0's
 * address, eth0 up and the default route through the outside end.
 */
int st_net_setup_inside(const struct st_net_plan *p, struct st_steps *steps, struct st_error *err);
/* The same through @nl, a socket already open in that namespace. */
int st_net_setup_inside_nl(struct st_nl *nl, const struct st_net_plan *p, struct st_steps *steps,
			   struct st_error *err);

#endif
