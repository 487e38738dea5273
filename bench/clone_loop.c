// SPDX-License-Identifier: MIT
/*
 * clone_loop: an independent yardstick for sandboxtime's figures. It shares
 * no code with libsandboxtime on purpose: if both agree, neither is lying.
 *
 *   clone_loop [-n N] [-w W] [-c CPU] FLAGS [FLAGS...]
 *	N clone3/ready-pipe/exit/waitpid cycles per flag set after W warm-up
 *	rounds; sets are interleaved (one cycle of each per round, the start
 *	rotating), as sandboxtime does. One JSON object per line on stdout.
 *   clone_loop --floor [-n N] [-w W] [-c CPU] FLAGS
 *	the launch floor in-process: fork+exec+wait of /bin/true, and one
 *	clone3(FLAGS) cycle; floor = 2 * fork_exec + clone cycle.
 *   clone_loop --exec FLAGS -- CMD [ARG...]
 *	clone3(FLAGS), exec CMD in the child, wait: the least a launcher can
 *	do; hyperfine times it beside sandboxtime, unshare and bwrap.
 *   clone_loop --deferred [-n N] [-p POLL_US] FLAGS
 *	the kernel's late teardown, by the method of docs/DESIGN.md but with code
 *	of its own: a helper in a fresh user namespace sets its own
 *	max_<type>_namespaces to 1, runs one cycle, then retries
 *	unshare(CLONE_NEW<type>) every POLL_US until ENOSPC stops. Used to
 *	check that sandboxtime's deferred figures do not depend on how fast
 *	they are polled. -s MS idles MS milliseconds before each sample, so
 *	that the previous sample's frees (the probe's own namespaces die with
 *	the helper) are over before the next one starts. deferred_us ends
 *	after the successful unshare(), attempt_start_us when it began: the
 *	two bracket the free (a blocking ipc probe waits inside the call).
 *   clone_loop --probe [-n N] [-w W] FLAGS
 *	what an availability probe in the style of sandboxtime's
 *	st_layer_probe() costs: fork, the child unshare()s each namespace of
 *	FLAGS in turn (user first), reports on a pipe and exits, the parent
 *	reaps it. An estimate of what sandboxtime pays before its clone3.
 *   clone_loop --rcu [-n N]
 *	times membarrier(MEMBARRIER_CMD_GLOBAL), which is synchronize_rcu()
 *	on a machine with more than one CPU: one RCU grace period, to judge
 *	deferred frees against.
 *
 * FLAGS: comma list of user,uts,ipc,pid,mount,cgroup,time,net, or none.
 * Times are CLOCK_MONOTONIC, in microseconds.
 *   setup    = the clone3() call in the parent
 *   ready    = clone3() start until the child's byte arrives on a pipe
 *   teardown = closing the child's "go" pipe until waitpid() returns
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static const struct {
	const char *name;
	uint64_t flag;
	const char *max_file;
} ns_names[] = {
	{ "uts", CLONE_NEWUTS, "uts" },	     { "ipc", CLONE_NEWIPC, "ipc" },
	{ "pid", CLONE_NEWPID, "pid" },	     { "mount", CLONE_NEWNS, "mnt" },
	{ "cgroup", CLONE_NEWCGROUP, "cgroup" }, { "time", CLONE_NEWTIME, "time" },
	{ "net", CLONE_NEWNET, "net" },
	/* last: probing it moves the helper into a new user namespace */
	{ "user", CLONE_NEWUSER, "user" },
};
#define NNS (sizeof(ns_names) / sizeof(ns_names[0]))

#define MAX_SETS 16

struct set {
	const char *spec;
	uint64_t flags;
	double *setup, *ready, *teardown;
	size_t n;
};

