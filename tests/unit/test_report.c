// SPDX-License-Identifier: MIT
/*
 * Reports built from a hand-made measurement with known samples: the
 * sandboxtime/v1 document of docs/DESIGN.md, its written form, and CSV.
 *
 * The sets are those of a rootless run with --ns=user,uts,net --alone, where
 * the kernel refused time. Samples (microseconds) and their medians:
 *
 *   set        setup          median  teardown        median  deferred          median
 *   base       10 12 11       11      30 30 33        30      -                 -
 *   user       50 40 45       45      60 70 65        65      100 300 200       200
 *   uts        47 48 49       48      66 66 66        66      210 230 220       220
 *   net        150 160 170    160     300 310 320     310     5000 7000 6000    6000
 *   net alone  140 150 160    150     290 300 310     300     4000 4000 4000    4000
 *
 * so the increments (median minus the previous set's) are user 34/35/200,
 * uts 3/1/20, net 112/244/5780, and net alone against user 105/235/3800.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_layers.h"
#include "sandboxtime/sandbox.h"

#define BIT(l) ST_LAYER_BIT(ST_LAYER_##l)
#define VALUES(...) (const double[]){ __VA_ARGS__ }, ARRAY_SIZE(((const double[]){ __VA_ARGS__ }))

#define assert_near(got, want) assert_near_at((got), (want), #got, __FILE__, __LINE__)

static void assert_near_at(double got, double want, const char *expr, const char *file, int line)
{
	if (got - want < 1e-9 && want - got < 1e-9)
		return;
	print_error("# %s = %.17g, expected %.17g\n", expr, got, want);
	_fail(file, line);
}

struct fixture {
	struct st_measurement m;
	struct st_opts opts;
	struct st_report_config config;
	struct st_steps steps;
	struct st_workload workload;
	struct st_report r;
	char *argv[8];
};

static void fill(struct st_set *set, enum st_figure fig, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(st_samples_add(&set->fig[fig], v[i]), 0);
}

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

/* The measurement of the table at the top. */
static void build_measurement(struct st_measurement *m)
{
	struct st_set *s;

	s = add_set(m, "base", -1, 0, 0);
	fill(s, ST_FIG_SETUP, VALUES(10, 12, 11));
	fill(s, ST_FIG_SETUP_CPU, VALUES(5, 5, 5));
	fill(s, ST_FIG_READY, VALUES(20, 22, 21));
	fill(s, ST_FIG_TEARDOWN, VALUES(30, 30, 33));
	fill(s, ST_FIG_TEARDOWN_CPU, VALUES(3, 3, 3));

	s = add_set(m, "user", ST_LAYER_USER, 0, BIT(USER));
	fill(s, ST_FIG_SETUP, VALUES(50, 40, 45));
	fill(s, ST_FIG_SETUP_CPU, VALUES(9, 9, 9));
	fill(s, ST_FIG_READY, VALUES(80, 82, 81));
	fill(s, ST_FIG_TEARDOWN, VALUES(60, 70, 65));
	fill(s, ST_FIG_TEARDOWN_CPU, VALUES(7, 7, 7));
	fill(s, ST_FIG_DEFERRED, VALUES(100, 300, 200));
	s->deferred_probes = 4;

	s = add_set(m, "uts", ST_LAYER_UTS, 0, BIT(USER) | BIT(UTS));
	fill(s, ST_FIG_SETUP, VALUES(47, 48, 49));
	fill(s, ST_FIG_SETUP_CPU, VALUES(9, 9, 9));
	fill(s, ST_FIG_READY, VALUES(85, 86, 87));
	fill(s, ST_FIG_TEARDOWN, VALUES(66, 66, 66));
	fill(s, ST_FIG_TEARDOWN_CPU, VALUES(7, 7, 7));
	fill(s, ST_FIG_DEFERRED, VALUES(210, 230, 220));

	s = add_set(m, "net", ST_LAYER_NET, 0, BIT(USER) | BIT(UTS) | BIT(NET));
	fill(s, ST_FIG_SETUP, VALUES(150, 160, 170));
	fill(s, ST_FIG_SETUP_CPU, VALUES(30, 30, 30));
	fill(s, ST_FIG_READY, VALUES(200, 210, 220));
	fill(s, ST_FIG_TEARDOWN, VALUES(300, 310, 320));
	fill(s, ST_FIG_TEARDOWN_CPU, VALUES(20, 20, 20));
	fill(s, ST_FIG_DEFERRED, VALUES(5000, 7000, 6000));
	s->deferred_probes = 40;

	/* Rootless: net "alone" still needs user, so it is net+user against user. */
	s = add_set(m, "net", ST_LAYER_NET, 1, BIT(USER) | BIT(NET));
	fill(s, ST_FIG_SETUP, VALUES(140, 150, 160));
	fill(s, ST_FIG_SETUP_CPU, VALUES(30, 30, 30));
	fill(s, ST_FIG_READY, VALUES(190, 200, 210));
	fill(s, ST_FIG_TEARDOWN, VALUES(290, 300, 310));
	fill(s, ST_FIG_TEARDOWN_CPU, VALUES(20, 20, 20));
	fill(s, ST_FIG_DEFERRED, VALUES(4000, 4000, 4000));

	m->elapsed_ns = 2500000;
	m->deferred_wait_ns = 1000000;
}

