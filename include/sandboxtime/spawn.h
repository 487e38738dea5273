/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SPAWN_H
#define SANDBOXTIME_SPAWN_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "sandboxtime/error.h"

/*
 * clone3() with fork semantics (no new stack): returns the child's pid in the
 * parent and 0 in the child. clone3 is used for every layer alike, because
 * clone() cannot express CLONE_NEWTIME (0x80 is its exit-signal byte), and a
 * uniform call keeps the per-layer increments comparable. Where clone3 is
 * missing (ENOSYS: before Linux 5.3, some seccomp profiles, valgrind) every
 * call falls back to clone() alike, and CLONE_NEWTIME fails with ENOSYS.
 *
 * The child must only _exit() or exec: glibc's fork handlers did not run.
 */
pid_t st_clone3(uint64_t flags, struct st_error *err);

/* The same, born into the cgroup directory @cgroup_fd (CLONE_INTO_CGROUP); -1: none. */
pid_t st_clone3_cgroup(uint64_t flags, int cgroup_fd, struct st_error *err);

/* "clone3", or "clone" where st_clone3() falls back (so a report can say so). */
const char *st_clone_call(void);

/* A plain child (no new namespace) that dies with its parent. */
pid_t st_fork_child(struct st_error *err);

/*
 * waitpid() for @pid, resumed after signals. With @status NULL, a child that
 * did not exit with 0 is an error; otherwise its raw status is stored.
 * @ru, if given, receives the child's resource usage (wait4).
 */
int st_reap(pid_t pid, int *status, struct st_error *err);
int st_reap_usage(pid_t pid, int *status, struct rusage *ru, struct st_error *err);

/*
 * Kills (SIGKILL, by pid) and reaps every child of the calling thread, again
 * until none is left: as a subreaper, that includes whatever a workload left
 * behind. Only for a process that has no child it wants to keep.
 */
void st_kill_children(void);

/* Exit code of a raw wait status, following env(1): 128+N for signal N. */
int st_status_to_exit(int status);

#endif
