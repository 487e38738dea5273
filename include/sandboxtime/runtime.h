/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_RUNTIME_H
#define SANDBOXTIME_RUNTIME_H

#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/error.h"
#include "sandboxtime/steps.h"

/*
 * sandboxtime as an OCI runtime: runc's command line, as podman (through
 * conmon) and containerd (its runc v2 shim) call it, so that an engine can
 * run real containers through sandboxtime and get a timed report of each
 * (src/runtime/). create builds the container with the run's own code
 * (cmd_run.c, sandbox.c) up to the exec, which waits for start.
 */

/* The exit status of every runtime error, as runc's: engines read the message, not the code. */
#define ST_RT_EXIT_ERROR 1

/* runc's global flags, and ours. */
struct st_rt_global {
	const char *root;   /* --root: where containers' state lives */
	const char *log;    /* --log FILE: errors go there too */
	int log_json;       /* --log-format=json */
	int debug;          /* --debug */
	int systemd_cgroup; /* --systemd-cgroup: refused */
	const char *report; /* --report=FILE (or runtime.conf's report): a JSON line per create, start, delete, run */
	char root_buf[512];
	char report_buf[512];
};

/* Whether argv is runc's command line (global flags, then a runtime command). */
int st_runtime_argv(int argc, char **argv);

/* Runs it; *@code is the exit status. Errors come back in @err, for the edge to print (st_runtime_log_error). */
int st_runtime_main(int argc, char **argv, struct st_rt_global *g, int *code, struct st_error *err);

/* The one error line, on stderr and, with --log, in the log in runc's form (text or JSON). */
void st_runtime_log_error(const struct st_rt_global *g, const char *line);

/* ---- state (runtime_state.c) ---- */

#define ST_RT_ID_MAX 1024

/* A container's record under --root: ROOT/ID/state.json, the exec fifo, the lock file. */
struct st_rt_state {
	char id[ST_RT_ID_MAX];
	char dir[4096];          /* ROOT/ID */
	int dir_fd;              /* ROOT/ID/lock, record-locked: one command at a time per container */
	pid_t pid;               /* the container's process; 0 until create has made it */
	unsigned long long start_ticks; /* its start time (/proc/PID/stat 22): a reused pid is not it */
	char bundle[4096];
	char created[40];        /* RFC 3339, UTC */
	json_t *annotations;     /* owned */
	json_t *hooks;           /* the config's hooks, owned (NULL: none) */
	char cgroup_dirs[ST_CG_MAX_DIRS][ST_CG_PATH_MAX]; /* made by create, removed by delete */
	size_t ncgroup;
};

/* The directory of --root (made 0700 if missing): the flag, else /run/sandboxtime or $XDG_RUNTIME_DIR/sandboxtime. */
int st_rt_root(struct st_rt_global *g, struct st_error *err);

/* Whether we are root of the host (not uid 0 of a user namespace, as under rootless podman). */
int st_rt_host_root(void);

/* A container id as runc allows it: [A-Za-z0-9_+.-], not "." or "..". */
int st_rt_id_check(const char *id, struct st_error *err);

/* create: makes ROOT/ID (EEXIST: "container with id exists"), locked. */
int st_rt_state_new(const struct st_rt_global *g, const char *id, struct st_rt_state *s, struct st_error *err);

/* Any other command: opens and locks ROOT/ID and reads its state (ENOENT: "container does not exist"). */
int st_rt_state_open(const struct st_rt_global *g, const char *id, struct st_rt_state *s, struct st_error *err);

/* Takes the container's lock (again: run lets it go while it waits for the container). */
int st_rt_state_lock(struct st_rt_state *s, struct st_error *err);

/* Writes state.json (written aside, then renamed). */
int st_rt_state_save(const struct st_rt_state *s, struct st_error *err);

/* Removes ROOT/ID and all in it. */
int st_rt_state_remove(struct st_rt_state *s, struct st_error *err);

void st_rt_state_close(struct st_rt_state *s);

enum st_rt_status {
	ST_RT_CREATING, /* create has not finished (or died) */
	ST_RT_CREATED,  /* waiting for start at the exec fifo */
	ST_RT_RUNNING,
	ST_RT_STOPPED,
};

extern const char *const st_rt_status_names[4];

/* What the container is now, from its process and its exec fifo. */
enum st_rt_status st_rt_status(const struct st_rt_state *s);

/* The OCI state document (runtime-spec "state"): ociVersion, id, status, pid, bundle, annotations. */
json_t *st_rt_state_json(const struct st_rt_state *s);

/* The start time of @pid in clock ticks since boot (/proc/PID/stat), 0 if it is gone. */
unsigned long long st_rt_pid_start(pid_t pid);

/* --pid-file: @pid written aside, then renamed, so that an engine never reads half of it. */
int st_rt_write_pid_file(const char *path, pid_t pid, struct st_error *err);

/* ROOT/ID/exec.fifo */
void st_rt_fifo_path(const struct st_rt_state *s, char *buf, size_t len);

/* ---- the timed report (runtime_report.c) ---- */

/* Appends one JSON line for @op ("create", "start", "delete", "run") of @s to --report's file. */
int st_rt_report(const struct st_rt_global *g, const struct st_rt_state *s, const char *op,
		 const struct st_steps *steps, json_t *extra, struct st_error *err);

/* ---- hooks (runtime_hooks.c) ---- */

/* Runs the config's hooks of @kind with the state on stdin, each a timed step "hook_KIND_N". */
int st_rt_hooks_run(const struct st_rt_state *s, const char *kind, struct st_steps *steps, struct st_error *err);

/* Checks a config's hooks object (every kind known, each hook a path): 0 or -EINVAL. */
int st_rt_hooks_check(json_t *hooks, const char *file, struct st_error *err);

#endif
