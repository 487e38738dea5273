// SPDX-License-Identifier: MIT
/*
 * st_cli_parse(): defaults of docs/DESIGN.md, both spellings of long options,
 * subcommands, and a usage error that names the option for every bad input.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/bench_registry.h"
#include "sandboxtime/cli.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/layer.h"

/* An argv with the program name in front and the NULL that exec gives. */
#define ARGV(...) ((char *[]){ "sandboxtime", __VA_ARGS__, NULL })
#define PARSE(o, err, ...) \
	st_cli_parse((int)ARRAY_SIZE(ARGV(__VA_ARGS__)) - 1, ARGV(__VA_ARGS__), (o), (err))

/* A usage error whose message contains @needle (the option that was wrong). */
#define assert_usage(ret, err, needle) assert_usage_at((ret), (err), (needle), __FILE__, __LINE__)

static void assert_usage_at(int ret, const struct st_error *err, const char *needle,
			    const char *file, int line)
{
	if (ret == -EINVAL && err->usage && strstr(err->msg, needle))
		return;
	print_error("# ret %d, usage %d, msg '%s': expected a usage error naming '%s'\n", ret,
		    err->usage, err->msg, needle);
	_fail(file, line);
}

static void test_defaults(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "--", "true"), 0);
	assert_int_equal(o.command, ST_CMD_RUN);
	assert_int_equal(o.run.measure.repeat, 20);
	assert_int_equal(o.run.measure.warmup, 3);
	assert_int_equal(o.run.measure.deferred_repeat, 10);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYERS_ALL);
	assert_int_equal(o.run.measure.ns_explicit, 0);
	assert_int_equal(o.run.net.mode, ST_NET_NONE);
	assert_int_equal(o.out.format, ST_FORMAT_TABLE);
	assert_int_equal(o.out.cpu, -1);
	assert_int_equal(o.run.measure.cold_ms, 0);
	assert_int_equal(o.run.measure.alone, 0);
	assert_int_equal(o.out.quiet, 0);
	assert_int_equal(o.out.verbose, 0);
	assert_int_equal(o.run.no_init, 0);
	assert_null(o.out.path);
	/* NULL: the run applies "sandbox"; a given one needs the uts layer. */
	assert_null(o.run.hostname);
	assert_non_null(o.run.argv);
	assert_string_equal(o.run.argv[0], "true");
	assert_null(o.run.argv[1]);
}

static void test_deferred_repeat_default(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* min(repeat, 10) */
	assert_int_equal(PARSE(&o, &err, "--repeat=5", "--", "true"), 0);
	assert_int_equal(o.run.measure.deferred_repeat, 5);
	assert_int_equal(PARSE(&o, &err, "--repeat=50", "--", "true"), 0);
	assert_int_equal(o.run.measure.deferred_repeat, 10);
	assert_int_equal(PARSE(&o, &err, "--repeat=10", "--", "true"), 0);
	assert_int_equal(o.run.measure.deferred_repeat, 10);
	/* Given explicitly, it wins, in either order. */
	assert_int_equal(PARSE(&o, &err, "--deferred-repeat=7", "--repeat=3", "--", "true"), 0);
	assert_int_equal(o.run.measure.deferred_repeat, 7);
	assert_int_equal(o.run.measure.repeat, 3);
	assert_int_equal(PARSE(&o, &err, "--repeat=50", "--deferred-repeat", "0", "--", "true"), 0);
	assert_int_equal(o.run.measure.deferred_repeat, 0);
}

static void test_equals_and_separate_value(void **state)
{
	struct st_opts a, b;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&a, &err, "--repeat=7", "--warmup=0", "--ns=user,uts,pid",
			       "--format=csv", "--cpu=1", "--cold=50", "--hostname=box",
			       "--net=host", "--", "true"),
			 0);
	assert_int_equal(PARSE(&b, &err, "--repeat", "7", "--warmup", "0", "--ns", "user,uts,pid",
			       "--format", "csv", "--cpu", "1", "--cold", "50", "--hostname", "box",
			       "--net", "host", "--", "true"),
			 0);
	assert_int_equal(a.run.measure.repeat, 7);
	assert_int_equal(b.run.measure.repeat, 7);
	assert_int_equal(a.run.measure.warmup, 0);
	assert_int_equal(b.run.measure.warmup, 0);
	assert_int_equal(a.out.format, ST_FORMAT_CSV);
	assert_int_equal(b.out.format, ST_FORMAT_CSV);
	assert_int_equal(a.out.cpu, 1);
	assert_int_equal(b.out.cpu, 1);
	assert_int_equal(a.run.measure.cold_ms, 50);
	assert_int_equal(b.run.measure.cold_ms, 50);
	assert_string_equal(a.run.hostname, "box");
	assert_string_equal(b.run.hostname, "box");
	assert_int_equal(a.run.net.mode, ST_NET_HOST);
	assert_int_equal(b.run.net.mode, ST_NET_HOST);
	assert_int_equal(a.run.measure.ns_mask, ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_UTS) | ST_LAYER_BIT(ST_LAYER_PID));
	assert_int_equal(b.run.measure.ns_mask, a.run.measure.ns_mask);
}

static void test_flags(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "--alone", "-q", "-v", "--no-init", "--", "true"), 0);
	assert_int_equal(o.run.measure.alone, 1);
	assert_int_equal(o.out.quiet, 1);
	assert_int_equal(o.out.verbose, 1);
	assert_int_equal(o.run.no_init, 1);
	assert_int_equal(PARSE(&o, &err, "--quiet", "--verbose", "--", "true"), 0);
	assert_int_equal(o.out.quiet, 1);
	assert_int_equal(o.out.verbose, 1);
}

static void test_json_short(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "-J", "--", "true"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_JSON);
	assert_int_equal(PARSE(&o, &err, "--json", "--", "true"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_JSON);
	assert_int_equal(PARSE(&o, &err, "--format=json", "--", "true"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_JSON);
	/* Short options cluster: -qJ is -q -J. */
	assert_int_equal(PARSE(&o, &err, "-qJ", "--", "true"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_JSON);
	assert_int_equal(o.out.quiet, 1);
	/* The last one wins, as with any repeated option. */
	assert_int_equal(PARSE(&o, &err, "-J", "--format=table", "--", "true"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_TABLE);
}

static void test_output(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "-o", "r.json", "--", "true"), 0);
	assert_string_equal(o.out.path, "r.json");
	assert_int_equal(PARSE(&o, &err, "-or2.json", "--", "true"), 0);
	assert_string_equal(o.out.path, "r2.json");
	assert_int_equal(PARSE(&o, &err, "--output=r3.json", "--", "true"), 0);
	assert_string_equal(o.out.path, "r3.json");
	assert_int_equal(PARSE(&o, &err, "--output", "r4.json", "--", "true"), 0);
	assert_string_equal(o.out.path, "r4.json");
	assert_usage(PARSE(&o, &err, "--output=", "--", "true"), &err, "--output");
	assert_usage(PARSE(&o, &err, "-o", "", "--", "true"), &err, "--output");
}

static void test_help_version(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "--help"), 0);
	assert_int_equal(o.command, ST_CMD_HELP);
	assert_int_equal(PARSE(&o, &err, "-h"), 0);
	assert_int_equal(o.command, ST_CMD_HELP);
	assert_int_equal(PARSE(&o, &err, "--version"), 0);
	assert_int_equal(o.command, ST_CMD_VERSION);
	assert_int_equal(PARSE(&o, &err, "-V"), 0);
	assert_int_equal(o.command, ST_CMD_VERSION);
	/* --help needs no CMD, even after other options. */
	assert_int_equal(PARSE(&o, &err, "--repeat=3", "--help"), 0);
	assert_int_equal(o.command, ST_CMD_HELP);
	assert_int_equal(PARSE(&o, &err, "layers", "--help"), 0);
	assert_int_equal(o.command, ST_CMD_HELP);
}

static void test_layers_command(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };
	char *argv[] = { "sandboxtime", "layers", NULL };

	assert_int_equal(st_cli_parse(2, argv, &o, &err), 0);
	assert_int_equal(o.command, ST_CMD_LAYERS);
	assert_null(o.run.argv);
	assert_int_equal(o.run.measure.repeat, 20);
	assert_int_equal(PARSE(&o, &err, "layers", "--repeat", "2", "--ns=uts,user", "-J"), 0);
	assert_int_equal(o.command, ST_CMD_LAYERS);
	assert_int_equal(o.run.measure.repeat, 2);
	assert_int_equal(o.run.measure.deferred_repeat, 2);
	assert_int_equal(o.out.format, ST_FORMAT_JSON);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_UTS));
	/* layers runs no command: an operand is an error that names it. */
	assert_usage(PARSE(&o, &err, "layers", "ls"), &err, "'ls'");
	assert_usage(PARSE(&o, &err, "layers", "--", "ls"), &err, "'ls'");
}