static void die(const char *what)
{
	fprintf(stderr, "clone_loop: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t parse_flags(const char *spec)
{
	char *copy = strdup(spec), *save = NULL;
	uint64_t flags = 0;

	if (!copy)
		die("strdup");
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (!strcmp(t, "none") || !strcmp(t, "base"))
			continue;
		if (!strcmp(t, "mnt"))
			t = "mount";
		for (i = 0; i < NNS; i++)
			if (!strcmp(t, ns_names[i].name))
				break;
		if (i == NNS) {
			fprintf(stderr, "clone_loop: unknown namespace '%s'\n", t);
			exit(2);
		}
		flags |= ns_names[i].flag;
	}
	free(copy);
	return flags;
}

static pid_t clone3_flags(uint64_t flags)
{
	struct clone_args args;

	memset(&args, 0, sizeof(args));
	args.flags = flags;
	args.exit_signal = SIGCHLD;
	return (pid_t)syscall(SYS_clone3, &args, sizeof(args));
}

/* One cycle: the three times, in ns. Exits on any failure. */
static void cycle(uint64_t flags, uint64_t *setup, uint64_t *ready, uint64_t *teardown)
{
	int rdy[2], go[2], status;
	uint64_t t0, t1, t2, t3, t4;
	pid_t pid;
	char c = 'r';

	if (pipe2(rdy, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0)
		die("pipe2");
	t0 = now_ns();
	pid = clone3_flags(flags);
	t1 = now_ns();
	if (pid < 0)
		die("clone3");
	if (pid == 0) {
		close(rdy[0]);
		close(go[1]);
		if (write(rdy[1], &c, 1) != 1)
			_exit(1);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(rdy[1]);
	close(go[0]);
	if (read(rdy[0], &c, 1) != 1) {
		fprintf(stderr, "clone_loop: child died before it was ready\n");
		exit(2);
	}
	t2 = now_ns();
	t3 = now_ns();
	close(go[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	t4 = now_ns();
	close(rdy[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "clone_loop: child failed (status 0x%x)\n", status);
		exit(2);
	}
	*setup = t1 - t0;
	*ready = t2 - t0;
	*teardown = t4 - t3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Same definition as numpy's default percentile: linear between ranks. */
static double pct(const double *sorted, size_t n, double p)
{
	double rank = p * (double)(n - 1);
	size_t lo = (size_t)rank, hi = lo + 1 < n ? lo + 1 : lo;

	return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - (double)lo);
}

static void print_stats(const char *key, double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s)), sum = 0;

	if (!s)
		die("malloc");
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	printf("\"%s\":{\"min\":%.3f,\"median\":%.3f,\"p95\":%.3f,\"mean\":%.3f,\"n\":%zu,", key,
	       s[0], pct(s, n, 0.5), pct(s, n, 0.95), sum / (double)n, n);
	/* In measurement order: a reader can bootstrap an interval (bench/deferred_check.py). */
	fputs("\"samples\":[", stdout);
	for (size_t i = 0; i < n; i++)
		printf("%s%.3f", i ? "," : "", v[i]);
	fputs("]}", stdout);
	free(s);
}

static double *xcalloc(size_t n)
{
	double *p = calloc(n ? n : 1, sizeof(double));

	if (!p)
		die("calloc");
	return p;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("sched_setaffinity");
}

static int run_loop(struct set *sets, size_t nsets, unsigned int n, unsigned int warmup)
{
	for (unsigned int r = 0; r < warmup + n; r++) {
		for (size_t k = 0; k < nsets; k++) {
			struct set *s = &sets[(k + r) % nsets];
			uint64_t a, b, c;

			cycle(s->flags, &a, &b, &c);
			if (r < warmup)
				continue;
			s->setup[s->n] = (double)a / 1000.0;
			s->ready[s->n] = (double)b / 1000.0;
			s->teardown[s->n] = (double)c / 1000.0;
			s->n++;
		}
	}
	for (size_t k = 0; k < nsets; k++) {
		printf("{\"tool\":\"clone_loop\",\"flags\":\"%s\",\"flags_hex\":\"0x%llx\",", sets[k].spec,
		       (unsigned long long)sets[k].flags);
		print_stats("setup_us", sets[k].setup, sets[k].n);
		putchar(',');
		print_stats("ready_us", sets[k].ready, sets[k].n);
		putchar(',');
		print_stats("teardown_us", sets[k].teardown, sets[k].n);
		puts("}");
	}
	return 0;
}

static uint64_t fork_exec_true(void)
{
	static char *const argv[] = { "true", NULL };
	static char *const envp[] = { NULL };
	uint64_t t0 = now_ns();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execve("/bin/true", argv, envp);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "clone_loop: /bin/true failed (status 0x%x)\n", status);
		exit(2);
	}
	return now_ns() - t0;
}

/* Interleaved: a fork+exec of /bin/true, then one clone cycle, per round. */
static int run_floor(const char *spec, unsigned int n, unsigned int warmup)
{
	uint64_t flags = parse_flags(spec);
	double *fe = xcalloc(n), *cl = xcalloc(n), *sorted;
	double fe_med, cl_med;

	for (unsigned int r = 0; r < warmup + n; r++) {
		uint64_t e = fork_exec_true(), a, b, c;

		cycle(flags, &a, &b, &c);
		if (r < warmup)
			continue;
		fe[r - warmup] = (double)e / 1000.0;
		/* the whole cycle: clone, child runs, exits, is reaped */
		cl[r - warmup] = (double)(b + c) / 1000.0;
	}
	sorted = xcalloc(n);
	memcpy(sorted, fe, n * sizeof(double));
	qsort(sorted, n, sizeof(double), cmp_double);
	fe_med = pct(sorted, n, 0.5);
	memcpy(sorted, cl, n * sizeof(double));
	qsort(sorted, n, sizeof(double), cmp_double);
	cl_med = pct(sorted, n, 0.5);
	printf("{\"tool\":\"clone_loop\",\"mode\":\"floor\",\"flags\":\"%s\",", spec);
	print_stats("fork_exec_true_us", fe, n);
	putchar(',');
	print_stats("clone_cycle_us", cl, n);
	printf(",\"floor_us\":%.3f}\n", 2 * fe_med + cl_med);
	return 0;
}

static int run_exec(const char *spec, char **argv)
{
	int status;
	pid_t pid = clone3_flags(parse_flags(spec));

	if (pid < 0)
		die("clone3");
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);

	if (fd < 0 || write(fd, text, (size_t)len) != len) {
		fprintf(stderr, "clone_loop: writing '%s' to %s: %s\n", text, path, strerror(errno));
		_exit(2);
	}
	close(fd);
}

