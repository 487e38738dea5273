/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_NET_H
#define SANDBOXTIME_NS_NET_H

#include <net/if.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ip4.h"
#include "sandboxtime/ip6.h"
#include "sandboxtime/steps.h"

struct st_nl;

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

/* What a run asks of the network layer (--net, --addr, --bridge, --mtu, --ipv6, --addr6, --net-batch). */
struct st_net_opts {
	enum st_net_mode mode;
	const char *join;   /* --net=join:TARGET: TARGET */
	const char *addr;   /* --addr: the sandbox's IPv4 address/prefix */
	const char *bridge; /* --bridge: join this existing bridge */
	unsigned int mtu;   /* --mtu: veth and bridge MTU, 0 for the default */
	int ipv6;           /* --ipv6 or --addr6: eth0 gets an IPv6 address and route too */
	int addr6_given;    /* --addr6: addr6 holds it (else a free default block) */
	struct st_ip6 addr6;
	int batch;          /* --net-batch: the inside configuration in one sendmsg */
};

/*
 * Everything about the sandbox's wiring, decided before the clone (by
 * net_plan.c, net_plan.h). With root
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

/*
 * join: enters the namespace of the plan in the calling process (the
 * sandbox is cloned into it), keeping a handle on the one it leaves in
 * *@restore_fd for st_net_leave_joined(). Timed as the step "setns".
 */
int st_net_enter_joined(const struct st_net_plan *p, int *restore_fd, struct st_steps *steps,
			struct st_error *err);
int st_net_leave_joined(int *restore_fd, struct st_error *err);


/* Whether @mode wires the sandbox to an outside (veth or bridge). */
static inline int st_net_wired(enum st_net_mode mode)
{
	return mode == ST_NET_VETH || mode == ST_NET_BRIDGE;
}

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
