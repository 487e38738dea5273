// SPDX-License-Identifier: MIT
/*
 * sandboxtime-probe: the small programs of `sandboxtime bench where`, one
 * static binary that runs unchanged on the host, in the sandbox, as /init of
 * a KVM microVM and under qemu-user built for another architecture.
 *
 * It needs nothing but the kernel: no library, no file but /dev/null, no
 * argument. Its first line goes out before any work ("start", so that the
 * launcher can time exec to main); its second line holds every figure and,
 * beside each, what the host checks it against (key=value, one space apart,
 * parsed by src/bench/where_probe_line.c: a name here is a name there).
 * Run as pid 1 (the microVM), it powers the machine off at the end.
 *
 * Plain C and libc only: the project's headers pull libraries no cross
 * compiler has.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CALLS 10000000u
#define SYSCALLS 200000u
#define MEM_BYTES (64u << 20)
#define MEM_PASSES 4u
#define FORK_BYTES (100u << 20)
#define FORKS 5u

#if defined(__x86_64__)
#define ARCH "x86_64"
#elif defined(__aarch64__)
#define ARCH "aarch64"
#else
#define ARCH "other"
#endif

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The barrier keeps the call: without it the loop folds into one addition. */
__attribute__((noinline)) static uint64_t step(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* ns per call; *sum must come back as CALLS. */
static double time_calls(uint64_t *sum)
{
	uint64_t x = 0;
	double t0 = now_ns();

	for (unsigned int i = 0; i < CALLS; i++)
		x = step(x);
	*sum = x;
	return (now_ns() - t0) / CALLS;
}

/* ns per write(2) of one byte to /dev/null; *done counts the bytes written. */
static double time_writes(uint64_t *done)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	char c = 'x';
	double t0;

	*done = 0;
	if (fd < 0)
		return -1;
	t0 = now_ns();
	for (unsigned int i = 0; i < SYSCALLS; i++)
		*done += write(fd, &c, 1) == 1;
	t0 = (now_ns() - t0) / SYSCALLS;
	close(fd);
	return t0;
}

/* ns per getppid(2); *same counts the calls that returned the first answer. */
static double time_getppid(uint64_t *same)
{
	pid_t first = getppid();
	double t0 = now_ns();

	*same = 0;
	for (unsigned int i = 0; i < SYSCALLS; i++)
		*same += getppid() == first;
	return (now_ns() - t0) / SYSCALLS;
}

static uint64_t sum_words(const uint64_t *w, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += w[i];
	return s;
}

struct mem_result {
	double memset_us, memcpy_us;
	uint64_t memset_sum, memset_want, memcpy_sum, memcpy_want;
};

/*
 * µs per pass over 64 MiB. Both buffers are touched before the clock starts
 * (a first touch would time page faults); the sums read every word after the
 * last pass, so no pass can be skipped.
 */
static int time_memory(struct mem_result *m)
{
	size_t n = MEM_BYTES / sizeof(uint64_t);
	uint64_t *src = malloc(MEM_BYTES), *dst = malloc(MEM_BYTES);
	double t0;

	if (!src || !dst) {
		free(src);
		free(dst);
		return -1;
	}
	m->memcpy_want = 0;
	for (size_t i = 0; i < n; i++) {
		src[i] = i * 0x9e3779b97f4a7c15ull + 1;
		m->memcpy_want += src[i];
	}
	memset(dst, 0, MEM_BYTES);
	t0 = now_ns();
	for (unsigned int p = 0; p < MEM_PASSES; p++)
		memset(dst, 0x5a + (int)p, MEM_BYTES);
	m->memset_us = (now_ns() - t0) / MEM_PASSES / 1e3;
	m->memset_sum = sum_words(dst, n);
	m->memset_want = (uint64_t)n * (0x0101010101010101ull * (0x5a + MEM_PASSES - 1));
	t0 = now_ns();
	for (unsigned int p = 0; p < MEM_PASSES; p++) {
		memcpy(dst, src, MEM_BYTES);
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	m->memcpy_us = (now_ns() - t0) / MEM_PASSES / 1e3;
	m->memcpy_sum = sum_words(dst, n);
	free(src);
	free(dst);
	return 0;
}

/* µs per fork of a parent with 100 MiB touched, until the child is reaped. */
static double time_fork(uint64_t *reaped)
{
	char *mem = malloc(FORK_BYTES);
	double total = 0;

	*reaped = 0;
	if (!mem)
		return -1;
	memset(mem, 1, FORK_BYTES);
	for (unsigned int i = 0; i < FORKS; i++) {
		double t0 = now_ns();
		pid_t pid = fork();
		int status;

		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			break;
		total += now_ns() - t0;
		*reaped += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	free(mem);
	return *reaped ? total / (double)*reaped / 1e3 : -1;
}

int main(void)
{
	static const char start[] = "sandboxtime-probe start\n";
	uint64_t calls, writes, ppids, forks;
	struct mem_result m = { 0 };
	double call_ns, write_ns, getppid_ns, fork_us;
	int mem_ok;

	/* write(2), not stdio: the launcher's clock stops at this line. */
	if (write(1, start, sizeof(start) - 1) < 0)
		return 1;
	call_ns = time_calls(&calls);
	write_ns = time_writes(&writes);
	getppid_ns = time_getppid(&ppids);
	mem_ok = time_memory(&m) == 0;
	fork_us = time_fork(&forks);
	printf("sandboxtime-probe v=1 arch=" ARCH " call_ns=%.4f calls=%" PRIu64 " calls_want=%u"
	       " write_devnull_ns=%.3f writes=%" PRIu64 " writes_want=%u"
	       " getppid_ns=%.3f getppids=%" PRIu64 " getppids_want=%u"
	       " memset_64mib_us=%.3f memset_sum=%" PRIu64 " memset_want=%" PRIu64
	       " memcpy_64mib_us=%.3f memcpy_sum=%" PRIu64 " memcpy_want=%" PRIu64
	       " fork_100mb_us=%.3f forks=%" PRIu64 " forks_want=%u\n",
	       call_ns, calls, CALLS, write_ns, writes, SYSCALLS, getppid_ns, ppids, SYSCALLS,
	       mem_ok ? m.memset_us : -1, m.memset_sum, m.memset_want, mem_ok ? m.memcpy_us : -1,
	       m.memcpy_sum, m.memcpy_want, fork_us, forks, FORKS);
	fflush(stdout);
	/* /init of the microVM: nothing else will end the machine. */
	if (getpid() == 1) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