/* In the helper (own user namespace): one cycle, then wait for the frees. */
_Noreturn static void deferred_helper(uint64_t flags, long poll_us, int go_rd, int res_wr)
{
	struct timespec pause = { poll_us / 1000000, (poll_us % 1000000) * 1000 };
	uint64_t a, b, c, reaped, done, start = 0;
	double out[3];
	unsigned long probes = 0;
	char path[64], ch;

	prctl(PR_SET_TIMERSLACK, 1UL);
	if (read(go_rd, &ch, 1) < 0)
		_exit(2);
	for (size_t i = 0; i < NNS; i++) {
		if (!(flags & ns_names[i].flag))
			continue;
		snprintf(path, sizeof(path), "/proc/sys/user/max_%s_namespaces", ns_names[i].max_file);
		write_file(path, "1");
	}
	cycle(flags, &a, &b, &c);
	reaped = now_ns();
	for (size_t i = 0; i < NNS; i++) {
		if (!(flags & ns_names[i].flag))
			continue;
		/* start: when the attempt that succeeds began (a blocking ipc probe waits in it). */
		while ((start = now_ns(), unshare((int)ns_names[i].flag) < 0)) {
			if (errno != ENOSPC || now_ns() - reaped > 10000000000ull) {
				fprintf(stderr, "clone_loop: probe %s: %s\n", ns_names[i].name,
					strerror(errno));
				_exit(2);
			}
			probes++;
			if (poll_us)
				nanosleep(&pause, NULL);
		}
	}
	done = now_ns();
	out[0] = (double)(done - reaped) / 1000.0;
	out[1] = (double)probes;
	out[2] = (double)(start - reaped) / 1000.0;
	if (write(res_wr, out, sizeof(out)) != (ssize_t)sizeof(out))
		_exit(2);
	_exit(0);
}

