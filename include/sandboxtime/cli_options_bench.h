/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CLI_OPTIONS_BENCH_H
#define SANDBOXTIME_CLI_OPTIONS_BENCH_H

#include "sandboxtime/cli.h"
#include "sandboxtime/error.h"

/*
 * The parsers of the options only netbench and the benches take
 * (cli_options_bench.c), for their rows in st_cli_options[]: each stores
 * @arg into o->netbench or o->bench, or returns a usage error.
 */
int st_opt_paths(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_duration(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_size(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_rr(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_no_rr(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_streams(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_busy_poll(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_udp(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_cpu_pin(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_sizes(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_files(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_kernel(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_vm_accel(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_count(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_launches(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_parallel(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_mounts(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_background(struct st_opts *o, const char *arg, struct st_error *err);
int st_opt_max_alive(struct st_opts *o, const char *arg, struct st_error *err);

#endif
