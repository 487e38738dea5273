/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_DEFERRED_H
#define SANDBOXTIME_DEFERRED_H

#include <stdint.h>

#include "sandboxtime/error.h"

struct st_deferred_sample {
	uint64_t deferred_ns; /* reap until the kernel had freed every namespace */
	uint64_t probes;      /* unshare() probes that failed with ENOSPC */
};

/*
 * Measures how long after the reap of a child with the namespaces of @mask the
 * kernel really frees them (net: cleanup_net in a work queue after an RCU
 * grace period; user: a work item; ipc: free_ipc_work).
 *
 * Without root and without touching the host's limits: a helper process gets
 * a fresh user namespace, lowers that namespace's own
 * /proc/sys/user/max_<type>_namespaces to 1, creates the measured child,
 * reaps it, then probes unshare(CLONE_NEW<type>): it fails with ENOSPC while
 * the old namespace is still counted, and the first success marks its free.
 * For ipc the kernel waits for the pending free inside unshare instead, so
 * that probe blocks, and is timed the same way.
 */
int st_deferred_measure(unsigned int mask, struct st_deferred_sample *out, struct st_error *err);

#endif
