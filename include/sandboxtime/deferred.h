/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_DEFERRED_H
#define SANDBOXTIME_DEFERRED_H

#include <stdint.h>
#include <sys/types.h>

#include "sandboxtime/error.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/userns_count.h"

struct st_deferred_sample {
	uint64_t deferred_ns;              /* reap until the last type was freed */
	int last_layer;                    /* that type */
	uint64_t freed_ns[ST_LAYER_COUNT]; /* reap until each type was freed */
	uint64_t call_ns[ST_LAYER_COUNT];  /* the successful unshare() itself */
	uint64_t drain_ns;                 /* untimed wait for earlier samples' frees */
	int settled_by;                    /* how the drain ended: ST_SETTLE_* */
	uint64_t probes;                   /* unshare() probes that failed with ENOSPC */
};

/*
 * The deferred lab: one long-lived process in an outer user namespace of its
 * own, in which every sample's helper gets a nested user namespace. Every
 * namespace a sample makes (the measured child's, the probes', the helper's
 * own) is owned, directly or through nested user namespaces, by that
 * helper's user namespace, and a user namespace is freed only after all it
 * owns; so the outer namespace's own count of user namespaces is zero once
 * every namespace of earlier samples is freed. The lab waits for that before
 * each sample, then for two RCU grace periods, since the last RCU callbacks
 * and work items of those frees still run after the count has dropped
 * (untimed, reported as drain_ns), without touching the host's limits.
 */
/*
 * What a type's deferred figure marks. The probe sees the moment the type's
 * count (max_<type>_namespaces) is released, and that is not the same event
 * for every type: for uts, mount, cgroup and time the count drops when the
 * last task leaves and the memory goes later (RCU), so the figure is "count
 * released"; net's count drops at the end of the cleanup_net run that tears
 * it down, and its memory goes one run later (bench/deferred_trace.sh: half
 * of the time to the kernel's free, in every sample), so it is "count
 * released" too; for pid, ipc and user the count drops at or near the real
 * free, "freed" (user only after everything it owns: last of all; its mark
 * is the start of free_user_ns).
 */
extern const char *const st_deferred_marks[ST_LAYER_COUNT];

/* The order in which a sample probes the pending types: all but user shuffled from @seed, user last. */
#define ST_DEFERRED_NPROBE ST_LAYER_COUNT
void st_deferred_probe_order(uint64_t seed, int order[ST_DEFERRED_NPROBE]);

/*
 * The probe's pause between passes once it has spun for 200 us, in
 * microseconds: 20 by default, SANDBOXTIME_DEFERRED_POLL_US (0 to 100000)
 * to show that the figures do not depend on it (bench/lab/deferred_poll.sh).
 * 0 never sleeps: it yields the CPU between passes.
 */
#define ST_DEFERRED_POLL_US_DEFAULT 20
#define ST_DEFERRED_POLL_ENV "SANDBOXTIME_DEFERRED_POLL_US"

struct st_deferred_lab {
	pid_t pid;
	unsigned int poll_us;
	int req_wr;
	int res_rd;
};

/* Starts the lab; -errno with the kernel's reason and a hint if it cannot. */
int st_deferred_lab_open(struct st_deferred_lab *lab, struct st_error *err);

/*
 * One sample: waits for the drain, then measures how long after the reap of
 * a child with the namespaces of @mask the kernel frees each of them
 * (net: cleanup_net in a work queue after RCU grace periods; user: a work
 * item; ipc: free_ipc_work). A helper lowers its own user namespace's
 * /proc/sys/user/max_<type>_namespaces to 1, runs the cycle, reaps, and then
 * polls unshare(CLONE_NEW<type>) for every still pending type in turn, in
 * an order drawn from @seed for each sample (user always last): it fails
 * with ENOSPC while the old namespace still counts. For ipc the kernel
 * waits for the pending free inside unshare() instead, so that call's end,
 * less the calibrated cost of creating an ipc namespace, is charged.
 */
int st_deferred_lab_sample(struct st_deferred_lab *lab, unsigned int mask, uint64_t seed,
			   struct st_deferred_sample *out, struct st_error *err);

void st_deferred_lab_close(struct st_deferred_lab *lab);

#endif
