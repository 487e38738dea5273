// SPDX-License-Identifier: MIT
/*
 * sandboxtime's side of the sandbox protocol, without root and without a
 * namespace: reports with an fd attached over the channel's socket, the
 * exec pipe's verdicts (exec worked, ENOENT, EACCES, a filter's tail, a
 * child that died first, a torn errno), and waiting for a child while
 * forwarding signals, including the kill after the grace period.
 * (The rest of sandbox.c clones namespaces: the integration suites.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandboxtime/init.h"
#include "sandboxtime/sandbox_channel.h"
#include "sandboxtime/signals.h"

static void test_report_with_fd(void **state)
{
	struct st_channel ch;
	struct st_error err;
	struct stat a, b;
	int sent = open("/dev/null", O_RDONLY | O_CLOEXEC), got = -1;
	char msg[32] = "configured", back[32];

	assert_int_equal(st_channel_open(&ch, &err), 0);
	assert_int_equal(st_channel_send(ch.report_wr, msg, sizeof(msg), sent), 0);
	assert_int_equal(st_channel_recv(ch.report_rd, back, sizeof(back), &got), 0);
	assert_string_equal(back, "configured");
	/* Another fd on the same file, close-on-exec. */
	assert_true(got >= 0 && got != sent);
	assert_int_equal(fstat(sent, &a), 0);
	assert_int_equal(fstat(got, &b), 0);
	assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	assert_true(fcntl(got, F_GETFD) & FD_CLOEXEC);
	close(got);

	/* Without an fd, *fd stays; a message of another size is refused. */
	got = -1;
	assert_int_equal(st_channel_send(ch.report_wr, msg, sizeof(msg), -1), 0);
	assert_int_equal(st_channel_recv(ch.report_rd, back, sizeof(back), &got), 0);
	assert_int_equal(got, -1);
	assert_int_equal(st_channel_send(ch.report_wr, msg, 5, -1), 0);
	assert_int_equal(st_channel_recv(ch.report_rd, back, sizeof(back), NULL), -1);
	close(sent);
	st_channel_close(&ch);
	assert_int_equal(ch.report_rd, -1);
	assert_int_equal(ch.exec_wr, -1);
}

/* Writes what a workload's process would into the exec pipe, then closes its end. */
static void feed(struct st_channel *ch, const void *a, size_t alen, const void *b, size_t blen)
{
	if (alen)
		assert_int_equal(write(ch->exec_wr, a, alen), (ssize_t)alen);
	if (blen)
		assert_int_equal(write(ch->exec_wr, b, blen), (ssize_t)blen);
	close(ch->exec_wr);
	ch->exec_wr = -1;
}

static struct st_exec_report report_with_step(const char *name)
{
	struct st_exec_report rep;

	memset(&rep, 0, sizeof(rep));
	st_steps_add(&rep.steps, name, 1000);
	return rep;
}

static void test_exec_worked(void **state)
{
	struct st_channel ch;
	struct st_workload w = { 0 };
	struct st_steps steps = { 0 };
	struct st_error err;
	struct st_exec_report rep = report_with_step("caps_drop");

	assert_int_equal(st_channel_open(&ch, &err), 0);
	feed(&ch, &rep, sizeof(rep), NULL, 0);
	assert_int_equal(st_channel_check_exec(&ch, &w, "true", &steps, &err), 0);
	assert_int_equal(steps.n, 1);
	assert_string_equal(steps.v[0].name, "caps_drop");
	assert_int_equal(w.exec_errno, 0);
	st_channel_close(&ch);
}