static void test_compare_command(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "compare", "a.json", "b.json"), 0);
	assert_int_equal(o.command, ST_CMD_COMPARE);
	assert_int_equal(o.compare.nfiles, 2);
	assert_int_equal(o.compare.resamples, 2000);
	assert_false(o.compare.seed.given);
	assert_true(o.compare.fail_pct < 0);
	/* Files before, between and after the options; "--" ends them. */
	assert_int_equal(PARSE(&o, &err, "compare", "a.json", "--seed=7", "b.json", "--format=markdown",
			       "c.json", "--fail-if-slower", "2.5", "--resamples=500", "--", "-d.json"), 0);
	assert_int_equal(o.compare.nfiles, 4);
	assert_string_equal(o.compare.files[0], "a.json");
	assert_string_equal(o.compare.files[1], "b.json");
	assert_string_equal(o.compare.files[2], "c.json");
	assert_string_equal(o.compare.files[3], "-d.json");
	assert_true(o.compare.seed.given);
	assert_int_equal(o.compare.seed.value, 7);
	assert_int_equal(o.out.format, ST_FORMAT_MARKDOWN);
	assert_true(o.compare.fail_pct == 2.5);
	assert_int_equal(o.compare.resamples, 500);
	assert_usage(PARSE(&o, &err, "compare", "a.json"), &err, "two reports");
	assert_usage(PARSE(&o, &err, "compare", "a.json", "b.json", "--fail-if-slower=-1"), &err,
		     "--fail-if-slower");
	assert_usage(PARSE(&o, &err, "compare", "a.json", "b.json", "--fail-if-slower=5x"), &err,
		     "--fail-if-slower");
	assert_usage(PARSE(&o, &err, "compare", "a.json", "b.json", "--resamples=10"), &err,
		     "--resamples");
	assert_usage(PARSE(&o, &err, "compare", "a.json", "b.json", "--repeat=3"), &err, "--repeat");
	assert_usage(PARSE(&o, &err, "compare", "a.json", "b.json", "--format=prometheus"), &err,
		     "prometheus");
	/* Every reporting command writes markdown; compare's options are its own. */
	assert_int_equal(PARSE(&o, &err, "layers", "--format=markdown"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_MARKDOWN);
	assert_usage(PARSE(&o, &err, "orphans", "--svg=x.svg"), &err, "--svg");
	assert_usage(PARSE(&o, &err, "layers", "--color=sometimes"), &err, "--color");
	assert_int_equal(PARSE(&o, &err, "layers", "--color=never", "--svg=a.svg", "--html=a.html"), 0);
	assert_int_equal(o.out.color, ST_COLOR_NEVER);
	assert_string_equal(o.out.svg, "a.svg");
	assert_string_equal(o.out.html, "a.html");
	assert_usage(PARSE(&o, &err, "layers", "--fail-if-slower=5"), &err, "--fail-if-slower");
}

static void test_repeat_zero(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* A run with --repeat=0 skips the calibration (docs/DESIGN.md). */
	assert_int_equal(PARSE(&o, &err, "--repeat=0", "--", "true"), 0);
	assert_int_equal(o.run.measure.repeat, 0);
	assert_int_equal(o.run.measure.deferred_repeat, 0);
	/* layers would measure nothing. */
	assert_usage(PARSE(&o, &err, "layers", "--repeat=0"), &err, "--repeat");
	assert_usage(PARSE(&o, &err, "layers", "--repeat", "0"), &err, "--repeat");
}

static void test_bad_numbers(void **state)
{
	static const struct {
		const char *opt;
		const char *name;
	} cases[] = {
		{ "--repeat=-1", "--repeat" },
		{ "--repeat=abc", "--repeat" },
		{ "--repeat=", "--repeat" },
		{ "--repeat=3x", "--repeat" },
		{ "--repeat=+3", "--repeat" },
		{ "--repeat= 3", "--repeat" },
		{ "--repeat=0x10", "--repeat" },
		{ "--repeat=1.5", "--repeat" },
		{ "--repeat=99999999999999999999999", "--repeat" },	/* > UINT64_MAX */
		{ "--repeat=4294967296", "--repeat" },			/* > UINT_MAX */
		{ "--repeat=100001", "--repeat" },			/* > the documented cap */
		{ "--warmup=-3", "--warmup" },
		{ "--warmup=ten", "--warmup" },
		{ "--warmup=18446744073709551616", "--warmup" },	/* UINT64_MAX + 1 */
		{ "--deferred-repeat=-1", "--deferred-repeat" },
		{ "--cold=0", "--cold" },
		{ "--cold=-5", "--cold" },
		{ "--cold=60001", "--cold" },
		{ "--cpu=-1", "--cpu" },
		{ "--cpu=x", "--cpu" },
		{ "--cpu=99999999999999999999", "--cpu" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct st_opts o;
		struct st_error err = { 0 };
		char *argv[] = { "sandboxtime", (char *)cases[i].opt, "--", "true", NULL };

		int ret = st_cli_parse(4, argv, &o, &err);

		if (ret != -EINVAL || !err.usage || !strstr(err.msg, cases[i].name)) {
			print_error("# %s: ret %d, usage %d, msg '%s'\n", cases[i].opt, ret,
				    err.usage, err.msg);
			fail();
		}
	}
}

static void test_bad_number_messages(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* The value itself is quoted, so that the user sees what was read. */
	assert_usage(PARSE(&o, &err, "--repeat=-1", "--", "true"), &err, "'-1'");
	assert_usage(PARSE(&o, &err, "--repeat=abc", "--", "true"), &err, "'abc'");
	assert_usage(PARSE(&o, &err, "--repeat=99999999999999999999999", "--", "true"), &err,
		     "too large");
	assert_usage(PARSE(&o, &err, "--repeat=100001", "--", "true"), &err, "out of range");
	/* Bad usage carries no errno: "Invalid argument" would add nothing. */
	assert_int_equal(err.errnum, 0);
}

static void test_unknown_option(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "--bogus", "--", "true"), &err, "--bogus");
	assert_usage(PARSE(&o, &err, "--bogus=3", "--", "true"), &err, "--bogus");
	assert_usage(PARSE(&o, &err, "-z", "--", "true"), &err, "-z");
	assert_usage(PARSE(&o, &err, "-qz", "--", "true"), &err, "-z");
	/* A flag given a value is not silently accepted. */
	assert_usage(PARSE(&o, &err, "--alone=1", "--", "true"), &err, "--alone");
	assert_usage(PARSE(&o, &err, "layers", "--bogus"), &err, "--bogus");
}

static void test_missing_value(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "layers", "--repeat"), &err, "--repeat");
	assert_usage(PARSE(&o, &err, "layers", "-o"), &err, "-o");
	assert_usage(PARSE(&o, &err, "layers", "--ns"), &err, "--ns");
}

static void test_missing_dashdash(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "--repeat=3", "ls", "-l"), &err, "'--'");
	assert_true(strstr(err.msg, "ls") != NULL);
	assert_null(strstr(err.msg, "-l'"));
}

static void test_missing_cmd(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };
	char *argv[] = { "sandboxtime", NULL };

	assert_usage(PARSE(&o, &err, "--"), &err, "missing CMD");
	assert_usage(PARSE(&o, &err, "--repeat=3", "--"), &err, "missing CMD");
	assert_usage(PARSE(&o, &err, "--repeat=3"), &err, "CMD");
	assert_usage(st_cli_parse(1, argv, &o, &err), &err, "CMD");
}

static void test_option_value_is_not_dashdash(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/*
	 * Here "--" is the value of -o (getopt takes the next word whatever it
	 * is), so CMD has no "--" before it. Accepting it writes the report to
	 * a file named "--"; the rule "missing '--' before CMD" must hold.
	 */
	assert_usage(PARSE(&o, &err, "-o", "--", "true"), &err, "'--'");
	assert_usage(PARSE(&o, &err, "--hostname", "--", "hostname"), &err, "'--'");
	/* With a real separator after the value, all is well. */
	assert_int_equal(PARSE(&o, &err, "-o", "--", "--", "true"), 0);
	assert_string_equal(o.out.path, "--");
	assert_string_equal(o.run.argv[0], "true");
}

static void test_cmd_keeps_its_options(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* After "--" everything belongs to CMD, options included. */
	assert_int_equal(PARSE(&o, &err, "--repeat=2", "--", "ls", "-l", "--repeat=9", "--"), 0);
	assert_int_equal(o.run.measure.repeat, 2);
	assert_string_equal(o.run.argv[0], "ls");
	assert_string_equal(o.run.argv[1], "-l");
	assert_string_equal(o.run.argv[2], "--repeat=9");
	assert_string_equal(o.run.argv[3], "--");
	assert_null(o.run.argv[4]);
}

