// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/cycle.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

#define CLOCK_CALIBRATION_READS 257

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Median of @read's successive differences: what one read adds to a window. */
static uint64_t calibrate(uint64_t (*read)(void))
{
	uint64_t d[CLOCK_CALIBRATION_READS];

	for (size_t i = 0; i < CLOCK_CALIBRATION_READS; i++) {
		uint64_t a = read();

		d[i] = read() - a;
	}
	qsort(d, CLOCK_CALIBRATION_READS, sizeof(d[0]), cmp_u64);
	return d[CLOCK_CALIBRATION_READS / 2];
}

uint64_t st_clock_read_ns(void)
{
	static uint64_t cost = UINT64_MAX;

	if (cost == UINT64_MAX)
		cost = calibrate(st_now_ns);
	return cost;
}

/* The same for the thread's CPU clock (a syscall), on that clock. */
static uint64_t cpu_clock_read_ns(void)
{
	static uint64_t cost = UINT64_MAX;

	if (cost == UINT64_MAX)
		cost = calibrate(st_thread_cpu_ns);
	return cost;
}

/* Wall time between two stamps, without the read that closes the window. */
static uint64_t window(uint64_t from, uint64_t to)
{
	uint64_t d = to - from, c = st_clock_read_ns();

	return d > c ? d - c : 0;
}

static long involuntary_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/*
 * The measured child: say "running", wait for EOF on @go, exit. It holds the
 * only write end of the ready pipe, so if it dies the parent sees EOF instead
 * of blocking; and EOF on @go also comes if the parent dies.
 */
static void _noreturn_ cycle_child(int ready_wr, int go_rd)
{
	char c = 'r';

	if (write(ready_wr, &c, 1) != 1)
		_exit(1);
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

struct stamps {
	uint64_t t0, t1, t2, t3, t4, cpu0, cpu1, cpu2, cpu3;
	long ivcsw0, ivcsw1;
	struct rusage child;
};

/*
 * A CPU window surrounds its wall window: besides the call it holds two wall
 * reads and one CPU-clock read's worth, both subtracted; what is left of
 * them cannot make the CPU time exceed the wall time it surrounds.
 */
static uint64_t cpu_window(uint64_t from, uint64_t to, uint64_t wall)
{
	uint64_t d = to - from, c = 2 * st_clock_read_ns() + cpu_clock_read_ns();

	d = d > c ? d - c : 0;
	return d < wall ? d : wall;
}

static void fill_cycle(const struct stamps *s, struct st_cycle *out)
{
	out->setup_ns = window(s->t0, s->t1);
	out->ready_ns = window(s->t0, s->t2);
	out->teardown_ns = window(s->t3, s->t4);
	out->setup_cpu_ns = cpu_window(s->cpu0, s->cpu1, out->setup_ns);
	out->teardown_cpu_ns = cpu_window(s->cpu2, s->cpu3, out->teardown_ns);
	out->child_cpu_ns = tv_ns(s->child.ru_utime) + tv_ns(s->child.ru_stime);
	out->reaped_at_ns = s->t4;
	out->preempted = s->ivcsw1 != s->ivcsw0;
}

int st_measure_cycle(uint64_t flags, struct st_cycle *out, struct st_error *err)
{
	_cleanup_close_ int ready_rd = -1, ready_wr = -1, go_rd = -1, go_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	struct stamps s;
	int status, ret;
	char c;

	if (st_pipe(&ready_rd, &ready_wr, "pipe", err) < 0)
		return -err->errnum;
	if (st_pipe(&go_rd, &go_wr, "pipe", err) < 0)
		return -err->errnum;
	st_clock_read_ns();
	cpu_clock_read_ns();

	/*
	 * The CPU clock (a real syscall) and rusage are read outside the wall
	 * windows; a CPU window thus holds two vDSO reads, subtracted above.
	 */
	s.ivcsw0 = involuntary_switches();
	s.cpu0 = st_thread_cpu_ns();
	s.t0 = st_now_ns();
	pid = st_clone3(flags, err);
	s.t1 = st_now_ns();
	s.cpu1 = st_thread_cpu_ns();
	if (pid < 0)
		return (int)pid;
	if (pid == 0) {
		close(ready_rd);
		close(go_wr);
		cycle_child(ready_wr, go_rd);
	}
	closep(&ready_wr);
	closep(&go_rd);
	if (TEMP_FAILURE_RETRY(read(ready_rd, &c, 1)) != 1)
		return st_error_set(err, EPROTO, "measured child %d died before it was ready", pid);
	s.t2 = st_now_ns();

	s.cpu2 = st_thread_cpu_ns();
	s.t3 = st_now_ns();
	closep(&go_wr);
	ret = st_reap_usage(pid, &status, &s.child, err);
	s.t4 = st_now_ns();
	s.cpu3 = st_thread_cpu_ns();
	s.ivcsw1 = involuntary_switches();
	if (ret < 0)
		return ret;
	take_pid(&pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return st_error_set(err, EPROTO, "measured child failed (status 0x%x)", status);
	fill_cycle(&s, out);
	return 0;
}
