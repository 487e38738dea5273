/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_SYSCALL_H
#define SANDBOXTIME_BENCH_SYSCALL_H

#include "sandboxtime/error.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/stats.h"

/*
 * Do namespaces slow a syscall? Does seccomp? Tight loops of a cheap syscall
 * (getppid) and of write(2) of one byte to /dev/null, timed in a fresh child
 * on the host, in a sandbox, and in a sandbox with a seccomp filter: the
 * default profile and generated profiles of N rules.
 */
enum st_bench_op {
	ST_BENCH_GETPPID,
	ST_BENCH_WRITE,
	ST_BENCH_OPS,
};

extern const char *const st_bench_op_names[ST_BENCH_OPS];

#define ST_BENCH_MAX_WHERE 8

struct st_bench_where {
	char name[32];          /* "host", "sandbox", "seccomp:default", "seccomp:100" */
	unsigned int mask;      /* layers of the child */
	struct st_seccomp filter; /* prog NULL: none */
	struct st_samples us[ST_BENCH_OPS]; /* microseconds per call, one sample per child */
};

struct st_bench_syscall {
	unsigned int repeat;
	unsigned int calls; /* per sample and op */
	unsigned int mask;  /* the sandbox's layers */
	size_t nwhere;
	struct st_bench_where where[ST_BENCH_MAX_WHERE];
};

/* Sets up the places to measure (compiles the filters); @mask: the sandbox's layers. */
int st_bench_syscall_prepare(struct st_bench_syscall *b, unsigned int mask, unsigned int repeat,
			     struct st_error *err);

/* Measures, interleaved across places, after one unrecorded round. */
int st_bench_syscall_run(struct st_bench_syscall *b, struct st_error *err);

void st_bench_syscall_free(struct st_bench_syscall *b);

#endif