static void test_net_host(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "--net=host", "--", "true"), 0);
	assert_int_equal(o.run.net.mode, ST_NET_HOST);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYERS_ALL & ~ST_LAYER_BIT(ST_LAYER_NET));
	/* "all" names nothing one by one, so no conflict either way round. */
	assert_int_equal(PARSE(&o, &err, "--ns=all", "--net=host", "--", "true"), 0);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYERS_ALL & ~ST_LAYER_BIT(ST_LAYER_NET));
	assert_int_equal(PARSE(&o, &err, "--net=host", "--ns=user,pid", "--", "true"), 0);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_PID));
	assert_int_equal(PARSE(&o, &err, "--net=none", "--", "true"), 0);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYERS_ALL);
}

static void test_net_host_conflicts(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "--net=host", "--ns=net", "--", "true"), &err, "--net=host");
	assert_true(strstr(err.msg, "net in --ns") != NULL);
	assert_usage(PARSE(&o, &err, "--ns=user,net", "--net=host", "--", "true"), &err,
		     "--net=host");
	assert_usage(PARSE(&o, &err, "layers", "--ns", "net", "--net", "host"), &err, "--net=host");
}

static void test_net_modes(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "--net=bogus", "--", "true"), &err, "'bogus'");
	assert_true(strstr(err.msg, "--net") != NULL);
	assert_int_equal(PARSE(&o, &err, "--net=veth", "--", "true"), 0);
	assert_int_equal(o.run.net.mode, ST_NET_VETH);
	assert_int_equal(PARSE(&o, &err, "--net", "bridge", "--mtu=9000", "--", "true"), 0);
	assert_int_equal(o.run.net.mode, ST_NET_BRIDGE);
	assert_int_equal(o.run.net.mtu, 9000);
	/* Wiring needs a network namespace to wire. */
	assert_usage(PARSE(&o, &err, "--ns=uts", "--net=veth", "--", "true"), &err, "net layer");
	assert_usage(PARSE(&o, &err, "--addr=10.0.0.2/30", "--", "true"), &err, "--addr");
	assert_usage(PARSE(&o, &err, "--net=veth", "--bridge=br0", "--", "true"), &err, "--bridge");
	/* join: a target, and no network namespace of its own. */
	assert_int_equal(PARSE(&o, &err, "--net=join:/run/netns/x", "--", "true"), 0);
	assert_int_equal(o.run.net.mode, ST_NET_JOIN);
	assert_string_equal(o.run.net.join, "/run/netns/x");
	assert_false(o.run.measure.ns_mask & ST_LAYER_BIT(ST_LAYER_NET));
	assert_usage(PARSE(&o, &err, "--net=join:", "--", "true"), &err, "join");
	assert_usage(PARSE(&o, &err, "--ns=net", "--net=join:1", "--", "true"), &err, "--net=join");
	/* layers measures namespaces: the wiring belongs to a run. */
	assert_usage(PARSE(&o, &err, "layers", "--net=veth"), &err, "--net=veth");
}

/* --ipv6 opts in; --addr6 gives the address (and implies it); --net-batch. */
static void test_ipv6_options(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };
	char text[64];

	assert_int_equal(PARSE(&o, &err, "--net=veth", "--", "true"), 0);
	assert_false(o.run.net.ipv6);
	assert_false(o.run.net.batch);
	assert_int_equal(PARSE(&o, &err, "--net=veth", "--ipv6", "--", "true"), 0);
	assert_true(o.run.net.ipv6);
	assert_false(o.run.net.addr6_given);
	assert_int_equal(PARSE(&o, &err, "--net=bridge", "--addr6", "fd5b:7e1d:ab00:99::5/64", "--", "true"), 0);
	assert_true(o.run.net.ipv6);
	assert_true(o.run.net.addr6_given);
	st_ip6_format(&o.run.net.addr6, text, sizeof(text));
	assert_string_equal(text, "fd5b:7e1d:ab00:99::5/64");
	assert_int_equal(PARSE(&o, &err, "--net=veth", "--addr6=fd00::2/126", "--", "true"), 0);
	assert_int_equal(PARSE(&o, &err, "--net=veth", "--net-batch", "--", "true"), 0);
	assert_true(o.run.net.batch);
	/* Bad addresses: the syntax, outside fd00::/8, the prefix, the network's own address. */
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=garbage", "--", "true"), &err, "--addr6");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=fd00::5", "--", "true"), &err, "--addr6");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=10.0.0.2/30", "--", "true"), &err, "--addr6");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=2001:db8::5/64", "--", "true"), &err, "fd00::/8");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=fc00::5/64", "--", "true"), &err, "fd00::/8");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=fd00::5/48", "--", "true"), &err, "/48");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=fd00::1/127", "--", "true"), &err, "/127");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=fd00::1/129", "--", "true"), &err, "--addr6");
	assert_usage(PARSE(&o, &err, "--net=veth", "--addr6=fd00:0:0:7::/64", "--", "true"), &err, "network");
	/* Only a wired sandbox has an eth0 to address or configure. */
	assert_usage(PARSE(&o, &err, "--ipv6", "--", "true"), &err, "--ipv6");
	assert_usage(PARSE(&o, &err, "--net=none", "--addr6=fd00::2/64", "--", "true"), &err, "--addr6");
	assert_usage(PARSE(&o, &err, "--net=host", "--net-batch", "--", "true"), &err, "--net-batch");
	/* IPv6 needs 1280 bytes of MTU. */
	assert_usage(PARSE(&o, &err, "--net=veth", "--ipv6", "--mtu=1279", "--", "true"), &err, "1280");
	assert_int_equal(PARSE(&o, &err, "--net=veth", "--ipv6", "--mtu=1280", "--", "true"), 0);
	/* A joined bridge: its IPv6 block is read at run time, not parsed here. */
	assert_int_equal(PARSE(&o, &err, "--net=bridge", "--bridge=br0", "--ipv6", "--", "true"), 0);
	assert_usage(PARSE(&o, &err, "netbench", "--ipv6"), &err, "--ipv6");
}

static void test_ns_option(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "--ns=net,user", "--", "true"), 0);
	assert_int_equal(o.run.measure.ns_mask, ST_LAYER_BIT(ST_LAYER_USER) | ST_LAYER_BIT(ST_LAYER_NET));
	assert_int_equal(o.run.measure.ns_explicit, o.run.measure.ns_mask);
	assert_int_equal(PARSE(&o, &err, "--ns=none", "--", "true"), 0);
	assert_int_equal(o.run.measure.ns_mask, 0);
	/* The message of docs/DESIGN.md, word for word (main.c adds "sandboxtime: "). */
	assert_usage(PARSE(&o, &err, "--ns=utz", "--", "true"), &err, "utz");
	assert_string_equal(err.msg,
			    "--ns: unknown namespace 'utz' (known: user,uts,ipc,pid,mount,cgroup,time,net)");
}

static void test_format_and_hostname(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };
	char longname[100];

	assert_usage(PARSE(&o, &err, "--format=xml", "--", "true"), &err, "--format");
	assert_true(strstr(err.msg, "'xml'") != NULL);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_usage(PARSE(&o, &err, "--hostname", longname, "--", "true"), &err, "--hostname");
	assert_usage(PARSE(&o, &err, "--hostname=", "--", "true"), &err, "--hostname");
}

static void test_unknown_subcommand(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "frobnicate"), &err, "'frobnicate'");
	assert_true(strstr(err.msg, "unknown command") != NULL);
	/* bench needs the name of a benchmark, and says which exist. */
	assert_usage(PARSE(&o, &err, "bench"), &err, "bench");
	assert_true(strstr(err.msg, "syscall") != NULL);
	assert_usage(PARSE(&o, &err, "bench", "nosuch"), &err, "'nosuch'");
	assert_true(strstr(err.msg, "cpu") != NULL);
	assert_int_equal(PARSE(&o, &err, "bench", "cpu", "--repeat=3"), 0);
	assert_int_equal(o.command, ST_CMD_BENCH);
	assert_string_equal(o.bench.name, "cpu");
	assert_int_equal(o.bench.measure.repeat, 3);
	/* A subcommand is only the first word. */
	assert_usage(PARSE(&o, &err, "--repeat=2", "layers"), &err, "'--'");
}

