/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_INIT_H
#define SANDBOXTIME_INIT_H

#include <stdint.h>
#include <sys/resource.h>

/* What the init tells sandboxtime about the workload when it ends. */
struct st_init_report {
	int status;
	uint64_t wall_ns;
	struct rusage ru;
};

/*
 * Execs @argv in this process; on failure writes errno to @exec_err_fd (an
 * O_CLOEXEC pipe, so EOF there means exec worked) and exits 127 or 126.
 */
void __attribute__((noreturn)) st_exec_workload(char *const *argv, int exec_err_fd);

/*
 * The sandbox's pid 1: forks the workload, forwards SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1 and SIGUSR2 to it, reaps every zombie, and when the
 * workload ends writes an st_init_report to @report_fd and exits with the
 * workload's code (128+N for signal N). Without a pid namespace it is a
 * subreaper and kills what the workload left behind, so nothing outlives it.
 */
void __attribute__((noreturn)) st_init_run(char *const *argv, int exec_err_fd, int report_fd,
					   int own_pid_ns);

#endif
