// SPDX-License-Identifier: MIT
/*
 * The guards every bench shares (bench_guard.h), fed what a broken
 * instrument gives: a wrong checksum, a bandwidth no memory has, a time
 * below the clock's resolution; and the reports, which must show the
 * reason in place of the figure (bench cpu, bench files/userns's grid).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_grid.h"
#include "sandboxtime/bench_guard.h"
#include "sandboxtime/bench_syscall.h"
#include "sandboxtime/host.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/report_bench_grid.h"

static void test_checksum(void **state)
{
	char why[ST_GUARD_REASON_MAX];

	assert_int_equal(st_guard_checksum(41, 42, "memcpy", why, sizeof(why)), 1);
	assert_non_null(strstr(why, "checksum mismatch in memcpy"));
	assert_int_equal(st_guard_checksum(42, 42, "memcpy", why, sizeof(why)), 0);
}

static void test_bandwidth(void **state)
{
	char why[ST_GUARD_REASON_MAX];

	assert_int_equal(st_guard_bandwidth(5000.0, 100.0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "above this machine's bound of 100.0 GB/s"));
	assert_int_equal(st_guard_bandwidth(0.0, 100.0, why, sizeof(why)), 1);
	assert_int_equal(st_guard_bandwidth(12.5, 100.0, why, sizeof(why)), 0);
	/* The measured bound is a real rate: positive and finite. */
	assert_true(st_guard_bandwidth_bound_gbps() > 0 && st_guard_bandwidth_bound_gbps() < 1e6);
}

static void test_time(void **state)
{
	char why[ST_GUARD_REASON_MAX];

	assert_int_equal(st_guard_time(0.0, 0.001, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "clock's resolution"));
	assert_int_equal(st_guard_time(0.0005, 0.001, why, sizeof(why)), 1);
	assert_int_equal(st_guard_time(0.001, 0.001, why, sizeof(why)), 0);
	assert_true(st_guard_clock_resolution_us() > 0);
}

static void fill(struct st_samples *s, double v)
{
	assert_int_equal(st_samples_reserve(s, 3), 0);
	for (int i = 0; i < 3; i++)
		st_samples_add(s, v * (1 + 0.01 * i));
}

static json_t *parse(char *text)
{
	json_error_t e;
	json_t *doc = json_loads(text, 0, &e);

	assert_non_null(doc);
	free(text);
	return doc;
}

/* bench cpu: a copy of 64 MiB in 1 us, and a copy whose checksum was wrong. */
static void test_bench_cpu_refuses(void **state)
{
	struct st_host host = { .kernel = "test", .cpus = 2, .pinned_cpu = -1 };
	struct st_bench_syscall b;
	json_t *doc, *rows;
	size_t i;
	json_t *row;
	int seen = 0;

	memset(&b, 0, sizeof(b));
	b.name = "cpu";
	b.op_first = ST_BENCH_CPU;
	b.op_end = ST_BENCH_OPS;
	b.repeat = 3;
	for (int w = 0; w < 3; w++) {
		snprintf(b.where[w].name, sizeof(b.where[w].name), "w%d", w);
		fill(&b.where[w].us[ST_BENCH_CPU], 1000.0);
		/* w0: 67 TB/s; w1: 6.7 GB/s with a wrong checksum; w2: 6.7 GB/s, true */
		fill(&b.where[w].us[ST_BENCH_MEMCPY], w == 0 ? 1.0 : 10000.0);
	}
	b.nwhere = 3;
	st_guard_checksum(1, 2, "memcpy", b.where[1].refused[ST_BENCH_MEMCPY],
			  sizeof(b.where[1].refused[ST_BENCH_MEMCPY]));
	st_bench_syscall_apply_guards(&b, 0.001, 100.0);
	assert_non_null(strstr(b.where[0].refused[ST_BENCH_MEMCPY], "above this machine's bound"));
	assert_non_null(strstr(b.where[1].refused[ST_BENCH_MEMCPY], "checksum mismatch"));
	assert_string_equal(b.where[2].refused[ST_BENCH_MEMCPY], "");
	assert_string_equal(b.where[0].refused[ST_BENCH_CPU], "");

	doc = st_bench_json(&host, &b);
	rows = json_object_get(doc, "rows");
	json_array_foreach(rows, i, row) {
		const char *where = json_string_value(json_object_get(row, "where"));
		const char *op = json_string_value(json_object_get(row, "op"));
		json_t *median = json_object_get(row, "median_us");

		if (strcmp(op, "memcpy_64mib") != 0)
			continue;
		seen++;
		if (strcmp(where, "w2") == 0) {
			assert_true(json_is_real(median) && json_is_null(json_object_get(row, "refused")));
			continue;
		}
		/* The figure is gone in every key, and the reason stands. */
		assert_true(json_is_null(median));
		assert_true(json_is_null(json_object_get(row, "median_gbps")));
		assert_true(json_is_null(json_object_get(row, "us")));
		assert_non_null(strstr(json_string_value(json_object_get(row, "refused")), "impossible"));
	}
	assert_int_equal(seen, 3);
	assert_true(strstr(json_string_value(json_array_get(json_object_get(doc, "notes"), 0)),
			   "refused") != NULL);
	json_decref(doc);
	for (int w = 0; w < 3; w++)
		for (int op = 0; op < ST_BENCH_OPS; op++)
			st_samples_free(&b.where[w].us[op]);
}

