// SPDX-License-Identifier: MIT
/*
 * st_parse_uint() edge cases, and st_read_file()/st_write_file() on real temp
 * files. open, read and write are wrapped (cmocka's example/mock/uptime way)
 * so that the error paths run without root: as root, chmod 000 would not
 * even give EACCES.
 */
// WRAP: open read write
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/util.h"

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
ssize_t __real_read(int fd, void *buf, size_t len);
ssize_t __wrap_read(int fd, void *buf, size_t len);
ssize_t __real_write(int fd, const void *buf, size_t len);
ssize_t __wrap_write(int fd, const void *buf, size_t len);

/*
 * How many of the next calls each wrap fakes; the others reach the real call.
 * A faked open() fails with the errno given by will_return(). A faked read()
 * or write() takes an int from will_return(): -E fails with errno E, N > 0
 * passes at most N bytes to the real call (a short transfer).
 */
static int open_fakes, read_fakes, write_fakes;
static int write_calls;

int __wrap_open(const char *path, int flags, ...)
{
	int mode = 0;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, int);
		va_end(ap);
	}
	if (open_fakes > 0) {
		open_fakes--;
		check_expected_ptr(path);
		errno = mock_type(int);
		return -1;
	}
	return __real_open(path, flags, mode);
}

ssize_t __wrap_read(int fd, void *buf, size_t len)
{
	if (read_fakes > 0) {
		int r = mock_type(int);

		read_fakes--;
		if (r < 0) {
			errno = -r;
			return -1;
		}
		if ((size_t)r < len)
			len = (size_t)r;
	}
	return __real_read(fd, buf, len);
}

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	write_calls++;
	if (write_fakes > 0) {
		int r = mock_type(int);

		write_fakes--;
		if (r < 0) {
			errno = -r;
			return -1;
		}
		if ((size_t)r < len)
			len = (size_t)r;
	}
	return __real_write(fd, buf, len);
}

struct fixture {
	char path[64];
};

static int setup_file(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int fd;

	if (!f)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/sandboxtime-test-util.XXXXXX");
	fd = mkstemp(f->path);
	if (fd < 0) {
		free(f);
		return -1;
	}
	close(fd);
	open_fakes = read_fakes = write_fakes = write_calls = 0;
	*state = f;
	return 0;
}

static int teardown_file(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	free(f);
	return 0;
}

static void put(const struct fixture *f, const char *text)
{
	FILE *fp = fopen(f->path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void get(const struct fixture *f, char *buf, size_t len)
{
	FILE *fp = fopen(f->path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

/* st_parse_uint */

static void test_parse_uint_ok(void **state)
{
	struct st_error err = { 0 };
	uint64_t v = 0;

	assert_int_equal(st_parse_uint("--n", "0", 0, 10, &v, &err), 0);
	assert_int_equal(v, 0);
	assert_int_equal(st_parse_uint("--n", "10", 0, 10, &v, &err), 0);
	assert_int_equal(v, 10);
	assert_int_equal(st_parse_uint("--n", "007", 0, 10, &v, &err), 0);
	assert_int_equal(v, 7);
	assert_int_equal(st_parse_uint("--n", "18446744073709551615", 0, UINT64_MAX, &v, &err), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(st_parse_uint("--n", "5", 5, 5, &v, &err), 0);
	assert_int_equal(v, 5);
}

static void assert_parse_uint_fails(const char *text, uint64_t min, uint64_t max,
				    const char *needle)
{
	struct st_error err = { 0 };
	uint64_t v = 4242;
	int ret = st_parse_uint("--what", text, min, max, &v, &err);

	if (ret != -EINVAL || !err.usage || err.errnum || !strstr(err.msg, "--what") ||
	    !strstr(err.msg, needle)) {
		print_error("# '%s': ret %d, usage %d, errnum %d, msg '%s', expected '%s'\n",
			    text ? text : "(null)", ret, err.usage, err.errnum, err.msg, needle);
		fail();
	}
	/* Nothing is stored on failure. */
	assert_int_equal(v, 4242);
}

static void test_parse_uint_rejects(void **state)
{
	assert_parse_uint_fails(NULL, 0, 10, "not a number");
	assert_parse_uint_fails("", 0, 10, "not a number");
	assert_parse_uint_fails("-1", 0, 10, "'-1'");
	assert_parse_uint_fails("-0", 0, 10, "'-0'");
	assert_parse_uint_fails("+1", 0, 10, "'+1'");
	assert_parse_uint_fails(" 1", 0, 10, "not a number");
	assert_parse_uint_fails("1 ", 0, 10, "not a number");
	assert_parse_uint_fails("1\n", 0, 10, "not a number");
	assert_parse_uint_fails("12abc", 0, 100, "'12abc'");
	assert_parse_uint_fails("0x10", 0, 100, "not a number");
	assert_parse_uint_fails("1e3", 0, 10000, "not a number");
	assert_parse_uint_fails("1.0", 0, 10, "not a number");
	assert_parse_uint_fails("abc", 0, 10, "'abc'");
}

static void test_parse_uint_range(void **state)
{
	assert_parse_uint_fails("11", 0, 10, "out of range");
	assert_parse_uint_fails("0", 1, 10, "out of range");
	assert_parse_uint_fails("4294967296", 0, UINT_MAX, "out of range");
	/* Past UINT64_MAX strtoull saturates: that is "too large", not a wrap. */
	assert_parse_uint_fails("18446744073709551616", 0, UINT64_MAX, "too large");
	assert_parse_uint_fails("99999999999999999999999999", 0, 10, "too large");
}

/* st_read_file */

static void test_read_file(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	put(f, "hello\n");
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "hello");
	/* No newline: nothing removed. One newline only is removed. */
	put(f, "hello");
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "hello");
	put(f, "a\n\n");
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "a\n");
	put(f, "");
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	put(f, "\n");
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_read_file_truncates(void **state)
{
	struct fixture *f = *state;
	char buf[8];

	memset(buf, 'Z', sizeof(buf));
	put(f, "abcdefghijkl");
	assert_int_equal(st_read_file(f->path, buf, 4), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(buf[4], 'Z');
	assert_int_equal(st_read_file(f->path, buf, 1), 0);
	assert_string_equal(buf, "");
}

static void test_read_file_missing(void **state)
{
	char buf[8];

	assert_int_equal(st_read_file("/nonexistent/sandboxtime/x", buf, sizeof(buf)), -ENOENT);
}

static void test_read_file_open_eacces(void **state)
{
	struct fixture *f = *state;
	char buf[8];

	put(f, "secret");
	open_fakes = 1;
	expect_string(__wrap_open, path, f->path);
	will_return(__wrap_open, EACCES);
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), -EACCES);
}

static void test_read_file_eio(void **state)
{
	struct fixture *f = *state;
	char buf[8];

	put(f, "data");
	read_fakes = 1;
	will_return(__wrap_read, -EIO);
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), -EIO);

	/* After a first good chunk too. */
	read_fakes = 2;
	will_return(__wrap_read, 2);
	will_return(__wrap_read, -EIO);
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), -EIO);
}

