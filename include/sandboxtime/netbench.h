/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NETBENCH_H
#define SANDBOXTIME_NETBENCH_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/netbench_stats.h"

/*
 * `sandboxtime netbench`: TCP throughput and request/response latency over
 * three paths, all inside namespaces netbench makes (never the host's):
 * loopback ("host"), a veth pair between two namespaces, and two veths on a
 * bridge in a third namespace (the docker0 shape).
 */

#define ST_NB_ALL_PATHS ((1u << ST_NB_PATH_COUNT) - 1)
/* Without --paths: the three of the question (host, veth, bridge). */
#define ST_NB_DEFAULT_PATHS ((1u << ST_NB_HOST) | (1u << ST_NB_VETH) | (1u << ST_NB_BRIDGE))

extern const char *const st_nb_path_names[ST_NB_PATH_COUNT];

#define ST_NB_MIN_DURATION_S 0.0   /* exclusive */
#define ST_NB_MAX_DURATION_S 3600.0
#define ST_NB_MAX_SIZE (64u << 20)

struct st_nb_config {
	double duration_s;
	uint64_t size;  /* bytes per write(2) of the stream */
	int rr;         /* also measure request/response latency */
	unsigned int repeat;
	unsigned int mtu; /* veth and bridge; 0: the kernel's default */
	unsigned int streams; /* parallel TCP connections of the stream, 1..ST_NB_MAX_STREAMS */
	int busy_poll;  /* rr: both ends spin on non-blocking reads (and ask for SO_BUSY_POLL) */
	int udp;        /* also a UDP stream */
	int server_cpu, client_cpu; /* --cpu-pin: each child's CPU; -1: not pinned by netbench */
	uint64_t seed; /* the paths' random order in each round (printed: --seed replays it) */
};

/* Warm-up before each measured phase, not counted: min(1 s, duration / 2). */
double st_nb_warmup_s(double duration_s);

/* Where one path's server and client run, and how the client reaches the server. */
struct st_nb_endpoint {
	int server_ns_fd;
	int client_ns_fd;
	struct in_addr server_addr;
	const char *client_if; /* the client's interface, whose MTU is reported */
};

/*
 * Runs a server and a client in their own processes (children of the caller,
 * with PR_SET_PDEATHSIG): first the stream, then, with cfg->rr, the
 * ping-pong. Every wait is bounded by a watchdog; a forwarded signal stops
 * the run: both children are killed and reaped, *@signo set, -EINTR.
 */
int st_nb_run_once(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
		   struct st_nb_run *run, int *signo, struct st_error *err);

/*
 * The namespaces of the paths. netbench first moves itself into a fresh user
 * namespace (the caller mapped to root inside, as root too) and a fresh
 * network namespace, the "base", which is the host path's; every other
 * namespace is made from there and held only by an fd of this process and
 * by the children inside it, so that netbench's end, however it comes,
 * frees them all. Nothing is created in the host's network namespace.
 */
#define ST_NB_LAB_MAX_NS 8

struct st_nb_lab {
	int base_fd;
	int fds[ST_NB_LAB_MAX_NS]; /* every namespace made besides the base */
	size_t nfds;
	unsigned int mask;
	struct st_nb_endpoint ep[ST_NB_PATH_COUNT];
};

/* Enters the fresh user and network namespace (unshare, then our own id maps). */
int st_nb_lab_enter(struct st_error *err);

/* Makes and wires the namespaces of the paths in @mask; @mtu 0: default. */
int st_nb_lab_build(struct st_nb_lab *lab, unsigned int mask, unsigned int mtu,
		    struct st_error *err);
void st_nb_lab_release(struct st_nb_lab *lab);

/* --cpu-pin: the first two CPUs this process may run on; -1 when it has only one. */
int st_nb_pick_cpus(int *server_cpu, int *client_cpu);

#endif
