// SPDX-License-Identifier: MIT
/*
 * The two measuring processes of one run: a TCP (and UDP) server and a
 * client, each in its own network namespace. They only measure and send
 * their counts back through a pipe; the parent (netbench.c) does the rest.
 */
#include <arpa/inet.h>
/* linux/tcp.h, not netinet/tcp.h: glibc's tcp_info stops before tcpi_dsack_dups. */
#include <linux/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/netbench_engine.h"
#include "sandboxtime/util.h"

#define NB_PORT 5201

/* UDP datagrams carry their phase, so that the receiver counts only the measured ones. */
enum { UDP_WARM = 0x6e627731, UDP_MEASURED = 0x6e62776d, UDP_END = 0x6e627765 };
struct udp_head {
	uint32_t phase;
	uint32_t pad;
	uint64_t seq;
};
#define NB_UDP_MAX 65507u
#define NB_UDP_ENDS 8
/* The receiver's end when every end marker was lost: this long without a datagram. */
#define NB_UDP_QUIET_NS 500000000ull
#define NB_BUSY_POLL_US 50


static void note_cpu(struct st_nb_child_result *r)
{
	int cpu = sched_getcpu();

	if (cpu >= 0 && cpu < 64)
		r->cpus |= 1ull << cpu;
}

static _noreturn_ void child_exit(int fd, struct st_nb_child_result *r)
{
	_exit(st_write_all(fd, r, sizeof(*r)) < 0 || r->ret < 0 ? 1 : 0);
}

/* Into the path's namespace, and onto @cpu with --cpu-pin (-1: where the scheduler likes). */
static int enter_ns(int ns_fd, int cpu, struct st_error *err)
{
	if (setns(ns_fd, CLONE_NEWNET) < 0)
		return st_error_set(err, errno, "entering the path's network namespace");
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			return st_error_set(err, errno, "pinning to CPU %d", cpu);
	}
	return 0;
}

static struct sockaddr_in server_sockaddr(struct in_addr a)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NB_PORT), .sin_addr = a };

	return sa;
}

static int accept_one(int lfd, uint16_t *port, struct st_error *err)
{
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);
	int fd = (int)TEMP_FAILURE_RETRY(accept4(lfd, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC));

	if (fd < 0)
		return st_error_set(err, errno, "server: accept");
	if (port)
		*port = ntohs(peer.sin_port);
	return fd;
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		closep(&fds[i]);
}

/*
 * A buffer of @size bytes on a page boundary: the reference tool (iperf3)
 * reads and writes from mmap'd, page-aligned buffers, and copies between user
 * and kernel cost more on some CPUs when they start off a cache line.
 */
static char *io_buffer(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return aligned_alloc(page, (size + page - 1) / page * page);
}

/*
 * Where the server's throughput window stands: the client's warm-up ends by
 * its clock, when bytes it wrote earlier may still be queued on the way. The
 * window opens once the server has read every warm-up byte of every
 * connection and holds only what it reads from then on, so that no delivery
 * of warm-up bytes falls inside it (the sender's start would count their
 * time but not them) and the count is exact with any number of connections.
 */
struct window_watch {
	int warm_fd;                       /* the client's struct st_nb_warm_end comes here */
	int known;                         /* it came */
	uint64_t warm[ST_NB_MAX_STREAMS];  /* each connection's warm-up bytes, server's order */
};

/* The client's warm-up counts, once it has sent them; matched to @r's connections by port. */
static int window_learn(struct window_watch *w, const struct st_nb_child_result *r,
			struct st_error *err)
{
	struct st_nb_warm_end end;
	ssize_t n = read(w->warm_fd, &end, sizeof(end));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0)
		return st_error_set(err, errno, "server: reading the end of the warm-up");
	if (n != (ssize_t)sizeof(end) || end.n != r->nconn)
		return st_error_set(err, EPROTO, "server: a short end of the warm-up (%zd bytes)",
				    n);
	for (unsigned int i = 0; i < r->nconn; i++) {
		unsigned int j = 0;

		while (j < end.n && end.port[j] != r->conn[i].port)
			j++;
		if (j == end.n)
			return st_error_set(err, EPROTO, "server: no warm-up count for port %u",
					    r->conn[i].port);
		w->warm[i] = end.bytes[j];
	}
	w->known = 1;
	return 0;
}