/* What the session says of a parsed run or layers command line. */
static void describe(struct st_report_config *c, const struct st_run_opts *o, int run)
{
	*c = (struct st_report_config){
		.run = run,
		.net = o->net.mode,
		.repeat = o->measure.repeat,
		.warmup = o->measure.warmup,
		.deferred_repeat = o->measure.deferred_repeat,
		.cold_ms = o->measure.cold_ms,
		.alone = o->measure.alone,
		.config = o->config,
		.argv = o->argv,
	};
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct st_error err = { 0 };
	char *argv[] = { "sandboxtime", "--ns=user,uts,time,net", "--repeat=3", "--warmup=1",
			 "--alone", "-J", "--", "/bin/true", "-x", NULL };

	if (!f)
		return -1;
	/* opts.run.argv points into argv: keep a copy that lives as long as the fixture. */
	memcpy(f->argv, &argv[7], 3 * sizeof(char *));
	if (st_cli_parse((int)ARRAY_SIZE(argv) - 1, argv, &f->opts, &err) < 0) {
		print_error("# st_cli_parse: %s\n", err.msg);
		free(f);
		return -1;
	}
	f->opts.run.argv = f->argv;
	describe(&f->config, &f->opts.run, 1);

	build_measurement(&f->m);
	st_steps_add(&f->steps, "uid_map", 12500);
	st_steps_add(&f->steps, "lo_up", 40000);
	f->workload.status = 0;
	f->workload.exit_code = 0;
	f->workload.wall_ns = 1500000;
	f->workload.ru.ru_utime.tv_usec = 2000;
	f->workload.ru.ru_stime.tv_sec = 1;
	f->workload.ru.ru_stime.tv_usec = 500;
	f->workload.ru.ru_maxrss = 1234;

	f->r.out = &f->opts.out;
	f->r.config = &f->config;
	st_host_identify(&f->r.host, -1);
	st_host_collect(&f->r.host);
	f->r.mask = BIT(USER) | BIT(UTS) | BIT(NET);
	f->r.unavailable = BIT(TIME);
	f->r.layer_errnum[ST_LAYER_TIME] = EINVAL;
	f->r.m = &f->m;
	f->r.steps = &f->steps;
	f->r.workload = &f->workload;
	st_report_add_error(&f->r, "layer %s unavailable: %s", "time", strerror(EINVAL));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	st_measurement_free(&f->m);
	free(f);
	return 0;
}

/* The entry of "layers" at @i, checking its name. */
static json_t *layer_at(json_t *doc, size_t i, const char *name)
{
	json_t *layers = json_object_get(doc, "layers");
	json_t *l;

	assert_true(json_is_array(layers));
	l = json_array_get(layers, i);
	assert_non_null(l);
	assert_string_equal(json_string_value(json_object_get(l, "layer")), name);
	return l;
}

static double number(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v)) {
		print_error("# '%s' is not a number\n", key);
		fail();
	}
	return json_number_value(v);
}

