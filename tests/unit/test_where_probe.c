// SPDX-License-Identifier: MIT
/*
 * bench where's reading of the probe (where_probe.h) and the microVM's
 * initramfs (initramfs.h): a line whose counts or checksums do not match
 * is refused figure by figure, a line that is not the probe's or lacks a
 * key is an error naming it; the archive is newc with /init holding the
 * program's bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/initramfs.h"
#include "sandboxtime/where_probe.h"

#define GOOD "sandboxtime-probe v=1 arch=x86_64 call_ns=2.5 calls=10 calls_want=10" \
	" write_devnull_ns=300 writes=5 writes_want=5 getppid_ns=250 getppids=5 getppids_want=5" \
	" memset_64mib_us=5000 memset_sum=77 memset_want=77 memcpy_64mib_us=15000 memcpy_sum=%s" \
	" memcpy_want=99 fork_100mb_us=6000 forks=5 forks_want=5\r\n"

static void test_good_line(void **state)
{
	struct st_probe_result r;
	struct st_error err = { 0 };
	char line[512];

	snprintf(line, sizeof(line), GOOD, "99");
	assert_int_equal(st_probe_parse(line, &r, &err), 0);
	assert_string_equal(r.arch, "x86_64");
	assert_true(r.v[ST_PROBE_CALL] == 2.5 && r.v[ST_PROBE_FORK] == 6000);
	for (int f = 0; f < ST_PROBE_FIGURES; f++)
		assert_string_equal(r.refused[f], "");
}

static void test_checksum_mismatch(void **state)
{
	struct st_probe_result r;
	struct st_error err = { 0 };
	char line[512];

	snprintf(line, sizeof(line), GOOD, "98");
	assert_int_equal(st_probe_parse(line, &r, &err), 0);
	assert_non_null(strstr(r.refused[ST_PROBE_MEMCPY], "checksum mismatch in memcpy_sum"));
	assert_string_equal(r.refused[ST_PROBE_MEMSET], "");
}

static void test_bad_lines(void **state)
{
	struct st_probe_result r;
	struct st_error err = { 0 };
	char line[512];

	assert_int_equal(st_probe_parse("hello", &r, &err), -EPROTO);
	snprintf(line, sizeof(line), GOOD, "99");
	*strstr(line, "forks_want") = 'x'; /* "xorks_want": the key is gone */
	assert_int_equal(st_probe_parse(line, &r, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "forks_want"));
	snprintf(line, sizeof(line), GOOD, "-1");
	assert_int_equal(st_probe_parse(line, &r, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "memcpy_sum"));
}

static void test_initramfs(void **state)
{
	struct st_error err = { 0 };
	char path[] = "/tmp/test-initramfs-XXXXXX", buf[4096];
	int src = mkstemp(path), fd;
	ssize_t n;

	assert_true(src >= 0);
	assert_int_equal(write(src, "PROGRAM", 7), 7);
	close(src);
	fd = st_initramfs_memfd(path, &err);
	unlink(path);
	assert_true(fd >= 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_memory_equal(buf, "070701", 6);
	assert_true(n % 4 == 0);
	assert_non_null(memmem(buf, (size_t)n, "dev/console", 11));
	assert_non_null(memmem(buf, (size_t)n, "PROGRAM", 7));
	assert_non_null(memmem(buf, (size_t)n, "TRAILER!!!", 10));
	assert_int_equal(st_initramfs_memfd("/nonexistent/probe", &err), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_line),
		cmocka_unit_test(test_checksum_mismatch),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_initramfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
