/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NETBENCH_ENGINE_H
#define SANDBOXTIME_NETBENCH_ENGINE_H

#include <stdint.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/netbench.h"

/*
 * The measuring processes of one run (netbench_engine.c) and what they send
 * back to the parent (netbench.c), which forks them and reads their results.
 */

/* Latency phase: warm-up before it, at most this long (a quarter of --duration below). */
#define ST_NB_RR_WARMUP_MAX_S 0.2

/* One connection of the stream as one end saw it; the two ends match by the client's port. */
struct st_nb_conn_count {
	uint16_t port;        /* the client's port */
	uint64_t warm_bytes;  /* client: unmeasured bytes sent first */
	uint64_t bytes;       /* client: measured bytes sent; server: every byte received */
	uint64_t before_window; /* server: bytes read before the window opened */
	uint64_t t_eof_ns;    /* server: EOF of this connection */
};

/*
 * The end of the client's warm-up, sent to the server through a pipe when
 * the measured phase starts: each connection's warm-up bytes, by the
 * client's port. Smaller than PIPE_BUF, so written and read whole.
 */
struct st_nb_warm_end {
	unsigned int n;
	uint16_t port[ST_NB_MAX_STREAMS];
	uint64_t bytes[ST_NB_MAX_STREAMS];
};
_Static_assert(sizeof(struct st_nb_warm_end) <= 4096, "the warm-up's end must fit in PIPE_BUF");

/* What a child sends back through its result pipe, once, before _exit. */
struct st_nb_child_result {
	int ret; /* 0 or -errno, with err */
	struct st_error err;
	unsigned int nconn;
	struct st_nb_conn_count conn[ST_NB_MAX_STREAMS];
	uint64_t t_start_ns;  /* client: start of the measured stream */
	/*
	 * server: when the throughput window opened, the first moment it had
	 * read every connection's warm-up bytes (0: it never learnt them).
	 */
	uint64_t t_window_ns;
	unsigned int retransmits;
	unsigned int dsack_dups; /* client: retransmits the receiver reported it had already */
	unsigned int reord_seen; /* client: reordering events the sender detected */
	unsigned int mtu;
	struct st_nb_udp udp; /* client: the sent side; server: the received side */
	uint64_t rr_ns;
	int so_busy_poll;
	uint64_t cpus;        /* CPUs this child was seen on (sched_getcpu after each phase) */
	struct st_nb_placement place; /* the stream's measured phase (server: every byte read) */
	struct st_hist hist;
};

static inline uint64_t st_nb_s_to_ns(double s)
{
	return (uint64_t)(s * 1e9);
}

/*
 * The children's whole lives: into the path's namespace (and onto their CPU
 * with --cpu-pin), measure, write one struct st_nb_child_result to
 * @result_fd, _exit. The server writes "r" to @ready_fd once it listens.
 * The client writes its struct st_nb_warm_end to @warm_fd (a non-blocking
 * pipe), the server reads it there.
 */
_noreturn_ void st_nb_server_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				  int ready_fd, int warm_fd, int result_fd);
_noreturn_ void st_nb_client_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				  int warm_fd, int result_fd);

/*
 * Both ends' counts of one run into @run (@ru: the server's and the client's
 * rusage). Throughput counts only what the server read after its window
 * opened, over the time from that opening to the connection's end of stream.
 * Fails (EPROTO) when the ends disagree on the connections or on any
 * connection's byte count, or when the window never opened.
 */
int st_nb_run_fill(const struct st_nb_child_result *sr, const struct st_nb_child_result *cr,
		   struct st_nb_run *run, const struct rusage ru[2], struct st_error *err);

#endif
