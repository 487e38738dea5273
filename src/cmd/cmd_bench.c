// SPDX-License-Identifier: MIT
#include <string.h>

#include "sandboxtime/bench_cgroup.h"
#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_churn.h"
#include "sandboxtime/bench_fork.h"
#include "sandboxtime/bench_launch.h"
#include "sandboxtime/bench_mounts.h"
#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/bench_userns.h"
#include "sandboxtime/bench_where.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/report_bench_churn.h"
#include "sandboxtime/report_bench_fork.h"
#include "sandboxtime/report_bench_grid.h"
#include "sandboxtime/session.h"

static int fork_table(const void *ctx, FILE *out, struct st_error *err)
{
	return st_bench_fork_write_table(ctx, out, 0);
}

static json_t *fork_doc(const void *ctx)
{
	return st_bench_fork_json(ctx);
}

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
	const struct st_session_writers w = { .write = st_bench_fork_report_write, .table = fork_table,
					      .doc = fork_doc, .title = "sandboxtime bench fork" };
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
	if (!out->quiet || out->svg || out->html)
		st_host_collect(&s.report.host);
	r.host = &s.report.host;
	return st_session_emit(&s, &w, &r, err);
}

/*
 * bench churn: the machine's limits are checked before the session opens -o
 * or probes a layer; a signal stops it with 128+N after everything it made
 * is reaped and freed.
 */
static int churn_table(const void *ctx, FILE *out, struct st_error *err)
{
	return st_bench_churn_write_table(ctx, out, 0);
}

static json_t *churn_doc(const void *ctx)
{
	return st_bench_churn_json(ctx);
}

static int bench_churn(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		       struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_churn b __attribute__((cleanup(st_bench_churn_free)));
	struct st_bench_churn_report r = { .out = out, .b = &b };
	const struct st_session_writers w = { .write = st_bench_churn_report_write, .table = churn_table,
					      .doc = churn_doc, .title = "sandboxtime bench churn" };
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
	if (!out->quiet || out->svg || out->html)
		st_host_collect(&s.report.host);
	r.host = &s.report.host;
	return st_session_emit(&s, &w, &r, err);
}

