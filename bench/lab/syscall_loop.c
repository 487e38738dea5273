// SPDX-License-Identifier: MIT
/*
 * syscall_loop: the workload of bench/lab/crun_compare.sh. Times N getppid(2)
 * calls back to back and prints nanoseconds per call; built static, so that
 * it runs in a root that holds nothing else. Exits 1 if the loop's checksum
 * is wrong (a loop the compiler dropped would be a lie). Shares no code with
 * sandboxtime, like clone_loop.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, expect = syscall(SYS_getppid);
	volatile long sum = 0;
	long long t0;

	if (n <= 0)
		return 2;
	for (long i = 0; i < 10000; i++)
		sum += syscall(SYS_getppid);
	sum = 0;
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		sum += syscall(SYS_getppid);
	printf("%.1f\n", (double)(now_ns() - t0) / (double)n);
	return sum == expect * n ? 0 : 1;
}
