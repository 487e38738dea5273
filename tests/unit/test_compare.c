// SPDX-License-Identifier: MIT
/*
 * compare: the bootstrap ratio (st_ratio_interval), reading documents into
 * figures and judging them, on known samples: B = A times a factor, B = A
 * shuffled, and the fixtures of tests/fixtures/compare/ (made by
 * tests/py/compare_fixtures.py). Run from the top of the tree.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/compare.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_compare.h"
#include "sandboxtime/stats.h"

#define FIXTURES "tests/fixtures/compare/"
#define N 301

static double a[N], b[N];

/* Samples around 100 +-10% from a seeded generator. */
static void fill(double *v, size_t n, uint64_t seed, double factor)
{
	uint64_t state = seed;

	for (size_t i = 0; i < n; i++)
		v[i] = factor * (90.0 + (double)(st_rng_next(&state) % 20001) / 1000.0);
}

static void test_seeded_replay_is_identical(void **state)
{
	struct st_ratio r1, r2, r3;

	fill(a, N, 1, 1.0);
	fill(b, N, 2, 1.0);
	assert_int_equal(st_ratio_interval(a, N, b, N, 2000, 42, &r1), 0);
	assert_int_equal(st_ratio_interval(a, N, b, N, 2000, 42, &r2), 0);
	assert_memory_equal(&r1, &r2, sizeof(r1));
	/* Another seed draws other resamples: the ends move. */
	assert_int_equal(st_ratio_interval(a, N, b, N, 2000, 43, &r3), 0);
	assert_true(r3.ci_low != r1.ci_low || r3.ci_high != r1.ci_high);
	assert_true(r1.has_interval);
}

static void test_known_factor_inside_interval(void **state)
{
	struct st_ratio r;

	fill(a, N, 3, 1.0);
	for (size_t i = 0; i < N; i++)
		b[i] = a[i] * 1.25;
	assert_int_equal(st_ratio_interval(a, N, b, N, 2000, 7, &r), 0);
	assert_true(fabs(r.ratio - 1.25) < 1e-12);
	assert_true(r.ci_low <= 1.25 && r.ci_high >= 1.25);
	assert_true(r.ci_low > 1.0);
	assert_false(r.within_noise);
}

static void test_same_distribution_within_noise(void **state)
{
	struct st_ratio r;

	fill(a, N, 5, 1.0);
	/* The same samples in reverse: the same medians, resampled independently. */
	for (size_t i = 0; i < N; i++)
		b[i] = a[N - 1 - i];
	assert_int_equal(st_ratio_interval(a, N, b, N, 2000, 9, &r), 0);
	assert_true(fabs(r.ratio - 1.0) < 1e-12);
	assert_true(r.within_noise);
	assert_true(r.ci_low < 1.0 && r.ci_high > 1.0);
}

static int cmp_double(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return (p > q) - (p < q);
}

/* Type-7 percentile of sorted @v. */
static double pct(const double *v, size_t n, double p)
{
	double rank = p * (double)(n - 1);
	size_t lo = (size_t)rank, hi = lo + 1 < n ? lo + 1 : lo;

	return v[lo] + (v[hi] - v[lo]) * (rank - (double)lo);
}

/* The textbook bootstrap: n draws per resample, medians from sorting. */
static void brute_interval(const double *x, const double *y, size_t n, size_t nb, uint64_t seed,
			   double *lo, double *hi)
{
	double *est = malloc(nb * sizeof(*est)), *ra = malloc(n * sizeof(*ra)),
	       *rb = malloc(n * sizeof(*rb));
	uint64_t s = seed;
	struct st_stats sa, sb;

	assert_non_null(est);
	assert_non_null(ra);
	assert_non_null(rb);
	for (size_t k = 0; k < nb; k++) {
		for (size_t i = 0; i < n; i++) {
			ra[i] = x[st_rng_below(&s, n)];
			rb[i] = y[st_rng_below(&s, n)];
		}
		assert_int_equal(st_stats_compute(ra, n, &sa), 0);
		assert_int_equal(st_stats_compute(rb, n, &sb), 0);
		est[k] = sb.median / sa.median;
	}
	qsort(est, nb, sizeof(*est), cmp_double);
	*lo = pct(est, nb, 0.025);
	*hi = pct(est, nb, 0.975);
	free(est);
	free(ra);
	free(rb);
}

/*
 * The order-statistic shortcut draws from the same distribution as the
 * textbook bootstrap: with many resamples both give the same interval ends
 * up to Monte Carlo error (here well under 1% of the ratio), for an odd and
 * an even number of samples.
 */
