// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sandboxtime/bench_guard.h"
#include "sandboxtime/clock.h"

#define BOUND_BUF 16384u
#define BOUND_COPIES 64u
#define BOUND_ROUNDS 8u

double st_guard_clock_resolution_us(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC, &res) < 0)
		return 0.001;
	return (double)res.tv_sec * 1e6 + (double)res.tv_nsec / 1e3;
}

int st_guard_time(double min_us, double resolution_us, char *why, size_t len)
{
	if (min_us > 0 && min_us >= resolution_us)
		return 0;
	snprintf(why, len, "impossible: a sample of %.4f us is below the clock's resolution (%.4f us)",
		 min_us, resolution_us);
	return 1;
}

int st_guard_bandwidth(double gbps, double bound_gbps, char *why, size_t len)
{
	if (gbps > 0 && gbps <= bound_gbps)
		return 0;
	if (gbps <= 0)
		snprintf(why, len, "impossible: a bandwidth of %.2f GB/s (nothing was copied)", gbps);
	else
		snprintf(why, len,
			 "impossible: %.1f GB/s is above this machine's bound of %.1f GB/s (twice its in-cache copy rate)",
			 gbps, bound_gbps);
	return 1;
}

int st_guard_checksum(uint64_t got, uint64_t want, const char *what, char *why, size_t len)
{
	if (got == want)
		return 0;
	snprintf(why, len, "impossible: checksum mismatch in %s (%llu, expected %llu): the work was not done",
		 what, (unsigned long long)got, (unsigned long long)want);
	return 1;
}

double st_guard_bandwidth_bound_gbps(void)
{
	static double bound;
	static unsigned char src[BOUND_BUF], dst[BOUND_BUF];

	if (bound > 0)
		return bound;
	memset(src, 0x5a, sizeof(src));
	for (unsigned int r = 0; r < BOUND_ROUNDS; r++) {
		uint64_t t0 = st_now_ns(), dt;

		for (unsigned int k = 0; k < BOUND_COPIES; k++) {
			memcpy(dst, src, sizeof(src));
			/* Keeps every copy: the compiler may not merge or drop them. */
			__asm__ volatile("" : : "r"(dst) : "memory");
		}
		dt = st_now_ns() - t0;
		if (dt > 0 && (double)BOUND_BUF * BOUND_COPIES / (double)dt > bound)
			bound = (double)BOUND_BUF * BOUND_COPIES / (double)dt; /* bytes per ns = GB/s */
	}
	bound *= 2;
	return bound > 0 ? bound : 1e6;
}
