// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/caps.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

#define CALLS 100000u
#define CPU_ITERATIONS (1u << 22)
#define MEM_COPIES 4u

const char *const st_bench_op_names[ST_BENCH_OPS] = {
	[ST_BENCH_GETPPID] = "getppid",
	[ST_BENCH_WRITE] = "write_devnull",
	[ST_BENCH_CPU] = "cpu_loop",
	[ST_BENCH_MEMCPY] = "memcpy_64mib",
};

static const unsigned int rule_counts[] = { 10, 100, 300 };

struct child_result {
	double ns_per_call[ST_BENCH_OPS];
	int checksum_ok;
	char ssb[48];
	struct st_error err;
	int failed;
};

/*
 * A profile of @n rules that never fire: default allow, and for each of @n
 * syscalls an EPERM rule whose argument condition no real call meets (arg0
 * equal to a non-canonical address). Every call walks past the rules, yet
 * nothing is denied, not even to a sanitizer's runtime.
 */
static int rules_profile(unsigned int n, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[");
	unsigned int added = 0;

	for (int nr = 0; nr < 1024 && added < n && used < len; nr++) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

		if (name)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s{\"names\":[\"%s\"],\"action\":\"SCMP_ACT_ERRNO\","
						 "\"args\":[{\"index\":0,\"value\":6840287455393116173,"
						 "\"op\":\"SCMP_CMP_EQ\"}]}",
						 added ? "," : "", name);
		added += name != NULL;
		free(name);
	}
	used += (size_t)snprintf(buf + used, len - used, "]}");
	return used < len && added == n ? 0 : -ENOSPC;
}

static struct st_syscall_place *add_where(struct st_bench_syscall *b, const char *name, unsigned int mask)
{
	struct st_syscall_place *w = &b->where[b->nwhere++];

	snprintf(w->name, sizeof(w->name), "%s", name);
	w->mask = mask;
	for (int op = 0; op < ST_BENCH_OPS; op++)
		st_samples_reserve(&w->us[op], b->repeat);
	return w;
}

static int prepare_syscall(struct st_bench_syscall *b, unsigned int mask, struct st_error *err)
{
	static char profile[128 * 1024];
	int ret;

	b->calls = CALLS;
	b->op_first = ST_BENCH_GETPPID;
	b->op_end = ST_BENCH_WRITE + 1;
	add_where(b, "host", 0);
	add_where(b, "sandbox", mask);
	ret = st_seccomp_compile("default", st_caps_default(), &add_where(b, "seccomp:default", mask)->filter, err);
	for (size_t i = 0; ret == 0 && i < ARRAY_SIZE(rule_counts); i++) {
		char name[32];

		snprintf(name, sizeof(name), "seccomp:%u", rule_counts[i]);
		if (rules_profile(rule_counts[i], profile, sizeof(profile)) < 0)
			return st_error_set(err, ENOSPC, "bench: cannot make a profile of %u rules", rule_counts[i]);
		ret = st_seccomp_compile_json(profile, strlen(profile), name, st_caps_default(), &add_where(b, name, mask)->filter,
					      err);
	}
	return ret;
}

/* The same default filter twice: loaded as sandboxtime run does, and with SPEC_ALLOW. */
static int prepare_cpu(struct st_bench_syscall *b, unsigned int mask, struct st_error *err)
{
	int ret;

	b->calls = CPU_ITERATIONS;
	b->op_first = ST_BENCH_CPU;
	b->op_end = ST_BENCH_MEMCPY + 1;
	add_where(b, "host", 0);
	add_where(b, "sandbox", mask);
	ret = st_seccomp_compile("default", st_caps_default(),
				 &add_where(b, "seccomp:default", mask)->filter, err);
	if (ret == 0)
		ret = st_seccomp_compile("default", st_caps_default(),
					 &add_where(b, "seccomp:spec_allow", mask)->filter, err);
	b->where[b->nwhere - 1].filter.load_flags = SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	return ret;
}

int st_bench_syscall_prepare(struct st_bench_syscall *b, const char *name, unsigned int mask,
			     unsigned int repeat, struct st_error *err)
{
	memset(b, 0, sizeof(*b));
	b->name = name;
	b->repeat = repeat;
	b->mask = mask;
	return strcmp(name, "cpu") == 0 ? prepare_cpu(b, mask, err) : prepare_syscall(b, mask, err);
}

double st_bench_memcpy_gbps(double us)
{
	/* The bytes copied (each is read once and written once). */
	return us > 0 ? (double)ST_BENCH_MEM_MB * 1024 * 1024 / (us * 1e3) : 0;
}

