/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_SYSCALL_H
#define SANDBOXTIME_BENCH_SYSCALL_H

#include "sandboxtime/bench_guard.h"
#include "sandboxtime/error.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/stats.h"

/*
 * Do namespaces slow a syscall? Does seccomp? `bench syscall`: tight loops of
 * a cheap syscall (getppid) and of write(2) of one byte to /dev/null, timed
 * in a fresh child on the host, in a sandbox, and in a sandbox with a seccomp
 * filter: the default profile and generated profiles of N rules.
 * `bench cpu`: work that makes no syscall (an integer loop, and memcpy over
 * buffers larger than the last-level cache) on the host, in a sandbox, with
 * the default filter, and with it loaded with SECCOMP_FILTER_FLAG_SPEC_ALLOW:
 * on kernels that turn on the speculative-store-bypass mitigation for every
 * seccomp task, only the flag spares such work.
 */
enum st_bench_op {
	ST_BENCH_GETPPID,
	ST_BENCH_WRITE,
	ST_BENCH_CPU,	 /* a dependent multiply-xorshift chain: registers only */
	ST_BENCH_MEMCPY, /* memcpy of ST_BENCH_MEM_MB between two buffers */
	ST_BENCH_OPS,
};

#define ST_BENCH_MEM_MB 64u

extern const char *const st_bench_op_names[ST_BENCH_OPS];

#define ST_BENCH_MAX_WHERE 8

struct st_syscall_place {
	char name[32];          /* "host", "sandbox", "seccomp:default", "seccomp:100" */
	unsigned int mask;      /* layers of the child */
	struct st_seccomp filter;	    /* prog NULL: none; load_flags: SPEC_ALLOW */
	char ssb[48];			    /* Speculation_Store_Bypass, as the child saw it */
	struct st_samples us[ST_BENCH_OPS]; /* microseconds per call, one sample per child */
	char refused[ST_BENCH_OPS][ST_GUARD_REASON_MAX]; /* "": the figure stands (bench_guard.h) */
};

struct st_bench_syscall {
	const char *name;     /* "syscall" or "cpu" */
	int op_first, op_end; /* the ops of this bench: [op_first, op_end) */
	unsigned int repeat;
	unsigned int calls; /* per sample and op: syscalls, loop iterations or copies */
	unsigned int mask;  /* the sandbox's layers */
	int interrupted_by; /* the signal that stopped the run (-EINTR), or 0 */
	size_t nwhere;
	struct st_syscall_place where[ST_BENCH_MAX_WHERE];
};

/*
 * Sets up the places to measure (compiles the filters) for bench @name
 * ("syscall" or "cpu"); @mask: the sandbox's layers.
 */
int st_bench_syscall_prepare(struct st_bench_syscall *b, const char *name, unsigned int mask,
			     unsigned int repeat, struct st_error *err);

/* GB/s of one memcpy op sample of @us microseconds. */
double st_bench_memcpy_gbps(double us);

/* Measures, interleaved across places, after one unrecorded round. */
int st_bench_syscall_run(struct st_bench_syscall *b, struct st_error *err);

/*
 * Refuses every impossible figure (bench_guard.h): a time below the clock's
 * resolution, and for memcpy a bandwidth above @bound_gbps (the machine's,
 * st_guard_bandwidth_bound_gbps()); a wrong checksum was refused while
 * measuring.
 */
void st_bench_syscall_apply_guards(struct st_bench_syscall *b, double resolution_us,
				   double bound_gbps);

/* The sentence beside the table: what the figures mean here, what they do not show. */
void st_bench_syscall_summary(const struct st_bench_syscall *b, char *buf, size_t len);

void st_bench_syscall_free(struct st_bench_syscall *b);

#endif