/* Opens the window (r->t_window_ns) at the first call that finds every warm-up byte read. */
static int window_update(struct window_watch *w, struct st_nb_child_result *r, struct st_error *err)
{
	if (r->t_window_ns)
		return 0;
	if (!w->known) {
		int ret = window_learn(w, r, err);

		if (ret < 0 || !w->known)
			return ret;
	}
	for (unsigned int i = 0; i < r->nconn; i++)
		if (r->conn[i].bytes < w->warm[i])
			return 0;
	r->t_window_ns = st_now_ns();
	for (unsigned int i = 0; i < r->nconn; i++)
		r->conn[i].before_window = r->conn[i].bytes;
	return 0;
}

/*
 * Reads every connection to its EOF in this one process (one core at most),
 * in reads of @size bytes (the writer's size, as iperf3 reads its -l), with
 * MSG_DONTWAIT in turn, and sleeps in poll only when none had data. Even one
 * connection is read this way: the scheduler then sees the receiver sleep
 * and wake as iperf3's does (in select, never inside recv), and places the
 * two ends alike (docs/bench-notes/netbench-iperf3.md). Until the window
 * opens, each turn also looks for the end of the warm-up: one failed read of
 * a pipe per turn, in the warm-up, which is not measured.
 */
static int serve_stream(int lfd, unsigned int n, size_t size, int warm_fd,
			struct st_nb_child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = io_buffer(size);
	struct pollfd pfd[ST_NB_MAX_STREAMS];
	int fds[ST_NB_MAX_STREAMS];
	struct window_watch window = { .warm_fd = warm_fd };
	int ret = 0;
	unsigned int open_n = 0;

	if (!buf)
		return st_error_set(err, ENOMEM, "server: buffer");
	for (unsigned int i = 0; i < n; i++)
		fds[i] = -1;
	for (unsigned int i = 0; i < n && ret == 0; i++) {
		fds[i] = accept_one(lfd, &r->conn[i].port, err);
		if (fds[i] < 0)
			ret = fds[i];
		pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	}
	r->nconn = n;
	open_n = n;
	while (ret == 0 && open_n) {
		int progress = 0;

		ret = window_update(&window, r, err);
		for (unsigned int i = 0; i < n && ret == 0; i++) {
			ssize_t got;

			if (fds[i] < 0)
				continue;
			got = recv(fds[i], buf, size, MSG_DONTWAIT);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got < 0) {
				ret = st_error_set(err, errno, "server: reading stream %u", i);
				break;
			}
			progress = 1;
			if (got == 0) {
				/* Closing says "all read" to the client, waiting for EOF on its side. */
				r->conn[i].t_eof_ns = st_now_ns();
				closep(&fds[i]);
				pfd[i].fd = -1;
				open_n--;
				continue;
			}
			r->conn[i].bytes += (uint64_t)got;
			st_nb_placement_note(&r->place, st_now_ns(), sched_getcpu());
		}
		if (ret == 0 && !progress && open_n && poll(pfd, n, -1) < 0 && errno != EINTR)
			ret = st_error_set(err, errno, "server: poll");
	}
	/* The client wrote the warm-up's end before its last byte: it is there by now. */
	if (ret == 0)
		ret = window_update(&window, r, err);
	close_all(fds, n);
	return ret;
}

/*
 * --busy-poll: SO_BUSY_POLL makes a blocking read poll the device's queue
 * first (where the device has NAPI); the read itself spins on MSG_DONTWAIT, so
 * the receiver never sleeps whatever the device. Returns whether the kernel
 * took SO_BUSY_POLL.
 */
