// SPDX-License-Identifier: MIT
/*
 * One measured run on one path: a TCP server and a TCP client, each in its own
 * process in its own network namespace. The children only measure; the
 * parent owns them, bounds every wait and does the arithmetic.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/tcp.h>
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
};

int st_nb_parse_paths(const char *text, unsigned int *mask, struct st_error *err)
{
	char buf[128];
	char *save = NULL, *tok;

	if (strlen(text) >= sizeof(buf))
		return st_error_usage(err, "--paths: list too long");
	snprintf(buf, sizeof(buf), "%s", text);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int found = 0;

		if (strcmp(tok, "all") == 0) {
			*mask |= ST_NB_ALL_PATHS;
			continue;
		}
		for (int p = 0; p < ST_NB_PATH_COUNT; p++) {
			if (strcmp(tok, st_nb_path_names[p]) == 0) {
				*mask |= 1u << p;
				found = 1;
			}
		}
		if (!found)
			return st_error_usage(err, "--paths: unknown path '%s' (known: host,veth,bridge)", tok);
	}
	if (!*mask)
		return st_error_usage(err, "--paths: empty list (known: host,veth,bridge)");
	return 0;
}

int st_nb_parse_duration(const char *text, double *out, struct st_error *err)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || errno || !end || *end || !isfinite(v) || text[0] == '-' || text[0] == '+')
		return st_error_usage(err, "--duration: '%s' is not a number of seconds", text);
	if (v <= ST_NB_MIN_DURATION_S || v > ST_NB_MAX_DURATION_S)
		return st_error_usage(err, "--duration: %s is out of range (more than 0, at most 3600 seconds)",
				      text);
	*out = v;
	return 0;
}

double st_nb_warmup_s(double duration_s)
{
	return duration_s / 2 < 1.0 ? duration_s / 2 : 1.0;
}

static uint64_t s_to_ns(double s)
{
	return (uint64_t)(s * 1e9);
}

/* What a child sends back through its result pipe, once, before _exit. */
struct child_result {
	int ret; /* 0 or -errno, with err */
	struct st_error err;
	uint64_t warm_bytes;  /* client: unmeasured bytes sent first */
	uint64_t bytes;       /* client: measured bytes sent; server: every byte received */
	uint64_t t_start_ns;  /* client: start of the measured stream */
	uint64_t t_eof_ns;    /* server: EOF of the stream */
	unsigned int retransmits;
	unsigned int mtu;
	uint64_t rr_ns;
	struct st_hist hist;
};

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

static _noreturn_ void child_exit(int fd, struct child_result *r)
{
	_exit(write_all(fd, r, sizeof(*r)) < 0 || r->ret < 0 ? 1 : 0);
}

static int enter_ns(int ns_fd, struct st_error *err)
{
	if (setns(ns_fd, CLONE_NEWNET) < 0)
		return st_error_set(err, errno, "entering the path's network namespace");
	return 0;
}

static struct sockaddr_in server_sockaddr(struct in_addr a)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(NB_PORT), .sin_addr = a };

	return sa;
}

static int accept_one(int lfd, struct st_error *err)
{
	int fd = (int)TEMP_FAILURE_RETRY(accept4(lfd, NULL, NULL, SOCK_CLOEXEC));

	if (fd < 0)
		return st_error_set(err, errno, "server: accept");
	return fd;
}

static int serve_stream(int lfd, struct child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = malloc(NB_RECV_BUF);
	_cleanup_close_ int fd = accept_one(lfd, err);

	if (fd < 0)
		return fd;
	if (!buf)
		return st_error_set(err, ENOMEM, "server: buffer");
	for (;;) {
		ssize_t n = read(fd, buf, NB_RECV_BUF);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return st_error_set(err, errno, "server: reading the stream");
		if (n == 0)
			break;
		r->bytes += (uint64_t)n;
	}
	r->t_eof_ns = st_now_ns();
	return 0;
}

static void set_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static int serve_rr(int lfd, struct st_error *err)
{
	_cleanup_close_ int fd = accept_one(lfd, err);
	char c;

	if (fd < 0)
		return fd;
	set_nodelay(fd);
	for (;;) {
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return st_error_set(err, errno, "server: reading a request");
		if (n == 0)
			return 0;
		if (write_all(fd, &c, 1) < 0)
			return st_error_set(err, errno, "server: writing a response");
	}
}

static _noreturn_ void server_main(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
				   int ready_fd, int result_fd)
{
	struct child_result r = { 0 };
	struct sockaddr_in sa = server_sockaddr(ep->server_addr);
	_cleanup_close_ int lfd = -1;
	int one = 1;

	r.ret = enter_ns(ep->server_ns_fd, &r.err);
	if (r.ret < 0)
		child_exit(result_fd, &r);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		r.ret = st_error_set(&r.err, errno, "server: socket");
	else if (setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
		 bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 2) < 0)
		r.ret = st_error_set(&r.err, errno, "server: listening on %s:%d", inet_ntoa(ep->server_addr),
				     NB_PORT);
	if (r.ret < 0)
		child_exit(result_fd, &r);
	/* Listening: the parent starts the client only now. */
	if (write_all(ready_fd, "r", 1) < 0)
		_exit(1);
	close(ready_fd);
	r.ret = serve_stream(lfd, &r, &r.err);
	if (r.ret == 0 && cfg->rr)
		r.ret = serve_rr(lfd, &r.err);
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