static void test_exec_failed(void **state)
{
	static const struct {
		int errnum, exit_code;
	} cases[] = { { ENOENT, 127 }, { EACCES, 126 }, { ENOEXEC, 126 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct st_channel ch;
		struct st_workload w = { 0 };
		struct st_steps steps = { 0 };
		struct st_error err;
		struct st_exec_report rep = report_with_step("caps_drop");

		assert_int_equal(st_channel_open(&ch, &err), 0);
		feed(&ch, &rep, sizeof(rep), &cases[i].errnum, sizeof(int));
		assert_int_equal(st_channel_check_exec(&ch, &w, "/no/such", &steps, &err), -cases[i].errnum);
		assert_int_equal(w.exec_errno, cases[i].errnum);
		assert_int_equal(w.exit_code, cases[i].exit_code);
		assert_non_null(strstr(err.msg, "cannot execute '/no/such'"));
		st_channel_close(&ch);
	}
}

/* The filter went last: its step comes in the tail, before the errno (if any). */
static void test_exec_tail(void **state)
{
	struct st_channel ch;
	struct st_workload w = { 0 };
	struct st_steps steps = { 0 };
	struct st_error err;
	struct st_exec_report rep = report_with_step("no_new_privs");
	struct st_exec_tail tail;

	memset(&tail, 0, sizeof(tail));
	snprintf(tail.step.name, sizeof(tail.step.name), "seccomp_load");
	tail.step.us = 7;
	assert_int_equal(st_channel_open(&ch, &err), 0);
	feed(&ch, &rep, sizeof(rep), &tail, sizeof(tail));
	assert_int_equal(st_channel_check_exec(&ch, &w, "true", &steps, &err), 0);
	assert_int_equal(steps.n, 2);
	assert_string_equal(steps.v[1].name, "seccomp_load");
	st_channel_close(&ch);

	/* A failure inside the tail is the error, with its own cause. */
	memset(&w, 0, sizeof(w));
	tail.failed = 1;
	st_error_set(&tail.err, EINVAL, "seccomp: loading the filter");
	assert_int_equal(st_channel_open(&ch, &err), 0);
	feed(&ch, &rep, sizeof(rep), &tail, sizeof(tail));
	assert_int_equal(st_channel_check_exec(&ch, &w, "true", &steps, &err), -EINVAL);
	assert_string_equal(err.msg, "sandbox: seccomp: loading the filter");
	st_channel_close(&ch);
}

static void test_exec_broken(void **state)
{
	struct st_channel ch;
	struct st_workload w = { 0 };
	struct st_steps steps = { 0 };
	struct st_error err;
	struct st_exec_report rep = report_with_step("caps_drop");
	char torn[2] = { 1, 2 };

	/* Nothing at all: the workload's process died before it could say. */
	assert_int_equal(st_channel_open(&ch, &err), 0);
	feed(&ch, NULL, 0, NULL, 0);
	assert_int_equal(st_channel_check_exec(&ch, &w, "true", &steps, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "died before exec"));
	st_channel_close(&ch);

	/* Half an errno. */
	assert_int_equal(st_channel_open(&ch, &err), 0);
	feed(&ch, &rep, sizeof(rep), torn, sizeof(torn));
	assert_int_equal(st_channel_check_exec(&ch, &w, "x", &steps, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "lost the exec status of 'x'"));
	st_channel_close(&ch);

	/* The setup failed before exec: its own error, wrapped. */
	rep.failed = 1;
	st_error_set(&rep.err, EPERM, "caps: dropping");
	assert_int_equal(st_channel_open(&ch, &err), 0);
	feed(&ch, &rep, sizeof(rep), NULL, 0);
	assert_int_equal(st_channel_check_exec(&ch, &w, "x", &steps, &err), -EPERM);
	assert_string_equal(err.msg, "sandbox: caps: dropping");
	st_channel_close(&ch);
}

/* st_sandbox_wait() needs pidfd_open(2), which valgrind does not know: skip there. */
static void need_pidfd(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	if (fd < 0 && errno == ENOSYS)
		skip();
	if (fd >= 0)
		close(fd);
}

static void wait_or_fail(pid_t pid, unsigned int kill_after_ms, int *status, int *killed)
{
	struct st_error err;
	struct rusage ru;

	assert_int_equal(st_sandbox_wait(pid, kill_after_ms, status, &ru, killed, &err), 0);
}

static void test_wait_exit_status(void **state)
{
	int status = 0, killed = 0;
	pid_t pid;

	need_pidfd();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(3);
	wait_or_fail(pid, 0, &status, &killed);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	assert_int_equal(killed, 0);
}

/*
 * A forwarded SIGTERM reaches the child; one that ignores it is killed once
 * the grace period is over.
 */
static void test_wait_forwards_and_kills(void **state)
{
	int status = 0, killed = 0, ready[2];
	char c;
	pid_t pid;

	need_pidfd();
	assert_int_equal(st_signals_block(), 0);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGTERM, SIG_IGN);
		st_signals_restore();
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	kill(getpid(), SIGTERM); /* blocked: it waits in the signalfd */
	wait_or_fail(pid, 50, &status, &killed);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(killed, 1);

	/* One that does not ignore it ends by it, and is not killed. */
	killed = 0;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		st_signals_restore();
		for (;;)
			pause();
	}
	/* Until the child has restored its mask, SIGTERM waits in it: no race. */
	kill(getpid(), SIGTERM);
	wait_or_fail(pid, 60000, &status, &killed);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_int_equal(killed, 0);
	st_signals_restore();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_with_fd),
		cmocka_unit_test(test_exec_worked),
		cmocka_unit_test(test_exec_failed),
		cmocka_unit_test(test_exec_tail),
		cmocka_unit_test(test_exec_broken),
		cmocka_unit_test(test_wait_exit_status),
		cmocka_unit_test(test_wait_forwards_and_kills),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
