// SPDX-License-Identifier: MIT
/*
 * bench cgroup (bench_cgroup.h). Each place and round is two processes: the
 * grid's child makes the place's cgroup (sandboxtime-PID, its own pid, in
 * every hierarchy, with the place's limits), forks the measuring child,
 * which moves itself in before it measures, and removes the cgroup once the
 * child is reaped. A killed bench leaves sandboxtime-PID of a dead pid,
 * which `sandboxtime cleanup` removes. The host place measures in the grid's
 * child itself, where sandboxtime is.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/bench_cgroup.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/histogram.h"
#include "sandboxtime/util.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

enum { PLACE_HOST, PLACE_CGROUP, PLACE_MEMORY_LIMIT, PLACE_CPU_QUOTA, NPLACES };
enum { OP_FAULT, OP_POPULATE, OP_UNMAP, OP_WAKEUP_P50, OP_WAKEUP_P99, OP_WAKEUP_MAX, NOPS };

static const char *const places[NPLACES] = {
	[PLACE_HOST] = "host",
	[PLACE_CGROUP] = "cgroup",
	[PLACE_MEMORY_LIMIT] = "memory-limit",
	[PLACE_CPU_QUOTA] = "cpu-quota",
};

static const char *const ops[NOPS] = {
	[OP_FAULT] = "fault",
	[OP_POPULATE] = "populate",
	[OP_UNMAP] = "unmap",
	[OP_WAKEUP_P50] = "wakeup_p50",
	[OP_WAKEUP_P99] = "wakeup_p99",
	[OP_WAKEUP_MAX] = "wakeup_max",
};

static const char *const op_units[NOPS] = { "ns", "ns", "ns", "us", "us", "us" };

static const char method[] =
	"Places: host runs where sandboxtime runs (its own cgroups); cgroup, memory-limit and "
	"cpu-quota run in a cgroup the bench makes for the round below sandboxtime's own (or "
	"--cgroup=PARENT) in every hierarchy (v1 memory, pids, cpu and the unified one, as the "
	"cgroup layer does), the measuring process moving itself in before it measures: cgroup "
	"with no limit, memory-limit with a memory limit of 256 MiB (4x the working set: checked "
	"on every charge, never reached), cpu-quota with 50 ms of CPU time per 100 ms period. In "
	"rounds across places after one unrecorded round, each place's process measured: fault, "
	"the first write to each 4 KiB page of a fresh 64 MiB anonymous mapping (huge pages off; "
	"checked: one minor fault per page); populate, the same pages allocated and charged by one "
	"MADV_POPULATE_WRITE (checked: every page resident); unmap, munmap of those pages (freed "
	"and uncharged), each in ns per page; and for 500 ms, 1 ms sleeps while a second thread "
	"spins: how late each sleep woke (p50, p99, max over the window, in us; under the quota "
	"the spinner uses up each period's time and the whole cgroup waits for the next). A cell "
	"is the median over rounds of each round's figure.";

static void refuse(struct st_grid_result *r, int op, const char *why)
{
	snprintf(r->refused[op], sizeof(r->refused[op]), "%s", why);
}

static int fail(struct st_grid_result *r, int errnum, const char *what)
{
	r->failed = 1;
	return st_error_set(&r->err, errnum, "bench cgroup: %s", what);
}

static long minor_faults(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : -1;
}

/* Pages of [@p, @p + @len) that are resident (mincore), untimed. */
static size_t resident_pages(void *p, size_t len, size_t page)
{
	size_t n = len / page, count = 0;
	_cleanup_free_ unsigned char *vec = malloc(n);

	if (!vec || mincore(p, len, vec) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		count += vec[i] & 1;
	return count;
}

static void *fresh_mapping(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* 4 KiB pages: a 2 MiB page would charge 512 pages in one fault. */
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/* fault: one write per page of a fresh mapping; checked against the minor fault count. */
static int measure_faults(size_t len, size_t page, struct st_grid_result *r)
{
	size_t pages = len / page;
	volatile char *p = fresh_mapping(len);
	long before, after;
	uint64_t a, b;

	if (!p)
		return fail(r, errno, "mapping 64 MiB");
	before = minor_faults();
	a = st_now_ns();
	for (size_t i = 0; i < len; i += page)
		p[i] = 1;
	b = st_now_ns();
	after = minor_faults();
	munmap((void *)p, len);
	r->v[OP_FAULT] = (double)(b - a) / (double)pages;
	/* A fault may bring in more than one page (fault-around is for files, not here). */
	st_guard_checksum(after - before >= (long)pages ? pages : (uint64_t)(after - before), pages,
			  "page faults", r->refused[OP_FAULT], sizeof(r->refused[OP_FAULT]));
	return 0;
}

/* populate and unmap: the kernel allocates every page in one call, then frees them. */
static int measure_populate(size_t len, size_t page, struct st_grid_result *r)
{
	size_t pages = len / page;
	void *p = fresh_mapping(len);
	uint64_t a, b, c;

	if (!p)
		return fail(r, errno, "mapping 64 MiB");
	a = st_now_ns();
	if (madvise(p, len, MADV_POPULATE_WRITE) < 0) {
		int e = errno;

		munmap(p, len);
		refuse(r, OP_POPULATE, e == EINVAL ? "MADV_POPULATE_WRITE needs Linux 5.14" :
				       "MADV_POPULATE_WRITE failed");
		refuse(r, OP_UNMAP, "nothing was populated to unmap");
		return 0;
	}
	b = st_now_ns();
	st_guard_checksum(resident_pages(p, len, page), pages, "resident pages",
			  r->refused[OP_POPULATE], sizeof(r->refused[OP_POPULATE]));
	c = st_now_ns();
	munmap(p, len);
	r->v[OP_POPULATE] = (double)(b - a) / (double)pages;
	r->v[OP_UNMAP] = (double)(st_now_ns() - c) / (double)pages;
	return 0;
}

static void *spin(void *arg)
{
	atomic_int *stop = arg;
	volatile unsigned long n = 0;

	while (!atomic_load_explicit(stop, memory_order_relaxed))
		n++;
	return NULL;
}

/* The wake-ups: 1 ms sleeps for the window while a second thread spins. */
static int measure_wakeups(struct st_grid_result *r)
{
	const struct timespec nap = { 0, ST_CGB_SLEEP_US * 1000L };
	uint64_t start, end = 0;
	struct st_hist *h = malloc(sizeof(*h));
	atomic_int stop = 0;
	pthread_t spinner;
	int ret;

	if (!h)
		return fail(r, ENOMEM, "the wake-up histogram");
	st_hist_init(h);
	ret = pthread_create(&spinner, NULL, spin, &stop);
	if (ret != 0) {
		free(h);
		return fail(r, ret, "starting the spinning thread");
	}
	start = end = st_now_ns();
	while (end - start < ST_CGB_WINDOW_MS * 1000000ull) {
		uint64_t a = st_now_ns(), late;

		nanosleep(&nap, NULL);
		end = st_now_ns();
		late = end - a > ST_CGB_SLEEP_US * 1000ull ? end - a - ST_CGB_SLEEP_US * 1000ull : 0;
		st_hist_record(h, late);
	}
	atomic_store(&stop, 1);
	pthread_join(spinner, NULL);
	r->v[OP_WAKEUP_P50] = st_hist_quantile_ns(h, 0.5) / 1000.0;
	r->v[OP_WAKEUP_P99] = st_hist_quantile_ns(h, 0.99) / 1000.0;
	r->v[OP_WAKEUP_MAX] = (double)h->max_ns / 1000.0;
	free(h);
	return 0;
}

/* nr_throttled of the place's cpu controller (v1 cpu.stat, or v2's with cpu on), or -1. */
static long throttled(const struct st_cgroup *cg)
{
	char path[ST_CG_PATH_MAX + 16], buf[512];
	const char *p;

	for (size_t i = 0; i < cg->n; i++) {
		snprintf(path, sizeof(path), "%s/cpu.stat", cg->dir[i].path);
		if (st_read_file(path, buf, sizeof(buf)) >= 0 && (p = strstr(buf, "nr_throttled ")))
			return strtol(p + strlen("nr_throttled "), NULL, 10);
	}
	return -1;
}

/* Flags operations [@first, @last] with the throttling they saw (@before: nr_throttled then). */
static void flag_throttled(const struct st_cgroup *cg, long before, int first, int last,
			   struct st_grid_result *r)
{
	long after = cg ? throttled(cg) : -1;

	if (before < 0 || after <= before)
		return;
	for (int op = first; op <= last; op++) {
		if (after - before == 1)
			snprintf(r->flag[op], sizeof(r->flag[op]), "throttled once: the quota's wait is in it");
		else
			snprintf(r->flag[op], sizeof(r->flag[op]),
				 "throttled %ld times: the quota's waits are in it", after - before);
	}
}

/* Every operation, in @cg (NULL: the host place); a cpu quota's throttling is flagged. */
static void measure(const struct st_cgroup *cg, struct st_grid_result *r)
{
	long page = sysconf(_SC_PAGESIZE), before = cg ? throttled(cg) : -1;
	size_t len = (size_t)ST_CGB_MB << 20;

	if (page <= 0)
		page = 4096;
	if (measure_faults(len, (size_t)page, r) < 0 || measure_populate(len, (size_t)page, r) < 0)
		return;
	flag_throttled(cg, before, OP_FAULT, OP_UNMAP, r);
	before = cg ? throttled(cg) : -1;
	if (measure_wakeups(r) == 0)
		flag_throttled(cg, before, OP_WAKEUP_P50, OP_WAKEUP_MAX, r);
}

/* The place's limits: none for cgroup. */
static struct st_cgroup_limits place_limits(size_t place)
{
	struct st_cgroup_limits l = { 0 };

	if (place == PLACE_MEMORY_LIMIT)
		l.memory = (int64_t)ST_CGB_MEMORY_LIMIT;
	if (place == PLACE_CPU_QUOTA) {
		l.cpu_quota = ST_CGB_QUOTA_US;
		l.cpu_period = ST_CGB_PERIOD_US;
	}
	return l;
}

/* The measuring child: into @cg (moving itself), then measure. */
static void measure_in(void *cg, struct st_grid_result *r)
{
	if (st_cgroup_move(cg, getpid(), 1, &r->err) < 0)
		r->failed = 1;
	else
		measure(cg, r);
}

/* The grid's child: the place's cgroup, the measuring child in it, the cgroup removed. */
static void sample(const struct st_bench_grid *g, size_t place, void *ctx, struct st_grid_result *r)
{
	const struct st_bench_cgroup *b = ctx;
	struct st_cgroup_spec spec = { .enabled = 1, .parent = b->parent };
	struct st_cgroup cg = { .v2_fd = -1 };
	struct st_error err = { 0 };
	int ret;

	(void)g;
	if (place == PLACE_HOST) {
		measure(NULL, r);
		return;
	}
	spec.lim = place_limits(place);
	ret = st_cgroup_plan(&spec, &cg, &err);
	if (ret == 0)
		ret = st_cgroup_mkdirs(&cg, &err);
	if (ret == 0)
		ret = st_cgroup_write_limits(&cg, &err);
	if (ret == 0) {
		char what[64];

		snprintf(what, sizeof(what), "bench cgroup: %s", places[place]);
		ret = st_grid_in_child(what, measure_in, &cg, r, &err);
	}
	/* Removed on every path: what is still in it is ours and is killed first. */
	if (st_cgroup_rmdirs(&cg, ret < 0 ? &(struct st_error){ 0 } : &err) < 0 && ret == 0)
		ret = -err.errnum;
	if (ret < 0 && !r->failed) {
		r->failed = 1;
		r->err = err;
	}
}

/* The memory cgroup this process is in (/proc/self/cgroup), for the summary. */
static void own_memcg(char *buf, size_t len)
{
	char text[4096], *line, *save = NULL;

	buf[0] = '\0';
	if (st_read_file("/proc/self/cgroup", text, sizeof(text)) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ctrls = strchr(line, ':'), *path = ctrls ? strchr(ctrls + 1, ':') : NULL;

		if (!path)
			continue;
		*path++ = '\0';
		/* v1's memory line, else the unified one (0::PATH). */
		if (strcmp(ctrls + 1, "memory") == 0 || (!buf[0] && ctrls[1] == '\0'))
			snprintf(buf, len, "%s", path);
	}
}

int st_bench_cgroup_prepare(struct st_bench_cgroup *b, unsigned int repeat, const char *parent,
			    struct st_error *err)
{
	int ret;

	memset(b, 0, sizeof(*b));
	b->parent = parent;
	own_memcg(b->host_memcg, sizeof(b->host_memcg));
	ret = st_grid_init(&b->g, "cgroup", "ns", repeat, places, NPLACES, ops, NOPS, err);
	if (ret < 0)
		return ret;
	b->g.op_units = op_units;
	b->g.method = method;
	st_grid_set_config(&b->g, "working_set_mb", ST_CGB_MB);
	st_grid_set_config(&b->g, "memory_limit_mb", (double)(ST_CGB_MEMORY_LIMIT >> 20));
	st_grid_set_config(&b->g, "cpu_quota_us", ST_CGB_QUOTA_US);
	st_grid_set_config(&b->g, "cpu_period_us", ST_CGB_PERIOD_US);
	st_grid_set_config(&b->g, "wakeup_window_ms", ST_CGB_WINDOW_MS);
	st_grid_set_config(&b->g, "sleep_us", ST_CGB_SLEEP_US);
	return 0;
}

static double ratio(const struct st_bench_grid *g, size_t place, size_t op)
{
	double host = st_grid_median(g, PLACE_HOST, op), v = st_grid_median(g, place, op);

	return host > 0 && v >= 0 ? v / host : -1;
}

static void summarize(void *ctx)
{
	struct st_bench_cgroup *b = ctx;
	const struct st_bench_grid *g = &b->g;
	double fault = st_grid_median(g, PLACE_HOST, OP_FAULT);
	double cg = ratio(g, PLACE_CGROUP, OP_FAULT), lim = ratio(g, PLACE_MEMORY_LIMIT, OP_FAULT);
	double pop = ratio(g, PLACE_MEMORY_LIMIT, OP_POPULATE);
	double p99 = st_grid_median(g, PLACE_HOST, OP_WAKEUP_P99);
	double qp99 = st_grid_median(g, PLACE_CPU_QUOTA, OP_WAKEUP_P99);
	double qmax = st_grid_median(g, PLACE_CPU_QUOTA, OP_WAKEUP_MAX);
	const char *where = b->host_memcg[0] ? b->host_memcg : "?";
	const char *tail = "the host place is itself accounted unless its memory cgroup is the "
			   "root; not shown: reclaim at a limit the working set reaches.";

	if (fault < 0 || cg < 0 || lim < 0 || pop < 0 || p99 < 0 || qp99 < 0 || qmax < 0) {
		snprintf(b->g.summary, sizeof(b->g.summary),
			 "On this machine some places were unavailable or figures refused (NOTE says "
			 "why); the host place runs in memory cgroup %s; %s", where, tail);
		return;
	}
	snprintf(b->g.summary, sizeof(b->g.summary),
		 "On this machine a page fault took %.0f ns in sandboxtime's memory cgroup (%s); one "
		 "cgroup deeper %.2fx that, with a memory limit %.2fx (populate %.2fx); a 1 ms sleep "
		 "beside a spinning thread woke %.0f us late at p99, under a 50%% cpu quota %.0f us "
		 "(max %.0f us: the rest of a throttled period); %s",
		 fault, where, cg, lim, pop, p99, qp99, qmax, tail);
}

const struct st_grid_bench st_bench_cgroup_grid =
	ST_GRID_BENCH(struct st_bench_cgroup, sample, summarize, NULL);
