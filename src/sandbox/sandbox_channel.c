// SPDX-License-Identifier: MIT
/*
 * sandboxtime's side of talking to the sandbox it cloned: the channel (two
 * pipes and a report socket), reports with an fd attached, the verdict of
 * the exec pipe, and waiting for the end while passing signals on. No
 * namespace is needed for any of it, so unit tests drive it with plain
 * pipes and children (test_sandbox_channel).
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/init.h"
#include "sandboxtime/sandbox_channel.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"

void st_channel_close(struct st_channel *ch)
{
	closep(&ch->go_rd);
	closep(&ch->go_wr);
	closep(&ch->report_rd);
	closep(&ch->report_wr);
	closep(&ch->exec_rd);
	closep(&ch->exec_wr);
}

int st_channel_open(struct st_channel *ch, struct st_error *err)
{
	int fds[3][2];

	memset(ch, -1, sizeof(*ch));
	for (int i = 0; i < 3; i++) {
		/* A socket for the reports: it can carry an fd, and keeps messages whole. */
		int r = i == 1 ? socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds[i])
			       : pipe2(fds[i], O_CLOEXEC);

		if (r < 0) {
			int e = errno;

			while (--i >= 0) {
				close(fds[i][0]);
				close(fds[i][1]);
			}
			return st_error_set(err, e, "sandbox: pipe");
		}
	}
	ch->go_rd = fds[0][0];
	ch->go_wr = fds[0][1];
	ch->report_rd = fds[1][0];
	ch->report_wr = fds[1][1];
	ch->exec_rd = fds[2][0];
	ch->exec_wr = fds[2][1];
	return 0;
}

/* One message, with @fd attached when it is valid. */
int st_channel_send(int sock, const void *buf, size_t len, int fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(control, 0, sizeof(control));
		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return TEMP_FAILURE_RETRY(sendmsg(sock, &msg, MSG_NOSIGNAL)) == (ssize_t)len ? 0 : -1;
}

/* Receives one message of exactly @len bytes; an attached fd goes to *@fd. */
int st_channel_recv(int sock, void *buf, size_t len, int *fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	ssize_t n = TEMP_FAILURE_RETRY(recvmsg(sock, &msg, MSG_CMSG_CLOEXEC));

	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); n > 0 && c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && fd)
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	}
	return n == (ssize_t)len ? 0 : -1;
}

/* Signals that ask the sandbox to end: after one, its grace period runs. */
static int terminating(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT;
}

/*
 * Waits for the sandbox to end, passing on every forwarded signal. After a
 * terminating one, the sandbox has @kill_after_ms to end (0: forever), then
 * its init is killed: a workload that ignores SIGTERM, or one that is pid 1
 * of its namespace (--no-init) and so shielded from it by the kernel, cannot
 * keep sandboxtime waiting. With a pid namespace that ends every process in
 * it; without, the subreaper in st_sandbox_run() ends the rest.
 */
int st_sandbox_wait(pid_t pid, unsigned int kill_after_ms, int *status, struct rusage *ru,
		     int *killed, struct st_error *err)
{
	_cleanup_close_ int sfd = signalfd(-1, st_signals_forwarded(), SFD_CLOEXEC);
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	uint64_t deadline = 0;

	if (sfd < 0 || pidfd < 0)
		return st_error_set(err, errno, "sandbox: %s", sfd < 0 ? "signalfd" : "pidfd_open");
	for (;;) {
		struct pollfd p[2] = { { .fd = pidfd, .events = POLLIN }, { .fd = sfd, .events = POLLIN } };
		struct signalfd_siginfo si;
		int timeout = -1;

		if (deadline) {
			uint64_t now = st_now_ns();

			timeout = now >= deadline ? 0 : (int)((deadline - now + 999999) / 1000000);
		}
		if (poll(p, 2, timeout) < 0) {
			if (errno == EINTR)
				continue;
			return st_error_set(err, errno, "sandbox: poll");
		}
		if (p[1].revents & POLLIN &&
		    TEMP_FAILURE_RETRY(read(sfd, &si, sizeof(si))) == (ssize_t)sizeof(si)) {
			kill(pid, (int)si.ssi_signo);
			if (terminating((int)si.ssi_signo) && kill_after_ms && !deadline)
				deadline = st_now_ns() + (uint64_t)kill_after_ms * 1000000ull;
		}
		if (p[0].revents & POLLIN)
			return st_reap_usage(pid, status, ru, err);
		if (deadline && st_now_ns() >= deadline && !*killed) {
			kill(pid, SIGKILL);
			*killed = 1;
		}
	}
}

/*
 * The exec pipe: the report, then, when the filter went last, its tail, then
 * an errno if exec failed; EOF means exec worked. A filter that denies
 * write(2) can drop the tail and the errno: what arrives is read for what
 * its size says.
 */
int st_channel_check_exec(struct st_channel *ch, struct st_workload *w, const char *cmd,
			  struct st_steps *steps, struct st_error *err)
{
	struct st_exec_report rep;
	char rest[sizeof(struct st_exec_tail) + sizeof(int)];
	size_t got = 0;
	ssize_t n = TEMP_FAILURE_RETRY(read(ch->exec_rd, &rep, sizeof(rep)));
	int e;

	if (n != (ssize_t)sizeof(rep))
		return st_error_set(err, EPROTO, "sandbox: the workload's process died before exec");
	if (rep.failed) {
		*err = rep.err;
		return st_error_wrap(err, "sandbox");
	}
	st_steps_append(steps, &rep.steps);
	while ((n = TEMP_FAILURE_RETRY(read(ch->exec_rd, rest + got, sizeof(rest) - got))) > 0)
		got += (size_t)n;
	if (got >= sizeof(struct st_exec_tail)) {
		struct st_exec_tail tail;

		memcpy(&tail, rest, sizeof(tail));
		if (tail.failed) {
			*err = tail.err;
			return st_error_wrap(err, "sandbox");
		}
		st_steps_add(steps, tail.step.name, (uint64_t)(tail.step.us * 1000.0));
		memmove(rest, rest + sizeof(tail), got - sizeof(tail));
		got -= sizeof(tail);
	}
	if (got == 0)
		return 0;
	if (got != sizeof(e))
		return st_error_set(err, EPROTO, "sandbox: lost the exec status of '%s'", cmd);
	memcpy(&e, rest, sizeof(e));
	w->exec_errno = e;
	w->exit_code = e == ENOENT ? ST_EXIT_NOT_FOUND : ST_EXIT_CANNOT_EXEC;
	return st_error_set(err, e, "cannot execute '%s'", cmd);
}