/* bench fork --sizes: a comma list of MB; a bad list is refused with the reason. */
static void test_bench_fork_sizes(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "bench", "fork"), 0);
	assert_string_equal(o.bench.name, "fork");
	/* The defaults are the row's: the articles' table. */
	assert_int_equal(o.bench.nsizes, 5);
	assert_int_equal(o.bench.sizes_mb[0], 1);
	assert_int_equal(o.bench.sizes_mb[1], 10);
	assert_int_equal(o.bench.sizes_mb[2], 100);
	assert_int_equal(o.bench.sizes_mb[3], 500);
	assert_int_equal(o.bench.sizes_mb[4], 1000);
	assert_int_equal(PARSE(&o, &err, "bench", "fork", "--sizes=16,1", "--repeat=3"), 0);
	assert_int_equal(o.bench.nsizes, 2);
	assert_int_equal(o.bench.sizes_mb[0], 16);
	assert_int_equal(o.bench.sizes_mb[1], 1);
	assert_int_equal(PARSE(&o, &err, "bench", "fork", "--sizes", "1048576"), 0);
	assert_int_equal(o.bench.sizes_mb[0], 1048576);

	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes="), &err, "empty size");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=1,,10"), &err, "empty size");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=1,"), &err, "empty size");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=0"), &err, "--sizes");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=1048577"), &err, "--sizes");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=-1"), &err, "--sizes");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=10MB"), &err, "--sizes");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=1,10,1"), &err, "listed twice");
	assert_usage(PARSE(&o, &err, "bench", "fork",
			   "--sizes=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"), &err, "at most 16");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--sizes=123456789012345678901234"), &err,
		     "too long");
	/* Only bench fork has sizes. */
	assert_usage(PARSE(&o, &err, "bench", "syscall", "--sizes=1"), &err, "bench fork and all only");
	assert_usage(PARSE(&o, &err, "layers", "--sizes=1"), &err, "--sizes");
}

/* bench files, userns, all: --files of one bench only, --repeat's own default, no CSV for all. */
static void test_bench_files_all(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "bench", "files"), 0);
	assert_string_equal(o.bench.name, "files");
	assert_true(o.bench.files == 3000 && !o.bench.repeat_given);
	assert_int_equal(PARSE(&o, &err, "bench", "files", "--files=100", "--repeat=2"), 0);
	assert_true(o.bench.files == 100 && o.bench.repeat_given && o.bench.measure.repeat == 2);
	assert_usage(PARSE(&o, &err, "bench", "files", "--files=0"), &err, "--files");
	assert_usage(PARSE(&o, &err, "bench", "files", "--files=100001"), &err, "--files");
	assert_usage(PARSE(&o, &err, "bench", "userns", "--files=10"), &err, "bench files and all only");
	assert_usage(PARSE(&o, &err, "layers", "--files=10"), &err, "--files");
	assert_int_equal(PARSE(&o, &err, "bench", "userns", "-J"), 0);
	assert_int_equal(PARSE(&o, &err, "bench", "all", "--files=10", "--sizes=1", "-J"), 0);
	assert_true(o.bench.files == 10 && o.bench.nsizes == 1);
	assert_usage(PARSE(&o, &err, "bench", "all", "--format=csv"), &err, "bench all");
	assert_usage(PARSE(&o, &err, "bench", "wher"), &err, "known: syscall, cpu, fork, churn, files, userns, where, mounts, cgroup, launch, all");
}

/* bench where: --kernel and --vm-accel, its own and bench all's; --ns kept as given. */
static void test_bench_where_options(void **state)
{
	struct st_opts o;
	struct st_error err;

	assert_int_equal(PARSE(&o, &err, "bench", "where"), 0);
	assert_true(o.bench.kind == ST_BENCH_NAME_WHERE && !o.bench.kernel && !o.bench.vm_accel &&
		    !o.bench.repeat_given);
	assert_int_equal(PARSE(&o, &err, "bench", "where", "--kernel=/k", "--vm-accel=tcg", "--ns=uts,pid"), 0);
	assert_string_equal(o.bench.kernel, "/k");
	assert_string_equal(o.bench.vm_accel, "tcg");
	assert_string_equal(o.bench.ns_text, "uts,pid");
	assert_int_equal(PARSE(&o, &err, "bench", "all", "--vm-accel=kvm"), 0);
	assert_usage(PARSE(&o, &err, "bench", "where", "--vm-accel=xen"), &err, "'xen' is neither kvm nor tcg");
	assert_usage(PARSE(&o, &err, "bench", "where", "--kernel="), &err, "--kernel");
	assert_usage(PARSE(&o, &err, "bench", "files", "--kernel=/k"), &err, "bench where and all only");
	assert_usage(PARSE(&o, &err, "layers", "--vm-accel=tcg"), &err, "--vm-accel");
}

/* bench churn: its options and defaults; a bench option elsewhere names its benches. */
static void test_bench_churn_options(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "bench", "churn"), 0);
	assert_int_equal(o.bench.kind, ST_BENCH_NAME_CHURN);
	assert_int_equal(o.bench.count, 1000);
	assert_int_equal(o.bench.max_alive, 1000);
	assert_int_equal(o.bench.nparallel, 1);
	assert_int_equal(o.bench.parallel[0], 1);
	assert_int_equal(PARSE(&o, &err, "bench", "churn", "--count=20", "--parallel=2,1,8",
			       "--max-alive=50", "--ns=net", "-J"), 0);
	assert_int_equal(o.bench.count, 20);
	assert_int_equal(o.bench.max_alive, 50);
	assert_int_equal(o.bench.nparallel, 3);
	assert_int_equal(o.bench.parallel[0], 2);
	assert_int_equal(o.bench.parallel[2], 8);
	assert_usage(PARSE(&o, &err, "bench", "churn", "--count=0"), &err, "--count");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--parallel=65"), &err, "--parallel");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--parallel=1,1"), &err, "listed twice");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--parallel=1,2,3,4,5,6,7,8,9"), &err,
		     "at most 8 creator counts");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--max-alive=0"), &err, "--max-alive");
	assert_int_equal(PARSE(&o, &err, "bench", "churn", "--duration=2.5"), 0);
	assert_true(o.bench.duration_s == 2.5 && o.netbench.duration_s == 3.0);
	assert_usage(PARSE(&o, &err, "bench", "churn", "--duration=2", "--count=3"), &err, "choose one");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--duration=301"), &err, "at most 300");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--duration=1"), &err,
		     "--duration applies to bench churn only");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--count=3"), &err,
		     "--count applies to bench churn only");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--sizes=1"), &err,
		     "--sizes applies to bench fork and all only");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--repeat=3"), &err,
		     "--repeat applies to bench syscall, cpu, fork, files, userns, where, mounts, cgroup, launch and all only");
	assert_usage(PARSE(&o, &err, "layers", "--count=3"), &err, "applies to bench only");
	assert_usage(PARSE(&o, &err, "bench", "chrun"), &err, "known: syscall, cpu, fork, churn, files, userns, where, mounts, cgroup, launch, all");
}

/* bench churn --net: none, veth or bridge, with net in --ns; no other bench takes it. */
static void test_bench_churn_net(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "bench", "churn"), 0);
	assert_int_equal(o.bench.net, ST_NET_NONE);
	assert_int_equal(PARSE(&o, &err, "bench", "churn", "--net=veth"), 0);
	assert_int_equal(o.bench.net, ST_NET_VETH);
	/* Stored for the bench: a run's --net stays its default. */
	assert_int_equal(o.run.net.mode, ST_NET_NONE);
	assert_int_equal(o.run.given & ST_GIVEN_NET, 0);
	assert_int_equal(PARSE(&o, &err, "bench", "churn", "--ns=net", "--net", "bridge"), 0);
	assert_int_equal(o.bench.net, ST_NET_BRIDGE);
	assert_int_equal(PARSE(&o, &err, "bench", "churn", "--ns=uts", "--net=none"), 0);
	assert_usage(PARSE(&o, &err, "bench", "churn", "--net=foo"), &err,
		     "--net: bench churn takes none, veth or bridge, not 'foo'");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--net=host"), &err, "not 'host'");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--net=join:/run/netns/x"), &err, "not 'join:");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--ns=uts", "--net=veth"), &err,
		     "bench churn: --net=veth needs the net layer: add net to --ns");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--net=bridge", "--ns=none"), &err,
		     "--net=bridge needs the net layer");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--net=veth"), &err,
		     "--net applies to bench churn only");
	assert_usage(PARSE(&o, &err, "bench", "mounts", "--net=none"), &err,
		     "--net applies to bench churn only");
	/* A run and layers keep their own modes. */
	assert_int_equal(PARSE(&o, &err, "--net=host", "--", "true"), 0);
	assert_int_equal(o.run.net.mode, ST_NET_HOST);
}