static int run_deferred(const char *spec, unsigned int n, unsigned int warmup, long poll_us,
			long sleep_ms)
{
	struct timespec idle = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000 };
	uint64_t flags = parse_flags(spec);
	double *v = xcalloc(n), *vs = xcalloc(n), probes = 0;
	char path[64], map[64];

	for (unsigned int r = 0; r < warmup + n; r++) {
		int go[2], res[2], status;
		double out[3];
		pid_t pid;

		if (sleep_ms)
			nanosleep(&idle, NULL);
		if (pipe2(go, O_CLOEXEC) < 0 || pipe2(res, O_CLOEXEC) < 0)
			die("pipe2");
		pid = clone3_flags(CLONE_NEWUSER);
		if (pid < 0)
			die("clone3(CLONE_NEWUSER)");
		if (pid == 0) {
			close(go[1]);
			close(res[0]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			deferred_helper(flags, poll_us, go[0], res[1]);
		}
		close(go[0]);
		close(res[1]);
		snprintf(path, sizeof(path), "/proc/%d/setgroups", pid);
		write_file(path, "deny");
		snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
		snprintf(map, sizeof(map), "0 %u 1", (unsigned int)geteuid());
		write_file(path, map);
		snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
		snprintf(map, sizeof(map), "0 %u 1", (unsigned int)getegid());
		write_file(path, map);
		close(go[1]);
		if (read(res[0], out, sizeof(out)) != (ssize_t)sizeof(out)) {
			fprintf(stderr, "clone_loop: deferred helper died without an answer\n");
			exit(2);
		}
		close(res[0]);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				die("waitpid");
		if (r < warmup)
			continue;
		v[r - warmup] = out[0];
		vs[r - warmup] = out[2];
		probes += out[1];
	}
	printf("{\"tool\":\"clone_loop\",\"mode\":\"deferred\",\"flags\":\"%s\",\"poll_us\":%ld,"
	       "\"sleep_ms\":%ld,\"probes_per_sample\":%.1f,",
	       spec, poll_us, sleep_ms, probes / n);
	print_stats("deferred_us", v, n);
	/* The last type's successful attempt, bracketed: from its start (above: its end). */
	putchar(',');
	print_stats("attempt_start_us", vs, n);
	puts("}");
	return 0;
}

static int run_probe(const char *spec, unsigned int n, unsigned int warmup)
{
	uint64_t flags = parse_flags(spec);
	double *v = xcalloc(n);

	for (unsigned int r = 0; r < warmup + n; r++) {
		int fds[2], status, errs[NNS] = { 0 };
		uint64_t t0;
		pid_t pid;

		if (pipe2(fds, O_CLOEXEC) < 0)
			die("pipe2");
		t0 = now_ns();
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			close(fds[0]);
			if (flags & CLONE_NEWUSER)
				errs[NNS - 1] = unshare(CLONE_NEWUSER) < 0 ? errno : 0;
			for (size_t i = 0; i + 1 < NNS; i++)
				if (flags & ns_names[i].flag)
					errs[i] = unshare((int)ns_names[i].flag) < 0 ? errno : 0;
			if (write(fds[1], errs, sizeof(errs)) != (ssize_t)sizeof(errs))
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		if (read(fds[0], errs, sizeof(errs)) != (ssize_t)sizeof(errs)) {
			fprintf(stderr, "clone_loop: probe child died without an answer\n");
			exit(2);
		}
		close(fds[0]);
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				die("waitpid");
		for (size_t i = 0; i < NNS; i++)
			if (errs[i]) {
				fprintf(stderr, "clone_loop: probe unshare(%s): %s\n", ns_names[i].name,
					strerror(errs[i]));
				exit(2);
			}
		if (r >= warmup)
			v[r - warmup] = (double)(now_ns() - t0) / 1000.0;
	}
	printf("{\"tool\":\"clone_loop\",\"mode\":\"probe\",\"flags\":\"%s\",", spec);
	print_stats("probe_us", v, n);
	puts("}");
	return 0;
}