/* A stats object of docs/DESIGN.md: n matches the samples, which keep their order. */
static void check_stats(json_t *layer, const char *key, double median, const double *samples,
			size_t n)
{
	json_t *s = json_object_get(layer, key);
	json_t *a;

	if (!json_is_object(s)) {
		print_error("# %s of %s is not an object\n", key,
			    json_string_value(json_object_get(layer, "layer")));
		fail();
	}
	assert_near(number(s, "median"), median);
	assert_near(number(s, "n"), (double)n);
	assert_true(json_is_integer(json_object_get(s, "n")));
	number(s, "min");
	number(s, "p95");
	number(s, "mean");
	number(s, "stddev");
	a = json_object_get(s, "samples");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), n);
	for (size_t i = 0; i < n; i++)
		assert_near(json_number_value(json_array_get(a, i)), samples[i]);
}

static void check_increment(json_t *o, double setup_us, double teardown_us, double deferred_us)
{
	assert_true(json_is_object(o));
	assert_near(number(o, "setup_us"), setup_us);
	assert_near(number(o, "teardown_us"), teardown_us);
	assert_near(number(o, "deferred_us"), deferred_us);
}

static void test_json_header(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *tool, *host, *config, *ns;

	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "sandboxtime/v1");

	tool = json_object_get(doc, "tool");
	assert_string_equal(json_string_value(json_object_get(tool, "name")), "sandboxtime");
	assert_true(json_is_string(json_object_get(tool, "version")));

	host = json_object_get(doc, "host");
	assert_true(json_is_object(host));
	assert_true(json_string_length(json_object_get(host, "kernel")) > 0);
	assert_true(json_integer_value(json_object_get(host, "cpus")) >= 1);
	assert_true(json_is_string(json_object_get(host, "cpu_model")));
	assert_true(json_is_boolean(json_object_get(host, "rootless")));
	assert_true(json_is_integer(json_object_get(host, "uid")));
	assert_true(json_is_null(json_object_get(host, "pinned_cpu")));
	assert_non_null(json_object_get(host, "rcu_expedited"));
	assert_true(json_is_string(json_object_get(host, "cgroup")));

	config = json_object_get(doc, "config");
	ns = json_object_get(config, "ns");
	assert_int_equal(json_array_size(ns), 3);
	assert_string_equal(json_string_value(json_array_get(ns, 0)), "user");
	assert_string_equal(json_string_value(json_array_get(ns, 1)), "uts");
	assert_string_equal(json_string_value(json_array_get(ns, 2)), "net");
	assert_string_equal(json_string_value(json_object_get(config, "net")), "none");
	assert_int_equal(json_integer_value(json_object_get(config, "repeat")), 3);
	assert_int_equal(json_integer_value(json_object_get(config, "warmup")), 1);

	assert_true(json_is_object(json_object_get(doc, "measurement")));
	assert_true(json_is_array(json_object_get(doc, "errors")));
	assert_int_equal(json_array_size(json_object_get(doc, "errors")), 1);
}

static void test_json_layers_order(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	static const char *const names[] = { "base", "user", "uts", "time", "net" };
	json_t *layers = json_object_get(doc, "layers");

	/* Fixed order, the unavailable layer in its place; alone sets only nested. */
	assert_int_equal(json_array_size(layers), ARRAY_SIZE(names));
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		layer_at(doc, i, names[i]);
}

static void test_json_flags(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *flags;

	flags = json_object_get(layer_at(doc, 0, "base"), "flags");
	assert_int_equal(json_array_size(flags), 1);
	assert_string_equal(json_string_value(json_array_get(flags, 0)), "SIGCHLD");
	flags = json_object_get(layer_at(doc, 4, "net"), "flags");
	assert_int_equal(json_array_size(flags), 4);
	assert_string_equal(json_string_value(json_array_get(flags, 1)), "CLONE_NEWUSER");
	assert_string_equal(json_string_value(json_array_get(flags, 2)), "CLONE_NEWUTS");
	assert_string_equal(json_string_value(json_array_get(flags, 3)), "CLONE_NEWNET");
}

