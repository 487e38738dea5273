// SPDX-License-Identifier: MIT
/*
 * bench all: every benchmark with its defaults, one after the other, in one
 * session (one -o, one host), and one document: the table of each in turn,
 * or JSON {"bench": "all", "benches": [each one's document]}. A benchmark
 * the machine cannot run here (bench fork's sizes beyond MemAvailable, bench
 * where without its probe) is skipped with its reason and the rest runs.
 */
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_fork.h"
#include "sandboxtime/bench_registry.h"
#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/bench_userns.h"
#include "sandboxtime/bench_where.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/report_bench_fork.h"
#include "sandboxtime/report_bench_grid.h"
#include "sandboxtime/session.h"

struct bench_all {
	struct st_bench_syscall sys, cpu;
	struct st_bench_fork fork;
	char fork_skipped[2 * ST_ERROR_MSG_MAX]; /* "": measured */
	struct st_bench_files files;
	struct st_bench_userns userns;
	struct st_bench_where where;
	char where_skipped[2 * ST_ERROR_MSG_MAX]; /* "": measured */
	const struct st_output *out;
	const struct st_host *host;
};

static void all_free(struct bench_all **pa)
{
	struct bench_all *a = *pa;

	if (!a)
		return;
	st_bench_syscall_free(&a->sys);
	st_bench_syscall_free(&a->cpu);
	st_bench_fork_free(&a->fork);
	st_grid_bench_free(&st_bench_files_grid, &a->files);
	st_grid_bench_free(&st_bench_userns_grid, &a->userns);
	st_grid_bench_free(&st_bench_where_grid, &a->where);
	free(a);
}

#define ALL_GRIDS 3

/* The benches measured as places x operations, in the report's order; NULL: skipped. */
static void grid_reports(const struct bench_all *a, struct st_bench_grid_report r[ALL_GRIDS])
{
	const struct st_bench_grid *g[ALL_GRIDS] = { &a->files.g, &a->userns.g,
						     a->where_skipped[0] ? NULL : &a->where.g };

	for (size_t i = 0; i < ALL_GRIDS; i++)
		r[i] = (struct st_bench_grid_report){ .out = a->out, .host = a->host, .g = g[i] };
}

static json_t *all_json(const struct bench_all *a)
{
	struct st_bench_fork_report fr = { .out = a->out, .host = a->host, .b = &a->fork };
	struct st_bench_grid_report grids[ALL_GRIDS];
	json_t *benches = json_array(), *skipped = json_array();

	grid_reports(a, grids);

	json_array_append_new(benches, st_bench_json(a->host, &a->sys));
	json_array_append_new(benches, st_bench_json(a->host, &a->cpu));
	if (a->fork_skipped[0])
		json_array_append_new(skipped, json_pack("{s:s,s:s}", "bench", "fork", "reason",
							 a->fork_skipped));
	else
		json_array_append_new(benches, st_bench_fork_json(&fr));
	for (size_t i = 0; i < ALL_GRIDS; i++)
		if (grids[i].g)
			json_array_append_new(benches, st_bench_grid_json(&grids[i]));
	if (a->where_skipped[0])
		json_array_append_new(skipped, json_pack("{s:s,s:s}", "bench", "where", "reason",
							 a->where_skipped));
	return json_pack("{s:s,s:o,s:o,s:s,s:o,s:o}", "schema", ST_SCHEMA_BENCH, "tool",
			 st_report_tool_json(), "host", st_report_host_json(a->host), "bench", "all",
			 "benches", benches, "skipped", skipped);
}

/* --html's table: every bench's plain table, whatever --format says. */
static int all_table(const void *ctx, FILE *out, struct st_error *err)
{
	const struct bench_all *a = ctx;
	struct st_bench_fork_report fr = { .out = a->out, .host = a->host, .b = &a->fork };
	struct st_bench_grid_report grids[ALL_GRIDS];

	grid_reports(a, grids);
	st_bench_write_table(&a->sys, out);
	fputc('\n', out);
	st_bench_write_table(&a->cpu, out);
	fputc('\n', out);
	if (a->fork_skipped[0])
		fprintf(out, "bench fork skipped: %s\n", a->fork_skipped);
	else
		st_bench_fork_write_table(&fr, out, 0);
	for (size_t i = 0; i < ALL_GRIDS; i++) {
		fputc('\n', out);
		if (grids[i].g)
			st_bench_grid_write_table(&grids[i], out, 0);
		else
			fprintf(out, "bench where skipped: %s\n", a->where_skipped);
	}
	return ferror(out) ? st_error_set(err, EIO, "bench all: the table") : 0;
}

static json_t *all_doc(const void *ctx)
{
	return all_json(ctx);
}

