// SPDX-License-Identifier: MIT
/*
 * The command line: the command word, getopt_long over the option table
 * (cli_options.c), an option refused by a command that does not take it,
 * then each command's checks and defaults. Pure: nothing is opened or
 * printed, so that it can be unit-tested and fuzzed.
 */
#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "sandboxtime/bench_registry.h"
#include "sandboxtime/cli.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/layer.h"

/* getopt_long's value for the long-only row @i: above every short letter. */
#define LONG_ONLY(i) (CHAR_MAX + 1 + (int)(i))
#define HELP_COLUMN 24

/*
 * How each command is named in messages, and why it refuses a run's options:
 * "layers runs no command: --hostname applies to a run only". orphans
 * answers with the list of what it takes instead.
 */
static const struct {
	const char *name;
	const char *refuses_run_option; /* why, after the command's words */
	int lists_its_options;
} commands[] = {
	[ST_CMD_RUN] = { "a run", NULL, 0 },
	[ST_CMD_LAYERS] = { "layers", " runs no command: ", 0 },
	[ST_CMD_CLEANUP] = { "cleanup", NULL, 0 },
	[ST_CMD_ORPHANS] = { "orphans", NULL, 1 },
	[ST_CMD_NETBENCH] = { "netbench", " makes its own paths: ", 0 },
	[ST_CMD_BENCH] = { "bench", " builds its own sandboxes: ", 0 },
	[ST_CMD_COMPARE] = { "compare", " reads reports, it measures nothing: ", 0 },
};

const char *st_cli_command_name(enum st_command c)
{
	return (size_t)c < ARRAY_SIZE(commands) ? commands[c].name : "?";
}

/* --help's usage lines, one per command; bench's come from st_benches[]. */
static const struct {
	enum st_command command;
	const char *line;
} usage_lines[] = {
	{ ST_CMD_RUN, " sandboxtime [OPTIONS] -- CMD [ARG...]   build the sandbox layer by layer, time it, run CMD in it\n" },
	{ ST_CMD_LAYERS, " sandboxtime layers [OPTIONS]            only measure the layers (no workload)\n" },
	{ ST_CMD_CLEANUP, " sandboxtime cleanup [--dry-run]         delete the links and cgroups a killed sandboxtime left\n" },
	{ ST_CMD_ORPHANS, " sandboxtime orphans [OPTIONS]           find network namespaces no process lives in any more\n" },
	{ ST_CMD_NETBENCH, " sandboxtime netbench [OPTIONS]          TCP throughput and latency: loopback vs veth vs bridge\n" },
	{ ST_CMD_BENCH, NULL },
	{ ST_CMD_COMPARE, " sandboxtime compare A.json B.json...    B over A for every figure, with bootstrap intervals\n" },
};

/* The man page that tells more about each command: one page per family. */
static const char *const man_pages[] = {
	[ST_CMD_RUN] = "sandboxtime(1)",
	[ST_CMD_LAYERS] = "sandboxtime(1)",
	[ST_CMD_CLEANUP] = "sandboxtime(1)",
	[ST_CMD_ORPHANS] = "sandboxtime-orphans(1)",
	[ST_CMD_NETBENCH] = "sandboxtime-netbench(1)",
	[ST_CMD_BENCH] = "sandboxtime-bench(1)",
	[ST_CMD_COMPARE] = "sandboxtime-compare(1)",
};

static void bench_line(FILE *out, enum st_bench_kind k)
{
	char head[64];

	snprintf(head, sizeof(head), " sandboxtime bench %s [OPTIONS]", st_benches[k].name);
	fprintf(out, "%-41s%s\n", head, st_benches[k].usage);
}

static void usage_line(FILE *out, size_t i)
{
	if (usage_lines[i].line) {
		fputs(usage_lines[i].line, out);
		return;
	}
	for (size_t k = 0; k < ST_BENCH_NAME_KINDS; k++)
		bench_line(out, (enum st_bench_kind)k);
}