static void test_json_stats(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *l;

	l = layer_at(doc, 0, "base");
	assert_true(json_is_true(json_object_get(l, "available")));
	check_stats(l, "setup_us", 11, VALUES(10, 12, 11));
	check_stats(l, "ready_us", 21, VALUES(20, 22, 21));
	check_stats(l, "teardown_us", 30, VALUES(30, 30, 33));
	/* Base creates no namespace: nothing deferred. */
	assert_true(json_is_null(json_object_get(l, "deferred_us")));

	l = layer_at(doc, 1, "user");
	check_stats(l, "setup_us", 45, VALUES(50, 40, 45));
	check_stats(l, "teardown_us", 65, VALUES(60, 70, 65));
	check_stats(l, "deferred_us", 200, VALUES(100, 300, 200));
	assert_int_equal(json_integer_value(json_object_get(l, "deferred_probes")), 4);

	l = layer_at(doc, 4, "net");
	check_stats(l, "setup_us", 160, VALUES(150, 160, 170));
	check_stats(l, "ready_us", 210, VALUES(200, 210, 220));
	check_stats(l, "deferred_us", 6000, VALUES(5000, 7000, 6000));
	/* No --cold: no cold figures. */
	assert_null(json_object_get(l, "setup_cold_us"));
}

static void test_json_stats_values(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *s = json_object_get(layer_at(doc, 1, "user"), "setup_us");

	/* {40, 45, 50}: p95 rank 1.9 -> 45 + 0.9 * 5 = 49.5; stdev = 5. */
	assert_near(number(s, "min"), 40);
	assert_near(number(s, "p95"), 49.5);
	assert_near(number(s, "mean"), 45);
	assert_near(number(s, "stddev"), 5);
}

static void test_json_incremental(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *inc;

	inc = json_object_get(layer_at(doc, 0, "base"), "incremental");
	assert_true(json_is_object(inc));
	assert_true(json_is_number(json_object_get(inc, "setup_us")));
	assert_true(json_is_null(json_object_get(inc, "deferred_us")));

	check_increment(json_object_get(layer_at(doc, 1, "user"), "incremental"), 45 - 11, 65 - 30,
			200);
	check_increment(json_object_get(layer_at(doc, 2, "uts"), "incremental"), 48 - 45, 66 - 65,
			220 - 200);
	check_increment(json_object_get(layer_at(doc, 4, "net"), "incremental"), 160 - 48, 310 - 66,
			6000 - 220);
}

static void test_json_alone(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);

	/* net alone (net+user, rootless) against user. */
	check_increment(json_object_get(layer_at(doc, 4, "net"), "alone"), 150 - 45, 300 - 65,
			4000 - 200);
	/* Only net was measured alone. */
	assert_null(json_object_get(layer_at(doc, 2, "uts"), "alone"));
}

static void test_json_unavailable(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *l = layer_at(doc, 3, "time");
	const char *reason;

	assert_true(json_is_false(json_object_get(l, "available")));
	reason = json_string_value(json_object_get(l, "reason"));
	assert_non_null(reason);
	assert_non_null(strstr(reason, strerror(EINVAL)));
	assert_null(json_object_get(l, "setup_us"));
	assert_null(json_object_get(l, "incremental"));
}

static void test_json_steps_workload(void **state)
{
	struct fixture *f = *state;
	json_auto_t *doc = st_report_json(&f->r);
	json_t *steps = json_object_get(doc, "steps");
	json_t *w = json_object_get(doc, "workload");
	json_t *argv;

	assert_int_equal(json_array_size(steps), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(steps, 0), "step")),
			    "uid_map");
	assert_near(number(json_array_get(steps, 0), "us"), 12.5);
	assert_string_equal(json_string_value(json_object_get(json_array_get(steps, 1), "step")),
			    "lo_up");
	assert_near(number(json_array_get(steps, 1), "us"), 40);

	assert_true(json_is_object(w));
	argv = json_object_get(w, "argv");
	assert_int_equal(json_array_size(argv), 2);
	assert_string_equal(json_string_value(json_array_get(argv, 0)), "/bin/true");
	assert_string_equal(json_string_value(json_array_get(argv, 1)), "-x");
	assert_int_equal(json_integer_value(json_object_get(w, "exit_code")), 0);
	assert_true(json_is_null(json_object_get(w, "signal")));
	assert_near(number(w, "wall_us"), 1500);
	assert_near(number(w, "user_us"), 2000);
	assert_near(number(w, "sys_us"), 1000500);
	assert_int_equal(json_integer_value(json_object_get(w, "max_rss_kb")), 1234);
}