/* "thread force mitigated", "vulnerable", ...: what the kernel applies to this task. */
static void read_ssb(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Speculation_Store_Bypass:", 25) == 0) {
			snprintf(buf, len, "%s", line + 25 + strspn(line + 25, " \t"));
			buf[strcspn(buf, "\n")] = '\0';
		}
	}
	if (f)
		fclose(f);
}

/*
 * Computation with no syscall in it: a dependent multiply-xorshift chain (the
 * speculative-store-bypass mitigation does not touch it: the control), and
 * memcpy between buffers twice the size of a large last-level cache (loads
 * and stores: where disabling store bypass can show).
 */
static void measure_cpu(unsigned int iterations, struct child_result *r)
{
	size_t size = (size_t)ST_BENCH_MEM_MB << 20;
	uint64_t x = 0x9e3779b97f4a7c15ull, t0, sum = 0, want = 0;
	unsigned char *src = malloc(size), *dst = malloc(size);

	t0 = st_now_ns();
	for (unsigned int i = 0; i < iterations; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		x *= 0x2545f4914f6cdd1dull;
	}
	r->ns_per_call[ST_BENCH_CPU] = (double)(st_now_ns() - t0);
	if (!src || !dst) {
		free(src);
		free(dst);
		return;
	}
	/* Touched first, so that page faults are not timed. */
	memset(src, 0x5a, size);
	memset(dst, 0, size);
	for (unsigned int k = 0; k < MEM_COPIES; k++)
		src[(size_t)k * 4099] = (unsigned char)(k * 4099);
	t0 = st_now_ns();
	for (unsigned int k = 0; k < MEM_COPIES; k++) {
		memcpy(dst, src, size);
		/* Stops the compiler from merging the copies into one. */
		__asm__ volatile("" : : "r"(dst) : "memory");
		sum += dst[(size_t)k * 4099];
		want += (unsigned char)(k * 4099);
	}
	r->ns_per_call[ST_BENCH_MEMCPY] = (double)(st_now_ns() - t0) / MEM_COPIES;
	/* x stays non-zero through xorshift; the copies must have copied. */
	r->checksum_ok = x != 0 && sum == want && memcmp(dst, src, size) == 0;
	free(src);
	free(dst);
}

/* The measured loops; the sums keep the compiler from dropping the calls. */
static void measure_loops(unsigned int calls, struct child_result *r)
{
	long expect = syscall(SYS_getppid);
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	volatile long sum = 0;
	long written = 0;
	uint64_t t0;

	t0 = st_now_ns();
	for (unsigned int i = 0; i < calls; i++)
		sum += syscall(SYS_getppid);
	r->ns_per_call[ST_BENCH_GETPPID] = (double)(st_now_ns() - t0) / calls;
	t0 = st_now_ns();
	for (unsigned int i = 0; i < calls; i++)
		written += write(devnull, "x", 1);
	r->ns_per_call[ST_BENCH_WRITE] = (double)(st_now_ns() - t0) / calls;
	r->checksum_ok = sum == expect * (long)calls && written == (long)calls;
	close(devnull);
}

static void _noreturn_ bench_child(const struct st_bench_syscall *b, const struct st_syscall_place *w,
				   int fd)
{
	struct child_result r;

	memset(&r, 0, sizeof(r));
	if (w->filter.prog && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
			       st_seccomp_load(&w->filter, &r.err) < 0))
		r.failed = 1;
	read_ssb(r.ssb, sizeof(r.ssb));
	if (!r.failed && b->op_first == ST_BENCH_CPU)
		measure_cpu(b->calls, &r);
	else if (!r.failed)
		measure_loops(b->calls, &r);
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

static int sample(struct st_bench_syscall *b, struct st_syscall_place *w, int record, struct st_error *err)
{
	_cleanup_close_ int rd = -1, wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	struct child_result r;
	int ret;

	if (st_pipe(&rd, &wr, "bench: pipe", err) < 0)
		return -err->errnum;
	pid = st_clone3(st_layer_flags(w->mask), err);
	if (pid < 0)
		return st_error_wrap(err, "bench: %s", w->name);
	if (pid == 0)
		bench_child(b, w, wr);
	closep(&wr);
	if (TEMP_FAILURE_RETRY(read(rd, &r, sizeof(r))) != (ssize_t)sizeof(r))
		return st_error_set(err, EPROTO, "bench: %s: the measuring child died", w->name);
	ret = st_reap(take_pid(&pid), NULL, err);
	if (ret < 0)
		return ret;
	if (r.failed) {
		*err = r.err;
		return st_error_wrap(err, "bench: %s", w->name);
	}
	/* An impossible number means the instrument lies: the figure gives way to the reason. */
	for (int op = b->op_first; !r.checksum_ok && op < b->op_end; op++)
		if (!w->refused[op][0])
			snprintf(w->refused[op], sizeof(w->refused[op]),
				 "impossible: checksum mismatch: the loops' results are wrong, the work was not done");
	snprintf(w->ssb, sizeof(w->ssb), "%s", r.ssb);
	for (int op = b->op_first; record && op < b->op_end; op++)
		st_samples_add(&w->us[op], r.ns_per_call[op] / 1000.0);
	return 0;
}