/* Writes @buf over and over until @until_ns; returns the bytes written. */
static int send_until(int fd, const char *buf, size_t size, uint64_t until_ns, uint64_t *bytes,
		      struct st_error *err)
{
	*bytes = 0;
	while (st_now_ns() < until_ns) {
		ssize_t n = write(fd, buf, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return st_error_set(err, errno, "client: writing the stream");
		*bytes += (uint64_t)n;
	}
	return 0;
}

static int client_stream(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
			 struct child_result *r, struct st_error *err)
{
	_cleanup_free_ char *buf = malloc(cfg->size);
	_cleanup_close_ int fd = -1;
	struct tcp_info ti;
	struct ifreq ifr;
	socklen_t len;
	int ret;
	char c;

	if (!buf)
		return st_error_set(err, ENOMEM, "client: a buffer of %llu bytes",
				    (unsigned long long)cfg->size);
	memset(buf, 0x5a, cfg->size);
	ret = connect_server(ep, &fd, err);
	if (ret < 0)
		return ret;
	/* The interface's MTU, not IP_MTU: a route's MTU stops at 65535, lo's is 65536. */
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ep->client_if);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == 0)
		r->mtu = (unsigned int)ifr.ifr_mtu;
	ret = send_until(fd, buf, cfg->size, st_now_ns() + s_to_ns(st_nb_warmup_s(cfg->duration_s)),
			 &r->warm_bytes, err);
	r->t_start_ns = st_now_ns();
	if (ret == 0)
		ret = send_until(fd, buf, cfg->size, r->t_start_ns + s_to_ns(cfg->duration_s), &r->bytes,
				 err);
	if (ret < 0)
		return ret;
	/* The server closes once it has read everything: then every byte arrived. */
	if (shutdown(fd, SHUT_WR) < 0)
		return st_error_set(err, errno, "client: shutdown");
	if (TEMP_FAILURE_RETRY(read(fd, &c, 1)) < 0)
		return st_error_set(err, errno, "client: waiting for the server to finish");
	len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0)
		r->retransmits = ti.tcpi_total_retrans;
	return 0;
}

/* One transaction: a byte there, a byte back. */
static int transact(int fd, struct st_error *err)
{
	char c = 'q';
	ssize_t n;

	if (write_all(fd, &c, 1) < 0)
		return st_error_set(err, errno, "client: writing a request");
	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
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
	set_nodelay(fd);
	until = st_now_ns() + s_to_ns(warm);
	while (ret == 0 && st_now_ns() < until)
		ret = transact(fd, err);
	t0 = st_now_ns();
	until = t0 + s_to_ns(cfg->duration_s);
	now = t0;
	/* Each transaction's end is the next one's start: one clock read per transaction. */
	while (ret == 0 && now < until) {
		uint64_t start = now;

		ret = transact(fd, err);
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
	r.ret = enter_ns(ep->client_ns_fd, &r.err);
	if (r.ret == 0)
		r.ret = client_stream(cfg, ep, &r, &r.err);
	if (r.ret == 0 && cfg->rr)
		r.ret = client_rr(cfg, ep, &r, &r.err);
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

	run->bytes_sent = cr->bytes;
	run->bytes_received = sr->bytes >= cr->warm_bytes ? sr->bytes - cr->warm_bytes : 0;
	run->stream_ns = sr->t_eof_ns > cr->t_start_ns ? sr->t_eof_ns - cr->t_start_ns : 1;
	run->gbps = (double)run->bytes_received * 8.0 / (double)run->stream_ns;
	run->retransmits = cr->retransmits;
	run->mtu = cr->mtu;
	run->rr_ns = cr->rr_ns;
	run->hist = cr->hist;
	run->ru_server = ru[0];
	run->ru_client = ru[1];
	if (sr->bytes != cr->warm_bytes + cr->bytes)
		return st_error_set(err, EPROTO, "netbench: the server received %llu bytes, the client sent %llu",
				    (unsigned long long)sr->bytes,
				    (unsigned long long)(cr->warm_bytes + cr->bytes));
	return 0;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void st_nb_path_add_run(struct st_nb_path_result *p, const struct st_nb_run *run)
{
	if (!p->measured)
		st_hist_init(&p->hist);
	p->measured = 1;
	st_samples_add(&p->gbps, run->gbps);
	p->bytes_sent += run->bytes_sent;
	p->bytes_received += run->bytes_received;
	p->retransmits += run->retransmits;
	p->mtu = run->mtu;
	st_hist_merge(&p->hist, &run->hist);
	p->rr_ns += run->rr_ns;
	p->server_cpu_s += tv_s(run->ru_server.ru_utime) + tv_s(run->ru_server.ru_stime);
	p->client_cpu_s += tv_s(run->ru_client.ru_utime) + tv_s(run->ru_client.ru_stime);
	/* CPU time covers warm-up and rr too: per GB is an upper bound for the stream. */
	p->stream_gb += (double)run->bytes_received / 1e9;
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
}