static int rr_socket_setup(int fd, int busy_poll)
{
	int one = 1, us = NB_BUSY_POLL_US;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return busy_poll && setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)) == 0;
}

/* One byte; with @spin, never sleeping for it. 0 at EOF. */
static ssize_t read_byte(int fd, char *c, int spin)
{
	ssize_t n;

	do
		n = recv(fd, c, 1, spin ? MSG_DONTWAIT : 0);
	while (n < 0 && (errno == EINTR || (spin && errno == EAGAIN)));
	return n;
}

static int serve_rr(int lfd, int busy_poll, struct st_nb_child_result *r, struct st_error *err)
{
	_cleanup_close_ int fd = accept_one(lfd, NULL, err);
	char c;

	if (fd < 0)
		return fd;
	r->so_busy_poll = rr_socket_setup(fd, busy_poll);
	for (;;) {
		ssize_t n = read_byte(fd, &c, busy_poll);

		if (n < 0)
			return st_error_set(err, errno, "server: reading a request");
		if (n == 0)
			return 0;
		if (st_write_all(fd, &c, 1) < 0)
			return st_error_set(err, errno, "server: writing a response");
	}
}

static int udp_socket(struct st_error *err)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return st_error_set(err, errno, "udp socket");
	return fd;
}

/*
 * Counts the measured datagrams until an end marker, or until the sender has
 * been quiet for NB_UDP_QUIET_NS after its first datagram (markers get lost
 * too when the receiver falls behind: that is what loss means here).
 */
static int serve_udp(int ufd, struct st_nb_child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = malloc(NB_UDP_MAX);
	struct pollfd pfd = { .fd = ufd, .events = POLLIN };
	uint64_t last = 0;

	if (!buf)
		return st_error_set(err, ENOMEM, "server: buffer");
	for (;;) {
		struct udp_head h;
		ssize_t n = recv(ufd, buf, NB_UDP_MAX, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (last && st_now_ns() - last > NB_UDP_QUIET_NS)
				return 0;
			if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
				return st_error_set(err, errno, "server: poll");
			continue;
		}
		if (n < 0)
			return st_error_set(err, errno, "server: receiving a datagram");
		last = st_now_ns();
		if ((size_t)n < sizeof(h))
			continue;
		memcpy(&h, buf, sizeof(h));
		if (h.phase == UDP_END)
			return 0;
		if (h.phase != UDP_MEASURED)
			continue;
		r->udp.received_datagrams++;
		r->udp.received_bytes += (uint64_t)n;
	}
}

