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
	ST_NB_HOST_TO_SANDBOX, /* client in the base namespace, server behind veth + bridge */
	ST_NB_MACVLAN,         /* server and client on two bridge-mode macvlans of one parent */
	ST_NB_PATH_COUNT,
};

#define ST_NB_ALL_PATHS ((1u << ST_NB_PATH_COUNT) - 1)
/* Without --paths: the three of the question (host, veth, bridge). */
#define ST_NB_DEFAULT_PATHS ((1u << ST_NB_HOST) | (1u << ST_NB_VETH) | (1u << ST_NB_BRIDGE))

extern const char *const st_nb_path_names[ST_NB_PATH_COUNT];

#define ST_NB_MIN_DURATION_S 0.0   /* exclusive */
#define ST_NB_MAX_DURATION_S 3600.0
#define ST_NB_MAX_SIZE (64u << 20)
/* --streams: parallel TCP connections; more only measures the scheduler on a small machine. */
#define ST_NB_MAX_STREAMS 64

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

/* One TCP connection of the stream, counted at both ends. */
struct st_nb_stream {
	uint64_t bytes_sent;     /* measured phase, counted by the sender */
	uint64_t bytes_received; /* the same phase, counted by the receiver */
	uint64_t ns;             /* sender's first measured byte to this connection's EOF */
};

/* The UDP stream of one run (--udp): datagrams the sender sent, the receiver counted. */
struct st_nb_udp {
	unsigned int datagram; /* payload bytes per datagram */
	uint64_t sent_datagrams, sent_bytes;
	uint64_t received_datagrams, received_bytes;
	uint64_t send_ns; /* the sender's measured phase */
};

/* What one run on one path measured. */
struct st_nb_run {
	uint64_t bytes_sent;     /* measured phase, counted by the sender */
	uint64_t bytes_received; /* the same phase, counted by the receiver */
	uint64_t stream_ns;      /* sender's first measured byte to receiver's EOF */
	double gbps;             /* bytes_received * 8 / stream_ns */
	unsigned int retransmits; /* tcpi_total_retrans of the sender */
	unsigned int dsack_dups;  /* tcpi_dsack_dups: retransmits the receiver had already (spurious) */
	unsigned int reord_seen;  /* tcpi_reord_seen: reorderings the sender detected */
	unsigned int mtu;        /* MTU of the client's interface (SIOCGIFMTU) */
	unsigned int nstreams;
	struct st_nb_stream streams[ST_NB_MAX_STREAMS];
	struct st_nb_udp udp;
	uint64_t rr_ns;          /* measured time of the request/response phase */
	struct st_hist hist;     /* per-transaction latency */
	int so_busy_poll;        /* both rr sockets took SO_BUSY_POLL */
	uint64_t server_cpus, client_cpus; /* CPUs (< 64) each child was seen on */
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

/* Every run of one path, summed up for the report. */
struct st_nb_path_result {
	int measured;
	struct st_samples gbps;   /* one per run, in measurement order */
	uint64_t bytes_sent;      /* totals over the runs */
	uint64_t bytes_received;
	unsigned int retransmits;
	unsigned int dsack_dups, reord_seen;
	unsigned int mtu;
	struct st_hist hist;      /* every run's transactions */
	uint64_t rr_ns;
	double server_cpu_s, client_cpu_s; /* user + system, over the runs */
	double stream_gb;         /* decimal gigabytes received, over the runs */
	unsigned int nstreams;
	struct st_nb_stream streams[ST_NB_MAX_STREAMS]; /* each connection, summed over the runs */
	struct st_nb_udp udp;     /* summed over the runs */
	int so_busy_poll;         /* every run's rr sockets took SO_BUSY_POLL */
	uint64_t server_cpus, client_cpus;
};

void st_nb_path_add_run(struct st_nb_path_result *p, const struct st_nb_run *run);

/* Each > 1 means the namespace path costs that much more; NAN when unknown. */
struct st_nb_ratios {
	double throughput_host_over_veth;
	double throughput_host_over_bridge;
	double latency_veth_over_host;
	double latency_bridge_over_host;
	double throughput_host_over_host_to_sandbox;
	double latency_host_to_sandbox_over_host;
	double throughput_host_over_macvlan;
	double latency_macvlan_over_host;
};

/* Median Gbit/s of a path, or NAN when it has none. */
double st_nb_median_gbps(const struct st_nb_path_result *p);
/* Gbit/s of one connection over the runs (bytes over time), or NAN. */
double st_nb_stream_gbps(const struct st_nb_stream *s);
/* UDP: the sender's and the receiver's Gbit/s over the sending time; lost share of datagrams. */
double st_nb_udp_sent_gbps(const struct st_nb_udp *u);
double st_nb_udp_received_gbps(const struct st_nb_udp *u);
double st_nb_udp_loss(const struct st_nb_udp *u);
/* --cpu-pin: the first two CPUs this process may run on; -1 when it has only one. */
int st_nb_pick_cpus(int *server_cpu, int *client_cpu);
/* p50 latency in microseconds, or NAN when no transaction was measured. */
double st_nb_p50_us(const struct st_nb_path_result *p);
void st_nb_ratios_compute(const struct st_nb_path_result paths[ST_NB_PATH_COUNT],
			  struct st_nb_ratios *r);

#endif
