// SPDX-License-Identifier: MIT
/*
 * One measured run on one path: a TCP server and a TCP client, each in its own
 * process in its own network namespace. The children only measure; the
 * parent owns them, bounds every wait and does the arithmetic.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <math.h>
/* linux/tcp.h, not netinet/tcp.h: glibc's tcp_info stops before tcpi_dsack_dups. */
#include <linux/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"

#define NB_PORT 5201
#define NB_RECV_BUF (256u << 10)
#define NB_RR_WARMUP_MAX_S 0.2
/* Slack on top of the expected run time before the watchdog kills a child. */
#define NB_WATCHDOG_SLACK_NS (10ull * 1000000000ull)
#define NB_POLL_MS 10

const char *const st_nb_path_names[ST_NB_PATH_COUNT] = {
	[ST_NB_HOST] = "host",
	[ST_NB_VETH] = "veth",
	[ST_NB_BRIDGE] = "bridge",
	[ST_NB_HOST_TO_SANDBOX] = "host-to-sandbox",
	[ST_NB_MACVLAN] = "macvlan",
};

double st_nb_warmup_s(double duration_s)
{
	return duration_s / 2 < 1.0 ? duration_s / 2 : 1.0;
}

static uint64_t s_to_ns(double s)
{
	return (uint64_t)(s * 1e9);
}

/* One connection of the stream as one end saw it; the two ends match by the client's port. */
struct conn_count {
	uint16_t port;        /* the client's port */
	uint64_t warm_bytes;  /* client: unmeasured bytes sent first */
	uint64_t bytes;       /* client: measured bytes sent; server: every byte received */
	uint64_t t_eof_ns;    /* server: EOF of this connection */
};

/* What a child sends back through its result pipe, once, before _exit. */
struct child_result {
	int ret; /* 0 or -errno, with err */
	struct st_error err;
	unsigned int nconn;
	struct conn_count conn[ST_NB_MAX_STREAMS];
	uint64_t t_start_ns;  /* client: start of the measured stream */
	unsigned int retransmits;
	unsigned int dsack_dups; /* client: retransmits the receiver reported it had already */
	unsigned int reord_seen; /* client: reordering events the sender detected */
	unsigned int mtu;
	struct st_nb_udp udp; /* client: the sent side; server: the received side */
	uint64_t rr_ns;
	int so_busy_poll;
	uint64_t cpus;        /* CPUs this child was seen on (sched_getcpu after each phase) */
	struct st_hist hist;
};

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

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static ssize_t read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static void note_cpu(struct child_result *r)
{
	int cpu = sched_getcpu();

	if (cpu >= 0 && cpu < 64)
		r->cpus |= 1ull << cpu;
}