static char *render_grid(const struct st_bench_grid *g, enum st_format format)
{
	struct st_output out = { .format = format, .cpu = -1 };
	struct st_host host = { .kernel = "test", .cpus = 2, .pinned_cpu = -1 };
	struct st_bench_grid_report r = { .out = &out, .host = &host, .g = g };
	struct st_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(st_bench_grid_report_write(&r, f, &err), 0);
	fclose(f);
	return text;
}

/* The grid: a 0 us figure, a checksum refused while measuring, a place the kernel refused. */
static void test_grid_refuses(void **state)
{
	static const char *const places[] = { "here", "there", "nowhere" };
	static const char *const ops[] = { "a", "b" };
	struct st_bench_grid g;
	struct st_error err;
	json_t *doc, *rows;
	char *table, line[64];

	assert_int_equal(st_grid_init(&g, "test", "us", 3, places, 3, ops, 2, &err), 0);
	g.resolution_us = 0.001;
	g.method = "m";
	snprintf(g.summary, sizeof(g.summary), "s");
	fill(&g.cell[0][0].v, 2.0);
	fill(&g.cell[0][1].v, 0.0);
	fill(&g.cell[1][0].v, 3.0);
	fill(&g.cell[1][1].v, 4.0);
	st_guard_checksum(7, 8, "b", g.cell[1][1].refused, sizeof(g.cell[1][1].refused));
	snprintf(g.unavailable[2], sizeof(g.unavailable[2]), "the kernel said no");
	st_grid_apply_guards(&g);
	assert_non_null(strstr(g.cell[0][1].refused, "clock's resolution"));
	assert_string_equal(g.cell[0][0].refused, "");
	assert_true(st_grid_median(&g, 0, 0) > 0 && st_grid_median(&g, 0, 1) < 0);
	assert_true(st_grid_median(&g, 1, 1) < 0 && st_grid_median(&g, 2, 0) < 0);

	doc = parse(render_grid(&g, ST_FORMAT_JSON));
	rows = json_object_get(doc, "rows");
	assert_int_equal(json_array_size(rows), 6);
	assert_true(json_is_real(json_object_get(json_array_get(rows, 0), "median")));
	assert_true(json_is_null(json_object_get(json_array_get(rows, 1), "median")));
	assert_true(json_is_null(json_object_get(json_array_get(rows, 1), "per_op")));
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(rows, 3), "refused")),
			       "checksum mismatch"));
	assert_true(json_is_null(json_object_get(json_array_get(rows, 4), "median")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 4), "unavailable")),
			    "the kernel said no");
	/* 3.0 over 2.0: the ratio to the first place */
	assert_true(json_real_value(json_object_get(json_array_get(rows, 2), "vs_first")) > 1.49);
	json_decref(doc);

	table = render_grid(&g, ST_FORMAT_TABLE);
	assert_non_null(strstr(table, "unavailable: the kernel said no"));
	assert_non_null(strstr(table, "impossible: checksum mismatch"));
	/* The refused row has no number: its median is "-". */
	snprintf(line, sizeof(line), "\n%-16s %-15s %10s ", "here", "b", "-");
	assert_non_null(strstr(table, line));
	free(table);
	st_grid_free(&g);
}

static void test_fsync_flag(void **state)
{
	char why[ST_GUARD_REASON_MAX];

	assert_int_equal(st_files_fsync_flag(ST_FILES_MEMORY, 500.0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "suspiciously fast: durability not proven"));
	assert_int_equal(st_files_fsync_flag(ST_FILES_DISK, 3.0, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "below the 50 us floor"));
	assert_int_equal(st_files_fsync_flag(ST_FILES_DISK, 800.0, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_bench_cpu_refuses),
		cmocka_unit_test(test_grid_refuses),
		cmocka_unit_test(test_fsync_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
