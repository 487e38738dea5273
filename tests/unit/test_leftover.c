// SPDX-License-Identifier: MIT
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <unistd.h>

#include "sandboxtime/leftover.h"

static void test_parse_names(void **state)
{
	pid_t pid = 0;

	assert_int_equal(st_leftover_parse("stv1234", &pid), ST_LEFTOVER_VETH);
	assert_int_equal(pid, 1234);
	assert_int_equal(st_leftover_parse("stbr99", &pid), ST_LEFTOVER_BRIDGE);
	assert_int_equal(pid, 99);
	assert_int_equal(st_leftover_parse("stv4194304", &pid), ST_LEFTOVER_VETH);
}

static void test_parse_rejects(void **state)
{
	/* Anything that is not exactly our pattern is someone else's: never ours to delete. */
	static const char *const others[] = { "stv",      "stbr",     "stv12a",   "stv2p",  "stv0",
					      "stv01",    "stv4194305", "stv99999999999", "eth0", "xstv12",
					      "stbridge", "stv-1",    "STV12",    "" };
	pid_t pid = -7;

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		if (st_leftover_parse(others[i], &pid) != ST_LEFTOVER_NONE)
			fail_msg("'%s' was taken for a leftover", others[i]);
	}
	assert_int_equal(pid, -7);
}

static void test_link_kind_must_match(void **state)
{
	pid_t pid = -7;

	assert_int_equal(st_leftover_link("stv12", "veth", &pid), ST_LEFTOVER_VETH);
	assert_int_equal(pid, 12);
	assert_int_equal(st_leftover_link("stbr13", "bridge", &pid), ST_LEFTOVER_BRIDGE);
	assert_int_equal(pid, 13);
	pid = -7;
	/* Our name on another kind of link is not ours. */
	assert_int_equal(st_leftover_link("stv12", "bridge", &pid), ST_LEFTOVER_NONE);
	assert_int_equal(st_leftover_link("stbr13", "veth", &pid), ST_LEFTOVER_NONE);
	assert_int_equal(st_leftover_link("stv12", "", &pid), ST_LEFTOVER_NONE);
	assert_int_equal(st_leftover_link("eth0", "veth", &pid), ST_LEFTOVER_NONE);
	assert_int_equal(pid, -7);
}

static void test_owner_running(void **state)
{
	/* This test is not a sandboxtime; pid 0 and a huge pid are nobody's. */
	assert_false(st_leftover_owner_running(getpid()));
	assert_false(st_leftover_owner_running(0));
	assert_false(st_leftover_owner_running(4194304));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_names),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_link_kind_must_match),
		cmocka_unit_test(test_owner_running),
	};

	return cmocka_run_group_tests_name("leftover", tests, NULL, NULL);
}