static _noreturn_ void child_exit(int fd, struct child_result *r)
{
	_exit(write_all(fd, r, sizeof(*r)) < 0 || r->ret < 0 ? 1 : 0);
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

int st_nb_pick_cpus(int *server_cpu, int *client_cpu)
{
	cpu_set_t set;
	int found = 0;

	*server_cpu = *client_cpu = -1;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		*(found++ ? client_cpu : server_cpu) = c;
	}
	return found == 2 ? 0 : -1;
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
 * Reads every connection to its EOF in this one process (one core at most).
 * One connection reads blocking, like any single-stream tool; several read
 * with MSG_DONTWAIT in turn, and poll only when none had data.
 */
static int serve_stream(int lfd, unsigned int n, struct child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = malloc(NB_RECV_BUF);
	struct pollfd pfd[ST_NB_MAX_STREAMS];
	int fds[ST_NB_MAX_STREAMS];
	int flags = n > 1 ? MSG_DONTWAIT : 0, ret = 0;
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

		for (unsigned int i = 0; i < n; i++) {
			ssize_t got;

			if (fds[i] < 0)
				continue;
			got = recv(fds[i], buf, NB_RECV_BUF, flags);
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
		}
		if (ret == 0 && !progress && open_n && poll(pfd, n, -1) < 0 && errno != EINTR)
			ret = st_error_set(err, errno, "server: poll");
	}
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

static int serve_rr(int lfd, int busy_poll, struct child_result *r, struct st_error *err)
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
		if (write_all(fd, &c, 1) < 0)
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
static int serve_udp(int ufd, struct child_result *r, struct st_error *err)
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

static _noreturn_ void server_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				   int ready_fd, int result_fd)
{
	struct child_result r = { 0 };
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
	if (write_all(ready_fd, "r", 1) < 0)
		_exit(1);
	close(ready_fd);
	r.ret = serve_stream(lfd, cfg->streams, &r, &r.err);
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
 * each one's bytes in @conn (as warm-up or measured). One connection writes
 * blocking; several write with MSG_DONTWAIT in turn and poll only when none
 * could take more.
 */
static int send_until(struct pollfd *pfd, struct conn_count *conn, unsigned int n, int warm,
		      const char *buf, size_t size, uint64_t until_ns, struct st_error *err)
{
	int flags = MSG_NOSIGNAL | (n > 1 ? MSG_DONTWAIT : 0);
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
			*(warm ? &conn[i].warm_bytes : &conn[i].bytes) += (uint64_t)w;
		}
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
static int finish_streams(struct pollfd *pfd, unsigned int n, struct child_result *r,
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

static int client_stream(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
			 struct child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = malloc(cfg->size);
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
		ret = send_until(pfd, r->conn, n, 1, buf, cfg->size,
				 st_now_ns() + s_to_ns(st_nb_warmup_s(cfg->duration_s)), err);
	r->t_start_ns = st_now_ns();
	if (ret == 0)
		ret = send_until(pfd, r->conn, n, 0, buf, cfg->size,
				 r->t_start_ns + s_to_ns(cfg->duration_s), err);
	if (ret == 0)
		ret = finish_streams(pfd, n, r, err);
	close_all(fds, n);
	return ret;
}

/* Datagrams of one size until @until_ns, each with its phase and number. */
static int udp_send_until(int fd, char *buf, size_t size, uint32_t phase, uint64_t until_ns,
			  struct child_result *r, struct st_error *err)
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
		      struct child_result *r, struct st_error *err)
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
			     st_now_ns() + s_to_ns(st_nb_warmup_s(cfg->duration_s)), r, err);
	t0 = st_now_ns();
	if (ret == 0)
		ret = udp_send_until(fd, buf, size, UDP_MEASURED, t0 + s_to_ns(cfg->duration_s), r, err);
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

	if (write_all(fd, &c, 1) < 0)
		return st_error_set(err, errno, "client: writing a request");
	n = read_byte(fd, &c, spin);
	if (n <= 0)
		return st_error_set(err, n == 0 ? EPIPE : errno, "client: reading a response");
	return 0;
}

static int client_rr(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
		     struct child_result *r, struct st_error *err)
{
	_cleanup_close_ int fd = -1;
	double warm = cfg->duration_s / 4 < NB_RR_WARMUP_MAX_S ? cfg->duration_s / 4 : NB_RR_WARMUP_MAX_S;
	uint64_t until, t0, now;
	int ret = connect_server(ep, &fd, err);

	if (ret < 0)
		return ret;
	r->so_busy_poll = rr_socket_setup(fd, cfg->busy_poll);
	until = st_now_ns() + s_to_ns(warm);
	while (ret == 0 && st_now_ns() < until)
		ret = transact(fd, cfg->busy_poll, err);
	t0 = st_now_ns();
	until = t0 + s_to_ns(cfg->duration_s);
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

static _noreturn_ void client_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				   int result_fd)
{
	static struct child_result r; /* the histogram is big for a stack */

	memset(&r, 0, sizeof(r));
	st_hist_init(&r.hist);
	r.ret = enter_ns(ep->client_ns_fd, cfg->client_cpu, &r.err);
	if (r.ret == 0)
		r.ret = client_stream(cfg, ep, &r, &r.err);
	note_cpu(&r);
	if (r.ret == 0 && cfg->udp)
		r.ret = client_udp(cfg, ep, &r, &r.err);
	if (r.ret == 0 && cfg->rr)
		r.ret = client_rr(cfg, ep, &r, &r.err);
	note_cpu(&r);
	child_exit(result_fd, &r);
}

/*
 * Waits until @fd is readable or every pid in @pids has exited, whichever
 * comes first, polling the forwarded signals every NB_POLL_MS: 0 when done,
 * -ETIMEDOUT at @deadline_ns, -EINTR with *@signo on a signal. Exited
 * children are reaped into @status/@ru and their pid set to -1.
 */
