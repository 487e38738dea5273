/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NETBENCH_STATS_H
#define SANDBOXTIME_NETBENCH_STATS_H

#include <stdint.h>
#include <sys/resource.h>

#include "sandboxtime/histogram.h"
#include "sandboxtime/stats.h"

/*
 * What netbench measured, per run and per path, and the arithmetic over it
 * (netbench_stats.c): sums over runs, Gbit/s, loss, medians, ratios.
 */

/* The paths results are kept for, in the order reports list them. */
enum st_nb_path {
	ST_NB_HOST,
	ST_NB_VETH,
	ST_NB_BRIDGE,
	ST_NB_HOST_TO_SANDBOX, /* client in the base namespace, server behind veth + bridge */
	ST_NB_MACVLAN,         /* server and client on two bridge-mode macvlans of one parent */
	ST_NB_PATH_COUNT,
};

/* --streams: parallel TCP connections; more only measures the scheduler on a small machine. */
#define ST_NB_MAX_STREAMS 64

/* One TCP connection of the stream, counted at both ends. */
struct st_nb_stream {
	uint64_t bytes_sent;     /* measured phase, counted by the sender */
	uint64_t bytes_received; /* read in the window (after every warm-up byte), <= bytes_sent */
	uint64_t ns;             /* the window's opening to this connection's EOF */
};

/* The UDP stream of one run (--udp): datagrams the sender sent, the receiver counted. */
struct st_nb_udp {
	unsigned int datagram; /* payload bytes per datagram */
	uint64_t sent_datagrams, sent_bytes;
	uint64_t received_datagrams, received_bytes;
	uint64_t send_ns; /* the sender's measured phase */
};

/*
 * Where one end ran during the measured stream: the CPU it was on at its
 * last send or receive in each slot of ST_NB_PLACE_SLOT_NS of the monotonic
 * clock (cpu + 1; 0: not seen in that slot). The two ends' slots line up by
 * number, so the parent can tell how much of the stream both ends spent on
 * one CPU: unpinned, that alone moves loopback throughput by 20% or more
 * (docs/bench-notes/netbench-iperf3.md). Slots past the last are not kept.
 */
#define ST_NB_PLACE_SLOT_NS 10000000ull
#define ST_NB_PLACE_SLOTS 2048

struct st_nb_placement {
	uint64_t first_slot; /* slot number (monotonic ns / ST_NB_PLACE_SLOT_NS) of cpu[0]; 0: none */
	uint16_t cpu[ST_NB_PLACE_SLOTS];
};

/* What one run on one path measured. */
struct st_nb_run {
	uint64_t bytes_sent;     /* measured phase, counted by the sender */
	uint64_t bytes_received; /* read in the window: after the receiver had every warm-up byte */
	uint64_t stream_ns;      /* the window: its opening to the receiver's last EOF */
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
	double same_cpu_share;   /* of the stream's slots both ends were seen in, the share on one CPU; NAN: none */
	struct rusage ru_server, ru_client;
};

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
	struct st_samples same_cpu; /* same_cpu_share of each run that had one */
	/*
	 * Each run's own latency p50 and p99 (us), for runs with transactions:
	 * the pooled histogram gives one figure without spread, these give
	 * compare the samples for an interval over rounds.
	 */
	struct st_samples p50_us, p99_us;
};

void st_nb_path_add_run(struct st_nb_path_result *p, const struct st_nb_run *run);
/* Frees what st_nb_path_add_run allocated (the samples); @p may then be added to again. */
void st_nb_path_result_free(struct st_nb_path_result *p);

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
/* Of the slots both ends were seen in, the share in which they were on one CPU; NAN: no such slot. */
double st_nb_same_cpu_share(const struct st_nb_placement *a, const struct st_nb_placement *b);

/* Notes that this end is on @cpu at @now_ns (monotonic), in the slot of @now_ns. */
void st_nb_placement_note(struct st_nb_placement *p, uint64_t now_ns, int cpu);

double st_nb_median_gbps(const struct st_nb_path_result *p);
/* Gbit/s of one connection over the runs (bytes over time), or NAN. */
double st_nb_stream_gbps(const struct st_nb_stream *s);
/* UDP: the sender's and the receiver's Gbit/s over the sending time; lost share of datagrams. */
double st_nb_udp_sent_gbps(const struct st_nb_udp *u);
double st_nb_udp_received_gbps(const struct st_nb_udp *u);
double st_nb_udp_loss(const struct st_nb_udp *u);
/* p50 latency in microseconds, or NAN when no transaction was measured. */
double st_nb_p50_us(const struct st_nb_path_result *p);
void st_nb_ratios_compute(const struct st_nb_path_result paths[ST_NB_PATH_COUNT],
			  struct st_nb_ratios *r);

#endif
