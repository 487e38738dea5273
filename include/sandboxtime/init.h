/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_INIT_H
#define SANDBOXTIME_INIT_H

#include <stdint.h>
#include <sys/resource.h>

#include "sandboxtime/harden.h"
#include "sandboxtime/process.h"

/* What the init tells sandboxtime about the workload when it ends. */
struct st_init_report {
	int status;
	uint64_t wall_ns;
	struct rusage ru;
};

/*
 * What the process about to exec the workload reports on the exec pipe (an
 * O_CLOEXEC pipe; smaller than PIPE_BUF, so written at once): the hardening
 * steps, or why they failed. An int follows when exec fails (its errno);
 * EOF means exec worked.
 */
struct st_exec_report {
	int failed;
	struct st_error err;
	struct st_steps steps;
};
_Static_assert(sizeof(struct st_exec_report) < 4096, "the exec report must fit in PIPE_BUF");

/*
 * After the report, when the filter goes last: its load time, or why it
 * failed. A filter that denies write(2) drops this message (and a failed
 * exec's errno); sandboxtime then reports what it has.
 */
struct st_exec_tail {
	int failed;
	struct st_error err;
	struct st_step step;
};

/*
 * A container made by the OCI runtime's create (src/runtime/): the process
 * is configured and hardened, then holds before its exec until `start`
 * writes a byte into the exec fifo, which it reads through @gate_fd (the
 * fifo opened O_RDWR by create, so that the read blocks rather than sees
 * EOF; runc's exec fifo, without needing /proc inside).
 */
struct st_exec_hold {
	int on;
	int gate_fd;
	int has_console;  /* process.terminal: a pty made inside, its master sent over console_sock, */
	int console_sock; /* its slave made stdin, stdout, stderr and controlling terminal */
	int preserve_fds; /* fds 3 .. 3+N-1 reach the workload (--preserve-fds), the rest do not */
};

/* What to exec, and how: from the command line, a config.json or an exec's process.json. */
struct st_exec_spec {
	char *const *argv;
	char *const *envp; /* NULL: sandboxtime's own environment */
	const char *cwd;   /* NULL: stay where sandboxtime was */
	struct st_process process; /* rlimits, oom_score_adj, user: all off when zero */
	struct st_hardening harden;
	struct st_exec_hold hold;  /* on: a container that waits for start */
};

/*
 * Applies @spec's process settings, enters its cwd, hardens this process,
 * reports on @exec_fd and execs;
 * exits 125 when a step fails, 127 or 126 when exec does. With a hold, the
 * command is looked up first (a create that cannot exec fails, as runc's),
 * then @exec_fd is closed (EOF: ready) and the process waits at the gate.
 */
void __attribute__((noreturn)) st_exec_workload(const struct st_exec_spec *spec, int exec_fd);

/*
 * The sandbox's pid 1: forks the workload, forwards SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1 and SIGUSR2 to it, reaps every zombie, and when the
 * workload ends writes an st_init_report to @report_fd and exits with the
 * workload's code (128+N for signal N). Without a pid namespace it is a
 * subreaper and kills what the workload left behind, so nothing outlives it.
 */
void __attribute__((noreturn)) st_init_run(const struct st_exec_spec *spec, int exec_err_fd,
					   int report_fd, int own_pid_ns);

#endif