static int watch(int fd, pid_t *pids, int *status, struct rusage *ru, size_t n,
		 uint64_t deadline_ns, int *signo)
{
	const struct timespec tick = { 0, NB_POLL_MS * 1000000L };

	for (;;) {
		size_t alive = 0;
		int sig;

		if (fd >= 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (poll(&pfd, 1, 0) > 0)
				return 0;
		}
		for (size_t i = 0; i < n; i++) {
			if (pids[i] <= 0)
				continue;
			if (wait4(pids[i], &status[i], WNOHANG | __WALL, &ru[i]) == pids[i])
				pids[i] = -1;
			else
				alive++;
		}
		if (fd < 0 && alive == 0)
			return 0;
		if (st_now_ns() >= deadline_ns)
			return -ETIMEDOUT;
		sig = sigtimedwait(st_signals_forwarded(), NULL, &tick);
		if (sig > 0) {
			*signo = sig;
			return -EINTR;
		}
	}
}

static int read_result(int fd, struct child_result *r, const char *who, int status,
		       struct st_error *err)
{
	ssize_t n = read_all(fd, r, sizeof(*r));

	if (n == (ssize_t)sizeof(*r) && r->ret < 0) {
		*err = r->err;
		return st_error_wrap(err, "%s", who);
	}
	if (n != (ssize_t)sizeof(*r) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			return st_error_set(err, EPROTO, "%s: killed by signal %d", who, WTERMSIG(status));
		return st_error_set(err, EPROTO, "%s: ended without a result (status %d)", who,
				    WEXITSTATUS(status));
	}
	return 0;
}

static int make_pipe(int fds[2], struct st_error *err)
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "netbench: pipe");
	return 0;
}

static int stop_reason(int ret, int what_started, struct st_error *err)
{
	if (ret == -ETIMEDOUT)
		return st_error_set(err, ETIMEDOUT, "netbench: the %s did not finish in time (killed)",
				    what_started ? "run" : "server");
	return st_error_set(err, EINTR, "netbench: interrupted");
}

/* The server's count of the client's connection @c, matched by the client's port. */
static const struct conn_count *server_side(const struct child_result *sr, const struct conn_count *c)
{
	for (unsigned int i = 0; i < sr->nconn; i++)
		if (sr->conn[i].port == c->port)
			return &sr->conn[i];
	return NULL;
}

/* Both ends' counts into @run; every connection's bytes must agree. */
static int fill_run(const struct child_result *sr, const struct child_result *cr,
		    struct st_nb_run *run, const struct rusage ru[2], struct st_error *err)
{
	uint64_t last_eof = cr->t_start_ns;

	if (sr->nconn != cr->nconn)
		return st_error_set(err, EPROTO, "netbench: the server counted %u connections, the client %u",
				    sr->nconn, cr->nconn);
	run->nstreams = cr->nconn;
	for (unsigned int i = 0; i < cr->nconn; i++) {
		const struct conn_count *c = &cr->conn[i];
		const struct conn_count *s = server_side(sr, c);
		struct st_nb_stream *st = &run->streams[i];

		if (!s)
			return st_error_set(err, EPROTO, "netbench: stream %u (port %u) unknown to the server", i,
					    c->port);
		if (s->bytes != c->warm_bytes + c->bytes)
			return st_error_set(err, EPROTO,
					    "netbench: stream %u: the server received %llu bytes, the client sent %llu",
					    i, (unsigned long long)s->bytes,
					    (unsigned long long)(c->warm_bytes + c->bytes));
		st->bytes_sent = c->bytes;
		st->bytes_received = s->bytes - c->warm_bytes;
		st->ns = s->t_eof_ns > cr->t_start_ns ? s->t_eof_ns - cr->t_start_ns : 1;
		run->bytes_sent += st->bytes_sent;
		run->bytes_received += st->bytes_received;
		if (s->t_eof_ns > last_eof)
			last_eof = s->t_eof_ns;
	}
	run->stream_ns = last_eof > cr->t_start_ns ? last_eof - cr->t_start_ns : 1;
	run->gbps = (double)run->bytes_received * 8.0 / (double)run->stream_ns;
	run->retransmits = cr->retransmits;
	run->dsack_dups = cr->dsack_dups;
	run->reord_seen = cr->reord_seen;
	run->mtu = cr->mtu;
	run->udp = cr->udp;
	run->udp.received_datagrams = sr->udp.received_datagrams;
	run->udp.received_bytes = sr->udp.received_bytes;
	run->rr_ns = cr->rr_ns;
	run->hist = cr->hist;
	run->so_busy_poll = cr->so_busy_poll && sr->so_busy_poll;
	run->server_cpus = sr->cpus;
	run->client_cpus = cr->cpus;
	run->ru_server = ru[0];
	run->ru_client = ru[1];
	return 0;
}