static void test_matches_textbook_bootstrap(void **state)
{
	static const size_t sizes[] = { 101, 100 };

	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t n = sizes[k];
		struct st_ratio r;
		double lo, hi;

		fill(a, n, 11 + k, 1.0);
		fill(b, n, 21 + k, 1.1);
		assert_int_equal(st_ratio_interval(a, n, b, n, 20000, 5, &r), 0);
		brute_interval(a, b, n, 20000, 6, &lo, &hi);
		assert_true(fabs(r.ci_low - lo) < 0.01);
		assert_true(fabs(r.ci_high - hi) < 0.01);
		/* And the interval is a real one: it has width. */
		assert_true(r.ci_high - r.ci_low > 0.01);
	}
}

static void test_edges(void **state)
{
	double zero[] = { 0.0, 1.0, 2.0 }, one[] = { 5.0 }, two[] = { 1.0, 2.0 };
	struct st_ratio r;

	assert_int_equal(st_ratio_interval(two, 0, two, 2, 2000, 1, &r), -EINVAL);
	assert_int_equal(st_ratio_interval(two, 2, two, 2, 0, 1, &r), -EINVAL);
	/* A base that reaches 0 has resamples with a zero median: no ratio. */
	assert_int_equal(st_ratio_interval(zero, 3, two, 2, 2000, 1, &r), 0);
	assert_false(r.has_ratio);
	assert_false(r.has_interval);
	/* One sample: a ratio, but nothing to resample. */
	assert_int_equal(st_ratio_interval(one, 1, two, 2, 2000, 1, &r), 0);
	assert_true(r.has_ratio);
	assert_false(r.has_interval);
	assert_true(fabs(r.ratio - 0.3) < 1e-12);
}

static void load(struct st_cmp_doc *d, const char *name)
{
	struct st_error err = { 0 };

	assert_int_equal(st_cmp_doc_load(d, name, &err), 0);
}

static void test_doc_figures_named_by_path(void **state)
{
	struct st_cmp_doc d;
	const struct st_cmp_figure *f;

	load(&d, FIXTURES "base.json");
	assert_string_equal(d.kind, "layers");
	/* 2 layers x (setup, teardown, increments.setup). */
	assert_int_equal(d.nfig, 6);
	f = st_cmp_doc_find(&d, "layers[user].teardown_us", 0);
	assert_non_null(f);
	assert_int_equal(f->samples.n, 201);
	assert_false(f->higher_better);
	f = st_cmp_doc_find(&d, "layers[base].increments.setup_us", 0);
	assert_non_null(f);
	assert_int_equal(f->samples.n, 0);
	assert_true(fabs(f->median - 50.0) < 1e-12);
	assert_null(st_cmp_doc_find(&d, "layers[net].setup_us", 0));
	st_cmp_doc_free(&d);
	load(&d, FIXTURES "netbench_a.json");
	f = st_cmp_doc_find(&d, "paths[veth].throughput_gbps", 3);
	assert_non_null(f);
	assert_true(f->higher_better);
	st_cmp_doc_free(&d);
}

static void test_doc_refused(void **state)
{
	static const struct {
		const char *json, *msg;
	} bad[] = {
		{ "{x", "not JSON" },
		{ "[1, 2]", "no \"schema\"" },
		{ "{\"schema\": \"other/v1\"}", "unknown schema 'other/v1'" },
		{ "{\"schema\": \"sandboxtime/orphans/v1\"}", "holds no measured figures" },
		{ "{\"schema\": \"sandboxtime/v1\", \"layers\": []}", "without any figure" },
	};
	char path[] = "/tmp/st-compare-XXXXXX";
	int fd = mkstemp(path);
	struct st_error err = { 0 };
	struct st_cmp_doc d;

	assert_true(fd >= 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, bad[i].json, strlen(bad[i].json), 0),
				 (ssize_t)strlen(bad[i].json));
		assert_int_equal(st_cmp_doc_load(&d, path, &err), -EINVAL);
		assert_non_null(strstr(err.msg, bad[i].msg));
		assert_non_null(strstr(err.msg, path));
		st_cmp_doc_free(&d);
	}
	close(fd);
	unlink(path);
	assert_int_equal(st_cmp_doc_load(&d, "/nonexistent/x.json", &err), -ENOENT);
	st_cmp_doc_free(&d);
}