static void test_json_signaled_workload(void **state)
{
	struct fixture *f = *state;
	json_t *doc, *w;

	/* A raw wait status of 9 is "killed by SIGKILL". */
	f->workload.status = 9;
	f->workload.exit_code = 128 + 9;
	doc = st_report_json(&f->r);
	w = json_object_get(doc, "workload");
	assert_int_equal(json_integer_value(json_object_get(w, "signal")), 9);
	assert_int_equal(json_integer_value(json_object_get(w, "exit_code")), 137);
	json_decref(doc);
}

static void test_json_layers_command(void **state)
{
	struct fixture *f = *state;
	struct st_opts o;
	struct st_report_config config;
	struct st_error err = { 0 };
	char *argv[] = { "sandboxtime", "layers", "--repeat=3", NULL };
	json_t *doc;

	assert_int_equal(st_cli_parse(3, argv, &o, &err), 0);
	describe(&config, &o.run, 0);
	f->r.out = &o.out;
	f->r.config = &config;
	f->r.steps = NULL;
	f->r.workload = NULL;
	doc = st_report_json(&f->r);
	/* "the same document without workload" */
	assert_null(json_object_get(doc, "workload"));
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "sandboxtime/v1");
	assert_int_equal(json_array_size(json_object_get(doc, "layers")), 5);
	json_decref(doc);
}

static void test_json_not_measured(void **state)
{
	struct fixture *f = *state;
	json_t *doc, *layers;

	/* --repeat=0: the sandbox ran, nothing was measured. */
	f->r.m = NULL;
	doc = st_report_json(&f->r);
	assert_null(json_object_get(doc, "measurement"));
	layers = json_object_get(doc, "layers");
	assert_true(json_is_array(layers));
	/* What is known still shows: the layer the kernel refused. */
	assert_int_equal(json_array_size(layers), 1);
	layer_at(doc, 0, "time");
	assert_true(json_is_object(json_object_get(doc, "workload")));
	json_decref(doc);
}

static void test_json_errors(void **state)
{
	struct fixture *f = *state;
	json_t *doc, *errors;

	for (int i = 0; i < 20; i++)
		st_report_add_error(&f->r, "problem %d", i);
	doc = st_report_json(&f->r);
	errors = json_object_get(doc, "errors");
	assert_int_equal(json_array_size(errors), ST_MAX_REPORT_ERRORS);
	assert_non_null(strstr(json_string_value(json_array_get(errors, 0)), "time unavailable"));
	assert_string_equal(json_string_value(json_array_get(errors, 1)), "problem 0");
	json_decref(doc);
}

static void test_write_json_parses_back(void **state)
{
	struct fixture *f = *state;
	struct st_error err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	json_error_t jerr;
	json_t *doc;

	assert_non_null(out);
	assert_int_equal(st_report_write_json(&f->r, out, &err), 0);
	assert_int_equal(fclose(out), 0);
	assert_true(len > 0);
	assert_int_equal(buf[len - 1], '\n');
	doc = json_loads(buf, 0, &jerr);
	if (!doc) {
		print_error("# json_loads: %s at line %d\n", jerr.text, jerr.line);
		fail();
	}
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "sandboxtime/v1");
	check_stats(layer_at(doc, 1, "user"), "setup_us", 45, VALUES(50, 40, 45));
	check_increment(json_object_get(layer_at(doc, 4, "net"), "incremental"), 112, 244, 5780);
	json_decref(doc);
	free(buf);

	/* st_report_write() dispatches on --format (-J here). */
	out = open_memstream(&buf, &len);
	assert_int_equal(st_report_write(&f->r, out, &err), 0);
	fclose(out);
	doc = json_loads(buf, 0, &jerr);
	assert_non_null(doc);
	json_decref(doc);
	free(buf);
}

static void test_write_json_error(void **state)
{
	struct fixture *f = *state;
	struct st_error err = { 0 };
	FILE *out = fopen("/dev/full", "w");

	if (!out)
		skip();
	setvbuf(out, NULL, _IONBF, 0);
	assert_true(st_report_write_json(&f->r, out, &err) < 0);
	assert_non_null(strstr(err.msg, "JSON"));
	fclose(out);
}

