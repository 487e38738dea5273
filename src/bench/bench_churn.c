// SPDX-License-Identifier: MIT
/*
 * bench churn, the main process's side (bench_churn.h): the machine's
 * limits are read and checked before anything is made, the lab is cloned
 * into a user namespace of its own, and the main process waits for its
 * answer while it watches for signals; a signal makes the lab stop its
 * creators and drain the backlog before it answers.
 */
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sandboxtime/bench_churn.h"
#include "sandboxtime/churn_lab.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/host.h"
#include "sandboxtime/ns_user.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

#define WAIT_POLL_MS 20 /* how often the main process looks for a signal */

int st_churn_check_limits(struct st_churn_limits *l, unsigned int mask, enum st_net_mode net,
			  unsigned int max_alive, unsigned int max_parallel, struct st_error *err)
{
	uint64_t kb = ST_CHURN_PROCESS_KB + (st_net_wired(net) ? ST_CHURN_VETH_KB : 0);

	if (max_parallel > max_alive)
		return st_error_set(err, EINVAL,
				    "bench churn: --parallel=%u is more than --max-alive=%u (each creator holds a sandbox alive)",
				    max_parallel, max_alive);
	for (int i = 0; i < ST_LAYER_COUNT; i++) {
		/* The lab's own user (and, wired, network) namespace counts against the host's limit too. */
		uint64_t need = (uint64_t)max_alive + (i == ST_LAYER_USER) +
				(i == ST_LAYER_NET && st_net_wired(net));

		if (!(mask & ST_LAYER_BIT(i)))
			continue;
		if (l->max_ns[i] < need)
			return st_error_set(err, ENOSPC,
					    "bench churn: --max-alive=%u needs %llu %s namespaces, /proc/sys/user/%s is %llu: lower --max-alive",
					    max_alive, (unsigned long long)need, st_layers[i].name,
					    st_layers[i].max_file, (unsigned long long)l->max_ns[i]);
		kb += i == ST_LAYER_NET ? ST_CHURN_NET_KB : ST_CHURN_NS_KB;
	}
	/* Each creator and its sandbox, the lab, its prober and the main process. */
	l->need_pids = 2ull * max_parallel + 3;
	if (l->threads + l->need_pids > l->pid_max)
		return st_error_set(err, EAGAIN,
				    "bench churn: %llu processes at once do not fit: %llu tasks run under pid_max %llu",
				    (unsigned long long)l->need_pids, (unsigned long long)l->threads,
				    (unsigned long long)l->pid_max);
	l->need_mb = (uint64_t)max_alive * kb / 1024 + ST_CHURN_MARGIN_MB;
	if (l->need_mb > l->mem_available_mb)
		return st_error_set(err, ENOMEM,
				    "bench churn: --max-alive=%u sandboxes may hold %llu MB (%llu KiB each, %u MB spare), MemAvailable is %llu MB: lower --max-alive",
				    max_alive, (unsigned long long)l->need_mb, (unsigned long long)kb,
				    ST_CHURN_MARGIN_MB, (unsigned long long)l->mem_available_mb);
	return 0;
}

static int read_number(const char *path, uint64_t *out, struct st_error *err)
{
	char buf[64];
	int ret = st_read_file(path, buf, sizeof(buf));

	if (ret < 0)
		return st_error_set(err, -ret, "bench churn: reading %s", path);
	buf[strcspn(buf, "\n")] = '\0';
	return st_parse_uint(path, buf, 0, UINT64_MAX, out, err);
}

static int read_limits(struct st_churn_limits *l, unsigned int mask, struct st_error *err)
{
	unsigned long long running, total;
	char path[96], buf[128];
	int ret = read_number("/proc/sys/kernel/pid_max", &l->pid_max, err);

	for (int i = 0; ret == 0 && i < ST_LAYER_COUNT; i++) {
		l->max_ns[i] = UINT64_MAX;
		if (!(mask & ST_LAYER_BIT(i)))
			continue;
		snprintf(path, sizeof(path), "/proc/sys/user/%s", st_layers[i].max_file);
		/* No such limit: a kernel without the type, which the layer probe reports. */
		if (access(path, F_OK) == 0)
			ret = read_number(path, &l->max_ns[i], err);
	}
	if (ret == 0 && st_read_file("/proc/loadavg", buf, sizeof(buf)) >= 0 &&
	    sscanf(buf, "%*s %*s %*s %llu/%llu", &running, &total) == 2)
		l->threads = total;
	if (ret == 0 && (ret = st_host_mem_available_mb(&l->mem_available_mb, err)) < 0)
		st_error_wrap(err, "bench churn");
	return ret;
}

