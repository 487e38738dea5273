// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/bench_cgroup.h"
#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_churn.h"
#include "sandboxtime/bench_fork.h"
#include "sandboxtime/bench_launch.h"
#include "sandboxtime/bench_mounts.h"
#include "sandboxtime/bench_registry.h"
#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/bench_userns.h"
#include "sandboxtime/bench_where.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/report_bench_churn.h"
#include "sandboxtime/report_bench_fork.h"
#include "sandboxtime/report_bench_grid.h"
#include "sandboxtime/session.h"

/*
 * bench fork: the sizes are checked against MemAvailable before the session
 * opens -o or probes a layer, so a size the machine cannot spare costs
 * nothing and leaves nothing behind.
 */
static int bench_fork(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		      struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_fork b __attribute__((cleanup(st_bench_fork_free)));
	struct st_bench_fork_report r = { .out = out, .b = &b };
	const struct st_sink_writers w = { .format = &st_bench_fork_format,
					   .title = "sandboxtime bench fork", .what = "bench fork" };
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_fork_prepare(&b, o->sizes_mb, o->nsizes, 0, o->measure.repeat, err);
	if (ret == 0)
		ret = st_session_prepare(&s, out, &o->measure, err);
	if (ret < 0)
		return ret;
	b.mask = s.report.mask;
	ret = st_bench_fork_run(&b, err);
	/* Stopped by signal N: 128+N, as a run and layers exit (docs/DESIGN.md). */
	if (b.interrupted_by)
		*exit_code = ST_EXIT_SIGNAL_BASE + b.interrupted_by;
	if (ret < 0)
		return ret;
	if (st_sink_writes(&s.sink))
		st_host_collect(&s.report.host);
	r.host = &s.report.host;
	return st_sink_emit(&s.sink, &w, &r, err);
}

/*
 * bench churn: the machine's limits are checked before the session opens -o
 * or probes a layer; a signal stops it with 128+N after everything it made
 * is reaped and freed.
 */
static int bench_churn(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		       struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_churn b __attribute__((cleanup(st_bench_churn_free)));
	struct st_bench_churn_report r = { .out = out, .b = &b };
	const struct st_sink_writers w = { .format = &st_bench_churn_format,
					   .title = "sandboxtime bench churn", .what = "bench churn" };
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_churn_prepare(&b, o->measure.ns_mask, o->net, o->count, o->duration_s,
				     o->max_alive, o->parallel, o->nparallel, err);
	if (ret == 0)
		ret = st_session_prepare(&s, out, &o->measure, err);
	if (ret < 0)
		return ret;
	b.mask = s.report.mask | ST_LAYER_BIT(ST_LAYER_USER);
	ret = st_bench_churn_run(&b, err);
	if (b.interrupted_by)
		*exit_code = ST_EXIT_SIGNAL_BASE + b.interrupted_by;
	if (ret < 0)
		return ret;
	if (st_sink_writes(&s.sink))
		st_host_collect(&s.report.host);
	r.host = &s.report.host;
	return st_sink_emit(&s.sink, &w, &r, err);
}

/* bench syscall, bench cpu: their results go out as the layers report would. */
static int bench_syscall(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
			 struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_syscall b __attribute__((cleanup(st_bench_syscall_free))) = { .nwhere = 0 };
	int ret;

	/* The session pins the CPU, opens -o and decides the sandbox's layers. */
	ret = st_session_prepare(&s, out, &o->measure, err);
	if (ret == 0)
		ret = st_bench_syscall_prepare(&b, o->name, s.report.mask, o->measure.repeat, err);
	if (ret == 0)
		ret = st_bench_syscall_run(&b, err);
	if (ret == 0) {
		s.report.bench = &b;
		ret = st_session_report(&s, err);
	}
	return ret;
}

/*
 * A grid bench (files, userns, where, mounts, cgroup, launch): its scratch
 * files, limits and peers are checked by prepare before the session opens
 * -o; its free removes what prepare made on every path; the session
 * measures no layer of its own.
 */
static int emit_grid(struct st_session *s, const struct st_output *out,
		     const struct st_bench_grid *g, int *exit_code, int ret, struct st_error *err)
{
	struct st_bench_grid_report r = { .out = out, .g = g };
	char title[64], what[48];
	const struct st_sink_writers w = { .format = &st_bench_grid_format, .title = title,
					   .what = what };

	snprintf(title, sizeof(title), "sandboxtime bench %s", g->bench);
	snprintf(what, sizeof(what), "bench %s", g->bench);

	if (g->interrupted_by)
		*exit_code = ST_EXIT_SIGNAL_BASE + g->interrupted_by;
	if (ret < 0)
		return ret;
	if (st_sink_writes(&s->sink))
		st_host_collect(&s->report.host);
	r.host = &s->report.host;
	return st_sink_emit(&s->sink, &w, &r, err);
}

struct grid_state {
	const struct st_grid_bench *gb;
	void *b;
};

static void grid_state_free(struct grid_state *st)
{
	if (st->b)
		st_grid_bench_free(st->gb, st->b);
	free(st->b);
}

