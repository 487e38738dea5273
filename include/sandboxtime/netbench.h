/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NETBENCH_H
#define SANDBOXTIME_NETBENCH_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/resource.h>

#include "sandboxtime/error.h"
#include "sandboxtime/histogram.h"
#include "sandboxtime/stats.h"

/*
 * `sandboxtime netbench`: TCP throughput and request/response latency over
 * three paths, all inside namespaces netbench makes (never the host's):
 * loopback ("host"), a veth pair between two namespaces, and two veths on a
 * bridge in a third namespace (the docker0 shape).
 */
enum st_nb_path {
	ST_NB_HOST,
	ST_NB_VETH,
	ST_NB_BRIDGE,
	ST_NB_PATH_COUNT,
};

#define ST_NB_ALL_PATHS ((1u << ST_NB_PATH_COUNT) - 1)

extern const char *const st_nb_path_names[ST_NB_PATH_COUNT];

/* Parses --paths: a comma list of host,veth,bridge (or "all"). */
int st_nb_parse_paths(const char *text, unsigned int *mask, struct st_error *err);

#define ST_NB_MIN_DURATION_S 0.0   /* exclusive */
#define ST_NB_MAX_DURATION_S 3600.0
#define ST_NB_MAX_SIZE (64u << 20)

/* Parses --duration: seconds, fractions allowed, in (0, 3600]. */
int st_nb_parse_duration(const char *text, double *out, struct st_error *err);

struct st_nb_config {
	double duration_s;
	uint64_t size;  /* bytes per write(2) of the stream */
	int rr;         /* also measure request/response latency */
	unsigned int repeat;
	unsigned int mtu; /* veth and bridge; 0: the kernel's default */
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

/* What one run on one path measured. */
struct st_nb_run {
	uint64_t bytes_sent;     /* measured phase, counted by the sender */
	uint64_t bytes_received; /* the same phase, counted by the receiver */
	uint64_t stream_ns;      /* sender's first measured byte to receiver's EOF */
	double gbps;             /* bytes_received * 8 / stream_ns */
	unsigned int retransmits; /* tcpi_total_retrans of the sender */
	unsigned int mtu;        /* MTU of the client's interface (SIOCGIFMTU) */
	uint64_t rr_ns;          /* measured time of the request/response phase */
	struct st_hist hist;     /* per-transaction latency */
	struct rusage ru_server, ru_client;
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
#define ST_NB_LAB_MAX_NS 6

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

/* Every run of one path, summed up for the report. */
struct st_nb_path_result {
	int measured;
	struct st_samples gbps;   /* one per run, in measurement order */
	uint64_t bytes_sent;      /* totals over the runs */
	uint64_t bytes_received;
	unsigned int retransmits;
	unsigned int mtu;
	struct st_hist hist;      /* every run's transactions */
	uint64_t rr_ns;
	double server_cpu_s, client_cpu_s; /* user + system, over the runs */
	double stream_gb;         /* decimal gigabytes received, over the runs */
};

void st_nb_path_add_run(struct st_nb_path_result *p, const struct st_nb_run *run);

/* Each > 1 means the namespace path costs that much more; NAN when unknown. */
struct st_nb_ratios {
	double throughput_host_over_veth;
	double throughput_host_over_bridge;
	double latency_veth_over_host;
	double latency_bridge_over_host;
};

/* Median Gbit/s of a path, or NAN when it has none. */
double st_nb_median_gbps(const struct st_nb_path_result *p);
/* p50 latency in microseconds, or NAN when no transaction was measured. */
double st_nb_p50_us(const struct st_nb_path_result *p);
void st_nb_ratios_compute(const struct st_nb_path_result paths[ST_NB_PATH_COUNT],
			  struct st_nb_ratios *r);

#endif
