/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_GUARD_H
#define SANDBOXTIME_BENCH_GUARD_H

#include <stddef.h>
#include <stdint.h>

/*
 * The guards every bench applies before it prints a figure (issue 14.5): a
 * figure that cannot be true is replaced by the reason, so that a broken
 * clock, a copy the compiler deleted or a buffer that was never there shows
 * as what it is instead of as a record. Each guard is pure: it returns 1 and
 * writes "impossible: ..." to @why when the figure cannot stand, else 0.
 */
#define ST_GUARD_REASON_MAX 160

/* clock_getres(CLOCK_MONOTONIC) in microseconds (0.001 when it fails). */
double st_guard_clock_resolution_us(void);

/* A time whose fastest sample @min_us is below the clock's @resolution_us, or not positive. */
int st_guard_time(double min_us, double resolution_us, char *why, size_t len);

/*
 * A memory bandwidth @gbps (GB/s) above @bound_gbps: what the machine's
 * fastest copy (within the first-level cache, st_guard_bandwidth_bound_gbps)
 * reaches. Memory cannot be copied faster than its own cache copies.
 */
int st_guard_bandwidth(double gbps, double bound_gbps, char *why, size_t len);

/* A result whose checksum @got is not @want: the work was not (all) done. */
int st_guard_checksum(uint64_t got, uint64_t want, const char *what, char *why, size_t len);

/*
 * The bound st_guard_bandwidth() compares with, measured once per process:
 * the best of a few rounds of copying a 16 KiB buffer (in L1) for about a
 * millisecond each, in GB/s, times two for turbo and noise. A 64 MiB copy
 * that reports more did not copy 64 MiB.
 */
double st_guard_bandwidth_bound_gbps(void);

#endif