static void test_read_file_eintr_retried(void **state)
{
	struct fixture *f = *state;
	char buf[16];

	put(f, "uid_map\n");
	read_fakes = 1;
	will_return(__wrap_read, -EINTR);
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "uid_map");
}

static void test_read_file_short_reads(void **state)
{
	struct fixture *f = *state;
	char buf[32];

	/* A pipe or /proc file may return a little at a time: the loop gathers it. */
	put(f, "0 1000 1\n");
	read_fakes = 5;
	for (int i = 0; i < 5; i++)
		will_return(__wrap_read, 2);
	assert_int_equal(st_read_file(f->path, buf, sizeof(buf)), 8);
	assert_string_equal(buf, "0 1000 1");
}

/* st_write_file */

static void test_write_file(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	assert_int_equal(st_write_file(f->path, "deny\n"), 0);
	get(f, buf, sizeof(buf));
	assert_string_equal(buf, "deny\n");
	/* /proc files take the whole text in one write(2). */
	assert_int_equal(write_calls, 1);
}

static void test_write_file_missing(void **state)
{
	/* No O_CREAT: these are /proc and /sys files, never new ones. */
	assert_int_equal(st_write_file("/nonexistent/sandboxtime/x", "1"), -ENOENT);
	assert_int_equal(st_write_file("/tmp/sandboxtime-test-util-does-not-exist", "1"), -ENOENT);
}

static void test_write_file_open_eacces(void **state)
{
	open_fakes = 1;
	expect_string(__wrap_open, path, "/proc/self/uid_map");
	will_return(__wrap_open, EACCES);
	assert_int_equal(st_write_file("/proc/self/uid_map", "0 1000 1"), -EACCES);
	assert_int_equal(write_calls, 0);
}

static void test_write_file_error(void **state)
{
	struct fixture *f = *state;

	write_fakes = 1;
	will_return(__wrap_write, -ENOSPC);
	assert_int_equal(st_write_file(f->path, "12345"), -ENOSPC);
	write_fakes = 1;
	will_return(__wrap_write, -EPERM);
	assert_int_equal(st_write_file(f->path, "12345"), -EPERM);
}

static void test_write_file_short(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	/* A short write to /proc is a failure: the kernel took part of a map. */
	write_fakes = 1;
	will_return(__wrap_write, 3);
	assert_int_equal(st_write_file(f->path, "0 1000 1"), -EIO);
	assert_int_equal(write_calls, 1);
	get(f, buf, sizeof(buf));
	assert_string_equal(buf, "0 1");
}

static void test_write_file_eintr_retried(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	write_fakes = 1;
	will_return(__wrap_write, -EINTR);
	assert_int_equal(st_write_file(f->path, "sandbox"), 0);
	assert_int_equal(write_calls, 2);
	get(f, buf, sizeof(buf));
	assert_string_equal(buf, "sandbox");
}

/* Every test gets a fresh temp file and wraps that pass everything through. */
#define T(f) cmocka_unit_test_setup_teardown(f, setup_file, teardown_file)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_parse_uint_ok),
		T(test_parse_uint_rejects),
		T(test_parse_uint_range),
		T(test_read_file),
		T(test_read_file_truncates),
		T(test_read_file_missing),
		T(test_read_file_open_eacces),
		T(test_read_file_eio),
		T(test_read_file_eintr_retried),
		T(test_read_file_short_reads),
		T(test_write_file),
		T(test_write_file_missing),
		T(test_write_file_open_eacces),
		T(test_write_file_error),
		T(test_write_file_short),
		T(test_write_file_eintr_retried),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