static const char usage_about[] =
	" sandboxtime [--root DIR] create|start|state|kill|delete|run|exec|ps|features ...\n"
	"                                         runc's command line: an OCI runtime for podman,\n"
	"                                         containerd, Kubernetes (sandboxtime-runtime(1))\n"
	" sandboxtime report FILE...              per-step medians of the containers it ran\n"
	" sandboxtime --help | --version\n"
	"\n"
	"Measure what each layer of isolation costs: setup, ready, teardown and the\n"
	"teardown the kernel finishes later, per namespace, then run CMD inside.\n"
	"\n"
	"Options of a run ('sandboxtime CMD --help' lists those of CMD):\n";

static const char usage_tail[] =
	"\n"
	"Exit status: CMD's own; 128+N if it was killed by signal N; 125 if sandboxtime\n"
	"failed; 126 if CMD could not be executed; 127 if CMD was not found.\n"
	"orphans: 0 if no orphan was found, 1 if one was, 125 if the scan failed;\n"
	"with --cleanup: 0 if no orphan is left, 1 if one is (skipped, failed, --dry-run).\n"
	"compare: 0, or 1 with --fail-if-slower when a figure is slower by more than PCT;\n"
	"125 if a file cannot be read or is not a sandboxtime report.\n"
	"\n"
	"For more details see sandboxtime(1); each command family has its page:\n"
	"sandboxtime-bench(1), sandboxtime-netbench(1), sandboxtime-orphans(1),\n"
	"sandboxtime-compare(1), sandboxtime-runtime(1); the method: sandboxtime-method(7).\n";

/* " -o, --output=FILE", "     --no-new-privileges[=true|false]": --help's left column. */
static int option_head(const struct st_cli_option *r, const char *arg_name, char *buf, size_t len)
{
	int n;

	if (r->short_name)
		n = snprintf(buf, len, " -%c, --%s", r->short_name, r->name);
	else
		n = snprintf(buf, len, "     --%s", r->name);
	if (arg_name && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      r->has_arg == optional_argument ? "[=%s]" : "=%s", arg_name);
	return n;
}

/*
 * @help with the defaults of row @r in place of "{}" (the row's) and "{N}"
 * (place N's): a default is written once, in the row that stores it.
 */
static void expand_defaults(const struct st_cli_option *r, const char *help, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = help; *p && n + 1 < len; p++) {
		const char *def;
		size_t i = 0;

		if (p[0] != '{' || !(p[1] == '}' || (p[1] >= '0' && p[1] <= '9' && p[2] == '}'))) {
			buf[n++] = *p;
			continue;
		}
		if (p[1] != '}')
			i = (size_t)(*++p - '0');
		p++;
		def = st_cli_default_text(r, i);
		n += (size_t)snprintf(buf + n, len - n, "%s", def ? def : "?");
	}
	buf[n < len ? n : len - 1] = '\0';
}

/*
 * One entry: the text starts in column 24 (after two blanks when the head
 * is wider, or on the next line), continuation lines in column 26.
 */
static void print_entry(FILE *out, const struct st_cli_option *r, const char *arg_name,
			const char *help)
{
	char head[96], text[640];
	int n = option_head(r, arg_name, head, sizeof(head));
	const char *line = text, *nl;

	expand_defaults(r, help, text, sizeof(text));

	if (r->flags & ST_OPT_HELP_BREAK)
		fprintf(out, "%s\n%*s", head, HELP_COLUMN, "");
	else if (n < HELP_COLUMN)
		fprintf(out, "%-*s", HELP_COLUMN, head);
	else
		fprintf(out, "%s  ", head);
	while ((nl = strchr(line, '\n'))) {
		fprintf(out, "%.*s\n%*s", (int)(nl - line), line, HELP_COLUMN + 2, "");
		line = nl + 1;
	}
	fprintf(out, "%s\n", line);
}

/* Whether option @r is listed in the help of @c (and of the benches @benches). */
static int listed(const struct st_cli_option *r, enum st_command c, unsigned benches)
{
	if (!(r->commands & ST_CMD_BIT(c)))
		return 0;
	return c != ST_CMD_BENCH || !r->benches || (r->benches & benches);
}

static void options_of(FILE *out, enum st_command c, unsigned benches)
{
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		if (!listed(r, c, benches))
			continue;
		print_entry(out, r, r->arg_name, r->help);
		if (r->alt_arg)
			print_entry(out, r, r->alt_arg, r->alt_help);
	}
}

