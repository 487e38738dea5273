// SPDX-License-Identifier: MIT
/*
 * The five ways bench fork makes a child, each timed the same way: t0 before
 * the call, t1 when it has returned in the parent, t2 when waitpid has reaped
 * the child. Nothing runs in a child but _exit, execve or a return, so the
 * child never touches the parent's copy-on-write pages (only the page-table
 * copy and the teardown of the child's mm are measured).
 */
#include <sched.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/fork_methods.h"
#include "sandboxtime/spawn.h"

#define CLONE_STACK_LEN (64u * 1024u)

extern char **environ;

const char *const st_fork_method_names[ST_FORK_METHODS] = {
	[ST_FORK_FORK] = "fork",
	[ST_FORK_VFORK_EXEC] = "vfork_exec",
	[ST_FORK_POSIX_SPAWN] = "posix_spawn",
	[ST_FORK_CLONE_VM] = "clone_vm_vfork",
	[ST_FORK_CLONE3_NS] = "clone3_ns",
};

int st_fork_method_copies(enum st_fork_method m)
{
	return m == ST_FORK_FORK || m == ST_FORK_CLONE3_NS;
}

int st_fork_env_init(struct st_fork_env *env, const char *exec_path, uint64_t clone3_flags,
		     struct st_error *err)
{
	memset(env, 0, sizeof(*env));
	env->exec_path = exec_path;
	env->argv[0] = (char *)exec_path;
	env->clone3_flags = clone3_flags;
	env->stack = mmap(NULL, CLONE_STACK_LEN, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (env->stack == MAP_FAILED) {
		env->stack = NULL;
		return st_error_set(err, errno, "bench fork: a stack for clone");
	}
	env->stack_len = CLONE_STACK_LEN;
	return 0;
}

void st_fork_env_free(struct st_fork_env *env)
{
	if (env->stack)
		munmap(env->stack, env->stack_len);
	env->stack = NULL;
}

/*
 * vfork's child borrows the parent's stack until execve: it may only call
 * execve and _exit, and this frame must not return before the parent
 * resumes, hence a function of its own that does nothing else.
 */
static __attribute__((noinline)) pid_t vfork_exec(const char *path, char *const argv[])
{
	pid_t pid = vfork();

	if (pid == 0) {
		execve(path, argv, environ);
		_exit(127);
	}
	return pid;
}

/* clone_vm's child: returning ends it (glibc's clone calls exit). */
static int clone_vm_child(void *arg _unused_)
{
	return 0;
}

/* Starts the child of @m; returns its pid, or -errno with @err set. */
static pid_t start_child(enum st_fork_method m, const struct st_fork_env *env, struct st_error *err)
{
	pid_t pid = -1;
	int ret;

	switch (m) {
	case ST_FORK_FORK:
		pid = fork();
		if (pid == 0)
			_exit(0);
		break;
	case ST_FORK_VFORK_EXEC:
		pid = vfork_exec(env->exec_path, env->argv);
		break;
	case ST_FORK_POSIX_SPAWN:
		ret = posix_spawn(&pid, env->exec_path, NULL, NULL, env->argv, environ);
		if (ret)
			return st_error_set(err, ret, "posix_spawn %s", env->exec_path);
		break;
	case ST_FORK_CLONE_VM:
		/* The stack grows down on every architecture Debian builds for but hppa. */
		pid = clone(clone_vm_child, (char *)env->stack + env->stack_len,
			    CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		break;
	case ST_FORK_CLONE3_NS:
		pid = st_clone3(env->clone3_flags, err);
		if (pid == 0)
			_exit(0);
		return pid;
	default:
		return st_error_set(err, EINVAL, "bench fork: method %d", (int)m);
	}
	if (pid < 0)
		return st_error_set(err, errno, "%s", st_fork_method_names[m]);
	return pid;
}

int st_fork_sample(enum st_fork_method m, const struct st_fork_env *env, uint64_t *call_ns,
		   uint64_t *total_ns, struct st_error *err)
{
	uint64_t t0, t1;
	pid_t pid;
	int status, ret;

	t0 = st_now_ns();
	pid = start_child(m, env, err);
	t1 = st_now_ns();
	if (pid < 0)
		return pid;
	ret = st_reap(pid, &status, err);
	*total_ns = st_now_ns() - t0;
	*call_ns = t1 - t0;
	if (ret < 0)
		return ret;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && (m == ST_FORK_VFORK_EXEC))
		return st_error_set(err, ENOEXEC, "vfork_exec: cannot execute %s", env->exec_path);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return st_error_set(err, EPROTO, "%s: the child ended with status 0x%x",
				    st_fork_method_names[m], (unsigned int)status);
	return 0;
}
