/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_CHURN_H
#define SANDBOXTIME_BENCH_CHURN_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/histogram.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/ns_net.h"

/*
 * `bench churn`: sandboxes made and destroyed as fast as the kernel allows,
 * by 1 to 64 creator processes at once, and the kernel's backlog behind
 * them: namespaces whose last process was reaped but that the kernel has
 * not freed yet (a network namespace's cleanup_net runs later in a work
 * queue, after RCU grace periods).
 *
 * Everything runs in a lab: a process in an outer user namespace of its own
 * (as root too). Every sandbox is a clone3() with CLONE_NEWUSER and the
 * layers of --ns whose child _exit()s at once, reaped by its creator. A
 * user namespace is freed only after everything it owns, so the number of
 * user namespaces counted in the lab's namespace is the number of sandboxes
 * alive or not yet freed; it is read through the kernel's own limit check
 * (userns_count.h), so no host limit is ever touched. New clones wait while
 * it is read; one under way goes on, so the backlog is exact to within
 * --parallel. The lab's max_user_namespaces is --max-alive for the whole
 * run: the kernel itself refuses a sandbox beyond it, and a creator refused
 * so waits for frees (counted as throttled).
 *
 * Per creator count, in this order, each from an empty backlog: a bare loop
 * (the same clone3/_exit/waitpid, no clock, no bookkeeping), the measured
 * run, the bare loop again. With --duration the measured run goes first
 * and both bare loops make as many sandboxes as it did. The measured run's wall time over the bare
 * loops' is sandboxtime's own overhead per sandbox.
 *
 * --net=veth|bridge (churn_net.h): the lab is a network namespace too, and
 * every sandbox, in the measured run and the bare loops alike, gets a veth
 * pair between its network namespace and the lab's.
 */
#define ST_CHURN_MAX_LEVELS 8
#define ST_CHURN_MAX_PARALLEL 64
#define ST_CHURN_SERIES_MAX 16384
#define ST_CHURN_SAMPLE_NS (20ull * 1000000ull) /* the series' period */
#define ST_CHURN_DRAIN_TIMEOUT_NS (30ull * 1000000000ull)

/*
 * What the limits check assumes a sandbox holds in the kernel until it is
 * freed: its process (task, 16 KiB kernel stack, page tables, credentials)
 * and each namespace; a network namespace's stack (loopback, routing and
 * netfilter tables, per-CPU statistics) dominates. Generous on purpose.
 */
#define ST_CHURN_PROCESS_KB 128u
#define ST_CHURN_NET_KB 1024u
#define ST_CHURN_NS_KB 64u
#define ST_CHURN_VETH_KB 128u /* --net=veth|bridge: two net_devices, their queues and stats */
#define ST_CHURN_MARGIN_MB 256u

/* One point of the time series, from the start of the measured run. */
struct st_churn_point {
	double t_s;
	uint64_t created, reaped, freed, backlog;
};

/* One creator count: the measured run, its series and the bare loops. */
struct st_churn_level {
	unsigned int parallel;
	uint64_t created, reaped, freed, throttled;
	uint64_t collisions;   /* clone3() calls refused by a count's lowered limit, tried again */
	uint64_t wall_ns;      /* the first clone3() until the last reap */
	uint64_t drain_ns;     /* the last reap until nothing was counted */
	uint64_t backlog_max;  /* the most sandboxes reaped but not freed at a sample */
	uint64_t backlog_end;  /* after the drain: 0, or the drain timed out */
	uint64_t samples;      /* counts read while creating (each holds new clones off) */
	uint64_t paused_ns;    /* how long new clones were held off for them, summed */
	uint64_t bare_wall_ns[2]; /* the bare loops before and after */
	uint64_t bare_created[2];
	struct st_hist create; /* the clone3() call in its creator */
	struct st_hist cycle;  /* clone3() until waitpid() returned */
	struct st_hist wire;   /* --net=veth|bridge: the pair made, after clone3() */
	uint64_t links_end;    /* --net=veth|bridge: veth ends in the lab after the drain (0) */
	size_t npoints;
	int truncated; /* more points than ST_CHURN_SERIES_MAX: the last ones are missing */
	struct st_churn_point series[ST_CHURN_SERIES_MAX];
};

/* The machine's limits, read before anything is made. */
struct st_churn_limits {
	uint64_t pid_max, threads; /* /proc/sys/kernel/pid_max, tasks now (/proc/loadavg) */
	uint64_t max_ns[ST_LAYER_COUNT]; /* /proc/sys/user/max_<type>_namespaces */
	uint64_t mem_available_mb;
	uint64_t need_mb;   /* what --max-alive sandboxes may hold, with the margin */
	uint64_t need_pids; /* processes at once: the lab, its prober, creators, sandboxes */
};

struct st_churn_shared;

struct st_bench_churn {
	unsigned int mask; /* the sandboxes' layers: --ns plus user */
	uint64_t count;    /* sandboxes per measured run and per bare loop */
	uint64_t duration_ns; /* --duration: the measured run's length instead (count 0) */
	unsigned int max_alive;
	enum st_net_mode net; /* none, veth or bridge */
	unsigned int parallel[ST_CHURN_MAX_LEVELS];
	size_t nlevels;
	size_t done; /* levels measured */
	struct st_churn_limits limits;
	int interrupted_by; /* the signal that stopped the run, or 0 */
	struct st_churn_shared *sh; /* shared with the lab: counters and results */
	const struct st_churn_level *levels; /* sh's, nlevels of them */
};

/*
 * Whether the machine can take --max-alive sandboxes and the creators:
 * every max_<type>_namespaces of @mask (user, and net with @net wired, one
 * more for the lab's own), free pids under pid_max, and MemAvailable against
 * the estimate above. Fills need_*; refuses the first shortfall with both
 * numbers and what to do. Pure.
 */
int st_churn_check_limits(struct st_churn_limits *l, unsigned int mask, enum st_net_mode net,
			  unsigned int max_alive, unsigned int max_parallel, struct st_error *err);

/* Reads the limits and checks them; maps the memory shared with the lab. */
int st_bench_churn_prepare(struct st_bench_churn *b, unsigned int mask, enum st_net_mode net,
			   uint64_t count, double duration_s, unsigned int max_alive,
			   const unsigned int *parallel, size_t n, struct st_error *err);

/*
 * Runs every level in the lab. On SIGINT, SIGTERM, ... the creators stop,
 * every sandbox is reaped and the backlog drained before it returns -EINTR
 * with interrupted_by set.
 */
int st_bench_churn_run(struct st_bench_churn *b, struct st_error *err);

/*
 * How fast the backlog grew while creating: the least-squares slope of
 * backlog over t_s of the points up to @until_s, in sandboxes per second.
 * 0 with fewer than two points. Pure.
 */
double st_churn_backlog_slope(const struct st_churn_point *p, size_t n, double until_s);

/* Sandboxes per second of the bare loops together, 0 when they made none. */
double st_churn_bare_rate(const struct st_churn_level *l);

/* The measured run's time per sandbox over the bare loops', minus one, in percent. */
double st_churn_overhead_pct(const struct st_churn_level *l);

void st_bench_churn_free(struct st_bench_churn *b);

#endif
