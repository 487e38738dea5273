// SPDX-License-Identifier: MIT
/*
 * fork_loop: the articles' fork measurement, as small as it can be, sharing
 * no code with sandboxtime: if both agree, neither is lying.
 *
 *   fork_loop SIZE_MB [N] [--huge]
 *	maps SIZE_MB MB, writes every 4 KiB page (MADV_NOHUGEPAGE; --huge:
 *	MADV_HUGEPAGE instead, to show what huge pages save), then N times
 *	(default 31, the articles' count): fork(), the child _exit(0)s, waitpid.
 *	Prints one JSON line: size_mb, n, the medians of the fork() call and of
 *	the whole cycle in microseconds, and a checksum of the buffer read back
 *	after the forks (it must equal the one written).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 0, len = mb << 20;
	int n = argc > 2 ? atoi(argv[2]) : 31, huge = argc > 3 && !strcmp(argv[3], "--huge");
	double *call = calloc((size_t)n, sizeof(double)), *cycle = calloc((size_t)n, sizeof(double));
	uint64_t want = 0, sum = 0;
	unsigned char *p;

	if (!mb || n < 1 || !call || !cycle) {
		fprintf(stderr, "usage: fork_loop SIZE_MB [N] [--huge]\n");
		return 2;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("fork_loop: mmap");
		return 1;
	}
	madvise(p, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += 4096) {
		p[i] = (unsigned char)(i >> 12 | 1);
		want += p[i];
	}
	for (int k = 0; k < n; k++) {
		uint64_t t0 = now_ns(), t1;
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		t1 = now_ns();
		if (pid < 0 || waitpid(pid, NULL, 0) != pid) {
			perror("fork_loop: fork");
			return 1;
		}
		call[k] = (double)(t1 - t0) / 1e3;
		cycle[k] = (double)(now_ns() - t0) / 1e3;
	}
	/* Read back after the forks: the work cannot have been optimised away. */
	for (size_t i = 0; i < len; i += 4096)
		sum += p[i];
	printf("{\"size_mb\": %zu, \"n\": %d, \"huge\": %s, \"call_median_us\": %.1f, "
	       "\"total_median_us\": %.1f, \"checksum_ok\": %s}\n",
	       mb, n, huge ? "true" : "false", median(call, n), median(cycle, n),
	       sum == want ? "true" : "false");
	return sum == want ? 0 : 1;
}
