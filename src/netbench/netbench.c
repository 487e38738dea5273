// SPDX-License-Identifier: MIT
/*
 * One measured run on one path: a TCP server and a TCP client, each in its own
 * process in its own network namespace (netbench_engine.c). The parent owns
 * them, bounds every wait and puts both ends' counts together.
 */
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/netbench_engine.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"

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

/*
 * Waits until @fd is readable or every pid in @pids has exited, whichever
 * comes first: 0 when done, -ETIMEDOUT at @deadline_ns, -EINTR with *@signo
 * on a forwarded signal. Exited children are reaped into @status/@ru and their
 * pid set to -1. While the children measure (@fd < 0), this process sleeps
 * until SIGCHLD (blocked by the caller), a signal or the deadline: a parent
 * that woke every few milliseconds would be a third task on the CPUs the two
 * ends share, and it changed where the scheduler put them.
 */
static int watch(int fd, pid_t *pids, int *status, struct rusage *ru, size_t n,
		 uint64_t deadline_ns, int *signo)
{
	sigset_t set = *st_signals_forwarded();

	sigaddset(&set, SIGCHLD);
	for (;;) {
		size_t alive = 0;
		uint64_t now, left;
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
		now = st_now_ns();
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		/* The ready pipe wakes nobody: until it speaks, look every NB_POLL_MS. */
		left = fd >= 0 ? NB_POLL_MS * 1000000ull : deadline_ns - now;
		sig = sigtimedwait(&set, NULL,
				   &(struct timespec){ (time_t)(left / 1000000000u), (long)(left % 1000000000u) });
		if (sig > 0 && sig != SIGCHLD) {
			*signo = sig;
			return -EINTR;
		}
	}
}