void st_cli_usage(FILE *out)
{
	fputs("Usage:\n", out);
	for (size_t i = 0; i < ARRAY_SIZE(usage_lines); i++)
		usage_line(out, i);
	fputs(usage_about, out);
	options_of(out, ST_CMD_RUN, 0);
	fputs(usage_tail, out);
}

void st_cli_help(FILE *out, const struct st_opts *o)
{
	enum st_command c = o->help_for;
	enum st_bench_kind k = o->bench.kind;

	/* `sandboxtime --help` (or after run's options): the whole overview. */
	if (c == ST_CMD_RUN || (size_t)c >= ARRAY_SIZE(man_pages)) {
		st_cli_usage(out);
		return;
	}
	/* `bench NAME --help`: that bench's options; `bench --help`: every bench's. */
	unsigned benches = c != ST_CMD_BENCH ? 0 : o->bench.name ? ST_BENCH_NAME_BIT(k) : ~0u;

	fputs("Usage:\n", out);
	for (size_t i = 0; i < ARRAY_SIZE(usage_lines); i++) {
		if (usage_lines[i].command != c)
			continue;
		if (c == ST_CMD_BENCH && o->bench.name)
			bench_line(out, k);
		else
			usage_line(out, i);
	}
	if (c == ST_CMD_BENCH && o->bench.name)
		fprintf(out, "\nWithout --repeat: %u rounds.\n", st_bench_repeat(&o->bench, k));
	fputs("\nOptions:\n", out);
	options_of(out, c, benches);
	fprintf(out, "\nFor more details see %s.\n", man_pages[c]);
}

/* getopt_long's tables, from the option table (built on every parse: it is cheap). */
static void getopt_tables(struct option *longopts, char *shortopts, size_t len)
{
	size_t n = 0;

	n += (size_t)snprintf(shortopts, len, "+:");
	for (size_t i = 0; i < st_cli_noptions; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		longopts[i] = (struct option){ r->name, r->has_arg, NULL,
					       r->short_name ? r->short_name : LONG_ONLY(i) };
		if (r->short_name && n + 4 < len)
			n += (size_t)snprintf(shortopts + n, len - n, "%c%s", r->short_name,
					      r->has_arg == required_argument   ? ":"
					      : r->has_arg == optional_argument ? "::"
										: "");
	}
	longopts[st_cli_noptions] = (struct option){ NULL, 0, NULL, 0 };
}

/* The row getopt_long's return value @c stands for, or NULL. */
static const struct st_cli_option *option_row(int c)
{
	if (c > CHAR_MAX && (size_t)(c - LONG_ONLY(0)) < st_cli_noptions)
		return &st_cli_options[c - LONG_ONLY(0)];
	for (size_t i = 0; i < st_cli_noptions; i++)
		if (st_cli_options[i].short_name == c)
			return &st_cli_options[i];
	return NULL;
}

/* "a run, layers and bench": the commands of @mask, as a message names them. */
static void command_list(unsigned int mask, char *buf, size_t len)
{
	size_t n = 0, left = (size_t)__builtin_popcount(mask & ST_CMDS_ALL);

	buf[0] = '\0';
	for (int c = ST_CMD_RUN; c <= ST_CMD_BENCH && n < len; c++) {
		if (!(mask & ST_CMD_BIT(c)))
			continue;
		left--;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", commands[c].name,
				      left > 1 ? ", " : left == 1 ? " and " : "");
	}
}

/* "--format, -J, -o, ...": what command @c takes, for its message. */
static void option_list(enum st_command c, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < st_cli_noptions && n < len; i++) {
		const struct st_cli_option *r = &st_cli_options[i];

		if (!(r->commands & ST_CMD_BIT(c)) || (r->flags & ST_OPT_ANSWER))
			continue;
		if (r->short_name)
			n += (size_t)snprintf(buf + n, len - n, "%s-%c", n ? ", " : "", r->short_name);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s--%s", n ? ", " : "", r->name);
	}
}

/* Option @r given to a command that does not take it; @typed is the word as given. */
static int refuse(const struct st_opts *o, const struct st_cli_option *r, const char *typed,
		  struct st_error *err)
{
	const char *why = commands[o->command].refuses_run_option;
	char list[512], prefix[128] = "";