int st_bench_syscall_run(struct st_bench_syscall *b, struct st_error *err)
{
	for (unsigned int round = 0; round <= b->repeat; round++) {
		for (size_t k = 0; k < b->nwhere; k++) {
			int sig = st_signals_poll();
			int ret;

			if (sig) {
				b->interrupted_by = sig;
				return st_error_set(err, EINTR, "interrupted by %s while measuring",
						    st_signal_name(sig));
			}
			/* Round 0 warms up; each round starts one place further on. */
			ret = sample(b, &b->where[(k + round) % b->nwhere], round > 0, err);
			if (ret < 0)
				return ret;
		}
	}
	st_bench_syscall_apply_guards(b, st_guard_clock_resolution_us(),
				      b->op_first == ST_BENCH_CPU ? st_guard_bandwidth_bound_gbps() : 0);
	return 0;
}

void st_bench_syscall_apply_guards(struct st_bench_syscall *b, double resolution_us,
				   double bound_gbps)
{
	for (size_t i = 0; i < b->nwhere; i++)
		for (int op = b->op_first; op < b->op_end; op++) {
			struct st_syscall_place *w = &b->where[i];
			struct st_stats st;

			if (w->refused[op][0] || st_stats_compute(w->us[op].v, w->us[op].n, &st) < 0 ||
			    st.n == 0)
				continue;
			/* The fastest sample: the one that would be impossible first. */
			if (st_guard_time(st.min, resolution_us, w->refused[op], sizeof(w->refused[op])))
				continue;
			if (op == ST_BENCH_MEMCPY)
				st_guard_bandwidth(st_bench_memcpy_gbps(st.min), bound_gbps, w->refused[op],
						   sizeof(w->refused[op]));
		}
}

static double median_of(const struct st_bench_syscall *b, size_t where, int op)
{
	struct st_stats st;

	if (where >= b->nwhere || b->where[where].refused[op][0] ||
	    st_stats_compute(b->where[where].us[op].v, b->where[where].us[op].n, &st) < 0 || st.n == 0)
		return -1;
	return st.median;
}

void st_bench_syscall_summary(const struct st_bench_syscall *b, char *buf, size_t len)
{
	int cpu = b->op_first == ST_BENCH_CPU;
	int op = cpu ? ST_BENCH_MEMCPY : ST_BENCH_GETPPID;
	/* Places 0, 1 and 2: host, sandbox, seccomp:default (bench_syscall_prepare). */
	double h = median_of(b, 0, op), s = median_of(b, 1, op), f = median_of(b, 2, op);

	if (h < 0 || s < 0 || f < 0)
		snprintf(buf, len, "On this machine a figure was refused as impossible (refused says why): "
			 "the instrument cannot be trusted here; not shown: %s.",
			 cpu ? "memory bandwidth of more than one core" : "syscalls that do real work");
	else if (cpu)
		snprintf(buf, len, "On this machine a 64 MiB memcpy took %.0f us on the host (%.2f GB/s), "
			 "%.0f us in the sandbox and %.0f us under the default seccomp filter: a filter can "
			 "slow computation only through the mitigation it turns on (speculation_store_bypass); "
			 "not shown: "
			 "bandwidth of more than one core, or of huge pages.", h, st_bench_memcpy_gbps(h), s, f);
	else
		snprintf(buf, len, "On this machine getppid() took %.1f ns on the host, %.1f ns in the "
			 "sandbox and %.1f ns under the default seccomp filter: the first difference is what "
			 "the namespaces add to a syscall, the second what the filter's rules add; not shown: "
			 "syscalls that do real work, beside which these few ns vanish.", h * 1e3, s * 1e3, f * 1e3);
}

void st_bench_syscall_free(struct st_bench_syscall *b)
{
	for (size_t i = 0; i < b->nwhere; i++) {
		st_seccomp_free(&b->where[i].filter);
		for (int op = 0; op < ST_BENCH_OPS; op++)
			st_samples_free(&b->where[i].us[op]);
	}
	b->nwhere = 0;
}