static int read_result(int fd, struct st_nb_child_result *r, const char *who, int status,
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

static void close_pair(int fd[2])
{
	closep(&fd[0]);
	closep(&fd[1]);
}

/* The server's "listening" pipe, the warm-up's end (client to server), each child's result pipe. */
struct run_pipes {
	int ready[2], warm[2], srv[2], cli[2];
};

static void run_pipes_close(struct run_pipes *p)
{
	close_pair(p->ready);
	close_pair(p->warm);
	close_pair(p->srv);
	close_pair(p->cli);
}

static int make_pipes(struct run_pipes *p, struct st_error *err)
{
	int *all[] = { p->ready, p->srv, p->cli };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (pipe2(all[i], O_CLOEXEC) < 0)
			return st_error_set(err, errno, "netbench: pipe");
	/* The server looks into it between reads of the stream: it must never wait there. */
	if (pipe2(p->warm, O_CLOEXEC | O_NONBLOCK) < 0)
		return st_error_set(err, errno, "netbench: pipe");
	return 0;
}

/* How long a run should take; the watchdog adds NB_WATCHDOG_SLACK_NS. */
static double expected_s(const struct st_nb_config *cfg)
{
	double s = st_nb_warmup_s(cfg->duration_s) + cfg->duration_s;

	if (cfg->rr)
		s += cfg->duration_s + ST_NB_RR_WARMUP_MAX_S;
	if (cfg->udp)
		s += st_nb_warmup_s(cfg->duration_s) + cfg->duration_s + 1.0;
	return s;
}

/* Undoes the caller's SIGCHLD block (see watch). */
static void restore_mask(sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static int stop_reason(int ret, int what_started, struct st_error *err)
{
	if (ret == -ETIMEDOUT)
		return st_error_set(err, ETIMEDOUT, "netbench: the %s did not finish in time (killed)",
				    what_started ? "run" : "server");
	return st_error_set(err, EINTR, "netbench: interrupted");
}

/* The server's count of the client's connection @c, matched by the client's port. */
static const struct st_nb_conn_count *server_side(const struct st_nb_child_result *sr, const struct st_nb_conn_count *c)
{
	for (unsigned int i = 0; i < sr->nconn; i++)
		if (sr->conn[i].port == c->port)
			return &sr->conn[i];
	return NULL;
}

int st_nb_run_fill(const struct st_nb_child_result *sr, const struct st_nb_child_result *cr,
		   struct st_nb_run *run, const struct rusage ru[2], struct st_error *err)
{
	uint64_t open_ns = sr->t_window_ns, last_eof = open_ns;

	memset(run, 0, sizeof(*run));
	if (sr->nconn != cr->nconn)
		return st_error_set(err, EPROTO, "netbench: the server counted %u connections, the client %u",
				    sr->nconn, cr->nconn);
	if (!open_ns)
		return st_error_set(err, EPROTO,
				    "netbench: the server never learnt where the warm-up ended");
	run->nstreams = cr->nconn;
	for (unsigned int i = 0; i < cr->nconn; i++) {
		const struct st_nb_conn_count *c = &cr->conn[i];
		const struct st_nb_conn_count *s = server_side(sr, c);
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
		st->bytes_received = s->bytes - s->before_window;
		st->ns = s->t_eof_ns > open_ns ? s->t_eof_ns - open_ns : 1;
		run->bytes_sent += st->bytes_sent;
		run->bytes_received += st->bytes_received;
		if (s->t_eof_ns > last_eof)
			last_eof = s->t_eof_ns;
	}
	run->stream_ns = last_eof > open_ns ? last_eof - open_ns : 1;
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
	run->same_cpu_share = st_nb_same_cpu_share(&sr->place, &cr->place);
	run->ru_server = ru[0];
	run->ru_client = ru[1];
	return 0;
}

int st_nb_run_once(const struct st_nb_config *cfg, const struct st_nb_endpoint *ep,
		   struct st_nb_run *run, int *signo, struct st_error *err)
{
	_cleanup_(run_pipes_close) struct run_pipes p = {
		{ -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 }
	};
	_cleanup_pid_ pid_t server = -1;
	_cleanup_pid_ pid_t client = -1;
	_cleanup_free_ struct st_nb_child_result *sr = calloc(1, sizeof(*sr));
	_cleanup_free_ struct st_nb_child_result *cr = calloc(1, sizeof(*cr));
	sigset_t chld;
	_cleanup_(restore_mask) sigset_t old;
	pid_t pids[2];
	int status[2] = { 0, 0 };
	struct rusage ru[2];
	char c;
	int ret;

	memset(run, 0, sizeof(*run));
	memset(ru, 0, sizeof(ru));
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	if (!sr || !cr)
		return st_error_set(err, ENOMEM, "netbench: results");
	if (make_pipes(&p, err) < 0)
		return -err->errnum;

	server = st_fork_child(err);
	if (server < 0)
		return server;
	if (server == 0)
		st_nb_server_main(cfg, ep, p.ready[1], p.warm[0], p.srv[1]);
	closep(&p.ready[1]);
	/* "r" once listening; EOF if the server failed first (its result says why). */
	pids[0] = server, pids[1] = -1;
	ret = watch(p.ready[0], pids, status, ru, 1, st_now_ns() + NB_WATCHDOG_SLACK_NS, signo);
	if (ret < 0)
		return stop_reason(ret, 0, err);
	if (pids[0] < 0 || read_all(p.ready[0], &c, 1) != 1) {
		closep(&p.srv[1]);
		if (pids[0] > 0 && st_reap_usage(server, &status[0], NULL, err) < 0)
			return -err->errnum;
		take_pid(&server);
		ret = read_result(p.srv[0], sr, "server", status[0], err);
		return ret < 0 ? ret : st_error_set(err, EPROTO, "server: ended before listening");
	}

	client = st_fork_child(err);
	if (client < 0)
		return client;
	if (client == 0)
		st_nb_client_main(cfg, ep, p.warm[1], p.cli[1]);
	closep(&p.srv[1]);
	closep(&p.cli[1]);
	close_pair(p.warm);
	pids[0] = server, pids[1] = client;
	ret = watch(-1, pids, status, ru, 2,
		    st_now_ns() + st_nb_s_to_ns(expected_s(cfg)) + NB_WATCHDOG_SLACK_NS, signo);
	/* Reaped children are no longer ours to kill. */
	if (pids[0] < 0)
		take_pid(&server);
	if (pids[1] < 0)
		take_pid(&client);
	if (ret < 0)
		return stop_reason(ret, 1, err);
	ret = read_result(p.cli[0], cr, "client", status[1], err);
	if (ret == 0)
		ret = read_result(p.srv[0], sr, "server", status[0], err);
	if (ret < 0)
		return ret;
	return st_nb_run_fill(sr, cr, run, ru, err);
}
