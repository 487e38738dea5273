/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SANDBOX_CHANNEL_H
#define SANDBOXTIME_SANDBOX_CHANNEL_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandboxtime/error.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/steps.h"

/*
 * sandboxtime's side of talking to the sandbox (sandbox_channel.c), used by
 * st_sandbox_run() (sandbox.c).
 */

/* The pipes between sandboxtime and the sandbox; every end is O_CLOEXEC. */
struct st_channel {
	int go_rd, go_wr;         /* parent -> child: "id maps written, go" */
	int report_rd, report_wr; /* child -> parent: setup_report, st_init_report (SEQPACKET) */
	int exec_rd, exec_wr;     /* workload -> parent: errno of a failed exec */
};

/* Opens every end (all -1 on failure); _close closes those open. */
int st_channel_open(struct st_channel *ch, struct st_error *err);
void st_channel_close(struct st_channel *ch);

/* Sends one message on report socket @sock, with @fd attached when it is >= 0: 0 or -1. */
int st_channel_send(int sock, const void *buf, size_t len, int fd);
/* Receives one message of exactly @len bytes (0, else -1); an attached fd goes to *@fd. */
int st_channel_recv(int sock, void *buf, size_t len, int *fd);

/*
 * Reads the exec pipe to its end: the workload's st_exec_report, the tail
 * when the filter went last, and an errno if exec failed (EOF: it worked).
 * Its steps go to @steps; a failed exec sets w->exec_errno and
 * w->exit_code (127 ENOENT, else 126) and returns -errno naming @cmd.
 */
int st_channel_check_exec(struct st_channel *ch, struct st_workload *w, const char *cmd,
			  struct st_steps *steps, struct st_error *err);

/*
 * Waits for @pid to end, passing on every signal of st_signals_forwarded()
 * (which the caller blocks). After a terminating one (INT, TERM, HUP, QUIT)
 * @pid has @kill_after_ms (0: forever), then it is killed and *@killed set.
 * Fills *@status and *@ru (it reaps @pid).
 */
int st_sandbox_wait(pid_t pid, unsigned int kill_after_ms, int *status, struct rusage *ru,
		    int *killed, struct st_error *err);

#endif