/* Every bench's report under its name, each in --format (st_doc_write sends JSON to all_doc). */
static int all_text(const void *ctx, FILE *out, unsigned int style, struct st_error *err)
{
	const struct bench_all *a = ctx;
	static const char *const grid_names[ALL_GRIDS] = { "files", "userns", "where" };
	struct st_bench_fork_report fr = { .out = a->out, .host = a->host, .b = &a->fork };
	struct st_bench_grid_report grids[ALL_GRIDS];
	int ret = 0;

	grid_reports(a, grids);
	st_report_host_line(out, a->host);
	fprintf(out, "== bench syscall ==\n");
	st_bench_write_table(&a->sys, out);
	fprintf(out, "\n== bench cpu ==\n");
	st_bench_write_table(&a->cpu, out);
	fprintf(out, "\n== bench fork ==\n");
	if (a->fork_skipped[0])
		fprintf(out, "skipped: %s\n", a->fork_skipped);
	else
		ret = st_bench_fork_report_write(&fr, out, err);
	for (size_t i = 0; i < ALL_GRIDS && ret == 0; i++) {
		fprintf(out, "\n== bench %s ==\n", grid_names[i]);
		if (grids[i].g)
			ret = st_bench_grid_report_write(&grids[i], out, err);
		else
			fprintf(out, "skipped: %s\n", a->where_skipped);
	}
	return ret;
}

/* Everything that can be refused before measuring is, before anything runs. */
static int all_prepare(struct bench_all *a, const struct st_bench_opts *o, unsigned int mask,
		       struct st_error *err)
{
	unsigned int repeat = o->measure.repeat;
	const struct st_where_opts where = { .kernel = o->kernel, .vm_accel = o->vm_accel,
					     .ns = o->ns_text };
	struct st_error why;
	int ret;

	a->where.initramfs_fd = -1;

	ret = st_bench_syscall_prepare(&a->sys, "syscall", mask, repeat, err);
	if (ret == 0)
		ret = st_bench_syscall_prepare(&a->cpu, "cpu", mask, repeat, err);
	if (ret < 0)
		return ret;
	if (st_bench_fork_prepare(&a->fork, o->sizes_mb, o->nsizes, mask, repeat, &why) < 0)
		st_error_format(&why, a->fork_skipped, sizeof(a->fork_skipped));
	ret = st_bench_files_prepare(&a->files, st_bench_repeat(o, ST_BENCH_NAME_FILES),
				     o->files, err);
	if (ret == 0)
		ret = st_bench_userns_prepare(&a->userns, repeat, 0, err);
	if (ret == 0 && st_bench_where_prepare(&a->where, st_bench_repeat(o, ST_BENCH_NAME_WHERE),
					       &where, &why) < 0)
		st_error_format(&why, a->where_skipped, sizeof(a->where_skipped));
	return ret;
}

static int all_run(struct bench_all *a, int *sig, struct st_error *err)
{
	int ret = st_bench_syscall_run(&a->sys, err);

	*sig = a->sys.interrupted_by;
	if (ret == 0) {
		ret = st_bench_syscall_run(&a->cpu, err);
		*sig = a->cpu.interrupted_by;
	}
	if (ret == 0 && !a->fork_skipped[0]) {
		ret = st_bench_fork_run(&a->fork, err);
		*sig = a->fork.interrupted_by;
	}
	if (ret == 0) {
		ret = st_grid_bench_run(&st_bench_files_grid, &a->files, err);
		*sig = a->files.g.interrupted_by;
	}
	if (ret == 0) {
		ret = st_grid_bench_run(&st_bench_userns_grid, &a->userns, err);
		*sig = a->userns.g.interrupted_by;
	}
	if (ret == 0 && !a->where_skipped[0]) {
		ret = st_grid_bench_run(&st_bench_where_grid, &a->where, err);
		*sig = a->where.g.interrupted_by;
	}
	return ret;
}

int st_cmd_bench_all(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		     struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct bench_all *a __attribute__((cleanup(all_free))) = calloc(1, sizeof(*a));
	static const struct st_doc_format all_format = { .json = all_doc, .text = all_text };
	const struct st_sink_writers writers = { .format = &all_format, .table = all_table,
						 .title = "sandboxtime bench all", .what = "bench all" };
	int ret, sig = 0;

	memset(&s, 0, sizeof(s));
	*exit_code = ST_EXIT_FAILURE;
	if (!a)
		return st_error_set(err, ENOMEM, "bench all");
	ret = st_session_prepare(&s, out, &o->measure, err);
	if (ret == 0)
		ret = all_prepare(a, o, s.report.mask, err);
	if (ret == 0)
		ret = all_run(a, &sig, err);
	/* Stopped by signal N: 128+N, as every bench exits. */
	if (sig)
		*exit_code = ST_EXIT_SIGNAL_BASE + sig;
	if (ret < 0)
		return ret;
	if (st_sink_writes(&s.sink))
		st_host_collect(&s.report.host);
	a->out = out;
	a->host = &s.report.host;
	ret = st_sink_emit(&s.sink, &writers, a, err);
	if (ret == 0)
		*exit_code = ST_EXIT_OK;
	return ret;
}
