// SPDX-License-Identifier: MIT
/*
 * Which set a layer's cost is measured against (st_set_reference), medians of
 * sets, and the set layout st_measure_run() builds. The runs only clone plain
 * children, or skip with the kernel's reason when namespaces are not allowed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "sandboxtime/deferred.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/report_layers.h"

#define BIT(l) ST_LAYER_BIT(ST_LAYER_##l)

static struct st_set *add_set(struct st_measurement *m, const char *name, int layer, int alone,
			      unsigned int mask)
{
	struct st_set *set = &m->sets[m->nsets++];

	set->name = name;
	set->layer = layer;
	set->alone = alone;
	set->mask = mask;
	return set;
}

static void test_reference_cumulative(void **state)
{
	struct st_measurement m = { 0 };

	add_set(&m, "base", -1, 0, 0);
	add_set(&m, "uts", ST_LAYER_UTS, 0, BIT(UTS));
	add_set(&m, "pid", ST_LAYER_PID, 0, BIT(UTS) | BIT(PID));
	add_set(&m, "net", ST_LAYER_NET, 0, BIT(UTS) | BIT(PID) | BIT(NET));

	assert_null(st_set_reference(&m, 0));
	/* Each cumulative set against the one before it. */
	for (size_t i = 1; i < m.nsets; i++)
		assert_ptr_equal(st_set_reference(&m, i), &m.sets[i - 1]);
}

static void test_reference_alone_root(void **state)
{
	struct st_measurement m = { 0 };

	/* As root, with user asked for: alone sets hold only their own flag. */
	add_set(&m, "base", -1, 0, 0);
	add_set(&m, "user", ST_LAYER_USER, 0, BIT(USER));
	add_set(&m, "uts", ST_LAYER_UTS, 0, BIT(USER) | BIT(UTS));
	add_set(&m, "net", ST_LAYER_NET, 0, BIT(USER) | BIT(UTS) | BIT(NET));
	add_set(&m, "uts", ST_LAYER_UTS, 1, BIT(UTS));
	add_set(&m, "net", ST_LAYER_NET, 1, BIT(NET));

	assert_ptr_equal(st_set_reference(&m, 4), &m.sets[0]);
	assert_ptr_equal(st_set_reference(&m, 5), &m.sets[0]);
	/* The cumulative ones are unaffected by the alone sets after them. */
	assert_ptr_equal(st_set_reference(&m, 3), &m.sets[2]);
}

static void test_reference_alone_rootless(void **state)
{
	struct st_measurement m = { 0 };

	/* Rootless: every set needs user, so "alone" is the layer over user. */
	add_set(&m, "base", -1, 0, 0);
	add_set(&m, "user", ST_LAYER_USER, 0, BIT(USER));
	add_set(&m, "uts", ST_LAYER_UTS, 0, BIT(USER) | BIT(UTS));
	add_set(&m, "net", ST_LAYER_NET, 0, BIT(USER) | BIT(UTS) | BIT(NET));
	add_set(&m, "uts", ST_LAYER_UTS, 1, BIT(USER) | BIT(UTS));
	add_set(&m, "net", ST_LAYER_NET, 1, BIT(USER) | BIT(NET));

	assert_ptr_equal(st_set_reference(&m, 4), &m.sets[1]);
	assert_ptr_equal(st_set_reference(&m, 5), &m.sets[1]);
	/* uts alone has the same mask as the cumulative uts set, but is not it. */
	assert_ptr_not_equal(st_set_reference(&m, 4), &m.sets[2]);
}

static void test_median_and_increment(void **state)
{
	struct st_measurement m = { 0 };
	struct st_set *base = add_set(&m, "base", -1, 0, 0);
	struct st_set *uts = add_set(&m, "uts", ST_LAYER_UTS, 0, BIT(UTS));

	/* No samples: 0, not garbage. */
	assert_true(st_set_median(base, ST_FIG_SETUP) == 0);
	st_samples_add(&base->fig[ST_FIG_SETUP], 10);
	st_samples_add(&base->fig[ST_FIG_SETUP], 30);
	st_samples_add(&base->fig[ST_FIG_SETUP], 20);
	st_samples_add(&uts->fig[ST_FIG_SETUP], 25);
	st_samples_add(&uts->fig[ST_FIG_SETUP], 26);
	assert_true(st_set_median(base, ST_FIG_SETUP) == 20);
	assert_true(st_set_median(uts, ST_FIG_SETUP) == 25.5);
	assert_true(st_report_increment(&m, 1, ST_FIG_SETUP) == 5.5);
	/* Base is measured against nothing: its increment is its own median. */
	assert_true(st_report_increment(&m, 0, ST_FIG_SETUP) == 20);
	st_measurement_free(&m);
	assert_int_equal(m.nsets, 0);
}

