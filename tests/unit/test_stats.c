// SPDX-License-Identifier: MIT
/*
 * Statistics over samples. Expected values were computed with python3's
 * statistics module (numpy is not installed on the build hosts), whose
 * quantiles(v, n=100, method="inclusive") is type 7, the default of R and of
 * numpy.percentile:
 *
 *   python3 -c 'import statistics as s; v = list(range(1, 101));
 *               print(s.quantiles(v, n=100, method="inclusive")[94], s.stdev(v))'
 *
 * and checked by hand: for sorted v, rank = p * (n - 1), the result is
 * v[floor(rank)] + (v[floor(rank) + 1] - v[floor(rank)]) * frac(rank).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/stats.h"

/* cmocka 1.1.5's assert_float_equal() compares floats, too coarse here. */
#define assert_near(got, want) assert_near_at((got), (want), #got, __FILE__, __LINE__)

static void assert_near_at(double got, double want, const char *expr, const char *file, int line)
{
	if (fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want)))
		return;
	print_error("# %s = %.17g, expected %.17g\n", expr, got, want);
	_fail(file, line);
}

static void test_single_value(void **state)
{
	const double v[] = { 42.5 };
	struct st_stats s;

	assert_int_equal(st_stats_compute(v, 1, &s), 0);
	assert_int_equal(s.n, 1);
	assert_near(s.min, 42.5);
	assert_near(s.median, 42.5);
	assert_near(s.p95, 42.5);
	assert_near(s.mean, 42.5);
	/* One sample has no spread: n - 1 == 0 must not divide by zero. */
	assert_near(s.stddev, 0);
}

static void test_two_values(void **state)
{
	/* Unsorted on purpose. rank(p95) = 0.95 * 1 -> 1 + 2 * 0.95 = 2.9. */
	const double v[] = { 3, 1 };
	struct st_stats s;

	assert_int_equal(st_stats_compute(v, 2, &s), 0);
	assert_int_equal(s.n, 2);
	assert_near(s.min, 1);
	assert_near(s.median, 2);
	assert_near(s.p95, 2.9);
	assert_near(s.mean, 2);
	/* sqrt(((1-2)^2 + (3-2)^2) / (2-1)) = sqrt(2) */
	assert_near(s.stddev, 1.4142135623730951);
}

static void test_one_to_ten(void **state)
{
	/* 1..10 shuffled: rank(p95) = 8.55 -> 9 + 0.55 = 9.55; stdev = 3.0276503540974917. */
	const double v[] = { 5, 1, 4, 2, 3, 9, 8, 7, 6, 10 };
	struct st_stats s;

	assert_int_equal(st_stats_compute(v, 10, &s), 0);
	assert_int_equal(s.n, 10);
	assert_near(s.min, 1);
	assert_near(s.median, 5.5);
	assert_near(s.p95, 9.55);
	assert_near(s.mean, 5.5);
	assert_near(s.stddev, 3.0276503540974917);
}

static void test_one_to_hundred(void **state)
{
	/* 1..100, descending: rank(p95) = 94.05 -> 95.05; stdev = 29.011491975882016. */
	double v[100];
	struct st_stats s;

	for (int i = 0; i < 100; i++)
		v[i] = 100 - i;
	assert_int_equal(st_stats_compute(v, 100, &s), 0);
	assert_int_equal(s.n, 100);
	assert_near(s.min, 1);
	assert_near(s.median, 50.5);
	assert_near(s.p95, 95.05);
	assert_near(s.mean, 50.5);
	assert_near(s.stddev, 29.011491975882016);
}

static void test_even_median_interpolates(void **state)
{
	/*
	 * {10,20,30,40}: median 25; p95 rank 2.85 -> 30 + 0.85 * 10 = 38.5;
	 * stdev 12.909944487358056.
	 */
	const double v[] = { 40, 10, 30, 20 };
	struct st_stats s;

	assert_int_equal(st_stats_compute(v, 4, &s), 0);
	assert_near(s.median, 25);
	assert_near(s.p95, 38.5);
	assert_near(s.stddev, 12.909944487358056);
}

static void test_empty_gives_zeros(void **state)
{
	struct st_stats s;

	memset(&s, 0x5a, sizeof(s));
	assert_int_equal(st_stats_compute(NULL, 0, &s), 0);
	assert_int_equal(s.n, 0);
	assert_near(s.min, 0);
	assert_near(s.median, 0);
	assert_near(s.p95, 0);
	assert_near(s.mean, 0);
	assert_near(s.stddev, 0);
}

static void test_input_not_modified(void **state)
{
	double v[] = { 9, 3, 7, 1, 5, 2 };
	double copy[ARRAY_SIZE(v)];
	struct st_stats s;

	memcpy(copy, v, sizeof(v));
	assert_int_equal(st_stats_compute(v, ARRAY_SIZE(v), &s), 0);
	/* Samples stay in measurement order: reports print them as they are. */
	assert_memory_equal(v, copy, sizeof(v));
}

static void test_samples_add_grows(void **state)
{
	struct st_samples s = { 0 };

	for (int i = 0; i < 1000; i++)
		assert_int_equal(st_samples_add(&s, i * 0.5), 0);
	assert_int_equal(s.n, 1000);
	assert_true(s.cap >= s.n);
	for (int i = 0; i < 1000; i++)
		assert_near(s.v[i], i * 0.5);
	st_samples_free(&s);
	assert_null(s.v);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.cap, 0);
}

static void test_samples_reserve_then_add(void **state)
{
	struct st_samples s = { 0 };
	double *v;

	assert_int_equal(st_samples_reserve(&s, 8), 0);
	assert_int_equal(s.cap, 8);
	v = s.v;
	/* Within the reserved capacity nothing moves: no allocation on a measured path. */
	for (int i = 0; i < 8; i++)
		assert_int_equal(st_samples_add(&s, i), 0);
	assert_ptr_equal(s.v, v);
	/* A smaller reservation never shrinks. */
	assert_int_equal(st_samples_reserve(&s, 4), 0);
	assert_int_equal(s.cap, 8);
	/* Past it, the list grows and keeps what it had. */
	assert_int_equal(st_samples_add(&s, 8), 0);
	assert_int_equal(s.n, 9);
	for (int i = 0; i < 9; i++)
		assert_near(s.v[i], i);
	st_samples_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_two_values),
		cmocka_unit_test(test_one_to_ten),
		cmocka_unit_test(test_one_to_hundred),
		cmocka_unit_test(test_even_median_interpolates),
		cmocka_unit_test(test_empty_gives_zeros),
		cmocka_unit_test(test_input_not_modified),
		cmocka_unit_test(test_samples_add_grows),
		cmocka_unit_test(test_samples_reserve_then_add),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
