/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CYCLE_H
#define SANDBOXTIME_CYCLE_H

#include <stdint.h>

#include "sandboxtime/error.h"

/* One clone/ready/exit/reap cycle, in nanoseconds. */
struct st_cycle {
	uint64_t setup_ns;     /* the clone3() call in the parent */
	uint64_t setup_cpu_ns; /* this thread's CPU time in that call */
	uint64_t ready_ns;     /* clone3() start until the child said it runs */
	uint64_t teardown_ns;  /* "exit now" until waitpid() returned */
	uint64_t teardown_cpu_ns;
	uint64_t child_cpu_ns; /* the child's user+system time (wait4's rusage) */
	uint64_t reaped_at_ns; /* CLOCK_MONOTONIC when waitpid() returned */
	int preempted;         /* the parent was switched out involuntarily */
};

/*
 * Runs one cycle with @flags. The wall windows hold nothing but the measured
 * call and one clock read's own duration, which is subtracted (see
 * st_clock_read_ns()); CPU clocks and rusage are read outside them.
 */
int st_measure_cycle(uint64_t flags, struct st_cycle *out, struct st_error *err);

/*
 * What one CLOCK_MONOTONIC read adds to a window between two reads: the
 * median over a burst of back-to-back reads, measured once per process.
 */
uint64_t st_clock_read_ns(void);

#endif
