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

static void test_permutation(void **state)
{
	for (size_t n = 1; n <= 17; n++) {
		uint64_t a = 42, b = 42;
		size_t p[17], q[17];
		int seen[17] = { 0 };

		st_permute(p, n, &a);
		st_permute(q, n, &b);
		for (size_t i = 0; i < n; i++) {
			assert_true(p[i] < n);
			seen[p[i]]++;
		}
		/* Each index exactly once. */
		for (size_t i = 0; i < n; i++)
			assert_int_equal(seen[i], 1);
		/* The same seed replays the same order, and leaves the same state. */
		assert_memory_equal(p, q, n * sizeof(p[0]));
		assert_true(a == b);
	}
}

static void test_permutation_varies(void **state)
{
	uint64_t rng = 7;
	size_t first[9], p[9];
	int differs = 0, at0[9] = { 0 };

	st_permute(first, 9, &rng);
	/* Successive rounds get other orders, and every set goes first sometimes. */
	for (int r = 0; r < 900; r++) {
		st_permute(p, 9, &rng);
		differs += memcmp(p, first, sizeof(p)) != 0;
		at0[p[0]]++;
	}
	assert_true(differs > 890);
	for (int i = 0; i < 9; i++)
		assert_true(at0[i] > 50 && at0[i] < 150);
}

static void test_rng_below_bounds(void **state)
{
	uint64_t rng = 1;

	for (int i = 0; i < 1000; i++)
		assert_true(st_rng_below(&rng, 3) < 3);
	assert_int_equal(st_rng_below(&rng, 1), 0);
}

/* Fixture rounds: a reference with drift and noise, x = ref + 10 + other noise. */
/*
 * The expected values below were computed outside this code, with Python:
 * sorted(d), statistics.median(d), and the coverage
 * 1 - 2 * sum(math.comb(n, j) for j in range(k)) / 2**n.
 */
static void test_median_interval_ranks(void **state)
{
	static const struct {
		size_t n, rank;
		double coverage;
	} want[] = {
		{ 1, 0, 0 },		{ 5, 0, 0 },
		{ 6, 1, 0.96875 },	{ 9, 2, 0.9609375 },
		{ 10, 2, 0.978515625 }, { 20, 6, 0.9586105346679688 },
		{ 100, 40, 0.9647997997822952 }, { 1000, 469, 0.9537088026395019 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		double cov;

		assert_int_equal(st_median_interval_rank(want[i].n, &cov), want[i].rank);
		assert_true(fabs(cov - want[i].coverage) < 1e-9);
	}
	assert_int_equal(st_median_interval_min_n(), 6);
}

/* Twenty rounds whose differences are 10 +- 3: the known shift is 10. */
static const double shift20[] = { 8, 12, 9, 11, 10, 10, 7, 13, 9, 11, 10, 8, 12, 10, 9, 11, 10, 10, 12, 8 };

static void paired_from(const double *d, size_t n, double *x, double *ref)
{
	for (size_t r = 0; r < n; r++) {
		ref[r] = 100 + 3.0 * (double)r;
		x[r] = ref[r] + d[r];
	}
}

static void test_paired_known_shift(void **state)
{
	double x[20], ref[20];
	struct st_increment inc;

	paired_from(shift20, 20, x, ref);
	assert_int_equal(st_paired_increment(x, ref, 20, &inc), 0);
	assert_int_equal(inc.n, 20);
	assert_true(inc.has_interval);
	/* sorted: 7 8 8 8 9 [9] 9 10 ... 11 11 [11] 12 ...: ranks 6 and 15 */
	assert_near(inc.median, 10);
	assert_near(inc.ci_low, 9);
	assert_near(inc.ci_high, 11);
	assert_true(fabs(inc.coverage - 0.9586105346679688) < 1e-9);
	assert_true(inc.ci_low <= 10 && 10 <= inc.ci_high);
	assert_true(inc.significant);
}

static void test_paired_small_n_no_verdict(void **state)
{
	/* Three rounds all +20 or more: a bootstrap called this significant. */
	const double d[] = { 20, 25, 30 };
	double x[3], ref[3];
	struct st_increment inc;
	char why[64];

	paired_from(d, 3, x, ref);
	assert_int_equal(st_paired_increment(x, ref, 3, &inc), 0);
	assert_int_equal(inc.n, 3);
	assert_near(inc.median, 25);
	assert_false(inc.has_interval);
	assert_false(inc.significant);
	st_increment_why(&inc, why, sizeof(why));
	assert_string_equal(why, "n=3: 95% needs n >= 6");
	/* One round: [d, d] before; now nothing. */
	assert_int_equal(st_paired_increment(x, ref, 1, &inc), 0);
	assert_false(inc.has_interval);
	assert_false(inc.significant);
	/* Six rounds of one sign: the interval [min, max] at 96.9% excludes 0. */
	{
		const double d6[] = { 3, 1, 4, 1, 5, 9 };
		double x6[6], ref6[6];

		paired_from(d6, 6, x6, ref6);
		assert_int_equal(st_paired_increment(x6, ref6, 6, &inc), 0);
		assert_true(inc.has_interval);
		assert_near(inc.ci_low, 1);
		assert_near(inc.ci_high, 9);
		assert_true(inc.significant);
	}
}

static void test_paired_identical(void **state)
{
	double x[20], ref[20];
	struct st_increment inc;

	paired_from(shift20, 20, x, ref);
	assert_int_equal(st_paired_increment(ref, ref, 20, &inc), 0);
	assert_near(inc.median, 0);
	assert_true(inc.has_interval);
	assert_true(inc.ci_low <= 0 && 0 <= inc.ci_high);
	assert_false(inc.significant);
}

static void test_paired_noise_contains_zero(void **state)
{
	/* Differences of +-5 around 0: sorted -5 [-4] -3 ... 3 [4] 5, ranks 2 and 9. */
	const double x[] = { 105, 95, 103, 97, 101, 99, 104, 96, 100, 102 };
	const double ref[] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	struct st_increment a;

	assert_int_equal(st_paired_increment(x, ref, 10, &a), 0);
	assert_near(a.ci_low, -4);
	assert_near(a.ci_high, 4);
	assert_false(a.significant);
}

static void test_p95_meaningful(void **state)
{
	/* Below 41 samples the type-7 p95 interpolates between the two largest. */
	assert_false(st_stats_p95_meaningful(20));
	assert_false(st_stats_p95_meaningful(40));
	assert_true(st_stats_p95_meaningful(41));
}

/* --seed given: its value, whatever it is; not given: a fresh draw each time. */
static void test_seed_or_new(void **state)
{
	const struct st_seed given = { .value = 0, .given = 1 }, absent = { .value = 7 };
	uint64_t a = st_seed_or_new(&absent), b = st_seed_or_new(&absent);

	(void)state;
	assert_int_equal(st_seed_or_new(&given), 0);
	assert_int_equal(st_seed_or_new(&(struct st_seed){ UINT64_MAX, 1 }), UINT64_MAX);
	assert_true(a != b); /* 64 random bits twice: equal once in 2^64 */
	assert_true(a != 7 || b != 7);
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
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_permutation_varies),
		cmocka_unit_test(test_rng_below_bounds),
		cmocka_unit_test(test_median_interval_ranks),
		cmocka_unit_test(test_paired_known_shift),
		cmocka_unit_test(test_paired_small_n_no_verdict),
		cmocka_unit_test(test_paired_identical),
		cmocka_unit_test(test_paired_noise_contains_zero),
		cmocka_unit_test(test_p95_meaningful),
		cmocka_unit_test(test_seed_or_new),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