/* Two elements about the same thing stay two figures: the second is "#2". */
static void test_doc_repeated_ids(void **state)
{
	static const char json[] =
		"{\"schema\": \"sandboxtime/v1\", \"layers\": ["
		"{\"layer\": \"uts\", \"setup_us\": {\"median\": 1, \"n\": 1}},"
		"{\"layer\": \"uts\", \"setup_us\": {\"median\": 2, \"n\": 1}},"
		"{\"setup_us\": {\"median\": 3, \"n\": 1}}]}";
	char path[] = "/tmp/st-compare-XXXXXX";
	int fd = mkstemp(path);
	struct st_error err = { 0 };
	struct st_cmp_doc d;
	const struct st_cmp_figure *f;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	assert_int_equal(st_cmp_doc_load(&d, path, &err), 0);
	unlink(path);
	assert_int_equal(d.nfig, 3);
	f = st_cmp_doc_find(&d, "layers[uts#2].setup_us", 0);
	assert_non_null(f);
	assert_true(f->median == 2);
	/* An element with no name is named by its index. */
	assert_non_null(st_cmp_doc_find(&d, "layers[2].setup_us", 0));
	st_cmp_doc_free(&d);
}

/* Compares the fixtures @first and @second with --fail-if-slower=@pct. */
static void run(struct st_cmp_doc docs[2], struct st_compare *c, const char *first,
		const char *second, double pct)
{
	struct st_error err = { 0 };

	load(&docs[0], first);
	load(&docs[1], second);
	memset(c, 0, sizeof(*c));
	c->docs = docs;
	c->ndocs = 2;
	c->resamples = 2000;
	c->seed.value = 99;
	c->fail_pct = pct;
	assert_int_equal(st_compare_run(c, &err), 0);
}

static void done(struct st_cmp_doc docs[2], struct st_compare *c)
{
	st_compare_free(c);
	st_cmp_doc_free(&docs[0]);
	st_cmp_doc_free(&docs[1]);
}

static void test_fixtures_shifted_and_same(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c;

	run(docs, &c, FIXTURES "base.json", FIXTURES "shifted.json", 10);
	assert_int_equal(c.nrows, 6);
	assert_int_equal(c.nfacts, 1);
	assert_string_equal(c.facts[0], "kernel");
	for (size_t i = 0; i < c.nrows; i++) {
		const struct st_cmp_row *r = &c.rows[i];

		assert_true(fabs(r->r.ratio - 1.25) < 1e-9);
		if (r->fa->samples.n) {
			assert_int_equal(r->verdict, ST_CMP_SLOWER);
			assert_true(r->r.ci_low <= 1.25 && r->r.ci_high >= 1.25);
			assert_true(r->over_limit);
		} else {
			assert_int_equal(r->verdict, ST_CMP_NO_INTERVAL);
			assert_false(r->over_limit);
		}
	}
	assert_int_equal(c.over_limit, 4);
	done(docs, &c);
	/* 25% slower is not slower by more than 30%. */
	run(docs, &c, FIXTURES "base.json", FIXTURES "shifted.json", 30);
	assert_int_equal(c.over_limit, 0);
	done(docs, &c);
	run(docs, &c, FIXTURES "base.json", FIXTURES "same.json", 0);
	assert_int_equal(c.nfacts, 0);
	for (size_t i = 0; i < c.nrows; i++)
		assert_true(c.rows[i].verdict == ST_CMP_NOISE ||
			    c.rows[i].verdict == ST_CMP_NO_INTERVAL);
	assert_int_equal(c.over_limit, 0);
	done(docs, &c);
}

/* Throughput halved is slower although the ratio is below 1. */
static void test_higher_is_better(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c;
	size_t slower = 0, latency = 0;

	run(docs, &c, FIXTURES "netbench_a.json", FIXTURES "netbench_b.json", 10);
	for (size_t i = 0; i < c.nrows; i++) {
		slower += c.rows[i].verdict == ST_CMP_SLOWER;
		/* A latency figure gets an interval from each run's own p50. */
		if (strstr(c.rows[i].fa->name, "latency_rounds_p50_us")) {
			latency++;
			assert_true(c.rows[i].r.has_interval);
			assert_int_equal(c.rows[i].verdict, ST_CMP_NOISE);
			assert_false(c.rows[i].fa->higher_better);
		}
	}
	assert_int_equal(latency, 2);
	assert_int_equal(slower, 2);
	assert_int_equal(c.over_limit, 2);
	done(docs, &c);
	/* The other way round, B is faster: nothing fails. */
	run(docs, &c, FIXTURES "netbench_b.json", FIXTURES "netbench_a.json", 0);
	assert_int_equal(c.over_limit, 0);
	assert_int_equal(c.rows[0].verdict, ST_CMP_FASTER);
	done(docs, &c);
}

