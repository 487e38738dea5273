// SPDX-License-Identifier: MIT
/*
 * st_clone3() where the kernel has no clone3: syscall() is wrapped so that
 * SYS_clone3 fails with ENOSYS, as before Linux 5.3, under a seccomp profile
 * that hides it, or under valgrind.
 */
// WRAP: syscall
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/spawn.h"

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...);

static int hide_clone3;
static int clone3_calls, clone_calls;

long __wrap_syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_clone3) {
		clone3_calls++;
		if (hide_clone3) {
			errno = ENOSYS;
			return -1;
		}
	}
	if (nr == SYS_clone)
		clone_calls++;
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static int reset(void **state)
{
	hide_clone3 = 1;
	clone3_calls = clone_calls = 0;
	return 0;
}

/* Without clone3, a plain child still comes, through clone(), and is reaped. */
static void test_fallback_plain(void **state)
{
	struct st_error err = { 0 };
	int status;
	pid_t pid = st_clone3(0, &err);

	if (pid == 0)
		_exit(7);
	assert_true(pid > 0);
	assert_int_equal(clone3_calls, 1);
	assert_int_equal(clone_calls, 1);
	assert_int_equal(st_reap(pid, &status, &err), 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
}

/* clone() would read CLONE_NEWTIME as an exit signal: no fallback, ENOSYS. */
static void test_no_fallback_for_time(void **state)
{
	struct st_error err = { 0 };

	assert_int_equal(st_clone3(CLONE_NEWTIME, &err), -ENOSYS);
	assert_int_equal(err.errnum, ENOSYS);
	assert_int_equal(clone_calls, 0);
}

/* With clone3 there, clone() is never called. */
static void test_clone3_first(void **state)
{
	struct st_error err = { 0 };
	pid_t pid;

	/* An empty clone3 fails with EINVAL where it exists. */
	if (__real_syscall(SYS_clone3, NULL, 0L, 0L, 0L, 0L, 0L) < 0 && errno == ENOSYS)
		skip(); /* this kernel (or valgrind) has no clone3 */
	hide_clone3 = 0;
	pid = st_clone3(0, &err);
	if (pid == 0)
		_exit(0);
	assert_true(pid > 0);
	assert_int_equal(clone_calls, 0);
	assert_int_equal(st_reap(pid, NULL, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fallback_plain, reset),
		cmocka_unit_test_setup(test_no_fallback_for_time, reset),
		cmocka_unit_test_setup(test_clone3_first, reset),
	};

	return cmocka_run_group_tests_name("spawn", tests, NULL, NULL);
}
