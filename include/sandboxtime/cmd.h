/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CMD_H
#define SANDBOXTIME_CMD_H

#include <jansson.h>
#include <sys/types.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/cli.h"
#include "sandboxtime/init.h"
#include "sandboxtime/steps.h"

/*
 * Each command takes its own options and the output options, returns 0 or
 * -errno (with @err set, for main to print once) and stores the process's
 * exit code in @exit_code in both cases.
 */
int st_cmd_run(const struct st_run_opts *o, const struct st_output *out, int *exit_code,
	       struct st_error *err);
/*
 * What the OCI runtime's create (src/runtime/) keeps of the container it
 * made: its process (waiting for start), the timed steps, the cgroup that
 * delete removes, and the report's security section (owned).
 */
struct st_created {
	pid_t pid;
	struct st_steps steps;
	struct st_cgroup cgroup;
	int has_cgroup;
	json_t *security;
};

/* create: the run of @o (its --config, --repeat=0) up to the exec, which waits at @hold's gate. */
int st_cmd_create(const struct st_run_opts *o, const struct st_exec_hold *hold, struct st_created *out,
		  struct st_error *err);

int st_cmd_layers(const struct st_run_opts *o, const struct st_output *out, int *exit_code,
		  struct st_error *err);

/* sandboxtime cleanup: delete stv<pid>/stbr<pid> links of sandboxtimes that are gone. */
int st_cmd_cleanup(const struct st_cleanup_opts *o, const struct st_output *out, int *exit_code,
		   struct st_error *err);

/* sandboxtime orphans: network namespaces that no process lives in any more. */
int st_cmd_orphans(const struct st_orphans_opts *o, const struct st_output *out, int *exit_code,
		   struct st_error *err);
/* sandboxtime netbench: loopback vs veth vs bridge, throughput and latency. */
int st_cmd_netbench(const struct st_netbench_opts *o, const struct st_output *out, int *exit_code,
		    struct st_error *err);
/* bench all: every benchmark with its defaults, one document (cmd_bench_all.c). */
int st_cmd_bench_all(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		     struct st_error *err);
/* sandboxtime bench NAME: micro-benchmarks (syscall). */
int st_cmd_bench(const struct st_bench_opts *o, const struct st_output *out, int *exit_code,
		 struct st_error *err);
/* sandboxtime compare A.json B.json ...: ratios of the medians, bootstrap intervals. */
int st_cmd_compare(const struct st_compare_opts *o, const struct st_output *out, int *exit_code,
		   struct st_error *err);

#endif