/* bench syscall, bench cpu: their results go out as the layers report would. */
static int bench_syscall(const struct st_bench_opts *o, const struct st_output *out,
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
 * bench files, bench userns (issue 14.3, 14.4): places x operations. Their
 * scratch files are made before the session opens -o and removed by free on
 * every path; the session measures no layer of its own.
 */
static int grid_table(const void *ctx, FILE *out, struct st_error *err)
{
	return st_bench_grid_write_table(ctx, out, 0);
}

static json_t *grid_doc(const void *ctx)
{
	return st_bench_grid_json(ctx);
}

static int emit_grid(struct st_session *s, const struct st_output *out,
		     const struct st_bench_grid *g, int *exit_code, int ret, struct st_error *err)
{
	struct st_bench_grid_report r = { .out = out, .g = g };
	char title[64];
	const struct st_session_writers w = { .write = st_bench_grid_report_write, .table = grid_table,
					      .doc = grid_doc, .title = title };

	snprintf(title, sizeof(title), "sandboxtime bench %s", g->bench);

	if (g->interrupted_by)
		*exit_code = ST_EXIT_SIGNAL_BASE + g->interrupted_by;
	if (ret < 0)
		return ret;
	if (!out->quiet || out->svg || out->html)
		st_host_collect(&s->report.host);
	r.host = &s->report.host;
	return st_session_emit(s, &w, &r, err);
}

static int bench_files(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		       struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_files b __attribute__((cleanup(st_bench_files_free)));
	unsigned int repeat = o->repeat_given ? o->measure.repeat : ST_FILES_DEFAULT_REPEAT;
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_files_prepare(&b, repeat, o->files, err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	return emit_grid(&s, out, &b.g, exit_code, st_bench_files_run(&b, err), err);
}

static int bench_userns(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
			struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_userns b __attribute__((cleanup(st_bench_userns_free)));
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_userns_prepare(&b, o->measure.repeat, 0, err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	return emit_grid(&s, out, &b.g, exit_code, st_bench_userns_run(&b, err), err);
}

/* bench where: the places it cannot reach are found before the session opens -o. */
static int bench_where(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		       struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_where b __attribute__((cleanup(st_bench_where_free))) = { .initramfs_fd = -1 };
	const struct st_where_opts wo = { .kernel = o->kernel, .vm_accel = o->vm_accel,
					  .ns = o->ns_text };
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_where_prepare(&b, o->repeat_given ? o->measure.repeat : ST_WHERE_DEFAULT_REPEAT,
				     &wo, err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	return emit_grid(&s, out, &b.g, exit_code, st_bench_where_run(&b, err), err);
}

/*
 * bench mounts: the machine's limits are checked against the largest place
 * before the session opens -o; everything it makes lives in namespaces of
 * its own, gone with its processes.
 */
static int bench_mounts(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
			struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_mounts b __attribute__((cleanup(st_bench_mounts_free)));
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_mounts_prepare(&b, o->repeat_given ? o->measure.repeat : ST_MOUNTS_DEFAULT_REPEAT,
				      o->mounts, o->nmounts, o->background, o->nbackground, o->max_alive,
				      err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	return emit_grid(&s, out, &b.g, exit_code, st_bench_mounts_run(&b, err), err);
}

/*
 * bench cgroup: each place's cgroup lives for one round, made and removed
 * by the process that measures in it; a killed bench leaves sandboxtime-PID
 * of a dead pid, which `sandboxtime cleanup` removes.
 */
static int bench_cgroup(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
			struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_cgroup b __attribute__((cleanup(st_bench_cgroup_free)));
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_cgroup_prepare(&b, o->repeat_given ? o->measure.repeat : ST_CGB_DEFAULT_REPEAT,
				      o->measure.cgroup_parent, err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	return emit_grid(&s, out, &b.g, exit_code, st_bench_cgroup_run(&b, err), err);
}

/* bench launch: its peers that are not installed are found before the session opens -o. */
static int bench_launch(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
			struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_bench_launch b __attribute__((cleanup(st_bench_launch_free)));
	int ret;

	memset(&s, 0, sizeof(s));
	ret = st_bench_launch_prepare(&b, o->repeat_given ? o->measure.repeat : ST_LAUNCH_DEFAULT_REPEAT,
				      err);
	if (ret == 0)
		ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	return emit_grid(&s, out, &b.g, exit_code, st_bench_launch_run(&b, err), err);
}

int st_cmd_bench(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		 struct st_error *err)
{
	int ret;

	if (strcmp(o->name, "all") == 0)
		return st_cmd_bench_all(o, out, exit_code, err);
	*exit_code = ST_EXIT_FAILURE;
	if (o->kind == ST_BENCH_NAME_FORK)
		ret = bench_fork(o, out, exit_code, err);
	else if (strcmp(o->name, "files") == 0)
		ret = bench_files(o, out, exit_code, err);
	else if (strcmp(o->name, "userns") == 0)
		ret = bench_userns(o, out, exit_code, err);
	else if (o->kind == ST_BENCH_NAME_WHERE)
		ret = bench_where(o, out, exit_code, err);
	else if (o->kind == ST_BENCH_NAME_CHURN)
		ret = bench_churn(o, out, exit_code, err);
	else if (o->kind == ST_BENCH_NAME_MOUNTS)
		ret = bench_mounts(o, out, exit_code, err);
	else if (o->kind == ST_BENCH_NAME_CGROUP)
		ret = bench_cgroup(o, out, exit_code, err);
	else if (o->kind == ST_BENCH_NAME_LAUNCH)
		ret = bench_launch(o, out, exit_code, err);
	else
		ret = bench_syscall(o, out, err);
	if (ret == 0)
		*exit_code = ST_EXIT_OK;
	return ret;
}