/* bench mounts: its two lists, --max-alive shared with churn, refused elsewhere. */
static void test_bench_mounts_options(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&o, &err, "bench", "mounts"), 0);
	assert_int_equal(o.bench.kind, ST_BENCH_NAME_MOUNTS);
	/* The defaults are the rows': 10,100,1000,5000 mounts; 0,10,100,1000 in the background. */
	assert_int_equal(o.bench.nmounts, 4);
	assert_int_equal(o.bench.mounts[0], 10);
	assert_int_equal(o.bench.mounts[3], 5000);
	assert_int_equal(o.bench.nbackground, 4);
	assert_int_equal(o.bench.background[0], 0);
	assert_int_equal(o.bench.background[3], 1000);
	assert_int_equal(PARSE(&o, &err, "bench", "mounts", "--mounts=100,10", "--background=0,20",
			       "--max-alive=20", "--repeat=2"), 0);
	assert_int_equal(o.bench.nmounts, 2);
	assert_int_equal(o.bench.mounts[0], 100);
	assert_int_equal(o.bench.background[1], 20);
	assert_int_equal(o.bench.max_alive, 20);
	assert_usage(PARSE(&o, &err, "bench", "mounts", "--mounts=0"), &err, "--mounts");
	assert_usage(PARSE(&o, &err, "bench", "mounts", "--mounts=50001"), &err, "--mounts");
	assert_usage(PARSE(&o, &err, "bench", "mounts", "--mounts=1,2,3,4,5,6"), &err, "at most 5");
	assert_usage(PARSE(&o, &err, "bench", "mounts", "--background=10,10"), &err, "listed twice");
	assert_usage(PARSE(&o, &err, "bench", "churn", "--mounts=10"), &err,
		     "--mounts applies to bench mounts only");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--max-alive=10"), &err,
		     "--max-alive applies to bench churn and mounts only");
}

/* bench cgroup: --cgroup=PARENT is its parent, not a run's layer; other benches refuse it. */
static void test_bench_cgroup_options(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	(void)state;
	assert_int_equal(PARSE(&o, &err, "bench", "cgroup"), 0);
	assert_int_equal(o.bench.kind, ST_BENCH_NAME_CGROUP);
	assert_null(o.bench.measure.cgroup_parent);
	assert_int_equal(o.bench.repeat_given, 0);
	assert_int_equal(PARSE(&o, &err, "bench", "cgroup", "--cgroup=/deleg", "--repeat=2"), 0);
	assert_string_equal(o.bench.measure.cgroup_parent, "/deleg");
	assert_true(o.bench.repeat_given && o.bench.measure.repeat == 2);
	assert_int_equal(o.run.cgroup, 0);
	assert_usage(PARSE(&o, &err, "bench", "cgroup", "--cgroup=deleg"), &err, "--cgroup");
	assert_usage(PARSE(&o, &err, "bench", "cgroup", "--cgroup=/a/../b"), &err, "'..'");
	assert_usage(PARSE(&o, &err, "bench", "fork", "--cgroup"), &err,
		     "--cgroup applies to bench cgroup only");
	assert_usage(PARSE(&o, &err, "bench", "cgroup", "--mounts=10"), &err,
		     "--mounts applies to bench mounts only");
}

static void test_orphans(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "orphans"), 0);
	assert_int_equal(o.command, ST_CMD_ORPHANS);
	assert_int_equal(o.out.format, ST_FORMAT_TABLE);
	assert_int_equal(o.orphans.all, 0);
	assert_int_equal(PARSE(&o, &err, "orphans", "-J", "--all", "-q", "-o", "x.json"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_JSON);
	assert_true(o.orphans.all && o.out.quiet);
	assert_string_equal(o.out.path, "x.json");
	assert_int_equal(PARSE(&o, &err, "orphans", "--format", "prometheus"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_PROMETHEUS);
	assert_int_equal(PARSE(&o, &err, "orphans", "--format=csv"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_CSV);
	assert_usage(PARSE(&o, &err, "orphans", "--format=xml"), &err, "'xml'");
	assert_usage(PARSE(&o, &err, "orphans", "--repeat=3"), &err, "--repeat=3");
	assert_usage(PARSE(&o, &err, "orphans", "--ns", "net"), &err, "--ns");
	assert_usage(PARSE(&o, &err, "orphans", "extra"), &err, "'extra'");
	assert_usage(PARSE(&o, &err, "orphans", "--bogus"), &err, "--bogus");
	/* --cleanup and its options: the default --min-age, repeatable --cleanup-path. */
	assert_int_equal(PARSE(&o, &err, "orphans", "--cleanup"), 0);
	assert_true(o.orphans.cleanup && !o.orphans.dry_run);
	assert_int_equal(o.orphans.min_age_s, 60);
	assert_int_equal(o.orphans.ncleanup_paths, 0);
	assert_int_equal(PARSE(&o, &err, "orphans", "--cleanup", "--dry-run", "--min-age=0",
			       "--cleanup-path", "/a b", "--cleanup-path=/c"), 0);
	assert_true(o.orphans.cleanup && o.orphans.dry_run);
	assert_int_equal(o.orphans.min_age_s, 0);
	assert_int_equal(o.orphans.ncleanup_paths, 2);
	assert_string_equal(o.orphans.cleanup_paths[0], "/a b");
	assert_string_equal(o.orphans.cleanup_paths[1], "/c");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup", "--min-age=-1"), &err, "--min-age");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup", "--min-age=1y"), &err, "--min-age");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup", "--cleanup-path="), &err, "--cleanup-path");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup", "--cleanup-path=1", "--cleanup-path=2",
			   "--cleanup-path=3", "--cleanup-path=4", "--cleanup-path=5", "--cleanup-path=6",
			   "--cleanup-path=7", "--cleanup-path=8", "--cleanup-path=9"), &err, "at most 8");
	assert_usage(PARSE(&o, &err, "orphans", "--dry-run"), &err, "--dry-run");
	assert_usage(PARSE(&o, &err, "orphans", "--min-age=5"), &err, "need orphans --cleanup");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup-path=/x"), &err, "need orphans --cleanup");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup", "--watch"), &err, "--watch");
	assert_usage(PARSE(&o, &err, "orphans", "--cleanup", "--textfile=x.prom"), &err, "--textfile");
	assert_usage(PARSE(&o, &err, "--cleanup", "--", "true"), &err, "orphans only");
	assert_usage(PARSE(&o, &err, "cleanup", "--cleanup"), &err, "orphans only");
	assert_int_equal(PARSE(&o, &err, "cleanup", "--dry-run"), 0);
	/* --all means nothing elsewhere; prometheus nothing to a run. */
	assert_usage(PARSE(&o, &err, "--all", "--", "true"), &err, "--all");
	assert_usage(PARSE(&o, &err, "--format=prometheus", "--", "true"), &err, "prometheus");
}

static void test_netbench(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_int_equal(PARSE(&o, &err, "netbench"), 0);
	assert_int_equal(o.command, ST_CMD_NETBENCH);
	assert_int_equal(o.netbench.paths, ST_NB_DEFAULT_PATHS);
	assert_true(o.netbench.duration_s == 3.0);
	assert_int_equal(o.netbench.streams, 1);
	assert_false(o.netbench.busy_poll || o.netbench.udp || o.netbench.cpu_pin);
	assert_int_equal(o.netbench.repeat, 3);
	assert_int_equal(o.netbench.size, 131072);
	assert_int_equal(o.netbench.rr, 1);
	assert_int_equal(PARSE(&o, &err, "netbench", "--paths=veth,host", "--duration=0.5",
			       "--repeat", "1", "--size=1", "--no-rr", "--mtu=9000",
			       "--format=prometheus"), 0);
	assert_int_equal(o.netbench.paths, (1u << ST_NB_HOST) | (1u << ST_NB_VETH));
	assert_true(o.netbench.duration_s == 0.5);
	assert_int_equal(o.netbench.repeat, 1);
	assert_int_equal(o.netbench.size, 1);
	assert_int_equal(o.netbench.rr, 0);
	assert_int_equal(o.netbench.mtu, 9000);
	assert_int_equal(o.out.format, ST_FORMAT_PROMETHEUS);
	assert_usage(PARSE(&o, &err, "netbench", "--duration=0"), &err, "--duration");
	assert_usage(PARSE(&o, &err, "netbench", "--duration=-1"), &err, "--duration");
	assert_usage(PARSE(&o, &err, "netbench", "--duration=3601"), &err, "--duration");
	assert_usage(PARSE(&o, &err, "netbench", "--duration=nan"), &err, "--duration");
	assert_usage(PARSE(&o, &err, "netbench", "--duration=1s"), &err, "--duration");
	assert_usage(PARSE(&o, &err, "netbench", "--size=0"), &err, "--size");
	assert_usage(PARSE(&o, &err, "netbench", "--size=67108865"), &err, "--size");
	assert_int_equal(PARSE(&o, &err, "netbench", "--size=67108864"), 0);
	assert_usage(PARSE(&o, &err, "netbench", "--paths=host,wifi"), &err, "'wifi'");
	assert_usage(PARSE(&o, &err, "netbench", "--paths=,"), &err, "--paths");
	assert_usage(PARSE(&o, &err, "netbench", "--mtu=67"), &err, "--mtu");
	assert_usage(PARSE(&o, &err, "netbench", "--mtu=65536"), &err, "--mtu");
	assert_usage(PARSE(&o, &err, "netbench", "--repeat=0"), &err, "--repeat");
	assert_usage(PARSE(&o, &err, "netbench", "--net=veth"), &err, "--net");
	assert_usage(PARSE(&o, &err, "netbench", "--ns=user"), &err, "--ns");
	assert_usage(PARSE(&o, &err, "netbench", "--", "true"), &err, "netbench");
	assert_int_equal(PARSE(&o, &err, "netbench", "--streams=64", "--busy-poll", "--udp",
			       "--cpu-pin", "--paths=all"), 0);
	assert_int_equal(o.netbench.streams, 64);
	assert_true(o.netbench.busy_poll && o.netbench.udp && o.netbench.cpu_pin);
	assert_int_equal(o.netbench.paths, ST_NB_ALL_PATHS);
	assert_usage(PARSE(&o, &err, "netbench", "--streams=65"), &err, "--streams");
	assert_usage(PARSE(&o, &err, "netbench", "--streams=0"), &err, "--streams");
	assert_usage(PARSE(&o, &err, "netbench", "--cpu-pin", "--cpu=0"), &err, "--cpu-pin");
	assert_usage(PARSE(&o, &err, "netbench", "--busy-poll", "--no-rr"), &err, "--busy-poll");
	assert_usage(PARSE(&o, &err, "--udp", "--", "true"), &err, "netbench only");
	assert_usage(PARSE(&o, &err, "layers", "--streams=2"), &err, "netbench only");
	/* netbench's options and format are its own. */
	assert_usage(PARSE(&o, &err, "layers", "--duration=1"), &err, "netbench");
	/* layers has a Prometheus text of its own (issue 16.6). */
	assert_int_equal(PARSE(&o, &err, "layers", "--format=prometheus"), 0);
	assert_usage(PARSE(&o, &err, "bench", "syscall", "--format=prometheus"), &err, "prometheus");
	assert_usage(PARSE(&o, &err, "--rr", "--", "true"), &err, "netbench");
}