	if (commands[o->command].lists_its_options) {
		option_list(o->command, list, sizeof(list));
		return st_error_usage(err, "%s: option '%s' does not apply (%s takes %s)",
				      commands[o->command].name, typed, commands[o->command].name, list);
	}
	/* A run's option elsewhere: say why this command has no use for it. */
	if (why && (r->commands & ST_CMD_BIT(ST_CMD_RUN))) {
		if (o->command == ST_CMD_BENCH)
			snprintf(prefix, sizeof(prefix), "bench %s%s", o->bench.name, why);
		else
			snprintf(prefix, sizeof(prefix), "%s%s", commands[o->command].name, why);
	}
	command_list(r->commands, list, sizeof(list));
	return st_error_usage(err, "%s--%s applies to %s only", prefix, r->name, list);
}

/* A bench option given to another bench: "--sizes applies to bench fork only". */
static int refuse_bench(const struct st_cli_option *r, struct st_error *err)
{
	size_t n = 0, left = (size_t)__builtin_popcount(r->benches);
	char list[128];

	list[0] = '\0';
	for (int k = 0; k < ST_BENCH_NAME_KINDS && n < sizeof(list); k++) {
		if (!(r->benches & ST_BENCH_NAME_BIT(k)))
			continue;
		left--;
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", st_benches[k].name,
				      left > 1 ? ", " : left == 1 ? " and " : "");
	}
	return st_error_usage(err, "--%s applies to bench %s only", r->name, list);
}

