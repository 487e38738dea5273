// SPDX-License-Identifier: MIT
/*
 * steal: /proc/stat's cpu line parsed, and the steal over a run from two
 * readings. The expected numbers are worked out by hand in the comments.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sandboxtime/steal.h"

static void test_parse(void **state)
{
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	const char *text = "cpu  100 2 30 800 5 0 3 60 40 0\ncpu0 50 1 15 400 2 0 1 30 20 0\n";
	uint64_t steal, total;

	assert_int_equal(st_steal_parse(text, &steal, &total), 0);
	assert_int_equal(steal, 60);
	/* 100+2+30+800+5+0+3+60: guest is already inside user. */
	assert_int_equal(total, 1000);
	assert_int_equal(st_steal_parse("cpu0 1 2 3 4 5 6 7 8\n", &steal, &total), -EINVAL);
	assert_int_equal(st_steal_parse("cpu  1 2 3 4 5\n", &steal, &total), -EINVAL);
	assert_int_equal(st_steal_parse("", &steal, &total), -EINVAL);
}

static void test_span(void **state)
{
	struct st_steal s = { .available = 1, .steal0 = 60, .total0 = 1000 };

	/* 25 of 1000 ticks stolen at 100 ticks/s: 250 ms, 2.5%: flagged. */
	st_steal_span(&s, 85, 2000, 100);
	assert_true(fabs(s.ms - 250.0) < 1e-9);
	assert_true(fabs(s.share - 0.025) < 1e-12);
	assert_true(st_steal_flagged(&s));
	/* 10 of 1000: 1% is not above 1%. */
	st_steal_span(&s, 70, 2000, 100);
	assert_true(fabs(s.share - 0.01) < 1e-12);
	assert_false(st_steal_flagged(&s));
	/* No tick went by: no share, no division by zero. */
	st_steal_span(&s, 60, 1000, 100);
	assert_true(s.share == 0 && s.ms == 0);
	/* Unavailable is never flagged. */
	s.available = 0;
	s.share = 0.5;
	assert_false(st_steal_flagged(&s));
}

static void test_begin_end_here(void **state)
{
	struct st_steal s;

	/* This machine's /proc/stat: readable, and a share between 0 and 1. */
	st_steal_begin(&s);
	assert_true(s.available);
	assert_true(s.total0 > 0);
	st_steal_end(&s);
	assert_true(s.available);
	assert_true(s.share >= 0 && s.share <= 1 && s.ms >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_begin_end_here),
	};

	return cmocka_run_group_tests_name("steal", tests, NULL, NULL);
}