static void test_repeated_parsing(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* getopt keeps global state: every parse must start afresh. */
	for (int i = 0; i < 3; i++) {
		assert_usage(PARSE(&o, &err, "--repeat=x", "--", "true"), &err, "--repeat");
		assert_int_equal(PARSE(&o, &err, "layers", "--warmup=1"), 0);
		assert_int_equal(o.command, ST_CMD_LAYERS);
		assert_int_equal(o.run.measure.warmup, 1);
		assert_int_equal(PARSE(&o, &err, "--repeat=4", "--", "true"), 0);
		assert_int_equal(o.command, ST_CMD_RUN);
		assert_int_equal(o.run.measure.repeat, 4);
		assert_int_equal(o.run.measure.warmup, 3);
		assert_usage(PARSE(&o, &err, "--missing"), &err, "--missing");
		assert_int_equal(PARSE(&o, &err, "-o", "x", "--", "true"), 0);
		assert_string_equal(o.out.path, "x");
	}
}

static void test_reparse_after_early_return_in_cluster(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/*
	 * -V returns at once, in the middle of the cluster "-Vq". getopt still
	 * points into the old argv at "q": the next parse must not see it.
	 */
	assert_int_equal(PARSE(&o, &err, "-Vq"), 0);
	assert_int_equal(o.command, ST_CMD_VERSION);
	assert_int_equal(PARSE(&o, &err, "--", "true"), 0);
	assert_int_equal(o.out.quiet, 0);
	assert_int_equal(o.command, ST_CMD_RUN);
}

static void test_reparse_after_error_in_cluster(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* Same after an unknown option in the middle of a cluster: "-zJ". */
	assert_usage(PARSE(&o, &err, "-zJ", "--", "true"), &err, "-z");
	assert_int_equal(PARSE(&o, &err, "--", "true"), 0);
	assert_int_equal(o.out.format, ST_FORMAT_TABLE);
}

/*
 * Every default, parsed as if the user gave it, stores what st_cli_defaults()
 * stored (but for the marks that it was given): the rows' texts are valid,
 * in range, and mean what --help prints.
 */
static void test_defaults_parse_back(void **state)
{
	struct st_opts def, o;
	struct st_error err = { 0 };
	size_t checked = 0;

	st_cli_defaults(&def);
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		for (size_t j = 0; j < ST_CLI_MAX_PLACES; j++) {
			const struct st_cli_place *p = &r->places[j];
			const char *text = st_cli_default_text(r, j);
			unsigned int served = p->commands ? p->commands : r->commands;

			if (!text || !(p->at || p->parse))
				continue;
			memcpy(&o, &def, sizeof(o));
			o.command = (enum st_command)__builtin_ctz(served);
			assert_ptr_equal(st_cli_place_of(r, o.command), p);
			if (st_cli_store(&o, r, text, &err) < 0) {
				print_error("# --%s=%s: %s\n", r->name, text, err.msg);
				fail();
			}
			o.command = def.command;
			if (p->given_at)
				memcpy((char *)&o + p->given_at, (char *)&def + p->given_at, sizeof(int));
			if (p->text_at)
				memcpy((char *)&o + p->text_at, (char *)&def + p->text_at, sizeof(const char *));
			if (memcmp(&o, &def, sizeof(o)) != 0) {
				print_error("# --%s=%s stores another value than its default\n", r->name, text);
				fail();
			}
			checked++;
		}
	}
	/* --ns, --net, --repeat, ...: a table without defaults would pass vacuously. */
	assert_true(checked >= 20);
}

/* The help of command @c, every bench's options included. */
static char *help_of(enum st_command c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct st_opts o;

	assert_non_null(f);
	st_cli_defaults(&o);
	o.help_for = c;
	st_cli_help(f, &o);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* The value stored at place @p of @o, as --help would print it. */
static double stored(const struct st_opts *o, const struct st_cli_option *r,
		     const struct st_cli_place *p)
{
	const char *at = (const char *)o + p->at;

	if (r->kind == ST_OPT_U64)
		return (double)*(const uint64_t *)(const void *)at;
	if (r->kind == ST_OPT_DURATION || r->kind == ST_OPT_DOUBLE)
		return *(const double *)(const void *)at;
	return *(const unsigned int *)(const void *)at;
}

/*
 * --help prints each numeric default from its row, and that number is the
 * one stored: "--repeat=N ... (default: 20;" against o.run.measure.repeat.
 */
static void test_help_prints_defaults(void **state)
{
	struct st_opts def;
	size_t checked = 0;

	st_cli_defaults(&def);
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];
		const struct st_cli_place *p = &r->places[0];
		unsigned int served = p->commands ? p->commands : r->commands;
		char head[64], *text, *entry, *next, *d;

		/* Each placeholder names a default that exists ("?" otherwise). */
		for (const char *b = strchr(r->help, '{'); b; b = strchr(b + 1, '{'))
			assert_non_null(st_cli_default_text(r, b[1] == '}' ? 0 : (size_t)(b[1] - '0')));
		if (!strstr(r->help, "(default: {}") && !strstr(r->help, "(default: {0}"))
			continue;
		/* The numbers; the words are test_help_names_literal_defaults'. */
		if (r->kind != ST_OPT_UINT && r->kind != ST_OPT_U64 && r->kind != ST_OPT_DURATION)
			continue;
		text = help_of((enum st_command)__builtin_ctz(served));
		snprintf(head, sizeof(head), "--%s=", r->name);
		entry = strstr(text, head);
		if (!entry) {
			print_error("# --%s: not in the help of its command\n", r->name);
			fail();
		}
		next = strstr(entry, "\n     --");
		d = strstr(entry, "(default: ");
		assert_true(d && (!next || d < next));
		if (strtod(d + strlen("(default: "), NULL) != stored(&def, r, p)) {
			print_error("# --%s: help says '%.20s', %g is stored\n", r->name, d, stored(&def, r, p));
			fail();
		}
		assert_null(strchr(text, '{'));
		free(text);
		checked++;
	}
	assert_true(checked >= 10);
	/* A place's own default: netbench runs 3 times per path. */
	char *nb = help_of(ST_CMD_NETBENCH);

	assert_non_null(strstr(nb, "runs per path, 3;"));
	assert_non_null(strstr(nb, "most 3600 (default: 3); bench churn"));
	assert_int_equal(def.netbench.repeat, 3);
	free(nb);
}