/* CSV */

struct csv {
	char *buf;
	char *lines[32];
	size_t nlines;
	const char *sections; /* a run's sections after the layers, or NULL */
};

static void csv_read(struct fixture *f, struct csv *c)
{
	struct st_error err = { 0 };
	size_t len = 0;
	FILE *out = open_memstream(&c->buf, &len);
	char *save = NULL, *sep;

	assert_non_null(out);
	assert_int_equal(st_report_write_csv(&f->r, out, &err), 0);
	assert_int_equal(fclose(out), 0);
	assert_true(len > 0);
	assert_int_equal(c->buf[len - 1], '\n');
	/* A run's sections follow the layers after a blank line: the lines are the layers'. */
	sep = strstr(c->buf, "\n\n");
	c->sections = sep ? sep + 2 : NULL;
	if (sep)
		sep[1] = '\0';
	c->nlines = 0;
	for (char *l = strtok_r(c->buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		assert_true(c->nlines < ARRAY_SIZE(c->lines));
		c->lines[c->nlines++] = l;
	}
}

/* Field @k of a CSV line (no quoting: no field holds a comma), copied to @out. */
static int csv_field(const char *line, size_t k, char *out, size_t len)
{
	const char *p = line;

	for (size_t i = 0; i < k; i++) {
		p = strchr(p, ',');
		if (!p)
			return -1;
		p++;
	}
	snprintf(out, len, "%.*s", (int)strcspn(p, ","), p);
	return 0;
}

static size_t csv_count(const char *line)
{
	size_t n = 1;

	for (const char *p = line; *p; p++)
		n += *p == ',';
	return n;
}

/* Index of column @name in the header, or fails. */
static size_t csv_column(const struct csv *c, const char *name)
{
	char field[64];

	for (size_t k = 0; csv_field(c->lines[0], k, field, sizeof(field)) == 0; k++)
		if (strcmp(field, name) == 0)
			return k;
	print_error("# no column '%s' in '%s'\n", name, c->lines[0]);
	fail();
	return 0;
}

/* The row whose layer and alone columns match. */
static const char *csv_row(const struct csv *c, const char *layer, int alone)
{
	char name[32], a[8];

	for (size_t i = 1; i < c->nlines; i++) {
		csv_field(c->lines[i], 0, name, sizeof(name));
		csv_field(c->lines[i], 1, a, sizeof(a));
		if (strcmp(name, layer) == 0 && atoi(a) == alone)
			return c->lines[i];
	}
	print_error("# no row for %s (alone %d)\n", layer, alone);
	fail();
	return NULL;
}

static double csv_number(const struct csv *c, const char *layer, int alone, const char *column)
{
	char field[64], *end;
	double v;

	csv_field(csv_row(c, layer, alone), csv_column(c, column), field, sizeof(field));
	v = strtod(field, &end);
	if (!field[0] || *end) {
		print_error("# %s,%s: '%s' is not a plain number\n", layer, column, field);
		fail();
	}
	return v;
}

static void test_csv_header(void **state)
{
	struct fixture *f = *state;
	struct csv c = { 0 };
	char field[64];
	size_t k;

	csv_read(f, &c);
	csv_column(&c, "layer");
	csv_column(&c, "setup_median_us");
	csv_column(&c, "setup_p95_us");
	csv_column(&c, "teardown_median_us");
	csv_column(&c, "deferred_median_us");
	csv_column(&c, "incremental_setup_us");
	/* Units only at the end of a name, plain snake_case names. */
	for (k = 0; csv_field(c.lines[0], k, field, sizeof(field)) == 0; k++) {
		size_t len = strlen(field);

		assert_true(len > 0);
		assert_int_equal(strspn(field, "abcdefghijklmnopqrstuvwxyz0123456789_"), len);
		/* layer, alone, available (0/1), reason (text): no unit to carry. */
		if (k < 4) {
			static const char *const plain[] = { "layer", "alone", "available", "reason" };

			assert_string_equal(field, plain[k]);
			continue;
		}
		if (!(len > 3 && strcmp(field + len - 3, "_us") == 0) &&
		    !(len > 2 && strcmp(field + len - 2, "_n") == 0)) {
			print_error("# column '%s' has no unit suffix\n", field);
			fail();
		}
		assert_null(strstr(field, "_us_"));
	}
	free(c.buf);
}

static void test_csv_rows(void **state)
{
	struct fixture *f = *state;
	struct csv c = { 0 };
	size_t cols;

	csv_read(f, &c);
	/* One row per measured set (base, user, uts, net, net alone), then time, unavailable. */
	assert_int_equal(c.nlines, 1 + f->m.nsets + 1);
	cols = csv_count(c.lines[0]);
	for (size_t i = 1; i < c.nlines; i++) {
		if (csv_count(c.lines[i]) != cols) {
			print_error("# %zu columns in '%s', header has %zu\n",
				    csv_count(c.lines[i]), c.lines[i], cols);
			fail();
		}
	}
	assert_near(csv_number(&c, "base", 0, "setup_median_us"), 11);
	assert_near(csv_number(&c, "user", 0, "setup_median_us"), 45);
	assert_near(csv_number(&c, "user", 0, "setup_n"), 3);
	assert_near(csv_number(&c, "net", 0, "teardown_median_us"), 310);
	assert_near(csv_number(&c, "net", 0, "deferred_median_us"), 6000);
	assert_near(csv_number(&c, "uts", 0, "incremental_setup_us"), 3);
	assert_near(csv_number(&c, "net", 0, "incremental_deferred_us"), 5780);
	assert_near(csv_number(&c, "net", 1, "incremental_setup_us"), 105);
	free(c.buf);
}

/* A run's CSV goes on with its sections: the steps and the workload of the fixture, in order. */
static void test_csv_run_sections(void **state)
{
	struct fixture *f = *state;
	struct csv c = { 0 };
	const char *steps, *workload;

	csv_read(f, &c);
	assert_non_null(c.sections);
	steps = strstr(c.sections, "section,step,time_us,already_gone\n"
				   "steps,uid_map,12.500,0\nsteps,lo_up,40.000,0\n");
	workload = strstr(c.sections, "section,argv,exit_code,signal,wall_us,user_us,sys_us,max_rss_kb\n"
				      "workload,");
	assert_ptr_equal(steps, c.sections);
	assert_non_null(workload);
	assert_non_null(strstr(workload, ",0,,1500.0,2000.0,1000500.0,1234\n"));
	/* No network, security or cgroup in this run: no section for them. */
	assert_null(strstr(c.sections, "\nnetwork,"));
	assert_null(strstr(c.sections, "\nsecurity,"));
	assert_null(strstr(c.sections, "\ncgroup,"));
	free(c.buf);
}

static void test_csv_empty_cells(void **state)
{
	struct fixture *f = *state;
	struct csv c = { 0 };
	char field[64];

	csv_read(f, &c);
	/* Base has nothing deferred: empty cells, not 0, and never a unit in a cell. */
	csv_field(csv_row(&c, "base", 0), csv_column(&c, "deferred_median_us"), field,
		  sizeof(field));
	assert_string_equal(field, "");
	csv_field(csv_row(&c, "base", 0), csv_column(&c, "incremental_deferred_us"), field,
		  sizeof(field));
	assert_string_equal(field, "");
	csv_field(csv_row(&c, "base", 0), csv_column(&c, "setup_cold_median_us"), field,
		  sizeof(field));
	assert_string_equal(field, "");
	for (size_t i = 1; i < c.nlines; i++) {
		for (size_t k = 1; csv_field(c.lines[i], k, field, sizeof(field)) == 0; k++) {
			char *end;

			if (k == 3) /* reason: text, empty for a measured set */
				continue;
			strtod(field, &end);
			if (*end) {
				print_error("# cell '%s' in '%s' is not a plain number\n", field,
					    c.lines[i]);
				fail();
			}
		}
	}
	free(c.buf);
}

static void test_csv_lists_unavailable(void **state)
{
	struct fixture *f = *state;
	struct csv c = { 0 };
	char field[32];
	int found = 0;

	/*
	 * docs/DESIGN.md: a layer the kernel does not offer is reported as
	 * unavailable, not silently skipped; JSON and the table list it.
	 */
	csv_read(f, &c);
	for (size_t i = 1; i < c.nlines; i++) {
		csv_field(c.lines[i], 0, field, sizeof(field));
		found |= strcmp(field, "time") == 0;
	}
	free(c.buf);
	if (!found) {
		print_error("# the unavailable layer 'time' has no CSV row\n");
		fail();
	}
}

static void test_csv_write_error(void **state)
{
	struct fixture *f = *state;
	struct st_error err = { 0 };
	FILE *out = fopen("/dev/full", "w");

	if (!out)
		skip();
	setvbuf(out, NULL, _IONBF, 0);
	assert_true(st_report_write_csv(&f->r, out, &err) < 0);
	assert_non_null(strstr(err.msg, "CSV"));
	fclose(out);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* Rounds of a reference set and a set paired with it, as measure.c records them. */
static void paired_sets(struct st_measurement *m, const double *ref, const double *x, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->seed = 11;
	fill(add_set(m, "base", -1, 0, 0), ST_FIG_SETUP, ref, n);
	fill(add_set(m, "uts", ST_LAYER_UTS, 0, BIT(UTS)), ST_FIG_SETUP, x, n);
}

static void test_table_increment_never_negative_cost(void **state)
{
	struct st_measurement m;
	char text[32];
	const double ref[] = { 100, 120, 90, 110, 105, 95, 130, 100, 115, 85 };
	/* Lower by 1 to 3 in every round: clearly below 0. */
	const double below[] = { 98, 119, 87, 108, 104, 92, 129, 97, 113, 84 };
	/* -4 .. +4 around 0: noise. */
	const double noise[] = { 104, 116, 91, 113, 103, 99, 127, 101, 112, 88 };
	/* +20 +- 2: a real cost. */
	const double above[] = { 121, 139, 110, 132, 124, 116, 151, 119, 136, 104 };

	paired_sets(&m, ref, below, ARRAY_SIZE(ref));
	st_report_increment_text(&m, 1, ST_FIG_SETUP, text, sizeof(text));
	assert_string_equal(text, "<0");
	st_measurement_free(&m);

	paired_sets(&m, ref, noise, ARRAY_SIZE(ref));
	st_report_increment_text(&m, 1, ST_FIG_SETUP, text, sizeof(text));
	assert_string_equal(text, "~0");
	st_measurement_free(&m);

	paired_sets(&m, ref, above, ARRAY_SIZE(ref));
	st_report_increment_text(&m, 1, ST_FIG_SETUP, text, sizeof(text));
	assert_true(text[0] != '-' && text[0] != '~' && text[0] != '<');
	assert_true(atof(text) >= 18 && atof(text) <= 22);
	st_measurement_free(&m);
}

/* The whole table: no increment cell of the fixture shows a negative number. */
static void test_table_no_negative_increment(void **state)
{
	struct fixture *f = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct st_error err = { 0 };

	assert_non_null(out);
	assert_int_equal(st_report_write_table(&f->r, out, 0, &err), 0);
	fclose(out);
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		char name[32], cells[5][32];

		/* LAYER setup ready teardown +setup +teardown deferred last */
		if (sscanf(line, "%31s %31s %31s %31s %31s %31s", name, cells[0], cells[1], cells[2],
			   cells[3], cells[4]) != 6 || strcmp(name, "LAYER") == 0)
			continue;
		for (int c = 3; c < 5; c++)
			assert_true(cells[c][0] != '-' || cells[c][1] == '\0');
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_json_header),
		T(test_json_layers_order),
		T(test_json_flags),
		T(test_json_stats),
		T(test_json_stats_values),
		T(test_json_incremental),
		T(test_json_alone),
		T(test_json_unavailable),
		T(test_json_steps_workload),
		T(test_json_signaled_workload),
		T(test_json_layers_command),
		T(test_json_not_measured),
		T(test_json_errors),
		T(test_write_json_parses_back),
		T(test_write_json_error),
		T(test_csv_header),
		T(test_csv_rows),
		T(test_csv_run_sections),
		T(test_csv_empty_cells),
		T(test_csv_lists_unavailable),
		T(test_csv_write_error),
		T(test_table_increment_never_negative_cost),
		T(test_table_no_negative_increment),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
