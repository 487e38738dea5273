// SPDX-License-Identifier: MIT
/*
 * bench churn without a lab: the limits check that refuses a request the
 * machine cannot take (with both numbers), the backlog's growth rate, the
 * overhead over the bare loops, and the user namespace count's search.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/bench_churn.h"

static struct st_churn_limits roomy(void)
{
	struct st_churn_limits l = { .pid_max = 32768, .threads = 300, .mem_available_mb = 24000 };

	for (int i = 0; i < ST_LAYER_COUNT; i++)
		l.max_ns[i] = 96363;
	return l;
}

static void test_limits_fit(void **state)
{
	struct st_churn_limits l = roomy();
	unsigned int mask = ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_NET);
	struct st_error err;

	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 8, &err), 0);
	/* 1000 * (128 + 64 + 1024) KiB = 1187 MB, and 256 to spare. */
	assert_int_equal(l.need_mb, 1000ull * 1216 / 1024 + 256);
	assert_int_equal(l.need_pids, 19);
}

static void test_limits_namespaces(void **state)
{
	struct st_churn_limits l = roomy();
	unsigned int mask = ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_NET);
	struct st_error err;

	/* The lab's own user namespace is one more: 1000 sandboxes need 1001. */
	l.max_ns[ST_LAYER_USER] = 1000;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 1, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "needs 1001 user namespaces"));
	assert_non_null(strstr(err.msg, "max_user_namespaces is 1000"));
	l.max_ns[ST_LAYER_USER] = 1001;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 1, &err), 0);
	l.max_ns[ST_LAYER_NET] = 999;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 1, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "needs 1000 net namespaces"));
	/* A type not in the mask is not asked. */
	assert_int_equal(st_churn_check_limits(&l, ST_LAYER_BIT(ST_LAYER_USER), ST_NET_NONE, 1000, 1, &err), 0);
}

/* --net=veth|bridge: the lab's own network namespace is one more, and each pair costs memory. */
static void test_limits_wired(void **state)
{
	struct st_churn_limits l = roomy();
	unsigned int mask = ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_NET);
	struct st_error err;

	l.max_ns[ST_LAYER_NET] = 1000;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 1, &err), 0);
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_VETH, 1000, 1, &err), -ENOSPC);
	assert_non_null(strstr(err.msg, "needs 1001 net namespaces"));
	l.max_ns[ST_LAYER_NET] = 1001;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_BRIDGE, 1000, 1, &err), 0);
	/* 1000 * (128 + 128 + 64 + 1024) KiB = 1312 MB, and 256 to spare. */
	assert_int_equal(l.need_mb, 1000ull * 1344 / 1024 + 256);
}

static void test_limits_memory_pids_parallel(void **state)
{
	struct st_churn_limits l = roomy();
	unsigned int mask = ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_NET);
	struct st_error err;

	l.mem_available_mb = 1000;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 1, &err), -ENOMEM);
	assert_non_null(strstr(err.msg, "may hold 1443 MB"));
	assert_non_null(strstr(err.msg, "MemAvailable is 1000 MB"));
	l = roomy();
	l.threads = 32760;
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 1000, 4, &err), -EAGAIN);
	assert_non_null(strstr(err.msg, "pid_max 32768"));
	l = roomy();
	assert_int_equal(st_churn_check_limits(&l, mask, ST_NET_NONE, 2, 4, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--parallel=4 is more than --max-alive=2"));
}

static void test_backlog_slope(void **state)
{
	struct st_churn_point p[5];

	/* backlog = 3 t + 1, then a drain point after the creating phase. */
	for (int i = 0; i < 4; i++)
		p[i] = (struct st_churn_point){ .t_s = i * 0.5, .backlog = (uint64_t)(3 * i * 0.5 + 1) };
	p[1].backlog = 2; /* 2.5 rounded down: the fit still finds ~3/s */
	p[4] = (struct st_churn_point){ .t_s = 10, .backlog = 0 };
	assert_true(st_churn_backlog_slope(p, 5, 1.5) > 2.5);
	assert_true(st_churn_backlog_slope(p, 5, 1.5) < 3.5);
	/* The drain point would drag it below 0. */
	assert_true(st_churn_backlog_slope(p, 5, 100) < 0);
	assert_true(st_churn_backlog_slope(p, 1, 100) == 0);
}

static void test_overhead(void **state)
{
	static struct st_churn_level l;

	memset(&l, 0, offsetof(struct st_churn_level, series));
	l.created = 1000;
	l.wall_ns = 1100000000ull; /* 1.1 ms a sandbox */
	l.bare_created[0] = l.bare_created[1] = 1000;
	l.bare_wall_ns[0] = l.bare_wall_ns[1] = 1000000000ull; /* 1 ms */
	assert_true(st_churn_bare_rate(&l) > 999.9 && st_churn_bare_rate(&l) < 1000.1);
	assert_true(st_churn_overhead_pct(&l) > 9.99 && st_churn_overhead_pct(&l) < 10.01);
	l.bare_wall_ns[0] = l.bare_wall_ns[1] = 0;
	assert_true(st_churn_overhead_pct(&l) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits_fit),
		cmocka_unit_test(test_limits_namespaces),
		cmocka_unit_test(test_limits_wired),
		cmocka_unit_test(test_limits_memory_pids_parallel),
		cmocka_unit_test(test_backlog_slope),
		cmocka_unit_test(test_overhead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