/* A default whose help words it without a placeholder still names it: no drift unseen. */
static void test_help_names_literal_defaults(void **state)
{
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		if (!r->def || strchr(r->help, '{'))
			continue;
		if (!strstr(r->help, r->def)) {
			print_error("# --%s: its help does not name its default '%s'\n", r->name, r->def);
			fail();
		}
	}
}

/* One kind, one wording: the errors of each kind's parser, exactly. */
static void test_kind_errors(void **state)
{
	static const struct {
		const char *argv[4];
		const char *msg;
	} cases[] = {
		/* unsigned: garbage, bounds, overflow */
		{ { "--warmup=0x", "--", "true" }, "--warmup: '0x' is not a number" },
		{ { "--warmup=100001", "--", "true" }, "--warmup: 100001 is out of range (0 to 100000)" },
		{ { "bench", "launch", "--launches=9" }, "--launches: 9 is out of range (10 to 100000)" },
		{ { "--seed=18446744073709551616", "--", "true" },
		  "--seed: '18446744073709551616' is too large (at most 18446744073709551615)" },
		{ { "netbench", "--size=0" }, "--size: 0 is out of range (1 to 67108864)" },
		/* double and duration */
		{ { "compare", "--fail-if-slower=1001", "a" },
		  "--fail-if-slower: '1001' is not a percentage from 0 to 1000" },
		{ { "netbench", "--duration=0" },
		  "--duration: 0 is out of range (more than 0, at most 3600 seconds)" },
		{ { "netbench", "--duration=nan" }, "--duration: 'nan' is not a number of seconds" },
		{ { "orphans", "--watch", "--interval=0.05" },
		  "--interval: 0.05 is out of range (0.1 to 86400 seconds)" },
		{ { "orphans", "--watch", "--interval=+1" }, "--interval: '+1' is not a number of seconds" },
		/* string */
		{ { "-o", "", "--" }, "--output: empty file name" },
		{ { "bench", "where", "--kernel=" }, "--kernel: empty path" },
		{ { "--seccomp=", "--", "true" }, "--seccomp: empty (default, none, or a profile file)" },
		{ { "bench", "where", "--vm-accel=xen" }, "--vm-accel: 'xen' is neither kvm nor tcg" },
		/* choice */
		{ { "--color=blue", "--", "true" }, "--color: unknown mode 'blue' (known: auto, always, never)" },
		{ { "--no-new-privileges=maybe", "--", "true" },
		  "--no-new-privileges: 'maybe' is neither true nor false" },
		/* list */
		{ { "bench", "churn", "--parallel=2,,4" },
		  "--parallel: '2,,4': an empty creator count (a comma list: 1,2,4,8)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *argv[6] = { "sandboxtime" };
		struct st_error err = { 0 };
		struct st_opts o;
		int argc = 1;

		for (size_t j = 0; j < 4 && cases[i].argv[j]; j++)
			argv[argc++] = (char *)cases[i].argv[j];
		if (st_cli_parse(argc, argv, &o, &err) != -EINVAL || !err.usage ||
		    strcmp(err.msg, cases[i].msg) != 0) {
			print_error("# %s: '%s', expected '%s'\n", cases[i].argv[0], err.msg, cases[i].msg);
			fail();
		}
	}
}

/* Each kind stores into the place of the command given: flags, choices, per-command places. */
static void test_kind_places(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	/* A flag that clears; a choice with its own values; an implied value. */
	assert_int_equal(PARSE(&o, &err, "netbench", "--no-rr"), 0);
	assert_int_equal(o.netbench.rr, 0);
	assert_int_equal(PARSE(&o, &err, "--no-new-privileges=false", "--", "true"), 0);
	assert_true(o.run.no_new_privs == 0 && (o.run.given & ST_GIVEN_NNP));
	assert_int_equal(PARSE(&o, &err, "--no-new-privileges", "--", "true"), 0);
	assert_int_equal(o.run.no_new_privs, 1);
	assert_int_equal(PARSE(&o, &err, "--color=never", "--seccomp=none", "--", "true"), 0);
	assert_true(o.out.color == ST_COLOR_NEVER && (o.run.given & ST_GIVEN_SECCOMP));
	assert_int_equal(PARSE(&o, &err, "--", "true"), 0);
	assert_true(o.run.no_new_privs == 1 && o.run.given == 0 && o.out.color == ST_COLOR_AUTO);
	assert_string_equal(o.run.seccomp, "default");
	/* One option, a place per command: --mtu, --seed, --dry-run, --repeat. */
	assert_int_equal(PARSE(&o, &err, "netbench", "--mtu=9000", "--seed=7", "--repeat=2"), 0);
	assert_true(o.netbench.mtu == 9000 && o.run.net.mtu == 0);
	assert_true(o.netbench.seed.given && o.netbench.seed.value == 7 && !o.run.measure.seed.given);
	assert_true(o.netbench.repeat == 2 && o.netbench.repeat_given && o.run.measure.repeat == 20);
	assert_int_equal(PARSE(&o, &err, "compare", "--seed=9", "a", "b"), 0);
	assert_true(o.compare.seed.given && o.compare.seed.value == 9 && !o.netbench.seed.given);
	assert_int_equal(PARSE(&o, &err, "cleanup", "--dry-run"), 0);
	assert_true(o.cleanup.dry_run && !o.orphans.dry_run);
	assert_int_equal(PARSE(&o, &err, "bench", "syscall", "--repeat=4"), 0);
	assert_true(o.bench.measure.repeat == 4 && o.bench.repeat_given && o.run.measure.repeat == 20);
	/* bench measures with the run's warmup, which it cannot be given. */
	assert_int_equal(o.bench.measure.warmup, 3);
	/* The bench's --ns keeps its text for the sandbox place; defaults keep none. */
	assert_int_equal(PARSE(&o, &err, "bench", "where", "--ns=user"), 0);
	assert_string_equal(o.bench.ns_text, "user");
	assert_int_equal(PARSE(&o, &err, "bench", "where"), 0);
	assert_null(o.bench.ns_text);
	assert_int_equal(o.bench.measure.ns_mask, ST_LAYERS_ALL);
	/* --interval's default is stored, yet given it still needs --watch, even at that default. */
	assert_int_equal(PARSE(&o, &err, "orphans", "--watch"), 0);
	assert_true(o.orphans.interval_s == 60.0 && !o.orphans.interval_given);
	assert_int_equal(PARSE(&o, &err, "layers", "--watch", "--textfile=x.prom"), 0);
	assert_true(o.run.interval_s == 3600.0);
	assert_usage(PARSE(&o, &err, "orphans", "--interval=60"), &err, "--interval needs --watch");
	assert_usage(PARSE(&o, &err, "layers", "--interval=3600"), &err, "--interval needs --watch");
}

/* Every command of row @r has a place to keep its value, and each place what its kind needs. */
static void check_row_places(const struct st_cli_option *r)
{
	for (int c = ST_CMD_RUN; c <= ST_CMD_COMPARE; c++) {
		const struct st_cli_place *p = st_cli_place_of(r, (enum st_command)c);

		if (!(r->commands & ST_CMD_BIT(c)))
			continue;
		if (!p) {
			print_error("# --%s: %s keeps it nowhere\n", r->name, st_cli_command_name(c));
			fail();
		}
		assert_true(r->kind == ST_OPT_CUSTOM ? p->parse != NULL : p->at != 0 && !p->parse);
		assert_int_equal(p->commands & ~r->commands, 0);
		if (r->kind == ST_OPT_LIST)
			assert_true(r->list && p->count_at);
		if (r->kind == ST_OPT_CHOICE)
			assert_true(r->choices && r->choices[0] && r->noun);
		if (r->kind == ST_OPT_UINT || r->kind == ST_OPT_U64)
			assert_true(r->min <= r->max && (r->kind == ST_OPT_U64 || r->max <= UINT_MAX));
		if (r->kind == ST_OPT_DOUBLE || r->kind == ST_OPT_DURATION)
			assert_true(r->dmin < r->dmax);
	}
	/* A value given without "=VALUE" needs a text to parse instead. */
	if (r->has_arg == optional_argument && r->kind != ST_OPT_CUSTOM)
		assert_non_null(r->implied);
}

/* Every row of the option table is complete: a name, help text, a place per command. */
static void test_table_rows(void **state)
{
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		assert_non_null(r->name);
		assert_true(r->name[0] != '\0' && r->name[0] != '-');
		assert_non_null(r->help);
		assert_true(r->help[0] != '\0');
		check_row_places(r);
		assert_true((r->commands & ST_CMDS_ALL) != 0);
		assert_int_equal(r->commands & ~ST_CMDS_ALL, 0);
		/* --help shows a placeholder exactly when the option takes a value. */
		assert_int_equal(r->arg_name != NULL, r->has_arg != no_argument);
		assert_int_equal(r->alt_arg != NULL, r->alt_help != NULL);
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(st_cli_options[j].name, r->name);
			if (r->short_name)
				assert_int_not_equal(st_cli_options[j].short_name, r->short_name);
		}
	}
}

