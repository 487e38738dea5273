// SPDX-License-Identifier: MIT
/*
 * bench fork without forking: the guards that refuse an impossible figure,
 * the memory check that refuses a size the machine cannot spare, and the
 * report that must show the reason instead of the number in every format.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/bench_fork.h"
#include "sandboxtime/host.h"
#include "sandboxtime/report_bench_fork.h"

static void test_impossible_below_resolution(void **state)
{
	char why[ST_FORK_REASON_MAX];

	/* A 0.0 us figure: the article's deleted memcpy. */
	assert_int_equal(st_bench_fork_impossible(0.0, 1, 0, 0.001, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "clock's resolution"));
	assert_int_equal(st_bench_fork_impossible(0.0005, 1, 1, 0.001, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "clock's resolution"));
	/* At the resolution it can be true (if unlikely). */
	assert_int_equal(st_bench_fork_impossible(0.001, 1, 0, 0.001, why, sizeof(why)), 0);
}

static void test_impossible_below_floor(void **state)
{
	char why[ST_FORK_REASON_MAX];

	/* 10 us to copy the page tables of 1000 MB: 0.01 us per MB, under the floor. */
	assert_int_equal(st_bench_fork_impossible(10.0, 1000, 1, 0.001, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "1000 MB"));
	assert_non_null(strstr(why, "floor"));
	/* The same time is fine for a method that copies nothing (vfork). */
	assert_int_equal(st_bench_fork_impossible(10.0, 1000, 0, 0.001, why, sizeof(why)), 0);
	/* And for a small parent: the floor of 1 MB is 0.05 us. */
	assert_int_equal(st_bench_fork_impossible(10.0, 1, 1, 0.001, why, sizeof(why)), 0);
	/* The floor itself passes: 1000 MB * 0.05 = 50 us. */
	assert_int_equal(st_bench_fork_impossible(50.0, 1000, 1, 0.001, why, sizeof(why)), 0);
}

static void test_memory_check(void **state)
{
	const unsigned int sizes[] = { 1, 10, 100, 500, 1000 };
	struct st_error err;

	/* 1611 MB held, an eighth more (201) and 256: 2068 MB. */
	assert_int_equal(st_bench_fork_check_memory(sizes, 5, 2068, &err), 0);
	assert_int_equal(st_bench_fork_check_memory(sizes, 5, 2067, &err), -ENOMEM);
	/* The message names the size that does not fit and MemAvailable. */
	assert_non_null(strstr(err.msg, "1000 MB cannot be spared"));
	assert_non_null(strstr(err.msg, "MemAvailable is 2067 MB"));
	assert_int_equal(st_bench_fork_check_memory(sizes, 5, 300, &err), -ENOMEM);
	assert_non_null(strstr(err.msg, "100 MB cannot be spared"));
}

/* A measured-looking document: every figure 100 us but fork's at 1000 MB, 1 us. */
static void fake_bench(struct st_bench_fork *b)
{
	memset(b, 0, sizeof(*b));
	b->repeat = 3;
	b->nsizes = 2;
	b->sizes_mb[0] = 1;
	b->sizes_mb[1] = 1000;
	b->resolution_us = 0.001;
	b->exec_path = "/bin/true";
	for (size_t i = 0; i < b->nsizes; i++)
		for (int m = 0; m < ST_FORK_METHODS; m++)
			for (int f = 0; f < ST_FORK_FIGURES; f++) {
				struct st_samples *s = &b->cell[i][m].us[f];
				double v = i == 1 && m == ST_FORK_FORK && f == ST_FORK_CALL ? 1.0 : 100.0;

				assert_int_equal(st_samples_reserve(s, 3), 0);
				for (int k = 0; k < 3; k++)
					st_samples_add(s, v + k);
			}
	st_bench_fork_apply_guards(b);
}

static char *render(const struct st_bench_fork *b, enum st_format format)
{
	struct st_output out = { .format = format, .cpu = -1 };
	struct st_host host = { .kernel = "test", .cpus = 2, .pinned_cpu = -1 };
	struct st_bench_fork_report r = { .out = &out, .host = &host, .b = b };
	struct st_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(st_bench_fork_report_write(&r, f, &err), 0);
	fclose(f);
	return text;
}

static void test_report_replaces_impossible(void **state)
{
	struct st_bench_fork b;
	char *table, *json, *csv;

	fake_bench(&b);
	assert_non_null(strstr(b.cell[1][ST_FORK_FORK].refused[ST_FORK_CALL], "floor"));
	assert_string_equal(b.cell[1][ST_FORK_FORK].refused[ST_FORK_TOTAL], "");
	assert_true(st_bench_fork_median(&b, 1, ST_FORK_FORK, ST_FORK_CALL) < 0);

	table = render(&b, ST_FORMAT_TABLE);
	/* The reason stands in the row, the 2.0 us median does not. */
	assert_non_null(strstr(table, "call: impossible"));
	assert_null(strstr(table, "    2.0 "));
	assert_non_null(strstr(table, "refused as impossible"));

	json = render(&b, ST_FORMAT_JSON);
	assert_non_null(strstr(json, "\"call_median_us\": null"));
	assert_non_null(strstr(json, "\"call_us\": null"));
	assert_non_null(strstr(json, "\"call_refused\": \"impossible"));

	csv = render(&b, ST_FORMAT_CSV);
	assert_non_null(strstr(csv, "1000,fork,,,,,,,"));
	free(table);
	free(json);
	free(csv);
	st_bench_fork_free(&b);
}

static void test_report_possible_figures_stand(void **state)
{
	struct st_bench_fork b;
	char *table;

	fake_bench(&b);
	/* fork at 1 MB: 101 us median, shown; its total at 1000 MB too. */
	assert_true(st_bench_fork_median(&b, 0, ST_FORK_FORK, ST_FORK_CALL) == 101.0);
	assert_true(st_bench_fork_median(&b, 1, ST_FORK_FORK, ST_FORK_TOTAL) == 101.0);
	table = render(&b, ST_FORMAT_TABLE);
	assert_non_null(strstr(table, "      1 fork               101.0"));
	free(table);
	st_bench_fork_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_impossible_below_resolution),
		cmocka_unit_test(test_impossible_below_floor),
		cmocka_unit_test(test_memory_check),
		cmocka_unit_test(test_report_replaces_impossible),
		cmocka_unit_test(test_report_possible_figures_stand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
