// SPDX-License-Identifier: MIT
/* The error contract: cause, context chain, advice, and one printed line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/error.h"

static void test_set(void **state)
{
	struct st_error err = { 0 };

	st_error_hint(&err, "stale advice");
	assert_int_equal(st_error_set(&err, ENOENT, "open %s", "/x"), -ENOENT);
	assert_int_equal(err.errnum, ENOENT);
	assert_int_equal(err.usage, 0);
	assert_string_equal(err.msg, "open /x");
	/* A new cause drops the advice that belonged to the old one. */
	assert_string_equal(err.hint, "");
	/* No errno: still a failure. */
	assert_int_equal(st_error_set(&err, 0, "no errno"), -EINVAL);
	assert_int_equal(err.errnum, 0);
}

static void test_usage(void **state)
{
	struct st_error err = { 0 };

	assert_int_equal(st_error_usage(&err, "--ns: bad '%s'", "x"), -EINVAL);
	assert_int_equal(err.usage, 1);
	assert_int_equal(err.errnum, 0);
	assert_string_equal(err.msg, "--ns: bad 'x'");
	/* A later real failure is no usage error. */
	st_error_set(&err, EPERM, "clone");
	assert_int_equal(err.usage, 0);
}

static void test_wrap_chain(void **state)
{
	struct st_error err = { 0 };

	st_error_set(&err, ENOENT, "open %s", "/sys/x");
	assert_int_equal(st_error_wrap(&err, "veth %s", "stv42"), -ENOENT);
	assert_int_equal(st_error_wrap(&err, "net"), -ENOENT);
	assert_string_equal(err.msg, "net: veth stv42: open /sys/x");
	assert_int_equal(err.errnum, ENOENT);

	/* Wrapping keeps the usage flag and its -EINVAL. */
	st_error_usage(&err, "bad");
	assert_int_equal(st_error_wrap(&err, "--ns"), -EINVAL);
	assert_int_equal(err.usage, 1);
	assert_string_equal(err.msg, "--ns: bad");

	/* Nothing to wrap: the context is the message. */
	st_error_clear(&err);
	assert_int_equal(st_error_wrap(&err, "probing %d", 3), -EINVAL);
	assert_string_equal(err.msg, "probing 3");
}

static void test_wrap_keeps_hint(void **state)
{
	struct st_error err = { 0 };

	st_error_set(&err, ENOSPC, "clone");
	st_error_hint(&err, "raise it");
	st_error_wrap(&err, "user");
	assert_string_equal(err.hint, "raise it");
}

static void test_clear(void **state)
{
	struct st_error err = { 0 };

	st_error_set(&err, EIO, "x");
	st_error_hint(&err, "h");
	err.usage = 1;
	st_error_clear(&err);
	assert_int_equal(err.errnum, 0);
	assert_int_equal(err.usage, 0);
	assert_string_equal(err.msg, "");
	assert_string_equal(err.hint, "");
}

static void test_hint(void **state)
{
	struct st_error err = { 0 };

	st_error_hint(&err, "first");
	st_error_hint(&err, NULL); /* no advice known: keep what is there */
	assert_string_equal(err.hint, "first");
	st_error_hint(&err, "second");
	assert_string_equal(err.hint, "second");
}

static void test_format(void **state)
{
	struct st_error err = { 0 };
	char buf[512];

	st_error_set(&err, ENOENT, "veth stv1: open /x");
	st_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "veth stv1: open /x: No such file or directory");

	st_error_set(&err, EPERM, "clone user");
	st_error_hint(&err, "enable it with sysctl x=1");
	st_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "clone user: Operation not permitted (enable it with sysctl x=1)");

	/* Bad usage: the message says it all, no "Invalid argument". */
	st_error_usage(&err, "--repeat: 'x' is not a number");
	st_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "--repeat: 'x' is not a number");

	/* A hint without errno. */
	st_error_set(&err, 0, "no cause");
	st_error_hint(&err, "do this");
	st_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "no cause (do this)");

	/* Never an empty line. */
	st_error_clear(&err);
	st_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "unknown error");
}

static void test_truncation(void **state)
{
	struct st_error err = { 0 };
	char big[1000];
	size_t len;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';

	st_error_set(&err, EIO, "%s", big);
	assert_int_equal(strlen(err.msg), ST_ERROR_MSG_MAX - 1);
	st_error_hint(&err, big);
	assert_int_equal(strlen(err.hint), ST_ERROR_MSG_MAX - 1);

	/* Long context over a long message, many times: cut, never overrun. */
	for (int i = 0; i < 100; i++)
		assert_int_equal(st_error_wrap(&err, "ctx%d %s", i, big), -EIO);
	assert_int_equal(strlen(err.msg), ST_ERROR_MSG_MAX - 1);
	assert_memory_equal(err.msg, "ctx99 ", 6);

	/* Short context over a full message: the newest context comes first. */
	st_error_set(&err, EIO, "%s", big);
	st_error_wrap(&err, "outer");
	len = strlen(err.msg);
	assert_int_equal(len, ST_ERROR_MSG_MAX - 1);
	assert_memory_equal(err.msg, "outer: xxx", 10);
}

static void test_format_truncation(void **state)
{
	struct st_error err = { 0 };
	struct {
		char buf[16];
		char canary[16];
	} out;
	char big[600];

	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	st_error_set(&err, ENOENT, "%s", big);
	st_error_hint(&err, big);

	memset(&out, 'C', sizeof(out));
	st_error_format(&err, out.buf, sizeof(out.buf));
	assert_int_equal(strlen(out.buf), sizeof(out.buf) - 1);
	for (size_t i = 0; i < sizeof(out.canary); i++)
		assert_int_equal(out.canary[i], 'C');

	memset(&out, 'C', sizeof(out));
	st_error_format(&err, out.buf, 1);
	assert_int_equal(out.buf[0], '\0');
	assert_int_equal(out.buf[1], 'C');

	memset(&out, 'C', sizeof(out));
	st_error_format(&err, out.buf, 0);
	assert_int_equal(out.buf[0], 'C');

	/* With room: message, errno text, then the hint in parentheses. */
	{
		char line[3 * ST_ERROR_MSG_MAX];

		st_error_format(&err, line, sizeof(line));
		assert_non_null(strstr(line, ": No such file or directory ("));
		assert_int_equal(line[strlen(line) - 1], ')');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_wrap_chain),
		cmocka_unit_test(test_wrap_keeps_hint),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_hint),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_format_truncation),
	};

	return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}