int st_bench_churn_prepare(struct st_bench_churn *b, unsigned int mask, enum st_net_mode net,
			   uint64_t count, double duration_s, unsigned int max_alive,
			   const unsigned int *parallel, size_t n, struct st_error *err)
{
	unsigned int most = 0;
	void *map;
	int ret;

	memset(b, 0, sizeof(*b));
	if (n == 0 || n > ST_CHURN_MAX_LEVELS)
		return st_error_set(err, EINVAL, "bench churn: 1 to %d creator counts", ST_CHURN_MAX_LEVELS);
	for (size_t i = 0; i < n; i++) {
		if (parallel[i] < 1 || parallel[i] > ST_CHURN_MAX_PARALLEL)
			return st_error_set(err, EINVAL, "bench churn: --parallel: 1 to %d creators",
					    ST_CHURN_MAX_PARALLEL);
		b->parallel[i] = parallel[i];
		if (parallel[i] > most)
			most = parallel[i];
	}
	b->nlevels = n;
	b->mask = mask | ST_LAYER_BIT(ST_LAYER_USER);
	b->duration_ns = duration_s > 0 ? (uint64_t)(duration_s * 1e9) : 0;
	b->count = b->duration_ns ? 0 : count;
	b->max_alive = max_alive;
	b->net = net;
	if (st_net_wired(net) && !(mask & ST_LAYER_BIT(ST_LAYER_NET)))
		return st_error_set(err, EINVAL, "bench churn: --net=%s needs the net layer in --ns",
				    st_net_mode_names[net]);
	ret = read_limits(&b->limits, b->mask, err);
	if (ret == 0)
		ret = st_churn_check_limits(&b->limits, b->mask, net, max_alive, most, err);
	if (ret < 0)
		return ret;
	/* Shared with the lab and its creators: a fork-like clone keeps MAP_SHARED shared. */
	map = mmap(NULL, sizeof(*b->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return st_error_set(err, errno, "bench churn: mapping %zu KiB shared with the lab",
				    sizeof(*b->sh) / 1024);
	b->sh = map;
	b->levels = b->sh->level;
	return 0;
}

/* Waits for the lab's answer; a signal meanwhile tells it to stop. */
static int wait_answer(struct st_bench_churn *b, int res_rd, struct st_churn_result *r,
		       struct st_error *err)
{
	struct pollfd pfd = { .fd = res_rd, .events = POLLIN };

	for (;;) {
		int sig = st_signals_poll(), n;

		if (sig && !b->interrupted_by) {
			b->interrupted_by = sig;
			atomic_store(&b->sh->stop, 1);
		}
		n = poll(&pfd, 1, WAIT_POLL_MS);
		if (n > 0)
			break;
		if (n < 0 && errno != EINTR)
			return st_error_set(err, errno, "bench churn: poll");
	}
	if (TEMP_FAILURE_RETRY(read(res_rd, r, sizeof(*r))) != (ssize_t)sizeof(*r))
		return st_error_set(err, EPROTO, "bench churn: the lab died without an answer");
	return 0;
}

int st_bench_churn_run(struct st_bench_churn *b, struct st_error *err)
{
	_cleanup_close_ int go_rd = -1, go_wr = -1, res_rd = -1, res_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	struct st_churn_result r;
	int ret;

	/* The layer probe may have found no network namespaces: nothing to wire. */
	if (st_net_wired(b->net) && !(b->mask & ST_LAYER_BIT(ST_LAYER_NET)))
		return st_error_set(err, EOPNOTSUPP, "bench churn --net=%s: the net layer is unavailable here",
				    st_net_mode_names[b->net]);
	if (st_pipe(&go_rd, &go_wr, "bench churn: pipe", err) < 0 ||
	    st_pipe(&res_rd, &res_wr, "bench churn: pipe", err) < 0)
		return -err->errnum;
	/* Wired, the lab's own network namespace holds the sandboxes' other ends. */
	pid = st_clone3(CLONE_NEWUSER | (st_net_wired(b->net) ? CLONE_NEWNET : 0), err);
	if (pid < 0) {
		st_layer_hint_here(err, err->errnum, ST_LAYER_USER);
		return st_error_wrap(err, "bench churn: the lab's namespaces");
	}
	if (pid == 0) {
		close(go_wr);
		close(res_rd);
		st_churn_lab_main(b, b->sh, go_rd, res_wr);
	}
	closep(&go_rd);
	closep(&res_wr);
	ret = st_ns_user_map_caller(pid, err);
	if (ret < 0)
		return st_error_wrap(err, "bench churn: the lab");
	closep(&go_wr);
	ret = wait_answer(b, res_rd, &r, err);
	if (ret < 0)
		return ret;
	ret = st_reap(take_pid(&pid), NULL, err);
	if (ret < 0)
		return st_error_wrap(err, "bench churn: the lab");
	b->done = r.done;
	if (b->interrupted_by)
		return st_error_set(err, EINTR,
				    "interrupted by %s while churning (every sandbox made was reaped and freed)",
				    st_signal_name(b->interrupted_by));
	if (r.failed) {
		*err = r.err;
		return -(err->errnum ? err->errnum : EIO);
	}
	return 0;
}

double st_churn_backlog_slope(const struct st_churn_point *p, size_t n, double until_s)
{
	double st = 0, sb = 0, stt = 0, stb = 0, k = 0, den;

	for (size_t i = 0; i < n && p[i].t_s <= until_s; i++) {
		st += p[i].t_s;
		sb += (double)p[i].backlog;
		stt += p[i].t_s * p[i].t_s;
		stb += p[i].t_s * (double)p[i].backlog;
		k++;
	}
	den = k * stt - st * st;
	if (k < 2 || den <= 0)
		return 0;
	return (k * stb - st * sb) / den;
}

double st_churn_bare_rate(const struct st_churn_level *l)
{
	uint64_t made = l->bare_created[0] + l->bare_created[1];
	uint64_t ns = l->bare_wall_ns[0] + l->bare_wall_ns[1];

	return ns ? (double)made * 1e9 / (double)ns : 0;
}

double st_churn_overhead_pct(const struct st_churn_level *l)
{
	double bare = st_churn_bare_rate(l);

	if (!l->created || !l->wall_ns || bare <= 0)
		return 0;
	/* Time per sandbox measured over time per sandbox bare. */
	return ((double)l->wall_ns / (double)l->created * bare / 1e9 - 1) * 100;
}

void st_bench_churn_free(struct st_bench_churn *b)
{
	if (b->sh)
		munmap(b->sh, sizeof(*b->sh));
	b->sh = NULL;
	b->levels = NULL;
}
