/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_RUNTIME_OPS_H
#define SANDBOXTIME_RUNTIME_OPS_H

#include <jansson.h>
#include <stdio.h>

#include "sandboxtime/runtime.h"

/*
 * What the runtime's commands do to a container's processes
 * (runtime_ops.c), and exec (runtime_exec.c).
 */

/* "TERM", "SIGTERM", "15": a signal number; -EINVAL otherwise. */
int st_rt_signal_parse(const char *text, int *sig, struct st_error *err);

/*
 * Sends @sig to the container's process, or with @all to every process of
 * the container (its cgroups' procs, else those in its pid namespace).
 * A stopped container: "container not running".
 */
int st_rt_kill(const struct st_rt_state *s, int sig, int all, struct st_error *err);

/* Waits up to @ms for the container's process to be gone (not ours to reap). */
int st_rt_wait_gone(const struct st_rt_state *s, unsigned int ms, struct st_error *err);

/* The container's pids: a JSON array (@json), or a "PID CMD" table. */
int st_rt_ps(const struct st_rt_state *s, int json, FILE *out, struct st_error *err);

/* runc 1.1's `features` document, for what sandboxtime does. */
json_t *st_rt_features(void);

/* report FILE...: per-step medians across many containers' --report lines (runtime_summary.c). */
int st_rt_cmd_report(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err);

/* exec: a new process in a running container (runtime_exec.c). */
int st_rt_cmd_exec(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err);

#endif