/* "syscall, cpu, ..., all": every bench name, for the usage errors. */
static const char *known_benches(void)
{
	static char list[160];
	size_t n = 0;

	for (size_t i = 0; i < ST_BENCH_NAME_KINDS && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", st_benches[i].name);
	return list;
}

/* The first word, when it is not an option, names the subcommand. */
static int parse_command(int argc, char **argv, struct st_opts *o, int *first,
			 struct st_error *err)
{
	*first = 1;
	if (argc < 2 || argv[1][0] == '-')
		return 0;
	if (strcmp(argv[1], "orphans") == 0 || strcmp(argv[1], "netbench") == 0) {
		o->command = argv[1][0] == 'o' ? ST_CMD_ORPHANS : ST_CMD_NETBENCH;
		*first = 2;
		return 0;
	}
	if (strcmp(argv[1], "bench") == 0) {
		o->command = ST_CMD_BENCH;
		*first = 3;
		/* `bench --help`: the family's help, as `git remote -h` (st_cli_help). */
		if (argc >= 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
			*first = 2;
			return 0;
		}
		if (argc < 3 || argv[2][0] == '-')
			return st_error_usage(err, "bench: which benchmark? (known: %s)", known_benches());
		for (size_t i = 0; i < ST_BENCH_NAME_KINDS; i++)
			if (strcmp(argv[2], st_benches[i].name) == 0) {
				o->bench.name = st_benches[i].name;
				o->bench.kind = (enum st_bench_kind)i;
			}
		if (!o->bench.name)
			return st_error_usage(err, "bench: unknown benchmark '%s' (known: %s)", argv[2],
					      known_benches());
		return 0;
	}
	if (strcmp(argv[1], "compare") == 0) {
		o->command = ST_CMD_COMPARE;
		*first = 2;
		return 0;
	}
	if (strcmp(argv[1], "layers") == 0 || strcmp(argv[1], "cleanup") == 0) {
		o->command = argv[1][0] == 'l' ? ST_CMD_LAYERS : ST_CMD_CLEANUP;
		*first = 2;
		return 0;
	}
	return st_error_usage(err, "unknown command '%s' (to run it in a sandbox: sandboxtime [OPTIONS] -- %s)",
			      argv[1], argv[1]);
}

static int check_net_options(const struct st_run_opts *o, struct st_error *err)
{
	const struct st_net_opts *n = &o->net;
	int wired = st_net_wired(n->mode);

	if (wired && !(o->measure.ns_mask & ST_LAYER_BIT(ST_LAYER_NET)))
		return st_error_usage(err, "--net=%s needs the net layer: add net to --ns",
				      st_net_mode_names[n->mode]);
	if (n->addr && !wired)
		return st_error_usage(err, "--addr needs --net=veth or --net=bridge");
	if (n->mtu && !wired)
		return st_error_usage(err, "--mtu needs --net=veth or --net=bridge");
	if (n->bridge && n->mode != ST_NET_BRIDGE)
		return st_error_usage(err, "--bridge needs --net=bridge");
	if (o->net_steps_repeat && !wired)
		return st_error_usage(err, "--net-steps-repeat needs --net=veth or --net=bridge");
	if (n->ipv6 && !wired)
		return st_error_usage(err, "--%s needs --net=veth or --net=bridge",
				      n->addr6_given ? "addr6" : "ipv6");
	/* The kernel keeps IPv6 off a link under 1280 bytes (RFC 8200's minimum). */
	if (n->ipv6 && n->mtu && n->mtu < 1280)
		return st_error_usage(err, "--mtu=%u: IPv6 needs an MTU of 1280 or more (--ipv6, --addr6)", n->mtu);
	if (n->batch && !wired)
		return st_error_usage(err, "--net-batch needs --net=veth or --net=bridge");
	return 0;
}

static int no_prometheus(const struct st_opts *o, struct st_error *err)
{
	if (o->out.format == ST_FORMAT_PROMETHEUS)
		return st_error_usage(err, "--format=prometheus applies to orphans, netbench and layers only");
	return 0;
}

/* layers: no operand, something to measure, and no wiring (that is a run's). */
static int finish_layers(int argc, char **argv, int ind, const struct st_run_opts *r,
			 struct st_error *err)
{
	if (ind < argc)
		return st_error_usage(err, "layers: unexpected argument '%s' (layers runs no command)",
				      argv[ind]);
	if (r->measure.repeat == 0)
		return st_error_usage(err, "--repeat=0: layers would measure nothing (use N >= 1)");
	/* Measured sets are never wired: the wiring is a run's (host alone changes the sets). */
	if (r->net.mode != ST_NET_NONE && r->net.mode != ST_NET_HOST)
		return st_error_usage(err, "layers measures namespaces only: --net=%s applies to a run",
				      st_net_mode_names[r->net.mode]);
	return 0;
}

/* layers --watch/--textfile: as orphans has them; the textfile is Prometheus text. */
static int finish_layers_watch(struct st_opts *o, struct st_error *err)
{
	struct st_run_opts *r = &o->run;

	if (r->interval_given && !r->watch)
		return st_error_usage(err, "--interval needs --watch");
	if (o->out.path && (r->watch || r->textfile))
		return st_error_usage(err, "layers: -o writes one report: use --textfile=PATH with --watch");
	if (r->watch && !r->textfile)
		return st_error_usage(err, "layers --watch needs --textfile=PATH (each measurement replaces it)");
	if ((r->watch || r->textfile) && (o->out.svg || o->out.html))
		return st_error_usage(err, "layers --textfile: --svg and --html draw one report, not a watch");
	return 0;
}

/*
 * A run: "-- CMD [ARG...]" after the options. A "--" that getopt took as an
 * option's value ("-o --") is not the separator.
 */
static int finish_run_operands(int argc, char **argv, int ind, int value_index,
			       struct st_run_opts *r, struct st_error *err)
{
	int dashdash = ind > 1 && strcmp(argv[ind - 1], "--") == 0 && ind - 1 != value_index;

	/* With --config, CMD may come from its process.args. */
	if (ind >= argc && r->config && !dashdash)
		return 0;
	if (ind >= argc)
		return st_error_usage(err, dashdash ? "missing CMD after '--'"
						    : "missing '-- CMD' (sandboxtime [OPTIONS] -- CMD [ARG...])");
	if (!dashdash)
		return st_error_usage(err, "missing '--' before '%s'", argv[ind]);
	if (r->hostname && !(r->measure.ns_mask & ST_LAYER_BIT(ST_LAYER_UTS)))
		return st_error_usage(err, "--hostname needs the uts layer: add uts to --ns");
	r->argv = &argv[ind];
	return 0;
}

static int finish_run(int argc, char **argv, int ind, int value_index, struct st_opts *o,
		      struct st_error *err)
{
	struct st_run_opts *r = &o->run;
	struct st_measure_opts *m = &r->measure;
	int ret;

	if (m->deferred_repeat == UINT_MAX)
		m->deferred_repeat = m->repeat < 10 ? m->repeat : 10;
	/* host and join make no network namespace of their own. */
	if (r->net.mode == ST_NET_HOST || r->net.mode == ST_NET_JOIN) {
		if (m->ns_explicit & ST_LAYER_BIT(ST_LAYER_NET))
			return st_error_usage(err, "--net=%s conflicts with net in --ns (it makes no network namespace)",
					      st_net_mode_names[r->net.mode]);
		m->ns_mask &= ~ST_LAYER_BIT(ST_LAYER_NET);
	}
	ret = check_net_options(r, err);
	if (ret == 0 && o->command != ST_CMD_LAYERS)
		ret = no_prometheus(o, err);
	if (ret < 0)
		return ret;
	if (o->command == ST_CMD_LAYERS) {
		ret = finish_layers(argc, argv, ind, r, err);
		return ret < 0 ? ret : finish_layers_watch(o, err);
	}
	return finish_run_operands(argc, argv, ind, value_index, r, err);
}

static int finish_orphans(int argc, char **argv, int ind, struct st_opts *o, struct st_error *err)
{
	struct st_orphans_opts *a = &o->orphans;

	if (a->dry_run && !a->cleanup)
		return st_error_usage(err, "--dry-run applies to cleanup and orphans --cleanup only");
	if ((a->min_age_given || a->ncleanup_paths) && !a->cleanup)
		return st_error_usage(err, "--min-age and --cleanup-path need orphans --cleanup");
	if (ind < argc)
		return st_error_usage(err, "orphans: unexpected argument '%s'", argv[ind]);
	if (a->interval_given && !a->watch)
		return st_error_usage(err, "--interval needs --watch");
	if (o->out.path && (a->watch || a->textfile))
		return st_error_usage(err, "orphans: -o writes one report: use --textfile=PATH with --watch");
	if (a->cleanup && (a->watch || a->textfile))
		return st_error_usage(err, "orphans --cleanup acts once and reports on standard output or -o: not with --watch or --textfile");
	return 0;
}

/* netbench measures paths it makes itself (its defaults are the option rows'). */
static int finish_netbench(int argc, char **argv, int ind, struct st_opts *o, struct st_error *err)
{
	struct st_netbench_opts *n = &o->netbench;

	if (ind < argc)
		return st_error_usage(err, "netbench: unexpected argument '%s' (netbench runs no command)",
				      argv[ind]);
	if (n->repeat == 0)
		return st_error_usage(err, "--repeat=0: netbench would measure nothing (use N >= 1)");
	if (n->cpu_pin && o->out.cpu >= 0)
		return st_error_usage(err, "--cpu-pin puts server and client on two CPUs, --cpu=%d all on one: choose one",
				      o->out.cpu);
	if (n->busy_poll && n->rr == 0)
		return st_error_usage(err, "--busy-poll applies to the latency phase: drop --no-rr");
	if (n->rr < 0)
		n->rr = 1;
	return 0;
}

/* compare: two files or more, and a format that it writes. */
static int finish_compare(struct st_opts *o, struct st_error *err)
{
	if (o->compare.nfiles < 2)
		return st_error_usage(err, "compare: needs two reports or more (sandboxtime compare A.json B.json [C.json ...])");
	return no_prometheus(o, err);
}

/*
 * getopt stopped ('+': operands end the options, as a run's "-- CMD"
 * needs). compare's files may stand before, between and after its options:
 * take the operand and go on (1), or after "--" every word left (0).
 * Other commands: 0, their operands are checked in finish().
 */
static int take_operand(int nargs, char **args, struct st_opts *o, struct st_error *err)
{
	struct st_compare_opts *c = &o->compare;
	int after_dashdash = strcmp(args[optind - 1], "--") == 0;

	if (o->command != ST_CMD_COMPARE || optind >= nargs)
		return 0;
	do {
		if (c->nfiles == ST_CMP_MAX_FILES)
			return st_error_usage(err, "compare: at most %d reports", ST_CMP_MAX_FILES);
		c->files[c->nfiles++] = args[optind++];
	} while (after_dashdash && optind < nargs);
	return !after_dashdash;
}

static int finish(int argc, char **argv, int ind, int value_index, struct st_opts *o,
		  struct st_error *err)
{
	int ret;

	switch (o->command) {
	case ST_CMD_ORPHANS:
		return finish_orphans(argc, argv, ind, o, err);
	case ST_CMD_NETBENCH:
		return finish_netbench(argc, argv, ind, o, err);
	case ST_CMD_CLEANUP:
		if (ind < argc)
			return st_error_usage(err, "cleanup: unexpected argument '%s'", argv[ind]);
		return 0;
	case ST_CMD_BENCH:
		ret = no_prometheus(o, err);
		if (ret == 0 && strcmp(o->bench.name, "all") == 0 && o->out.format == ST_FORMAT_CSV)
			ret = st_error_usage(err, "--format=csv: bench all writes several tables (use table or json)");
		if (ret == 0 && ind < argc)
			ret = st_error_usage(err, "bench: unexpected argument '%s'", argv[ind]);
		if (ret == 0 && o->bench.measure.repeat == 0)
			ret = st_error_usage(err, "--repeat=0: bench would measure nothing (use N >= 1)");
		if (ret == 0 && o->bench.duration_s > 0 && o->bench.count_given)
			ret = st_error_usage(err, "bench churn: --count and --duration: choose one");
		if (ret == 0 && o->bench.duration_s > ST_BENCH_MAX_CHURN_S)
			ret = st_error_usage(err, "--duration: bench churn creates for at most %d seconds (its series' length)",
					     ST_BENCH_MAX_CHURN_S);
		if (ret == 0 && st_net_wired(o->bench.net) && !(o->bench.measure.ns_mask & ST_LAYER_BIT(ST_LAYER_NET)))
			ret = st_error_usage(err, "bench churn: --net=%s needs the net layer: add net to --ns",
					     st_net_mode_names[o->bench.net]);
		return ret;
	default:
		return finish_run(argc, argv, ind, value_index, o, err);
	}
}

int st_cli_parse(int argc, char **argv, struct st_opts *o, struct st_error *err)
{
	struct option longopts[st_cli_noptions + 1];
	int value_index = -1; /* argv index of the last word taken as an option's value */
	char shortopts[64];
	int first, c, ret;
	char **args;
	int nargs;

	st_cli_defaults(o);
	ret = parse_command(argc, argv, o, &first, err);
	if (ret < 0)
		return ret;
	getopt_tables(longopts, shortopts, sizeof(shortopts));
	/*
	 * optind = 0 makes glibc forget everything of an earlier parse, even a
	 * half-read cluster like "-Vq"; it then starts at args[1], so args
	 * begins one before the first option.
	 */
	args = argv + first - 1;
	nargs = argc - first + 1;
	optind = 0;
	opterr = 0;
	for (;;) {
		const struct st_cli_option *r;
		int took_value;

		c = getopt_long(nargs, args, shortopts, longopts, NULL);
		if (c == -1) {
			ret = take_operand(nargs, args, o, err);
			if (ret < 0)
				return ret;
			if (ret == 0)
				break;
			continue;
		}
		r = option_row(c);
		took_value = optarg && optarg == args[optind - 1];

		if (c == ':')
			return st_error_usage(err, "option '%s' needs a value", args[optind - 1]);
		if (c == '?' || !r) {
			if (optopt > 0 && optopt < CHAR_MAX)
				return st_error_usage(err, "unknown option '-%c'", optopt);
			return st_error_usage(err, "unknown option '%s'", args[optind - 1]);
		}
		if (took_value)
			value_index = optind - 1 + first - 1;
		if (!(r->commands & ST_CMD_BIT(o->command)))
			return refuse(o, r, args[took_value ? optind - 2 : optind - 1], err);
		if (o->command == ST_CMD_BENCH && r->benches && !(r->benches & ST_BENCH_NAME_BIT(o->bench.kind)))
			return refuse_bench(r, err);
		ret = st_cli_store(o, r, optarg, err);
		if (ret < 0)
			return ret;
		if (o->command == ST_CMD_HELP || o->command == ST_CMD_VERSION)
			return 0;
	}
	if (o->command == ST_CMD_COMPARE)
		return finish_compare(o, err);
	return finish(argc, argv, optind + first - 1, value_index, o, err);
}