static void test_kinds_must_match(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c = { 0 };
	struct st_error err = { 0 };

	load(&docs[0], FIXTURES "base.json");
	load(&docs[1], FIXTURES "netbench_a.json");
	c.docs = docs;
	c.ndocs = 2;
	c.resamples = 2000;
	c.fail_pct = -1;
	assert_int_equal(st_compare_run(&c, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "nothing to compare"));
	done(docs, &c);
}

/* The drain is ten times longer: shown, judged slower, but never over the gate. */
static void test_drain_never_gates(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c;
	size_t drains = 0, zero = 0;

	run(docs, &c, FIXTURES "drain_a.json", FIXTURES "drain_b.json", 10);
	for (size_t i = 0; i < c.nrows; i++) {
		const struct st_cmp_row *r = &c.rows[i];

		if (strstr(r->fa->name, "deferred_drain_us")) {
			drains++;
			assert_int_equal(r->verdict, ST_CMP_SLOWER);
			assert_true(r->r.ci_low > 9.0);
			assert_false(r->over_limit);
			assert_non_null(r->fa->no_gate);
			assert_non_null(strstr(r->why, "never gates"));
		} else if (strcmp(r->fa->name, "layers[user].teardown_us") == 0) {
			/* A's samples reach 0: not compared, and the row says why. */
			zero++;
			assert_int_equal(r->verdict, ST_CMP_NO_RATIO);
			assert_non_null(strstr(r->why, "sample <= 0 (0)"));
		} else {
			assert_null(r->fa->no_gate);
			assert_string_equal(r->why, "");
		}
	}
	assert_int_equal(drains, 2);
	assert_int_equal(zero, 1);
	assert_int_equal(c.over_limit, 0);
	done(docs, &c);
}

static double least(const struct st_samples *s)
{
	double m = s->v[0];

	for (size_t i = 1; i < s->n; i++)
		m = s->v[i] < m ? s->v[i] : m;
	return m;
}

/*
 * Increments compared by B - A from each file's rounds (tests/py/compare_fixtures.py):
 * 20 rounds, B's setup differences are A's shuffled plus 5 us, so the
 * medians are exactly 5 apart; the teardown differences straddle 0, where
 * no ratio could be resampled, and are the same in both.
 */
