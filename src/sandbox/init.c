// SPDX-License-Identifier: MIT
#include <limits.h>
#include <linux/close_range.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/console.h"
#include "sandboxtime/init.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/steps.h"

/*
 * execvpe() searches the PATH of the calling process, not of @envp: with a
 * config's process.env, CMD is looked up here in the container's PATH (as
 * runc and crun do), or in glibc's default (/bin:/usr/bin) when it sets
 * none, never in the PATH sandboxtime was started with. No allocation: this
 * runs in the init's vfork()ed child, whose heap is the init's. Returns
 * @name, or @buf holding the first executable match; NULL with errno set
 * (EACCES when a match was not executable, as execvp says, else ENOENT).
 */
static const char *workload_path(const char *name, char *const *envp, char *buf, size_t len)
{
	const char *path = "/bin:/usr/bin";
	int denied = 0;

	if (strchr(name, '/'))
		return name;
	for (char *const *e = envp; *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	for (const char *p = path;; p += strcspn(p, ":") + 1) {
		size_t dlen = strcspn(p, ":");
		int n = snprintf(buf, len, "%.*s%s%s", (int)dlen, p, dlen ? "/" : "", name);

		if (n > 0 && (size_t)n < len) {
			if (access(buf, X_OK) == 0)
				return buf;
			denied |= errno == EACCES;
		}
		if (!p[dlen])
			break;
	}
	errno = denied ? EACCES : ENOENT;
	return NULL;
}

/*
 * A container's terminal: a pty of its own devpts, the master sent to the
 * engine, then its own session, the slave as controlling terminal and as
 * fds 0, 1 and 2 (as runc does with process.terminal).
 */
static int take_console(int sock, struct st_error *err)
{
	int fd;

	if (st_console_send_pty(sock, &fd, err) < 0)
		return -err->errnum;
	close(sock);
	if (setsid() < 0 || ioctl(fd, TIOCSCTTY, 0) < 0)
		return st_error_set(err, errno, "console: making the pty the controlling terminal");
	for (int i = 0; i < 3; i++)
		if (dup2(fd, i) < 0)
			return st_error_set(err, errno, "console: dup2");
	if (fd > 2)
		close(fd);
	return 0;
}

/*
 * The end of create: the command must exist (else create fails with the
 * errno, as runc's does), the exec pipe is closed (EOF tells create the
 * container is ready), and the process waits for start's byte. It outlives
 * create, so the death signal that tied it to create goes first. Returns
 * the path to exec, or NULL with errno set.
 */
static const char *hold_at_gate(const struct st_exec_spec *spec, int exec_err_fd, char *buf, size_t len)
{
	const char *file = spec->envp ? workload_path(spec->argv[0], spec->envp, buf, len) : spec->argv[0];
	char go;

	if (!file)
		return NULL;
	if (strchr(file, '/') && access(file, X_OK) < 0)
		return NULL;
	prctl(PR_SET_PDEATHSIG, 0);
	close(exec_err_fd);
	if (TEMP_FAILURE_RETRY(read(spec->hold.gate_fd, &go, 1)) != 1)
		_exit(ST_EXIT_FAILURE); /* the container was deleted before it started */
	close(spec->hold.gate_fd);
	return file;
}

void st_exec_workload(const struct st_exec_spec *spec, int exec_err_fd)
{
	struct st_exec_report rep;
	int filter_left = 0, e;

	memset(&rep, 0, sizeof(rep));
	/* Only the fds the engine asked for reach a container (--preserve-fds). */
	if (spec->hold.on)
		syscall(SYS_close_range, 3 + spec->hold.preserve_fds, ~0U, CLOSE_RANGE_CLOEXEC);
	if (spec->hold.has_console && take_console(spec->hold.console_sock, &rep.err) < 0)
		rep.failed = 1;
	/* Before any filter: one may deny rt_sigprocmask, and the workload needs its mask back. */
	st_signals_restore();
	/* As runc: the limits and the user first, so that cwd is entered as that user. */
	if (!rep.failed && st_process_apply(&spec->process, &rep.steps, &rep.err) < 0)
		rep.failed = 1;
	if (!rep.failed && spec->cwd && chdir(spec->cwd) < 0) {
		st_error_set(&rep.err, errno, "cwd '%s'", spec->cwd);
		rep.failed = 1;
	}
	if (!rep.failed)
		rep.failed = st_harden_apply_first(&spec->harden, &filter_left, &rep.steps, &rep.err) < 0;
	if (write(exec_err_fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep) || rep.failed)
		_exit(ST_EXIT_FAILURE);
	if (filter_left) {
		struct st_exec_tail tail;
		uint64_t t0 = st_now_ns();

		memset(&tail, 0, sizeof(tail));
		tail.failed = st_fault("seccomp_load", &tail.err) < 0 ||
			      st_harden_load_filter(&spec->harden, &tail.err) < 0;
		snprintf(tail.step.name, sizeof(tail.step.name), "seccomp_load");
		tail.step.us = st_ns_to_us(st_now_ns() - t0);
		/* Best effort: the filter now in force may deny write(2); then exec anyway. */
		if (write(exec_err_fd, &tail, sizeof(tail)) < 0) {
			/* nothing more can be said */
		}
		if (tail.failed)
			_exit(ST_EXIT_FAILURE);
	}
	if (spec->hold.on) {
		char buf[PATH_MAX];
		const char *file = hold_at_gate(spec, exec_err_fd, buf, sizeof(buf));

		if (!file) {
			/* Not found or not executable: create says so and fails. */
			e = errno;
			if (write(exec_err_fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
				_exit(ST_EXIT_FAILURE);
		} else if (spec->envp) {
			execve(file, spec->argv, spec->envp);
		} else {
			execvp(file, spec->argv);
		}
		/* After the gate nobody reads the exec pipe: the exit code says it. */
		_exit(errno == ENOENT ? ST_EXIT_NOT_FOUND : ST_EXIT_CANNOT_EXEC);
	}
	if (spec->envp) {
		char buf[PATH_MAX];
		const char *file = workload_path(spec->argv[0], spec->envp, buf, sizeof(buf));

		/* A file with a slash: execvpe() searches nothing, and still runs a script without #! by sh. */
		if (file)
			execvpe(file, spec->argv, spec->envp);
	} else {
		execvp(spec->argv[0], spec->argv);
	}
	e = errno;
	if (write(exec_err_fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(ST_EXIT_FAILURE);
	_exit(e == ENOENT ? ST_EXIT_NOT_FOUND : ST_EXIT_CANNOT_EXEC);
}

void st_init_run(const struct st_exec_spec *spec, int exec_err_fd, int report_fd, int own_pid_ns)
{
	struct st_init_report rep;
	sigset_t set = *st_signals_forwarded();
	int sfd, done = 0;
	uint64_t start;
	pid_t w, self;

	memset(&rep, 0, sizeof(rep));
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (sfd < 0)
		_exit(ST_EXIT_FAILURE);
	if (!own_pid_ns)
		prctl(PR_SET_CHILD_SUBREAPER, 1);

	/*
	 * vfork, not fork: the workload shares the init's memory until it execs,
	 * so the init's page tables are neither copied nor torn down again by
	 * the exec (~0.2 ms of a launch here, the init's fork+exec+reap). Safe
	 * because the init is single-threaded and waits, suspended, for the exec
	 * or _exit; the child never returns from this frame (st_exec_workload
	 * execs or _exits); what it changes (signal mask, no_new_privs,
	 * capabilities, seccomp, PDEATHSIG) belongs to the task, not to the
	 * shared memory; and what it allocates (libcap) stays behind in an init
	 * that only waits and exits. A signal for the sandbox meanwhile waits
	 * in the init's signalfd and reaches the workload once it runs CMD.
	 */
	self = getpid();
	start = st_now_ns();
	w = vfork();
	if (w < 0)
		_exit(ST_EXIT_FAILURE);
	if (w == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The init may have been killed before prctl: then nobody would kill us. */
		if (getppid() != self)
			_exit(ST_EXIT_FAILURE);
		st_exec_workload(spec, exec_err_fd);
	}
	close(exec_err_fd);

	while (!done) {
		struct signalfd_siginfo si;
		struct rusage ru;
		int status;
		pid_t p;

		if (TEMP_FAILURE_RETRY(read(sfd, &si, sizeof(si))) != (ssize_t)sizeof(si))
			_exit(ST_EXIT_FAILURE);
		if (si.ssi_signo != SIGCHLD) {
			kill(w, (int)si.ssi_signo);
			continue;
		}
		while ((p = wait4(-1, &status, WNOHANG | __WALL, &ru)) > 0) {
			if (p != w)
				continue;
			rep.wall_ns = st_now_ns() - start;
			rep.status = status;
			rep.ru = ru;
			done = 1;
		}
	}
	if (!own_pid_ns)
		st_kill_children();
	if (write(report_fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		_exit(ST_EXIT_FAILURE);
	_exit(st_status_to_exit(rep.status));
}
