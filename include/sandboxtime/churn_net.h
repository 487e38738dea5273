/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CHURN_NET_H
#define SANDBOXTIME_CHURN_NET_H

#include <net/if.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/error.h"
#include "sandboxtime/ns_net.h"

/*
 * bench churn --net=veth|bridge (churn_net.c): every sandbox's network
 * namespace gets a veth pair, made by its creator over rtnetlink (nl.h) in
 * one round trip with eth0 born inside (IFLA_NET_NS_FD) and the other end,
 * cv<creator>_<n>, in the lab's own network namespace; with a bridge that end
 * is also enslaved to ST_CHURN_BRIDGE, which the lab makes once. The lab is a
 * user and network namespace of the bench's own, as root too: no host
 * interface is ever seen or touched.
 *
 * The sandbox's child waits on a pipe until its creator has wired it (a
 * namespace must be alive to be given a link), then _exit()s. The lab end is
 * not deleted: it goes with the sandbox's network namespace, in the kernel's
 * cleanup_net, which finishes before that namespace drops its user
 * namespace; so the pair's removal is in the counted backlog, and after a
 * drain no lab end may be left (the level's links_end says how many were).
 */
#define ST_CHURN_BRIDGE "churnbr0"

/* One creator's side: its socket in the lab's namespace and its names. */
struct st_churn_wire {
	enum st_net_mode mode; /* veth or bridge */
	struct st_nl *nl;
	unsigned int creator;
	uint32_t n; /* sandboxes this creator has wired: the next name */
	char lab_if[IFNAMSIZ];
};

/* Opens @w's socket in the caller's (the lab's) network namespace. */
int st_churn_wire_open(struct st_churn_wire *w, enum st_net_mode mode, unsigned int creator,
		       struct st_error *err);
void st_churn_wire_close(struct st_churn_wire *w);

/*
 * The hold: a pipe that a sandbox's child waits on, made before the clone
 * and closed on both sides after it (st_churn_hold_wait in the child,
 * st_churn_wire_sandbox in the creator); its EOF releases the child, on
 * every path, so no child outlives its creator's error or death.
 */
int st_churn_hold_make(int hold[2], struct st_error *err);
static inline void st_churn_hold_closep(int (*hold)[2])
{
	closep(&(*hold)[0]);
	closep(&(*hold)[1]);
}
void st_churn_hold_wait(int hold[2]) __attribute__((noreturn));

/*
 * In the creator, after clone3() made @pid: its veth pair (and bridge
 * port), then the child's release. Closes both ends of @hold whatever
 * happens; on an error the lab end, if made, is deleted again.
 */
int st_churn_wire_sandbox(struct st_churn_wire *w, pid_t pid, int hold[2], struct st_error *err);

/*
 * The lab's side, in its network namespace: ST_CHURN_BRIDGE for a bridge
 * (and a socket kept for the counts below); st_churn_lab_net_end deletes it.
 */
int st_churn_lab_net_start(enum st_net_mode mode, struct st_nl **nl, struct st_error *err);
/* The veth ends in the lab's namespace now: after a drain, 0. */
int st_churn_lab_veths(struct st_nl *nl, uint64_t *n, struct st_error *err);
void st_churn_lab_net_end(enum st_net_mode mode, struct st_nl **nl);

#endif
