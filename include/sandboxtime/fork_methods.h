/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_FORK_METHODS_H
#define SANDBOXTIME_FORK_METHODS_H

#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * The ways `bench fork` makes a child, each timed from the parent: the call
 * until it returns, and the whole cycle until waitpid has reaped the child.
 */
enum st_fork_method {
	ST_FORK_FORK,        /* fork(); the child _exit(0)s: page tables copied */
	ST_FORK_VFORK_EXEC,  /* vfork() + execve() of a small program: no copy */
	ST_FORK_POSIX_SPAWN, /* posix_spawn() of that program (glibc: clone(CLONE_VM|CLONE_VFORK)) */
	ST_FORK_CLONE_VM,    /* clone(CLONE_VM|CLONE_VFORK); the child returns at once */
	ST_FORK_CLONE3_NS,   /* clone3() with the sandbox's namespace flags: copies too */
	ST_FORK_METHODS,
};

extern const char *const st_fork_method_names[ST_FORK_METHODS];

/* Whether @m duplicates the parent's page tables (fork semantics). */
int st_fork_method_copies(enum st_fork_method m);

/* What the methods need, set up once per worker (st_fork_env_init). */
struct st_fork_env {
	const char *exec_path; /* vfork_exec, posix_spawn: an absolute path */
	char *argv[2];
	uint64_t clone3_flags; /* CLONE_NEW* of the sandbox's layers */
	void *stack;           /* clone_vm's child stack (mmap), and its size */
	size_t stack_len;
};

/* Maps clone_vm's stack; @exec_path must stay valid. */
int st_fork_env_init(struct st_fork_env *env, const char *exec_path, uint64_t clone3_flags,
		     struct st_error *err);
void st_fork_env_free(struct st_fork_env *env);

/*
 * Makes one child the way @m says, reaps it, and stores the call's and the
 * cycle's nanoseconds. A child that does not exit with 0 is an error (127:
 * the program could not be executed).
 */
int st_fork_sample(enum st_fork_method m, const struct st_fork_env *env, uint64_t *call_ns,
		   uint64_t *total_ns, struct st_error *err);

#endif
