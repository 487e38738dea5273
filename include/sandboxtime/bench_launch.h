/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_LAUNCH_H
#define SANDBOXTIME_BENCH_LAUNCH_H

#include <limits.h>

#include "sandboxtime/bench_grid.h"

/*
 * `bench launch` (issue 15.3): sandboxes started and completed one after
 * another, end to end (fork, exec, the sandbox, /bin/true, the reap), for
 * sandboxtime itself and for its peers in the same rounds. Places:
 * `sandboxtime` (the default hardened launch: init, capability drop,
 * no_new_privs, the default seccomp filter), `sandboxtime-bare` (doing only
 * what unshare does: --no-init --seccomp=none --cap-add=ALL
 * --no-new-privileges=false), `unshare` (util-linux) and `bwrap`
 * (bubblewrap, --unshare-all over a read-only /usr), each making the uts,
 * ipc, pid, mount and network namespaces (and a user namespace where the
 * caller is not root), and `true` (/bin/true with no sandbox: what a
 * launch costs any launcher, and the yardstick of another tool's clock). A
 * peer that is not installed, or that the kernel refuses, is unavailable
 * with the reason.
 *
 * Each round launches @launches times per place (--launches; 0: the default
 * ST_LAUNCH_PER_ROUND, which should equal --launches' default); operations
 * (us): `mean` (launches per second: 1e6 / mean), `p50` and `p99` of that
 * round's launches.
 */
#define ST_LAUNCH_PER_ROUND 100u
#define ST_LAUNCH_DEFAULT_REPEAT 5u
#define ST_LAUNCH_NS "uts,ipc,pid,mount,net"

enum st_launch_place {
	ST_LAUNCH_SANDBOXTIME,
	ST_LAUNCH_SANDBOXTIME_BARE,
	ST_LAUNCH_UNSHARE,
	ST_LAUNCH_BWRAP,
	ST_LAUNCH_TRUE, /* /bin/true alone: the launcher's own floor, no sandbox */
	ST_LAUNCH_NPLACES,
};

#define ST_LAUNCH_MAX_ARGS 24

struct st_bench_launch {
	struct st_bench_grid g;
	char self[PATH_MAX];    /* this binary */
	char unshare[PATH_MAX]; /* unshare(1), or "" */
	char bwrap[PATH_MAX];   /* bwrap(1), or "" */
	const char *argv[ST_LAUNCH_NPLACES][ST_LAUNCH_MAX_ARGS];
	unsigned int launches; /* per place and round */
};

int st_bench_launch_prepare(struct st_bench_launch *b, unsigned int repeat, unsigned int launches,
			    struct st_error *err);
extern const struct st_grid_bench st_bench_launch_grid;

#endif