static int bench_grid(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		      struct st_error *err)
{
	const struct st_bench_entry *e = &st_benches[o->kind];
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct grid_state st __attribute__((cleanup(grid_state_free))) = { .gb = e->grid };
	int ret;

	memset(&s, 0, sizeof(s));
	st.b = calloc(1, e->grid->size);
	if (!st.b)
		return st_error_set(err, ENOMEM, "bench %s", e->name);
	ret = e->prepare(st.b, o, st_bench_repeat(o, o->kind), err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	ret = st_grid_bench_run(e->grid, st.b, err);
	return emit_grid(&s, out, st_grid_of(e->grid, st.b), exit_code, ret, err);
}

/* Each grid bench's prepare, from the options it takes. */
static int prepare_files(void *b, const struct st_bench_opts *o, unsigned int repeat,
			 struct st_error *err)
{
	return st_bench_files_prepare(b, repeat, o->files, err);
}

static int prepare_userns(void *b, const struct st_bench_opts *o, unsigned int repeat,
			  struct st_error *err)
{
	return st_bench_userns_prepare(b, repeat, 0, err);
}

/* bench where: the places it cannot reach are found here. */
static int prepare_where(void *b, const struct st_bench_opts *o, unsigned int repeat,
			 struct st_error *err)
{
	const struct st_where_opts wo = { .kernel = o->kernel, .vm_accel = o->vm_accel,
					  .ns = o->ns_text };

	((struct st_bench_where *)b)->initramfs_fd = -1;
	return st_bench_where_prepare(b, repeat, &wo, err);
}

/* bench mounts: the machine's limits are checked against the largest place. */
static int prepare_mounts(void *b, const struct st_bench_opts *o, unsigned int repeat,
			  struct st_error *err)
{
	return st_bench_mounts_prepare(b, repeat, o->mounts, o->nmounts, o->background,
				       o->nbackground, o->max_alive, err);
}

/*
 * bench cgroup: each place's cgroup lives for one round, made and removed
 * by the process that measures in it; a killed bench leaves sandboxtime-PID
 * of a dead pid, which `sandboxtime cleanup` removes.
 */
static int prepare_cgroup(void *b, const struct st_bench_opts *o, unsigned int repeat,
			  struct st_error *err)
{
	return st_bench_cgroup_prepare(b, repeat, o->measure.cgroup_parent, err);
}

static int prepare_launch(void *b, const struct st_bench_opts *o, unsigned int repeat,
			  struct st_error *err)
{
	return st_bench_launch_prepare(b, repeat, o->launches, err);
}

#define GRID(gb_, prepare_) .grid = &(gb_), .prepare = (prepare_), .run = bench_grid

const struct st_bench_entry st_benches[ST_BENCH_NAME_KINDS] = {
	[ST_BENCH_NAME_SYSCALL] = { "syscall", "syscall cost on the host, in a sandbox, with seccomp",
				    .run = bench_syscall },
	[ST_BENCH_NAME_CPU] = { "cpu", "CPU and memcpy cost, with seccomp and SPEC_ALLOW",
				.run = bench_syscall },
	[ST_BENCH_NAME_FORK] = { "fork", "fork() against the parent's memory, vs vfork, posix_spawn",
				 .run = bench_fork },
	[ST_BENCH_NAME_CHURN] = { "churn", "sandboxes made and destroyed at a rate: the kernel's backlog",
				  .run = bench_churn },
	[ST_BENCH_NAME_FILES] = { "files", "file operations on tmpfs, disk, bind mount, overlayfs",
				  ST_FILES_DEFAULT_REPEAT, GRID(st_bench_files_grid, prepare_files) },
	[ST_BENCH_NAME_USERNS] = { "userns", "stat, open, capable() in nested user namespaces",
				   0, GRID(st_bench_userns_grid, prepare_userns) },
	[ST_BENCH_NAME_WHERE] = { "where", "the same programs on the host, in a sandbox, a VM, qemu-user",
				  ST_WHERE_DEFAULT_REPEAT, GRID(st_bench_where_grid, prepare_where) },
	[ST_BENCH_NAME_MOUNTS] = { "mounts", "mount namespaces against the table's size, N sandboxes alive",
				   ST_MOUNTS_DEFAULT_REPEAT, GRID(st_bench_mounts_grid, prepare_mounts) },
	[ST_BENCH_NAME_CGROUP] = { "cgroup", "page faults and wake-ups in a cgroup, with limits, vs the host",
				   ST_CGB_DEFAULT_REPEAT, GRID(st_bench_cgroup_grid, prepare_cgroup) },
	[ST_BENCH_NAME_LAUNCH] = { "launch", "sandboxes launched per second, against unshare and bwrap",
				   ST_LAUNCH_DEFAULT_REPEAT, GRID(st_bench_launch_grid, prepare_launch) },
	[ST_BENCH_NAME_ALL] = { "all", "every bench above with its defaults, one report",
				.run = st_cmd_bench_all },
};

unsigned int st_bench_repeat(const struct st_bench_opts *o, enum st_bench_kind k)
{
	return o->repeat_given || !st_benches[k].default_repeat ? o->measure.repeat
								 : st_benches[k].default_repeat;
}

int st_cmd_bench(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		 struct st_error *err)
{
	int ret;

	if (o->kind == ST_BENCH_NAME_ALL)
		return st_cmd_bench_all(o, out, exit_code, err);
	*exit_code = ST_EXIT_FAILURE;
	ret = st_benches[o->kind].run(o, out, exit_code, err);
	if (ret == 0)
		*exit_code = ST_EXIT_OK;
	return ret;
}
