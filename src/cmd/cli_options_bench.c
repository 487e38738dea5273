// SPDX-License-Identifier: MIT
/*
 * The parsers of netbench's and the benches' own options (their rows are
 * in cli_options.c, in --help's order).
 */
#include <string.h>

#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_mounts.h"
#include "sandboxtime/cli_options_bench.h"
#include "sandboxtime/cli_parse.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/util.h"

#define MAX_CHURN 1000000u /* bench churn --count, --max-alive */
#define MAX_PARALLEL 64u   /* ST_CHURN_MAX_PARALLEL */

int st_opt_paths(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_nb_parse_paths(arg, &o->netbench.paths, err);
}

int st_opt_duration(struct st_opts *o, const char *arg, struct st_error *err)
{
	double *d = o->command == ST_CMD_BENCH ? &o->bench.duration_s : &o->netbench.duration_s;

	return st_nb_parse_duration(arg, d, err);
}

int st_opt_size(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_parse_uint("--size", arg, 1, ST_NB_MAX_SIZE, &o->netbench.size, err);
}

int st_opt_rr(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->netbench.rr = 1;
	return 0;
}

int st_opt_no_rr(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->netbench.rr = 0;
	return 0;
}

int st_opt_streams(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--streams", arg, 1, ST_NB_MAX_STREAMS, &o->netbench.streams, err);
}

int st_opt_busy_poll(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->netbench.busy_poll = 1;
	return 0;
}

int st_opt_udp(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->netbench.udp = 1;
	return 0;
}

int st_opt_cpu_pin(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->netbench.cpu_pin = 1;
	return 0;
}

int st_opt_sizes(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_sizes(arg, o->bench.sizes_mb, ST_BENCH_MAX_SIZES, &o->bench.nsizes, err);
}

int st_opt_files(struct st_opts *o, const char *arg, struct st_error *err)
{
	uint64_t v;
	int ret = st_parse_uint("--files", arg, 1, ST_FILES_MAX, &v, err);

	if (ret == 0)
		o->bench.files = (unsigned int)v;
	return ret;
}

int st_opt_kernel(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--kernel: empty path");
	o->bench.kernel = arg;
	return 0;
}

int st_opt_vm_accel(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (strcmp(arg, "kvm") != 0 && strcmp(arg, "tcg") != 0)
		return st_error_usage(err, "--vm-accel: '%s' is neither kvm nor tcg", arg);
	o->bench.vm_accel = arg;
	return 0;
}

/* At least 10: p99 of fewer launches would be the largest. */
int st_opt_launches(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--launches", arg, 10, 100000, &o->bench.launches, err);
}

int st_opt_count(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->bench.count_given = 1;
	return st_cli_parse_count("--count", arg, 1, MAX_CHURN, &o->bench.count, err);
}

int st_opt_parallel(struct st_opts *o, const char *arg, struct st_error *err)
{
	static const struct st_cli_list parallel = { "--parallel", "creator count", "", ": 1,2,4,8",
						     1, MAX_PARALLEL, ST_BENCH_MAX_PARALLEL };

	return st_cli_parse_list(&parallel, arg, o->bench.parallel, &o->bench.nparallel, err);
}

int st_opt_mounts(struct st_opts *o, const char *arg, struct st_error *err)
{
	static const struct st_cli_list mounts = { "--mounts", "mount count", " mounts", ": 10,100,1000",
						   1, ST_MOUNTS_MAX_MOUNTS, ST_BENCH_MAX_MOUNTS };

	return st_cli_parse_list(&mounts, arg, o->bench.mounts, &o->bench.nmounts, err);
}

int st_opt_background(struct st_opts *o, const char *arg, struct st_error *err)
{
	static const struct st_cli_list background = { "--background", "sandbox count", " sandboxes",
						       ": 0,10,100", 0, MAX_CHURN, ST_BENCH_MAX_MOUNTS };

	return st_cli_parse_list(&background, arg, o->bench.background, &o->bench.nbackground, err);
}

int st_opt_max_alive(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--max-alive", arg, 1, MAX_CHURN, &o->bench.max_alive, err);
}