int st_nb_run_once(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
		   struct st_nb_run *run, int *signo, struct st_error *err)
{
	_cleanup_close_ int ready_rd = -1, ready_wr = -1, srv_rd = -1, srv_wr = -1, cli_rd = -1,
			    cli_wr = -1;
	_cleanup_pid_ pid_t server = -1;
	_cleanup_pid_ pid_t client = -1;
	_cleanup_free_ struct child_result *sr = calloc(1, sizeof(*sr));
	_cleanup_free_ struct child_result *cr = calloc(1, sizeof(*cr));
	double expected_s = st_nb_warmup_s(cfg->duration_s) + cfg->duration_s;
	pid_t pids[2];
	int status[2] = { 0, 0 };
	struct rusage ru[2];
	int fds[2], ret;

	memset(run, 0, sizeof(*run));
	memset(ru, 0, sizeof(ru));
	if (!sr || !cr)
		return st_error_set(err, ENOMEM, "netbench: results");
	if (cfg->rr)
		expected_s += cfg->duration_s + NB_RR_WARMUP_MAX_S;
	if (cfg->udp)
		expected_s += st_nb_warmup_s(cfg->duration_s) + cfg->duration_s + 1.0;
	if (make_pipe(fds, err) < 0)
		return -err->errnum;
	ready_rd = fds[0], ready_wr = fds[1];
	if (make_pipe(fds, err) < 0)
		return -err->errnum;
	srv_rd = fds[0], srv_wr = fds[1];
	if (make_pipe(fds, err) < 0)
		return -err->errnum;
	cli_rd = fds[0], cli_wr = fds[1];

	server = st_fork_child(err);
	if (server < 0)
		return server;
	if (server == 0)
		server_main(cfg, ep, ready_wr, srv_wr);
	closep(&ready_wr);
	/* "r" once listening; EOF if the server failed first (its result says why). */
	pids[0] = server, pids[1] = -1;
	ret = watch(ready_rd, pids, status, ru, 1, st_now_ns() + NB_WATCHDOG_SLACK_NS, signo);
	if (ret < 0)
		return stop_reason(ret, 0, err);
	if (pids[0] < 0 || read_all(ready_rd, fds, 1) != 1) {
		closep(&srv_wr);
		if (pids[0] > 0 && st_reap_usage(server, &status[0], NULL, err) < 0)
			return -err->errnum;
		take_pid(&server);
		ret = read_result(srv_rd, sr, "server", status[0], err);
		return ret < 0 ? ret : st_error_set(err, EPROTO, "server: ended before listening");
	}

	client = st_fork_child(err);
	if (client < 0)
		return client;
	if (client == 0)
		client_main(cfg, ep, cli_wr);
	closep(&srv_wr);
	closep(&cli_wr);
	pids[0] = server, pids[1] = client;
	ret = watch(-1, pids, status, ru, 2,
		    st_now_ns() + s_to_ns(expected_s) + NB_WATCHDOG_SLACK_NS, signo);
	/* Reaped children are no longer ours to kill. */
	if (pids[0] < 0)
		take_pid(&server);
	if (pids[1] < 0)
		take_pid(&client);
	if (ret < 0)
		return stop_reason(ret, 1, err);
	ret = read_result(cli_rd, cr, "client", status[1], err);
	if (ret == 0)
		ret = read_result(srv_rd, sr, "server", status[0], err);
	if (ret < 0)
		return ret;

