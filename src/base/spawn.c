// SPDX-License-Identifier: MIT
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "sandboxtime/procfs.h"
#include "sandboxtime/spawn.h"

pid_t st_clone3(uint64_t flags, struct st_error *err)
{
	return st_clone3_cgroup(flags, -1, err);
}

pid_t st_clone3_cgroup(uint64_t flags, int cgroup_fd, struct st_error *err)
{
	struct clone_args args;
	long pid;

	memset(&args, 0, sizeof(args));
	args.flags = flags;
	args.exit_signal = SIGCHLD;
	if (cgroup_fd >= 0) {
		/* Linux 5.7: born in the cgroup, never counted in ours. */
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
	}
	pid = syscall(SYS_clone3, &args, sizeof(args));
	/*
	 * ENOSYS: Linux before 5.3, a seccomp profile that hides clone3 (as
	 * container runtimes did so that glibc falls back), or valgrind. The
	 * same kernel_clone() is reached through clone(), fork-like (no new
	 * stack), for every flag but CLONE_NEWTIME, whose bit clone() reads
	 * as part of the exit signal.
	 */
	if (pid < 0 && errno == ENOSYS && !(flags & (CLONE_NEWTIME | ~0xffffffffull)))
		pid = syscall(SYS_clone, (unsigned long)flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid < 0)
		return st_error_set(err, errno, "clone3");
	return (pid_t)pid;
}

const char *st_clone_call(void)
{
	/*
	 * A NULL argument of size 0 is refused by a kernel that has clone3
	 * (EINVAL, before anything is read) and by one that has not, or by a
	 * filter that hides it, with ENOSYS: the same test st_clone3() falls
	 * back on, without creating a process.
	 */
	if (syscall(SYS_clone3, NULL, 0) < 0 && errno == ENOSYS)
		return "clone";
	return "clone3";
}

pid_t st_fork_child(struct st_error *err)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		return st_error_set(err, errno, "fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The parent may have died before prctl: then nobody would kill us. */
		if (getppid() != parent)
			_exit(1);
	}
	return pid;
}

int st_reap_usage(pid_t pid, int *status, struct rusage *ru, struct st_error *err)
{
	int st;

	if (TEMP_FAILURE_RETRY(wait4(pid, &st, __WALL, ru)) < 0)
		return st_error_set(err, errno, "waitpid %d", pid);
	if (status) {
		*status = st;
		return 0;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFSIGNALED(st))
		return st_error_set(err, EPROTO, "child %d killed by signal %d", pid, WTERMSIG(st));
	return st_error_set(err, EPROTO, "child %d exited with status %d", pid, WEXITSTATUS(st));
}

int st_reap(pid_t pid, int *status, struct st_error *err)
{
	return st_reap_usage(pid, status, NULL, err);
}

int st_status_to_exit(int status)
{
	if (WIFSIGNALED(status))
		return ST_EXIT_SIGNAL_BASE + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Reads up to @max child pids of the calling thread; returns how many. */
static size_t read_children(pid_t *pids, size_t max)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)syscall(SYS_gettid));
	return st_read_pids(path, pids, max);
}

void st_kill_children(void)
{
	pid_t pids[256];

	/*
	 * Each round kills what is listed and waits for exactly those: a
	 * blocking wait for "any child" would also wait for a grandchild
	 * reparented to us meanwhile, which nobody has killed yet.
	 */
	for (int round = 0; round < 1000; round++) {
		size_t n = read_children(pids, ARRAY_SIZE(pids));

		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		for (size_t i = 0; i < n; i++)
			while (waitpid(pids[i], NULL, __WALL) < 0 && errno == EINTR)
				;
	}
}