static int run_rcu(unsigned int n, unsigned int warmup)
{
	double *v = xcalloc(n);

	for (unsigned int r = 0; r < warmup + n; r++) {
		uint64_t t0 = now_ns();

		if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) < 0)
			die("membarrier(MEMBARRIER_CMD_GLOBAL)");
		if (r >= warmup)
			v[r - warmup] = (double)(now_ns() - t0) / 1000.0;
	}
	printf("{\"tool\":\"clone_loop\",\"mode\":\"rcu\",");
	print_stats("synchronize_rcu_us", v, n);
	puts("}");
	return 0;
}

static void usage(void)
{
	fputs("usage: clone_loop [-n N] [-w W] [-c CPU] FLAGS [FLAGS...]\n"
	      "       clone_loop --floor [-n N] [-w W] [-c CPU] FLAGS\n"
	      "       clone_loop --exec FLAGS -- CMD [ARG...]\n"
	      "       clone_loop --deferred [-n N] [-w W] [-p POLL_US] [-s SLEEP_MS] FLAGS\n"
	      "       clone_loop --probe [-n N] [-w W] FLAGS\n"
	      "       clone_loop --rcu [-n N]\n"
	      "FLAGS: comma list of user,uts,ipc,pid,mount,cgroup,time,net, or none\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int n = 200, warmup = 10;
	int cpu = -1, i = 1;
	long poll_us = 20, sleep_ms = 0;
	const char *mode = "loop";
	struct set sets[MAX_SETS];
	size_t nsets = 0;

	if (i < argc && (!strcmp(argv[i], "--floor") || !strcmp(argv[i], "--exec") ||
			 !strcmp(argv[i], "--rcu") || !strcmp(argv[i], "--deferred") ||
			 !strcmp(argv[i], "--probe")))
		mode = argv[i++] + 2;
	if (!strcmp(mode, "exec")) {
		if (argc - i < 3 || strcmp(argv[i + 1], "--"))
			usage();
		return run_exec(argv[i], &argv[i + 2]);
	}
	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "-n"))
			n = (unsigned int)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-w"))
			warmup = (unsigned int)strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-s"))
			sleep_ms = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-p"))
			poll_us = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "-c"))
			cpu = atoi(argv[i + 1]);
		else
			usage();
	}
	if (n == 0)
		usage();
	pin(cpu);
	if (!strcmp(mode, "rcu"))
		return run_rcu(n, warmup);
	if (!strcmp(mode, "probe")) {
		if (argc - i != 1)
			usage();
		return run_probe(argv[i], n, warmup);
	}
	if (!strcmp(mode, "deferred")) {
		if (argc - i != 1)
			usage();
		return run_deferred(argv[i], n, warmup, poll_us, sleep_ms);
	}
	if (!strcmp(mode, "floor")) {
		if (argc - i != 1)
			usage();
		return run_floor(argv[i], n, warmup);
	}
	for (; i < argc && nsets < MAX_SETS; i++, nsets++) {
		sets[nsets].spec = argv[i];
		sets[nsets].flags = parse_flags(argv[i]);
		sets[nsets].setup = xcalloc(n);
		sets[nsets].ready = xcalloc(n);
		sets[nsets].teardown = xcalloc(n);
		sets[nsets].n = 0;
	}
	if (!nsets)
		usage();
	return run_loop(sets, nsets, n, warmup);
}
