// SPDX-License-Identifier: MIT
/*
 * bench fork: one worker process per size holds a buffer of that size with
 * every page touched, and makes a child on each request of the main
 * process, which sends them in rounds across sizes and methods (each round
 * starting one place further on), so that drift hits every figure alike.
 * A worker is forked from the main process before it holds anything big:
 * its page tables are its buffer's, plus the small image they all share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/bench_fork.h"
#include "sandboxtime/bench_guard.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/host.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

#define EXEC_PATH "/bin/true"
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; glibc 2.36 headers lack it */
#endif
#define PAGE 4096u


const char *const st_fork_figure_names[ST_FORK_FIGURES] = {
	[ST_FORK_CALL] = "call",
	[ST_FORK_TOTAL] = "total",
};

/* What a worker answers: to "ready?" and to each request. */
struct reply {
	uint64_t call_ns, total_ns;
	int failed;
	struct st_error err;
};

struct worker {
	pid_t pid;
	int cmd, res; /* requests to it, replies from it */
};

int st_bench_fork_check_memory(const unsigned int *sizes, size_t n, uint64_t avail_mb,
			       struct st_error *err)
{
	uint64_t held = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t need;

		held += sizes[i];
		need = held + (held >> ST_FORK_MARGIN_SHIFT) + ST_FORK_MARGIN_MB;
		if (need > avail_mb)
			return st_error_set(err, ENOMEM,
					    "bench fork: %u MB cannot be spared: the sizes up to it need %llu MB with the margin, MemAvailable is %llu MB",
					    sizes[i], (unsigned long long)need, (unsigned long long)avail_mb);
	}
	return 0;
}