static void test_paired_increments_shift(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c;
	size_t seen = 0;

	run(docs, &c, FIXTURES "paired_a.json", FIXTURES "paired_b.json", 10);
	for (size_t i = 0; i < c.nrows; i++) {
		const struct st_cmp_row *r = &c.rows[i];

		if (strcmp(r->fa->name, "layers[user].increments.setup_us") == 0) {
			seen++;
			assert_true(r->fa->paired);
			assert_int_equal(r->s.na, 20);
			assert_true(fabs(r->s.shift - 5.0) < 1e-9);
			assert_true(r->s.has_interval);
			assert_true(r->s.ci_low <= 5.0 && r->s.ci_high >= 5.0);
			assert_true(r->s.ci_low > 0);
			assert_int_equal(r->verdict, ST_CMP_SLOWER);
			/* +5 us on about 10 us is more than 10% slower. */
			assert_true(r->over_limit);
			/* The ratio of the medians is shown, never judged. */
			assert_true(r->r.has_ratio);
			assert_false(r->r.has_interval);
		} else if (strcmp(r->fa->name, "layers[user].increments.teardown_us") == 0) {
			seen++;
			/* A round below 0 in A: a ratio of resampled medians would be meaningless. */
			assert_true(least(&r->fa->samples) < 0);
			assert_true(r->s.has_interval);
			assert_true(r->s.ci_low < 0 && r->s.ci_high > 0);
			assert_int_equal(r->verdict, ST_CMP_NOISE);
			assert_false(r->over_limit);
			assert_string_equal(r->why, "");
		} else {
			assert_false(r->fa->paired);
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(c.over_limit, 1);
	done(docs, &c);
}

/* With 3 rounds a side no interval reaches 95%: nothing is significant, nothing gates. */
static void test_paired_increments_three_rounds(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c;

	run(docs, &c, FIXTURES "paired3_a.json", FIXTURES "paired3_b.json", 0);
	assert_int_equal(c.nrows, 4);
	for (size_t i = 0; i < c.nrows; i++) {
		const struct st_cmp_row *r = &c.rows[i];

		assert_int_equal(r->verdict, ST_CMP_NO_INTERVAL);
		assert_false(r->over_limit);
		assert_non_null(strstr(r->why, "n=3 in A: 95% needs n >= 6"));
	}
	assert_int_equal(c.over_limit, 0);
	done(docs, &c);
}

/* The whole output of one comparison, with the default seed from the files. */
static char *compare_text(const char *first, const char *second, enum st_format format)
{
	const struct st_output o = { .format = format, .color = ST_COLOR_NEVER, .cpu = -1 };
	struct st_cmp_doc docs[2];
	struct st_compare c;
	struct st_error err = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	run(docs, &c, first, second, 10);
	c.seed.value = st_compare_files_seed(docs, 2);
	st_compare_free(&c);
	assert_int_equal(st_compare_run(&c, &err), 0);
	assert_int_equal(st_doc_write(&st_compare_format, &o, &c, m, "compare", &err), 0);
	assert_int_equal(fclose(m), 0);
	done(docs, &c);
	return text;
}

static void test_same_files_same_output(void **state)
{
	static const enum st_format formats[] = { ST_FORMAT_TABLE, ST_FORMAT_JSON, ST_FORMAT_CSV };

	for (size_t k = 0; k < ARRAY_SIZE(formats); k++) {
		char *one = compare_text(FIXTURES "base.json", FIXTURES "same.json", formats[k]);
		char *two = compare_text(FIXTURES "base.json", FIXTURES "same.json", formats[k]);
		char *other = compare_text(FIXTURES "base.json", FIXTURES "shifted.json", formats[k]);
		char *paired1 = compare_text(FIXTURES "paired_a.json", FIXTURES "paired_b.json", formats[k]);
		char *paired2 = compare_text(FIXTURES "paired_a.json", FIXTURES "paired_b.json", formats[k]);

		assert_string_equal(one, two);
		/* The increments' shift intervals too. */
		assert_string_equal(paired1, paired2);
		assert_non_null(strstr(paired1, k == 1 ? "\"shift_ci_low\"" : "5"));
		/* The seed follows the bytes: other files, another seed. */
		assert_string_not_equal(one, other);
		free(one);
		free(two);
		free(other);
		free(paired1);
		free(paired2);
	}
	{
		struct st_cmp_doc docs[2];

		load(&docs[0], FIXTURES "base.json");
		load(&docs[1], FIXTURES "same.json");
		assert_true(st_compare_files_seed(docs, 2) != st_compare_files_seed(docs + 1, 1));
		st_cmp_doc_free(&docs[0]);
		st_cmp_doc_free(&docs[1]);
	}
}

/* A figure's interval comes from its own stream: dropping the figures before it changes nothing. */
static void test_stream_keyed_by_name(void **state)
{
	struct st_cmp_doc docs[2];
	struct st_compare c;
	struct st_ratio last;
	const char *name = "layers[user].teardown_us";
	int found = 0;

	run(docs, &c, FIXTURES "base.json", FIXTURES "shifted.json", 10);
	for (size_t i = 0; i < c.nrows; i++)
		if (strcmp(c.rows[i].fa->name, name) == 0) {
			last = c.rows[i].r;
			found = 1;
		}
	assert_true(found);
	st_compare_free(&c);
	/* Only that figure left in A: it is now the first row. */
	for (size_t i = 0; i < docs[0].nfig; i++)
		if (strcmp(docs[0].fig[i].name, name) == 0) {
			struct st_cmp_figure t = docs[0].fig[0];

			docs[0].fig[0] = docs[0].fig[i];
			docs[0].fig[i] = t;
		}
	{
		size_t keep = docs[0].nfig;
		struct st_error err = { 0 };

		docs[0].nfig = 1;
		assert_int_equal(st_compare_run(&c, &err), 0);
		assert_int_equal(c.nrows, 1);
		assert_memory_equal(&c.rows[0].r, &last, sizeof(last));
		docs[0].nfig = keep;
	}
	done(docs, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeded_replay_is_identical),
		cmocka_unit_test(test_known_factor_inside_interval),
		cmocka_unit_test(test_same_distribution_within_noise),
		cmocka_unit_test(test_matches_textbook_bootstrap),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_doc_figures_named_by_path),
		cmocka_unit_test(test_doc_refused),
		cmocka_unit_test(test_doc_repeated_ids),
		cmocka_unit_test(test_fixtures_shifted_and_same),
		cmocka_unit_test(test_higher_is_better),
		cmocka_unit_test(test_kinds_must_match),
		cmocka_unit_test(test_drain_never_gates),
		cmocka_unit_test(test_same_files_same_output),
		cmocka_unit_test(test_paired_increments_shift),
		cmocka_unit_test(test_paired_increments_three_rounds),
		cmocka_unit_test(test_stream_keyed_by_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