/* Whether row @r is in the help of command @c (and of benches @benches): its command bit, and its bench bits. */
static int row_listed(const struct st_cli_option *r, enum st_command c, unsigned benches)
{
	if (!(r->commands & ST_CMD_BIT(c)))
		return 0;
	return c != ST_CMD_BENCH || !r->benches || (r->benches & benches);
}

/*
 * The help of @c (bench @k, or with @k = ST_BENCH_NAME_KINDS `bench --help`, every
 * bench's; ST_CMD_RUN: `sandboxtime --help`) is the table: the head and first help
 * line of each row of that command, in the table's order, and no other option line.
 */
static void check_help_from_table(enum st_command c, size_t k)
{
	unsigned benches = k < ST_BENCH_NAME_KINDS ? ST_BENCH_NAME_BIT(k) : ~0u;
	char *text = NULL, *at;
	size_t len = 0, entries = 0;
	FILE *f = open_memstream(&text, &len);
	struct st_opts o;

	assert_non_null(f);
	st_cli_defaults(&o);
	o.help_for = c;
	if (k < ST_BENCH_NAME_KINDS) {
		o.bench.kind = (enum st_bench_kind)k;
		o.bench.name = st_benches[k].name;
	}
	st_cli_help(f, &o);
	assert_int_equal(fclose(f), 0);
	at = text;
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];
		char head[96], first[96];

		if (!row_listed(r, c, benches))
			continue;
		snprintf(head, sizeof(head), "%s--%s", r->short_name ? ", " : "     ", r->name);
		/* Up to a default's placeholder: test_help_prints_defaults checks what it becomes. */
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(r->help, "\n{"), r->help);
		at = strstr(at, head);
		if (!at || !strstr(at, first)) {
			print_error("# help of command %d lacks '%s' (or its text '%s') in table order\n", c, head,
				    first);
			fail();
		}
		entries += r->alt_arg ? 2 : 1;
	}
	/* And nothing else: one option line per entry. */
	for (at = text; (at = strstr(at, "\n ")); at++)
		if (strncmp(at + 1, "     --", 7) == 0 || (at[2] == '-' && at[4] == ','))
			entries--;
	assert_int_equal(entries, 0);
	free(text);
}

/*
 * `sandboxtime --help` lists a run's options; each command's help its own; each
 * bench's its own; `bench --help` (k = ST_BENCH_NAME_KINDS) those of every bench.
 */
static void test_usage_from_table(void **state)
{
	(void)state;
	for (enum st_command c = ST_CMD_RUN; c <= ST_CMD_COMPARE; c++)
		if (c != ST_CMD_BENCH)
			check_help_from_table(c, ST_BENCH_NAME_KINDS);
	for (size_t k = 0; k <= ST_BENCH_NAME_KINDS; k++)
		check_help_from_table(ST_CMD_BENCH, k);
}

/* An argv that gives row @r to command @c: "layers --repeat=x", "bench syscall --all". */
static int parse_one(const struct st_cli_option *r, enum st_command c, char *opt,
		     struct st_opts *o, struct st_error *err)
{
	static char *const words[] = { [ST_CMD_LAYERS] = "layers", [ST_CMD_CLEANUP] = "cleanup",
				       [ST_CMD_ORPHANS] = "orphans", [ST_CMD_NETBENCH] = "netbench",
				       [ST_CMD_BENCH] = "bench" };
	char *argv[6] = { "sandboxtime" };
	int argc = 1;

	if (c != ST_CMD_RUN)
		argv[argc++] = words[c];
	if (c == ST_CMD_BENCH)
		argv[argc++] = "syscall";
	argv[argc++] = opt;
	if (c == ST_CMD_RUN) {
		argv[argc++] = "--";
		argv[argc++] = "true";
	}
	argv[argc] = NULL;
	memset(err, 0, sizeof(*err));
	return st_cli_parse(argc, argv, o, err);
}

/*
 * An option given to a command whose row does not name it is a usage error
 * (exit status 125) that names the option and says where it applies.
 */
static void test_refused_by_other_commands(void **state)
{
	size_t refused = 0;

	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];
		char opt[64], name[64];

		snprintf(name, sizeof(name), "--%s", r->name);
		snprintf(opt, sizeof(opt), "%s%s", name, r->has_arg == required_argument ? "=1" : "");
		for (enum st_command c = ST_CMD_RUN; c <= ST_CMD_BENCH; c++) {
			struct st_opts o;
			struct st_error err;
			int ret;

			if (r->commands & ST_CMD_BIT(c))
				continue;
			ret = parse_one(r, c, opt, &o, &err);
			if (ret != -EINVAL || !err.usage || !strstr(err.msg, name) ||
			    (!strstr(err.msg, " applies to ") && !strstr(err.msg, " does not apply "))) {
				print_error("# %s to %s: ret %d, usage %d, msg '%s'\n", opt,
					    st_cli_command_name(c), ret, err.usage, err.msg);
				fail();
			}
			refused++;
		}
	}
	assert_true(refused > 0);
	assert_int_equal(ST_EXIT_FAILURE, 125);
}

/* The refusals' wording, as before the table (docs/DESIGN.md's users script against it). */
static void test_refusal_messages(void **state)
{
	struct st_opts o;
	struct st_error err = { 0 };

	assert_usage(PARSE(&o, &err, "--all", "--", "true"), &err, "--all");
	assert_string_equal(err.msg, "--all applies to orphans only");
	assert_usage(PARSE(&o, &err, "layers", "--hostname=x"), &err, "--hostname");
	assert_string_equal(err.msg, "layers runs no command: --hostname applies to a run only");
	assert_usage(PARSE(&o, &err, "layers", "--no-init"), &err, "--no-init");
	assert_string_equal(err.msg, "layers runs no command: --no-init applies to a run only");
	assert_usage(PARSE(&o, &err, "netbench", "--ns=user"), &err, "--ns");
	assert_true(strncmp(err.msg, "netbench makes its own paths: --ns applies to ", 46) == 0);
	assert_usage(PARSE(&o, &err, "bench", "syscall", "--seccomp=none"), &err, "--seccomp");
	assert_true(strncmp(err.msg, "bench syscall builds its own sandboxes: ", 40) == 0);
	assert_usage(PARSE(&o, &err, "orphans", "--repeat=3"), &err, "--repeat=3");
	assert_string_equal(err.msg, "orphans: option '--repeat=3' does not apply (orphans takes --format, -J, -o, --color, -q, --dry-run, --all, --watch, --interval, --textfile, --cleanup, --min-age, --cleanup-path)");
	/* The value after a separate word is not the option's name. */
	assert_usage(PARSE(&o, &err, "orphans", "--ns", "net"), &err, "'--ns'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_deferred_repeat_default),
		cmocka_unit_test(test_equals_and_separate_value),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_json_short),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_layers_command),
		cmocka_unit_test(test_compare_command),
		cmocka_unit_test(test_repeat_zero),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_bad_number_messages),
		cmocka_unit_test(test_unknown_option),
		cmocka_unit_test(test_missing_value),
		cmocka_unit_test(test_missing_dashdash),
		cmocka_unit_test(test_missing_cmd),
		cmocka_unit_test(test_option_value_is_not_dashdash),
		cmocka_unit_test(test_cmd_keeps_its_options),
		cmocka_unit_test(test_net_host),
		cmocka_unit_test(test_net_host_conflicts),
		cmocka_unit_test(test_net_modes),
		cmocka_unit_test(test_ipv6_options),
		cmocka_unit_test(test_ns_option),
		cmocka_unit_test(test_format_and_hostname),
		cmocka_unit_test(test_unknown_subcommand),
		cmocka_unit_test(test_bench_fork_sizes),
		cmocka_unit_test(test_bench_files_all),
		cmocka_unit_test(test_bench_churn_options),
		cmocka_unit_test(test_bench_churn_net),
		cmocka_unit_test(test_bench_where_options),
		cmocka_unit_test(test_bench_mounts_options),
		cmocka_unit_test(test_bench_cgroup_options),
		cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_netbench),
		cmocka_unit_test(test_repeated_parsing),
		cmocka_unit_test(test_reparse_after_early_return_in_cluster),
		cmocka_unit_test(test_reparse_after_error_in_cluster),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_defaults_parse_back),
		cmocka_unit_test(test_help_prints_defaults),
		cmocka_unit_test(test_help_names_literal_defaults),
		cmocka_unit_test(test_kind_errors),
		cmocka_unit_test(test_kind_places),
		cmocka_unit_test(test_usage_from_table),
		cmocka_unit_test(test_refused_by_other_commands),
		cmocka_unit_test(test_refusal_messages),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