int st_bench_fork_impossible(double min_us, unsigned int size_mb, int copies_tables,
			     double resolution_us, char *why, size_t len)
{
	double floor_us = size_mb * ST_FORK_FLOOR_US_PER_MB;

	if (st_guard_time(min_us, resolution_us, why, len))
		return 1;
	if (copies_tables && min_us < floor_us) {
		snprintf(why, len,
			 "impossible: a sample of %.2f us is below the floor of %.2f us for copying the page tables of %u MB (%.2f us per MB)",
			 min_us, floor_us, size_mb, ST_FORK_FLOOR_US_PER_MB);
		return 1;
	}
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

int st_bench_fork_prepare(struct st_bench_fork *b, const unsigned int *sizes, size_t n,
			  unsigned int mask, unsigned int repeat, struct st_error *err)
{
	int ret;

	memset(b, 0, sizeof(*b));
	/* The default sizes are --sizes' (src/cmd/cli_options.c). */
	if (!sizes || !n)
		return st_error_set(err, EINVAL, "bench fork: no sizes");
	if (n > ST_FORK_MAX_SIZES)
		return st_error_set(err, EINVAL, "bench fork: at most %d sizes", ST_FORK_MAX_SIZES);
	memcpy(b->sizes_mb, sizes, n * sizeof(*sizes));
	qsort(b->sizes_mb, n, sizeof(*sizes), cmp_uint);
	b->nsizes = n;
	b->repeat = repeat;
	b->mask = mask;
	b->exec_path = EXEC_PATH;
	b->resolution_us = st_guard_clock_resolution_us();
	ret = st_host_mem_available_mb(&b->mem_available_mb, err);
	if (ret < 0)
		st_error_wrap(err, "bench fork");
	if (ret == 0)
		ret = st_bench_fork_check_memory(b->sizes_mb, n, b->mem_available_mb, err);
	if (ret == 0 && access(EXEC_PATH, X_OK) < 0)
		ret = st_error_set(err, errno, "bench fork: cannot execute %s", EXEC_PATH);
	for (size_t i = 0; ret == 0 && i < n; i++)
		for (int m = 0; m < ST_FORK_METHODS; m++)
			for (int f = 0; f < ST_FORK_FIGURES; f++)
				if (st_samples_reserve(&b->cell[i][m].us[f], repeat) < 0)
					ret = st_error_set(err, ENOMEM, "bench fork: samples");
	return ret;
}

/* Resident pages of this process (/proc/self/statm's second field). */
static uint64_t resident_pages(void)
{
	unsigned long long size = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (f && fscanf(f, "%llu %llu", &size, &rss) != 2)
		rss = 0;
	if (f)
		fclose(f);
	return rss;
}

/*
 * The worker's buffer: 4 KiB pages (huge pages would leave 512 times fewer
 * entries to copy: not the page tables the articles measured), every page
 * written, and proven there: the pages read back and the process resident.
 */
static int touch_buffer(unsigned int size_mb, struct st_error *err)
{
	size_t len = (size_t)size_mb << 20, pages = len / PAGE;
	volatile unsigned char *p;
	uint64_t sum = 0, want = 0;
	void *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return st_error_set(err, errno, "bench fork: mapping %u MB", size_mb);
	/* EINVAL: a kernel without transparent huge pages, already 4 KiB pages. */
	if (madvise(buf, len, MADV_NOHUGEPAGE) < 0 && errno != EINVAL)
		return st_error_set(err, errno, "bench fork: madvise(MADV_NOHUGEPAGE)");
	/*
	 * One call faults every page in (Linux 5.14), several times faster than
	 * a fault per page in a VM; the loop below then only writes. Older
	 * kernels say EINVAL and the loop faults them in.
	 */
	if (madvise(buf, len, MADV_POPULATE_WRITE) < 0 && errno != EINVAL)
		return st_error_set(err, errno, "bench fork: populating %u MB", size_mb);
	p = buf;
	for (size_t i = 0; i < pages; i++) {
		p[i * PAGE] = (unsigned char)(i | 1);
		want += (unsigned char)(i | 1);
	}
	for (size_t i = 0; i < pages; i++)
		sum += p[i * PAGE];
	if (sum != want)
		return st_error_set(err, EPROTO, "bench fork: the %u MB buffer reads back wrong", size_mb);
	if (resident_pages() * (uint64_t)sysconf(_SC_PAGESIZE) < len)
		return st_error_set(err, EPROTO, "bench fork: the %u MB buffer is not resident (swapped out?)",
				    size_mb);
	/* The buffer stays mapped until the worker exits: that is the point. */
	return 0;
}

static void _noreturn_ worker_main(const struct st_bench_fork *b, unsigned int size_mb, int cmd, int res)
{
	struct st_fork_env env;
	struct reply r;
	int method;

	memset(&r, 0, sizeof(r));
	r.failed = touch_buffer(size_mb, &r.err) < 0 ||
		   st_fork_env_init(&env, b->exec_path, st_layer_flags(b->mask), &r.err) < 0;
	if (write(res, &r, sizeof(r)) != (ssize_t)sizeof(r) || r.failed)
		_exit(1);
	/* EOF on the requests: the main process is done (or gone). */
	while (TEMP_FAILURE_RETRY(read(cmd, &method, sizeof(method))) == (ssize_t)sizeof(method)) {
		int ret = -EPROTO;

		memset(&r, 0, sizeof(r));
		if (method >= 0 && method < ST_FORK_METHODS)
			ret = st_fork_sample((enum st_fork_method)method, &env, &r.call_ns, &r.total_ns,
					     &r.err);
		if (ret < 0)
			st_error_wrap(&r.err, "bench fork: %u MB", size_mb);
		r.failed = ret < 0;
		if (write(res, &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(1);
	}
	_exit(0);
}

static int read_reply(struct worker *w, unsigned int size_mb, struct reply *r, struct st_error *err)
{
	if (TEMP_FAILURE_RETRY(read(w->res, r, sizeof(*r))) != (ssize_t)sizeof(*r))
		return st_error_set(err, EPROTO, "bench fork: the %u MB worker died", size_mb);
	if (r->failed) {
		*err = r->err;
		return -(err->errnum ? err->errnum : EPROTO);
	}
	return 0;
}

/*
 * Starts worker @i of @w (the ones before it are running); it answers once
 * its buffer is touched, read by the caller, so that workers touch theirs at
 * the same time on as many CPUs as there are.
 */
static int start_worker(const struct st_bench_fork *b, struct worker *w, size_t i,
			struct st_error *err)
{
	_cleanup_close_ int cmd_rd = -1, cmd_wr = -1, res_rd = -1, res_wr = -1;
	int sv[2];

	/*
	 * Requests go over a socket, so that a worker that died (the OOM killer)
	 * makes send() fail with EPIPE instead of killing us with SIGPIPE.
	 */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return st_error_set(err, errno, "bench fork: socketpair");
	cmd_rd = sv[0];
	cmd_wr = sv[1];
	if (st_pipe(&res_rd, &res_wr, "bench fork: pipe", err) < 0)
		return -err->errnum;
	w[i].pid = st_fork_child(err);
	if (w[i].pid < 0)
		return w[i].pid;
	if (w[i].pid == 0) {
		/* Only the main process may hold a worker's requests: EOF ends it. */
		for (size_t j = 0; j < i; j++) {
			closep(&w[j].cmd);
			closep(&w[j].res);
		}
		closep(&cmd_wr);
		closep(&res_rd);
		worker_main(b, b->sizes_mb[i], cmd_rd, res_wr);
	}
	w[i].cmd = take_fd(&cmd_wr);
	w[i].res = take_fd(&res_rd);
	return 0;
}

/* Closing the requests ends a worker; one that does not go is killed. */
static void stop_workers(struct worker *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		closep(&w[i].cmd);
		closep(&w[i].res);
	}
	for (size_t i = 0; i < n; i++) {
		struct st_error ignored;
		int status;

		/* Reaped, whatever its status: never kill a pid that may be reused. */
		if (w[i].pid > 0 && st_reap(w[i].pid, &status, &ignored) == 0)
			w[i].pid = -1;
		killpidp(&w[i].pid);
	}
}

static int sample(struct st_bench_fork *b, struct worker *w, size_t size, int method, int record,
		  struct st_error *err)
{
	struct st_fork_cell *c = &b->cell[size][method];
	struct reply r;
	int ret;

	if (send(w->cmd, &method, sizeof(method), MSG_NOSIGNAL) != (ssize_t)sizeof(method))
		return st_error_set(err, errno ? errno : EPIPE, "bench fork: the %u MB worker",
				    b->sizes_mb[size]);
	/* The worker's message names its size and what failed. */
	ret = read_reply(w, b->sizes_mb[size], &r, err);
	if (ret < 0)
		return ret;
	if (record) {
		st_samples_add(&c->us[ST_FORK_CALL], st_ns_to_us(r.call_ns));
		st_samples_add(&c->us[ST_FORK_TOTAL], st_ns_to_us(r.total_ns));
	}
	return 0;
}

static int rounds(struct st_bench_fork *b, struct worker *w, struct st_error *err)
{
	size_t places = b->nsizes * ST_FORK_METHODS;

	for (unsigned int round = 0; round <= b->repeat; round++) {
		for (size_t k = 0; k < places; k++) {
			/* Consecutive places differ in size first: 1 MB fork, 10 MB fork, ... */
			size_t p = (k + round) % places, size = p % b->nsizes;
			int sig = st_signals_poll(), ret;

			if (sig) {
				b->interrupted_by = sig;
				return st_error_set(err, EINTR, "interrupted by %s while measuring",
						    st_signal_name(sig));
			}
			/* Round 0 warms up (caches, the program's pages, the dentry of /bin/true). */
			ret = sample(b, &w[size], size, (int)(p / b->nsizes), round > 0, err);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

int st_bench_fork_run(struct st_bench_fork *b, struct st_error *err)
{
	struct worker w[ST_FORK_MAX_SIZES];
	size_t started = 0;
	struct reply r;
	int ret = 0;

	for (size_t i = 0; i < b->nsizes; i++)
		w[i] = (struct worker){ .pid = -1, .cmd = -1, .res = -1 };
	for (; ret == 0 && started < b->nsizes; started++)
		ret = start_worker(b, w, started, err);
	for (size_t i = 0; ret == 0 && i < started; i++)
		ret = read_reply(&w[i], b->sizes_mb[i], &r, err);
	if (ret == 0)
		ret = rounds(b, w, err);
	stop_workers(w, started);
	if (ret == 0)
		st_bench_fork_apply_guards(b);
	return ret;
}

void st_bench_fork_apply_guards(struct st_bench_fork *b)
{
	for (size_t i = 0; i < b->nsizes; i++)
		for (int m = 0; m < ST_FORK_METHODS; m++)
			for (int f = 0; f < ST_FORK_FIGURES; f++) {
				struct st_fork_cell *c = &b->cell[i][m];
				struct st_stats st;

				c->refused[f][0] = '\0';
				if (c->us[f].n == 0 || st_stats_compute(c->us[f].v, c->us[f].n, &st) < 0)
					continue;
				st_bench_fork_impossible(st.min, b->sizes_mb[i],
							 st_fork_method_copies((enum st_fork_method)m),
							 b->resolution_us, c->refused[f],
							 sizeof(c->refused[f]));
			}
}

double st_bench_fork_median(const struct st_bench_fork *b, size_t size, int method,
			    enum st_fork_figure fig)
{
	const struct st_fork_cell *c = &b->cell[size][method];
	struct st_stats st;

	if (c->refused[fig][0] || c->us[fig].n == 0 ||
	    st_stats_compute(c->us[fig].v, c->us[fig].n, &st) < 0)
		return -1;
	return st.median;
}

void st_bench_fork_free(struct st_bench_fork *b)
{
	for (size_t i = 0; i < ST_FORK_MAX_SIZES; i++)
		for (int m = 0; m < ST_FORK_METHODS; m++)
			for (int f = 0; f < ST_FORK_FIGURES; f++)
				st_samples_free(&b->cell[i][m].us[f]);
	b->nsizes = 0;
}