static void test_cycle_plain(void **state)
{
	/* No namespace: a plain clone, allowed everywhere. */
	struct timespec t0, t1;
	uint64_t cpu_sum = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (int i = 0; i < 20; i++) {
		struct st_error err = { 0 };
		struct st_cycle c;

		if (st_measure_cycle(0, &c, &err) < 0) {
			print_error("# st_measure_cycle: %s\n", err.msg);
			fail();
		}
		assert_true(c.setup_ns > 0);
		/* ready counts from the same start as setup, and ends later. */
		assert_true(c.ready_ns >= c.setup_ns);
		assert_true(c.teardown_ns > 0);
		assert_true(c.reaped_at_ns > 0);
		cpu_sum += c.setup_cpu_ns + c.teardown_cpu_ns;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	/* The kernel's own count of this thread's CPU over the whole loop bounds
	 * the CPU figures from above (they are windows inside it), and a clone
	 * and a reap cost some CPU: 20 of them cannot all read 0. */
	uint64_t thread_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
			     (uint64_t)t0.tv_nsec;
	print_message("# CPU figures %llu ns of the thread's %llu ns\n", (unsigned long long)cpu_sum,
		      (unsigned long long)thread_ns);
	assert_true(cpu_sum > 0);
	assert_true(cpu_sum <= thread_ns);
}

static void test_run_base_only(void **state)
{
	struct st_measure_config cfg = { .mask = 0, .repeat = 3, .warmup = 1 };
	struct st_error err = { 0 };
	struct st_measurement m;

	if (st_measure_run(&cfg, &m, &err) < 0) {
		print_error("# st_measure_run: %s\n", err.msg);
		st_measurement_free(&m);
		fail();
	}
	assert_int_equal(m.nsets, 1);
	assert_string_equal(m.sets[0].name, "base");
	assert_int_equal(m.sets[0].layer, -1);
	/* Warm-up runs are not recorded. */
	assert_int_equal(m.sets[0].fig[ST_FIG_SETUP].n, 3);
	assert_int_equal(m.sets[0].fig[ST_FIG_READY].n, 3);
	assert_int_equal(m.sets[0].fig[ST_FIG_TEARDOWN].n, 3);
	assert_int_equal(m.sets[0].fig[ST_FIG_SETUP_CPU].n, 3);
	/* No deferred pass for base, and no cold pass without --cold. */
	assert_int_equal(m.sets[0].fig[ST_FIG_DEFERRED].n, 0);
	assert_int_equal(m.sets[0].fig[ST_FIG_SETUP_COLD].n, 0);
	assert_true(m.elapsed_ns > 0);
	st_measurement_free(&m);
}

static void test_run_sets_layout(void **state)
{
	struct st_measure_config cfg = {
		.mask = BIT(USER) | BIT(UTS) | BIT(NET),
		.rootless = 1,
		.repeat = 1,
		.alone = 1,
	};
	static const struct {
		const char *name;
		int layer, alone;
		unsigned int mask;
	} want[] = {
		{ "base", -1, 0, 0 },
		{ "user", ST_LAYER_USER, 0, BIT(USER) },
		{ "uts", ST_LAYER_UTS, 0, BIT(USER) | BIT(UTS) },
		{ "net", ST_LAYER_NET, 0, BIT(USER) | BIT(UTS) | BIT(NET) },
		{ "uts", ST_LAYER_UTS, 1, BIT(USER) | BIT(UTS) },
		{ "net", ST_LAYER_NET, 1, BIT(USER) | BIT(NET) },
	};
	struct st_error err = { 0 };
	struct st_measurement m;

	if (st_measure_run(&cfg, &m, &err) < 0) {
		/* The kernel may forbid user namespaces here: say so and skip. */
		print_message("# user namespaces unavailable: %s: %s\n", err.msg,
			      strerror(err.errnum));
		st_measurement_free(&m);
		skip();
	}
	assert_int_equal(m.nsets, ARRAY_SIZE(want));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_string_equal(m.sets[i].name, want[i].name);
		assert_int_equal(m.sets[i].layer, want[i].layer);
		assert_int_equal(m.sets[i].alone, want[i].alone);
		assert_int_equal(m.sets[i].mask, want[i].mask);
		assert_int_equal(m.sets[i].fig[ST_FIG_SETUP].n, 1);
	}
	assert_ptr_equal(st_set_reference(&m, 4), &m.sets[1]);
	assert_ptr_equal(st_set_reference(&m, 5), &m.sets[1]);
	st_measurement_free(&m);
}

/* The deferred probe order: a permutation, user always last, and not the same for every sample. */
static void test_deferred_probe_order(void **state)
{
	unsigned int firsts = 0;
	int prev[ST_DEFERRED_NPROBE] = { 0 }, differs = 0;

	for (uint64_t seed = 0; seed < 200; seed++) {
		int order[ST_DEFERRED_NPROBE];
		unsigned int seen = 0;

		st_deferred_probe_order(seed, order);
		for (int i = 0; i < ST_DEFERRED_NPROBE; i++) {
			assert_true(order[i] >= 0 && order[i] < ST_LAYER_COUNT);
			seen |= ST_LAYER_BIT(order[i]);
		}
		assert_int_equal(seen, ST_LAYER_BIT(ST_LAYER_COUNT) - 1);
		assert_int_equal(order[ST_DEFERRED_NPROBE - 1], ST_LAYER_USER);
		firsts |= ST_LAYER_BIT(order[0]);
		differs |= seed && memcmp(prev, order, sizeof(order)) != 0;
		memcpy(prev, order, sizeof(order));
	}
	/* In 200 samples every type but user came first at least once (7 types: by chance 7 * (6/7)^200 ~ 0). */
	assert_int_equal(firsts, (ST_LAYER_BIT(ST_LAYER_COUNT) - 1) & ~ST_LAYER_BIT(ST_LAYER_USER));
	assert_true(differs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_cumulative),
		cmocka_unit_test(test_reference_alone_root),
		cmocka_unit_test(test_reference_alone_rootless),
		cmocka_unit_test(test_median_and_increment),
		cmocka_unit_test(test_cycle_plain),
		cmocka_unit_test(test_run_base_only),
		cmocka_unit_test(test_run_sets_layout),
		cmocka_unit_test(test_deferred_probe_order),
	};

	return cmocka_run_group_tests_name("measure", tests, NULL, NULL);
}