_noreturn_ void st_nb_server_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				   int ready_fd, int warm_fd, int result_fd)
{
	struct st_nb_child_result r = { 0 };
	struct sockaddr_in sa = server_sockaddr(ep->server_addr);
	_cleanup_close_ int lfd = -1, ufd = -1;
	int one = 1;

	r.ret = enter_ns(ep->server_ns_fd, cfg->server_cpu, &r.err);
	if (r.ret < 0)
		child_exit(result_fd, &r);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		r.ret = st_error_set(&r.err, errno, "server: socket");
	else if (setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
		 bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		 listen(lfd, (int)cfg->streams + 1) < 0)
		r.ret = st_error_set(&r.err, errno, "server: listening on %s:%d", inet_ntoa(ep->server_addr),
				     NB_PORT);
	/* Bound before "ready": datagrams sent early wait in its queue. */
	if (r.ret == 0 && cfg->udp) {
		ufd = udp_socket(&r.err);
		if (ufd < 0)
			r.ret = ufd;
		else if (bind(ufd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			r.ret = st_error_set(&r.err, errno, "server: binding UDP %s:%d",
					     inet_ntoa(ep->server_addr), NB_PORT);
	}
	if (r.ret < 0)
		child_exit(result_fd, &r);
	/* Listening: the parent starts the client only now. */
	if (st_write_all(ready_fd, "r", 1) < 0)
		_exit(1);
	close(ready_fd);
	r.ret = serve_stream(lfd, cfg->streams, cfg->size, warm_fd, &r, &r.err);
	note_cpu(&r);
	if (r.ret == 0 && cfg->udp)
		r.ret = serve_udp(ufd, &r, &r.err);
	if (r.ret == 0 && cfg->rr)
		r.ret = serve_rr(lfd, cfg->busy_poll, &r, &r.err);
	note_cpu(&r);
	child_exit(result_fd, &r);
}

static int connect_server(const struct st_nb_endpoint *ep, int *out, struct st_error *err)
{
	struct sockaddr_in sa = server_sockaddr(ep->server_addr);
	_cleanup_close_ int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return st_error_set(err, errno, "client: socket");
	if (TEMP_FAILURE_RETRY(connect(fd, (struct sockaddr *)&sa, sizeof(sa))) < 0)
		return st_error_set(err, errno, "client: connecting to %s:%d", inet_ntoa(ep->server_addr),
				    NB_PORT);
	*out = take_fd(&fd);
	return 0;
}

/*
 * Writes @buf to every connection over and over until @until_ns, counting
 * each one's bytes in @conn (measured with @place, where this end's CPU is
 * noted; warm-up without), with MSG_DONTWAIT in turn, sleeping in poll only
 * when none could take more: iperf3's loop (select, then non-blocking
 * writes), also for one connection, for the reason given at serve_stream.
 */
static int send_until(struct pollfd *pfd, struct st_nb_conn_count *conn, unsigned int n,
		      struct st_nb_placement *place, const char *buf, size_t size, uint64_t until_ns,
		      struct st_error *err)
{
	const int flags = MSG_NOSIGNAL | MSG_DONTWAIT;
	uint64_t now;

	while ((now = st_now_ns()) < until_ns) {
		int progress = 0;

		for (unsigned int i = 0; i < n; i++) {
			ssize_t w = send(pfd[i].fd, buf, size, flags);

			if (w < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (w < 0)
				return st_error_set(err, errno, "client: writing stream %u", i);
			progress = 1;
			*(place ? &conn[i].bytes : &conn[i].warm_bytes) += (uint64_t)w;
		}
		if (progress && place)
			st_nb_placement_note(place, now, sched_getcpu());
		if (!progress) {
			int ms = (int)((until_ns - now) / 1000000u) + 1;

			if (poll(pfd, n, ms) < 0 && errno != EINTR)
				return st_error_set(err, errno, "client: poll");
		}
	}
	return 0;
}

static uint16_t local_port(int fd)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
		return 0;
	return ntohs(sa.sin_port);
}

/* Half-closes every connection, then waits for the server's close: then every byte arrived. */
static int finish_streams(struct pollfd *pfd, unsigned int n, struct st_nb_child_result *r,
			  struct st_error *err)
{
	for (unsigned int i = 0; i < n; i++)
		if (shutdown(pfd[i].fd, SHUT_WR) < 0)
			return st_error_set(err, errno, "client: shutdown of stream %u", i);
	for (unsigned int i = 0; i < n; i++) {
		struct tcp_info ti;
		socklen_t len = sizeof(ti);
		char c;

		if (TEMP_FAILURE_RETRY(recv(pfd[i].fd, &c, 1, 0)) < 0)
			return st_error_set(err, errno, "client: waiting for the server to finish stream %u", i);
		memset(&ti, 0, sizeof(ti));
		if (getsockopt(pfd[i].fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0) {
			r->retransmits += ti.tcpi_total_retrans;
			/* Older kernels fill less: the fields they did not fill stay 0. */
			if (len >= offsetof(struct tcp_info, tcpi_reord_seen) + sizeof(ti.tcpi_reord_seen)) {
				r->dsack_dups += ti.tcpi_dsack_dups;
				r->reord_seen += ti.tcpi_reord_seen;
			}
		}
	}
	return 0;
}

/* Tells the server, before the first measured byte, each connection's warm-up bytes. */
static int send_warm_end(int warm_fd, const struct st_nb_child_result *r, struct st_error *err)
{
	struct st_nb_warm_end end = { .n = r->nconn };

	for (unsigned int i = 0; i < r->nconn; i++) {
		end.port[i] = r->conn[i].port;
		end.bytes[i] = r->conn[i].warm_bytes;
	}
	if (st_write_all(warm_fd, &end, sizeof(end)) < 0)
		return st_error_set(err, errno, "client: sending the end of the warm-up");
	return 0;
}

static int client_stream(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
			 int warm_fd, struct st_nb_child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = io_buffer(cfg->size);
	struct pollfd pfd[ST_NB_MAX_STREAMS];
	int fds[ST_NB_MAX_STREAMS];
	unsigned int n = cfg->streams;
	struct ifreq ifr;
	int ret = 0;

	if (!buf)
		return st_error_set(err, ENOMEM, "client: a buffer of %llu bytes",
				    (unsigned long long)cfg->size);
	memset(buf, 0x5a, cfg->size);
	for (unsigned int i = 0; i < n; i++)
		fds[i] = -1;
	for (unsigned int i = 0; i < n && ret == 0; i++) {
		ret = connect_server(ep, &fds[i], err);
		pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLOUT };
		r->conn[i].port = ret == 0 ? local_port(fds[i]) : 0;
	}
	r->nconn = n;
	/* The interface's MTU, not IP_MTU: a route's MTU stops at 65535, lo's is 65536. */
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ep->client_if);
	if (ret == 0 && ioctl(fds[0], SIOCGIFMTU, &ifr) == 0)
		r->mtu = (unsigned int)ifr.ifr_mtu;
	if (ret == 0)
		ret = send_until(pfd, r->conn, n, NULL, buf, cfg->size,
				 st_now_ns() + st_nb_s_to_ns(st_nb_warmup_s(cfg->duration_s)), err);
	if (ret == 0)
		ret = send_warm_end(warm_fd, r, err);
	r->t_start_ns = st_now_ns();
	if (ret == 0)
		ret = send_until(pfd, r->conn, n, &r->place, buf, cfg->size,
				 r->t_start_ns + st_nb_s_to_ns(cfg->duration_s), err);
	if (ret == 0)
		ret = finish_streams(pfd, n, r, err);
	close_all(fds, n);
	return ret;
}

/* Datagrams of one size until @until_ns, each with its phase and number. */
static int udp_send_until(int fd, char *buf, size_t size, uint32_t phase, uint64_t until_ns,
			  struct st_nb_child_result *r, struct st_error *err)
{
	struct udp_head h = { .phase = phase };

	while (st_now_ns() < until_ns) {
		ssize_t n;

		h.seq++;
		memcpy(buf, &h, sizeof(h));
		n = send(fd, buf, size, 0);
		/* ENOBUFS/ECONNREFUSED: a datagram the kernel dropped on our side, which is loss. */
		if (n < 0 && (errno == EINTR || errno == ENOBUFS || errno == ECONNREFUSED))
			continue;
		if (n < 0)
			return st_error_set(err, errno, "client: sending a datagram");
		if (phase == UDP_MEASURED) {
			r->udp.sent_datagrams++;
			r->udp.sent_bytes += (uint64_t)n;
		}
	}
	return 0;
}

/* The UDP stream: datagrams that fit the client's MTU (no IP fragments), at most --size. */
static int client_udp(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
		      struct st_nb_child_result *r, struct st_error *err)
{
	struct sockaddr_in sa = server_sockaddr(ep->server_addr);
	size_t size = r->mtu > 28 ? r->mtu - 28 : 1472;
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = udp_socket(err);
	struct udp_head end = { .phase = UDP_END };
	const struct timespec gap = { 0, 1000000 }, settle = { 0, 10000000 };
	uint64_t t0;
	int ret;

	if (fd < 0)
		return fd;
	if (size > NB_UDP_MAX)
		size = NB_UDP_MAX;
	if (size > cfg->size)
		size = cfg->size;
	if (size < sizeof(struct udp_head))
		size = sizeof(struct udp_head);
	buf = calloc(1, size);
	if (!buf)
		return st_error_set(err, ENOMEM, "client: datagram buffer");
	r->udp.datagram = (unsigned int)size;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return st_error_set(err, errno, "client: connecting UDP to %s:%d", inet_ntoa(ep->server_addr),
				    NB_PORT);
	ret = udp_send_until(fd, buf, size, UDP_WARM,
			     st_now_ns() + st_nb_s_to_ns(st_nb_warmup_s(cfg->duration_s)), r, err);
	t0 = st_now_ns();
	if (ret == 0)
		ret = udp_send_until(fd, buf, size, UDP_MEASURED, t0 + st_nb_s_to_ns(cfg->duration_s), r, err);
	r->udp.send_ns = st_now_ns() - t0;
	/* A pause first: datagrams still queued on another CPU's backlog arrive before the end. */
	nanosleep(&settle, NULL);
	for (int i = 0; ret == 0 && i < NB_UDP_ENDS; i++) {
		send(fd, &end, sizeof(end), 0);
		nanosleep(&gap, NULL);
	}
	return ret;
}

/* One transaction: a byte there, a byte back. */
static int transact(int fd, int spin, struct st_error *err)
{
	char c = 'q';
	ssize_t n;

	if (st_write_all(fd, &c, 1) < 0)
		return st_error_set(err, errno, "client: writing a request");
	n = read_byte(fd, &c, spin);
	if (n <= 0)
		return st_error_set(err, n == 0 ? EPIPE : errno, "client: reading a response");
	return 0;
}

static int client_rr(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
		     struct st_nb_child_result *r, struct st_error *err)
{
	_cleanup_close_ int fd = -1;
	double warm = cfg->duration_s / 4 < ST_NB_RR_WARMUP_MAX_S ? cfg->duration_s / 4 : ST_NB_RR_WARMUP_MAX_S;
	uint64_t until, t0, now;
	int ret = connect_server(ep, &fd, err);

	if (ret < 0)
		return ret;
	r->so_busy_poll = rr_socket_setup(fd, cfg->busy_poll);
	until = st_now_ns() + st_nb_s_to_ns(warm);
	while (ret == 0 && st_now_ns() < until)
		ret = transact(fd, cfg->busy_poll, err);
	t0 = st_now_ns();
	until = t0 + st_nb_s_to_ns(cfg->duration_s);
	now = t0;
	/* Each transaction's end is the next one's start: one clock read per transaction. */
	while (ret == 0 && now < until) {
		uint64_t start = now;

		ret = transact(fd, cfg->busy_poll, err);
		now = st_now_ns();
		st_hist_record(&r->hist, now - start);
	}
	r->rr_ns = now - t0;
	return ret;
}

_noreturn_ void st_nb_client_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				   int warm_fd, int result_fd)
{
	static struct st_nb_child_result r; /* the histogram is big for a stack */

	memset(&r, 0, sizeof(r));
	st_hist_init(&r.hist);
	r.ret = enter_ns(ep->client_ns_fd, cfg->client_cpu, &r.err);
	if (r.ret == 0)
		r.ret = client_stream(cfg, ep, warm_fd, &r, &r.err);
	note_cpu(&r);
	if (r.ret == 0 && cfg->udp)
		r.ret = client_udp(cfg, ep, &r, &r.err);
	if (r.ret == 0 && cfg->rr)
		r.ret = client_rr(cfg, ep, &r, &r.err);
	note_cpu(&r);
	child_exit(result_fd, &r);
}
