/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CLOCK_H
#define SANDBOXTIME_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds: vDSO, so it costs tens of ns inside a window. */
static inline uint64_t st_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * CPU time of the calling thread. Not in the vDSO (a real syscall of a few
 * hundred ns), so callers read it inside the wall window it accompanies.
 */
static inline uint64_t st_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double st_ns_to_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* Sleeps @ms milliseconds, resuming after signals. */
void st_sleep_ms(unsigned int ms);

#endif