	return fill_run(sr, cr, run, ru, err);
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void st_nb_path_add_run(struct st_nb_path_result *p, const struct st_nb_run *run)
{
	int first = !p->measured;

	if (first)
		st_hist_init(&p->hist);
	p->measured = 1;
	st_samples_add(&p->gbps, run->gbps);
	p->bytes_sent += run->bytes_sent;
	p->bytes_received += run->bytes_received;
	p->retransmits += run->retransmits;
	p->dsack_dups += run->dsack_dups;
	p->reord_seen += run->reord_seen;
	p->mtu = run->mtu;
	st_hist_merge(&p->hist, &run->hist);
	p->rr_ns += run->rr_ns;
	p->server_cpu_s += tv_s(run->ru_server.ru_utime) + tv_s(run->ru_server.ru_stime);
	p->client_cpu_s += tv_s(run->ru_client.ru_utime) + tv_s(run->ru_client.ru_stime);
	/* CPU time covers warm-up and rr too: per GB is an upper bound for the stream. */
	p->stream_gb += (double)run->bytes_received / 1e9;
	p->nstreams = run->nstreams;
	for (unsigned int i = 0; i < run->nstreams; i++) {
		p->streams[i].bytes_sent += run->streams[i].bytes_sent;
		p->streams[i].bytes_received += run->streams[i].bytes_received;
		p->streams[i].ns += run->streams[i].ns;
	}
	p->udp.datagram = run->udp.datagram;
	p->udp.sent_datagrams += run->udp.sent_datagrams;
	p->udp.sent_bytes += run->udp.sent_bytes;
	p->udp.received_datagrams += run->udp.received_datagrams;
	p->udp.received_bytes += run->udp.received_bytes;
	p->udp.send_ns += run->udp.send_ns;
	p->so_busy_poll = (first || p->so_busy_poll) && run->so_busy_poll;
	p->server_cpus |= run->server_cpus;
	p->client_cpus |= run->client_cpus;
}

double st_nb_stream_gbps(const struct st_nb_stream *s)
{
	return s->ns ? (double)s->bytes_received * 8.0 / (double)s->ns : NAN;
}

double st_nb_udp_sent_gbps(const struct st_nb_udp *u)
{
	return u->send_ns ? (double)u->sent_bytes * 8.0 / (double)u->send_ns : NAN;
}

double st_nb_udp_received_gbps(const struct st_nb_udp *u)
{
	return u->send_ns ? (double)u->received_bytes * 8.0 / (double)u->send_ns : NAN;
}

double st_nb_udp_loss(const struct st_nb_udp *u)
{
	if (!u->sent_datagrams)
		return NAN;
	/* Late warm-up datagrams are not counted: more received than sent cannot happen. */
	return 1.0 - (double)u->received_datagrams / (double)u->sent_datagrams;
}

double st_nb_median_gbps(const struct st_nb_path_result *p)
{
	struct st_stats s;

	if (!p->measured || p->gbps.n == 0 || st_stats_compute(p->gbps.v, p->gbps.n, &s) < 0)
		return NAN;
	return s.median;
}

double st_nb_p50_us(const struct st_nb_path_result *p)
{
	if (!p->measured || p->hist.n == 0)
		return NAN;
	return st_hist_quantile_ns(&p->hist, 0.5) / 1000.0;
}

static double ratio(double a, double b)
{
	return isnan(a) || isnan(b) || b <= 0 ? NAN : a / b;
}

void st_nb_ratios_compute(const struct st_nb_path_result paths[ST_NB_PATH_COUNT],
			  struct st_nb_ratios *r)
{
	double host = st_nb_median_gbps(&paths[ST_NB_HOST]);
	double host_lat = st_nb_p50_us(&paths[ST_NB_HOST]);

	r->throughput_host_over_veth = ratio(host, st_nb_median_gbps(&paths[ST_NB_VETH]));
	r->throughput_host_over_bridge = ratio(host, st_nb_median_gbps(&paths[ST_NB_BRIDGE]));
	r->latency_veth_over_host = ratio(st_nb_p50_us(&paths[ST_NB_VETH]), host_lat);
	r->latency_bridge_over_host = ratio(st_nb_p50_us(&paths[ST_NB_BRIDGE]), host_lat);
	r->throughput_host_over_host_to_sandbox =
		ratio(host, st_nb_median_gbps(&paths[ST_NB_HOST_TO_SANDBOX]));
	r->latency_host_to_sandbox_over_host =
		ratio(st_nb_p50_us(&paths[ST_NB_HOST_TO_SANDBOX]), host_lat);
	r->throughput_host_over_macvlan = ratio(host, st_nb_median_gbps(&paths[ST_NB_MACVLAN]));
	r->latency_macvlan_over_host = ratio(st_nb_p50_us(&paths[ST_NB_MACVLAN]), host_lat);
}
