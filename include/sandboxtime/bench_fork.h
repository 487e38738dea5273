/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_BENCH_FORK_H
#define SANDBOXTIME_BENCH_FORK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandboxtime/error.h"
#include "sandboxtime/fork_methods.h"
#include "sandboxtime/stats.h"

/*
 * `bench fork`: is fork() O(memory)? For each size, a worker process touches
 * every 4 KiB page of a buffer of that size (so its page tables exist), then
 * makes children on request, each way of enum st_fork_method, and times the
 * call as the parent sees it and the whole cycle up to waitpid. The main
 * process sends the requests in rounds that go across sizes and methods.
 */
#define ST_FORK_MAX_SIZES 16

/*
 * The floor under a fork that copies page tables: each touched 4 KiB page is
 * one page-table entry to copy and write-protect and one page reference to
 * take, 256 of each per MB. 0.05 us per MB is 0.2 ns per page, below one
 * atomic increment on any CPU of today: a faster figure is a broken clock or
 * a buffer that was never really there (huge pages, dead code).
 */
#define ST_FORK_FLOOR_US_PER_MB 0.05

/*
 * Keep this much MemAvailable free beyond what the workers hold: the page
 * tables (2 MB per GB in the worker and as much in each fork child), the
 * children, and everyone else on the machine.
 */
#define ST_FORK_MARGIN_MB 256u
#define ST_FORK_MARGIN_SHIFT 3 /* plus an eighth of the buffers */

enum st_fork_figure {
	ST_FORK_CALL,  /* the creating call, until it returns in the parent */
	ST_FORK_TOTAL, /* from the call until waitpid has reaped the child */
	ST_FORK_FIGURES,
};

extern const char *const st_fork_figure_names[ST_FORK_FIGURES];

#define ST_FORK_REASON_MAX 160

/* One size and one method: its samples, or why a figure is not shown. */
struct st_fork_cell {
	struct st_samples us[ST_FORK_FIGURES];
	char refused[ST_FORK_FIGURES][ST_FORK_REASON_MAX]; /* "": the figure stands */
};

struct st_bench_fork {
	unsigned int repeat;
	unsigned int mask; /* the sandbox's layers: clone3_ns's flags */
	size_t nsizes;
	unsigned int sizes_mb[ST_FORK_MAX_SIZES]; /* ascending */
	uint64_t mem_available_mb;
	double resolution_us; /* clock_getres(CLOCK_MONOTONIC) */
	const char *exec_path; /* what vfork_exec and posix_spawn execute */
	int interrupted_by;    /* the signal that stopped the run (-EINTR), or 0 */
	struct st_fork_cell cell[ST_FORK_MAX_SIZES][ST_FORK_METHODS];
};


/*
 * Whether the machine can spare @sizes (MB) held at once: every worker
 * exists for the whole run. Refuses the first size whose running total, plus
 * ST_FORK_MARGIN_MB and an eighth, exceeds @avail_mb, naming both. Pure.
 */
int st_bench_fork_check_memory(const unsigned int *sizes, size_t n, uint64_t avail_mb,
			       struct st_error *err);

/*
 * Whether a figure whose fastest sample is @min_us can be true: not below the
 * clock's @resolution_us, and when the method copies page tables
 * (@copies_tables), not below ST_FORK_FLOOR_US_PER_MB per MB of @size_mb.
 * Returns 1 and writes the reason to @why when it cannot. Pure.
 */
int st_bench_fork_impossible(double min_us, unsigned int size_mb, int copies_tables,
			     double resolution_us, char *why, size_t len);

/*
 * Sorts @sizes (at least one: --sizes holds the defaults), reads
 * MemAvailable and refuses what the machine cannot spare, before anything
 * is measured.
 */
int st_bench_fork_prepare(struct st_bench_fork *b, const unsigned int *sizes, size_t n,
			  unsigned int mask, unsigned int repeat, struct st_error *err);

/*
 * Measures: one unrecorded round, then @repeat rounds; applies the guards.
 * -EINTR with interrupted_by set when SIGINT, SIGTERM, ... arrived.
 */
int st_bench_fork_run(struct st_bench_fork *b, struct st_error *err);

/* Replaces every impossible figure by its reason (st_bench_fork_impossible). */
void st_bench_fork_apply_guards(struct st_bench_fork *b);

/* The median of a figure in microseconds, or -1 when it is refused or empty. */
double st_bench_fork_median(const struct st_bench_fork *b, size_t size, int method,
			    enum st_fork_figure fig);

void st_bench_fork_free(struct st_bench_fork *b);

#endif
