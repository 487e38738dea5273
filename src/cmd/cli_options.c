// SPDX-License-Identifier: MIT
/*
 * The option table: one row per option (name, short letter, argument, the
 * commands that take it, --help text, parser). getopt's table, the short
 * option string, --help and the "applies to ... only" errors all come from
 * it (src/cmd/cli.c). Adding an option is one row here plus its parser,
 * which stores into the options struct of the commands that take it
 * (netbench's and the benches' own parsers are in cli_options_bench.c).
 * The rows are in --help's order.
 */
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <string.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/cli.h"
#include "sandboxtime/cli_options_bench.h"
#include "sandboxtime/cli_parse.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/ns_uts.h"
#include "sandboxtime/util.h"

#define MAX_REPEAT 100000u
#define MAX_COLD_MS 60000u
#define MAX_MIN_AGE_S 315360000u
#define MAX_RESAMPLES 1000000u

#define RUN ST_CMD_BIT(ST_CMD_RUN)
#define LAYERS ST_CMD_BIT(ST_CMD_LAYERS)
#define CLEANUP ST_CMD_BIT(ST_CMD_CLEANUP)
#define ORPHANS ST_CMD_BIT(ST_CMD_ORPHANS)
#define NETBENCH ST_CMD_BIT(ST_CMD_NETBENCH)
#define BENCH ST_CMD_BIT(ST_CMD_BENCH)
#define COMPARE ST_CMD_BIT(ST_CMD_COMPARE)
/* The bench names of a bench-only row (0 in the row: every bench). */
#define FORK ST_BENCH_NAME_BIT(ST_BENCH_NAME_FORK)
#define CHURN ST_BENCH_NAME_BIT(ST_BENCH_NAME_CHURN)
#define FILES ST_BENCH_NAME_BIT(ST_BENCH_NAME_FILES)
#define WHERE ST_BENCH_NAME_BIT(ST_BENCH_NAME_WHERE)
#define MOUNTS ST_BENCH_NAME_BIT(ST_BENCH_NAME_MOUNTS)
#define CGROUP ST_BENCH_NAME_BIT(ST_BENCH_NAME_CGROUP)
#define LAUNCH ST_BENCH_NAME_BIT(ST_BENCH_NAME_LAUNCH)
#define ALL ST_BENCH_NAME_BIT(ST_BENCH_NAME_ALL)
/* Every bench but churn measures rounds: a new bench takes --repeat without a line here. */
#define MEASURING_BENCHES (((1u << ST_BENCH_NAME_KINDS) - 1) & ~CHURN)
/* The options of every command that writes a report. */
#define REPORTING (RUN | LAYERS | ORPHANS | NETBENCH | BENCH | COMPARE)
/* The commands whose reports have charts: the measuring ones and compare. */
#define CHARTED (RUN | LAYERS | NETBENCH | BENCH | COMPARE)

/* --ns and --repeat mean the same to a run, layers and bench: one place each. */
static struct st_measure_opts *measure_of(struct st_opts *o)
{
	return o->command == ST_CMD_BENCH ? &o->bench.measure : &o->run.measure;
}

static int parse_ns(struct st_opts *o, const char *arg, struct st_error *err)
{
	struct st_measure_opts *m = measure_of(o);

	if (o->command != ST_CMD_BENCH)
		o->run.given |= ST_GIVEN_NS;
	else
		o->bench.ns_text = arg;
	return st_layer_parse(arg, &m->ns_mask, &m->ns_explicit, err);
}

/* bench churn wires each sandbox or not: no host, no join (nothing outside its lab). */
static int parse_churn_net(struct st_opts *o, const char *arg, struct st_error *err)
{
	static const enum st_net_mode modes[] = { ST_NET_NONE, ST_NET_VETH, ST_NET_BRIDGE };

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (strcmp(arg, st_net_mode_names[modes[i]]) == 0) {
			o->bench.net = modes[i];
			return 0;
		}
	return st_error_usage(err, "--net: bench churn takes none, veth or bridge, not '%s'", arg);
}

static int parse_net(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (o->command == ST_CMD_BENCH)
		return parse_churn_net(o, arg, err);
	o->run.given |= ST_GIVEN_NET;
	return st_ns_net_parse_mode(arg, &o->run.net.mode, &o->run.net.join, err);
}

static int parse_addr(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.net.addr = arg;
	return 0;
}

static int parse_ipv6(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.net.ipv6 = 1;
	return 0;
}

static int parse_addr6(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.net.ipv6 = 1;
	o->run.net.addr6_given = 1;
	return st_net_parse_addr6(arg, &o->run.net.addr6, err);
}

static int parse_net_batch(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.net.batch = 1;
	return 0;
}

static int parse_bridge(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.net.bridge = arg;
	return st_net_validate_ifname("--bridge", arg, err);
}

static int parse_mtu(struct st_opts *o, const char *arg, struct st_error *err)
{
	unsigned int *mtu = o->command == ST_CMD_NETBENCH ? &o->netbench.mtu : &o->run.net.mtu;

	return st_cli_parse_count("--mtu", arg, 68, 65535, mtu, err);
}

static int parse_net_steps_repeat(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--net-steps-repeat", arg, 0, MAX_REPEAT, &o->run.net_steps_repeat, err);
}

static int parse_repeat(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->bench.repeat_given = o->command == ST_CMD_BENCH;
	if (o->command == ST_CMD_NETBENCH) {
		o->netbench.repeat_given = 1;
		return st_cli_parse_count("--repeat", arg, 0, MAX_REPEAT, &o->netbench.repeat, err);
	}
	return st_cli_parse_count("--repeat", arg, 0, MAX_REPEAT, &measure_of(o)->repeat, err);
}

static int parse_warmup(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--warmup", arg, 0, MAX_REPEAT, &o->run.measure.warmup, err);
}

static int parse_deferred_repeat(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--deferred-repeat", arg, 0, MAX_REPEAT,
				  &o->run.measure.deferred_repeat, err);
}

static int parse_seed(struct st_opts *o, const char *arg, struct st_error *err)
{
	struct st_seed *s = o->command == ST_CMD_COMPARE    ? &o->compare.seed
			    : o->command == ST_CMD_NETBENCH ? &o->netbench.seed
							    : &o->run.measure.seed;

	s->given = 1;
	return st_parse_uint("--seed", arg, 0, UINT64_MAX, &s->value, err);
}

static int parse_resamples(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--resamples", arg, 100, MAX_RESAMPLES, &o->compare.resamples, err);
}

static int parse_fail_if_slower(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_percent("--fail-if-slower", arg, &o->compare.fail_pct, err);
}

static int parse_cold(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--cold", arg, 1, MAX_COLD_MS, &o->run.measure.cold_ms, err);
}

static int parse_alone(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.measure.alone = 1;
	return 0;
}

static int parse_cpu(struct st_opts *o, const char *arg, struct st_error *err)
{
	unsigned int v;
	int ret = st_cli_parse_count("--cpu", arg, 0, CPU_SETSIZE - 1, &v, err);

	if (ret == 0)
		o->out.cpu = (int)v;
	return ret;
}

static int parse_format(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_format(arg, &o->out.format, err);
}

static int parse_json(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->out.format = ST_FORMAT_JSON;
	return 0;
}

static int parse_output(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--output: empty file name");
	o->out.path = arg;
	return 0;
}

static int parse_svg(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--svg: empty file name");
	o->out.svg = arg;
	return 0;
}

static int parse_html(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--html: empty file name");
	o->out.html = arg;
	return 0;
}

static int parse_color(struct st_opts *o, const char *arg, struct st_error *err)
{
	static const char *const names[] = { [ST_COLOR_AUTO] = "auto", [ST_COLOR_ALWAYS] = "always",
					     [ST_COLOR_NEVER] = "never" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(arg, names[i]) == 0) {
			o->out.color = (enum st_color)i;
			return 0;
		}
	return st_error_usage(err, "--color: unknown mode '%s' (known: auto, always, never)", arg);
}

static int parse_quiet(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->out.quiet = 1;
	return 0;
}

static int parse_verbose(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->out.verbose = 1;
	return 0;
}

static int parse_hostname(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.hostname = arg;
	return st_ns_uts_validate(arg, err);
}

static int parse_no_init(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.no_init = 1;
	return 0;
}

static int parse_kill_after(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_count("--kill-after", arg, 0, 86400, &o->run.kill_after_s, err);
}

static int parse_cap_add(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.cap_add = arg;
	o->run.given |= ST_GIVEN_CAPS;
	return 0;
}

static int parse_cap_drop(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.cap_drop = arg;
	o->run.given |= ST_GIVEN_CAPS;
	return 0;
}

static int parse_nnp(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->run.given |= ST_GIVEN_NNP;
	if (!arg || strcmp(arg, "true") == 0) {
		o->run.no_new_privs = 1;
		return 0;
	}
	if (strcmp(arg, "false") == 0) {
		o->run.no_new_privs = 0;
		return 0;
	}
	return st_error_usage(err, "--no-new-privileges: '%s' is neither true nor false", arg);
}

static int parse_seccomp(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--seccomp: empty (default, none, or a profile file)");
	o->run.seccomp = arg;
	o->run.given |= ST_GIVEN_SECCOMP;
	return 0;
}

static int parse_config(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--config: empty file name");
	o->run.config = arg;
	return 0;
}

static int parse_cgroup(struct st_opts *o, const char *arg, struct st_error *err)
{
	struct st_measure_opts *m = measure_of(o);

	o->run.cgroup = o->command != ST_CMD_BENCH;
	o->run.cgroup_parent = arg;
	m->cgroup = 1;
	m->cgroup_parent = arg;
	return arg ? st_cgroup_path_check("--cgroup", arg, 1, err) : 0;
}

static int parse_dry_run(struct st_opts *o, const char *arg, struct st_error *err)
{
	*(o->command == ST_CMD_ORPHANS ? &o->orphans.dry_run : &o->cleanup.dry_run) = 1;
	return 0;
}

static int parse_all(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->orphans.all = 1;
	return 0;
}

/* --watch, --interval and --textfile mean the same to orphans and layers. */
static int parse_watch(struct st_opts *o, const char *arg, struct st_error *err)
{
	*(o->command == ST_CMD_LAYERS ? &o->run.watch : &o->orphans.watch) = 1;
	return 0;
}

static int parse_interval(struct st_opts *o, const char *arg, struct st_error *err)
{
	return st_cli_parse_interval(arg, o->command == ST_CMD_LAYERS ? &o->run.interval_s
								      : &o->orphans.interval_s, err);
}

static int parse_textfile(struct st_opts *o, const char *arg, struct st_error *err)
{
	if (!*arg)
		return st_error_usage(err, "--textfile: empty file name");
	*(o->command == ST_CMD_LAYERS ? &o->run.textfile : &o->orphans.textfile) = arg;
	return 0;
}

static int parse_cleanup(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->orphans.cleanup = 1;
	return 0;
}

static int parse_min_age(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->orphans.min_age_given = 1;
	return st_cli_parse_count("--min-age", arg, 0, MAX_MIN_AGE_S, &o->orphans.min_age_s, err);
}

static int parse_cleanup_path(struct st_opts *o, const char *arg, struct st_error *err)
{
	struct st_orphans_opts *a = &o->orphans;

	if (!*arg)
		return st_error_usage(err, "--cleanup-path: empty directory name");
	if (a->ncleanup_paths == ST_MAX_CLEANUP_PATHS)
		return st_error_usage(err, "--cleanup-path: at most %d directories", ST_MAX_CLEANUP_PATHS);
	a->cleanup_paths[a->ncleanup_paths++] = arg;
	return 0;
}

static int parse_help(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->help_for = o->command;
	o->command = ST_CMD_HELP;
	return 0;
}

static int parse_version(struct st_opts *o, const char *arg, struct st_error *err)
{
	o->command = ST_CMD_VERSION;
	return 0;
}

#define NOARG no_argument
#define ARG required_argument

/* clang-format off */
const struct st_cli_option st_cli_options[] = {
	{ "ns", 0, ARG, RUN | LAYERS | BENCH, "LIST",
	  "namespaces: comma list of user,uts,ipc,pid,mount,cgroup,time,net,\n"
	  "or all, or none (default: all)", parse_ns, 0, NULL, NULL, 0 },
	{ "net", 0, ARG, RUN | LAYERS | BENCH, "MODE",
	  "host (no net namespace), none (only lo, up; default),\n"
	  "veth (eth0 paired with an outside end) or bridge (that\n"
	  "outside end on a bridge); rootless, outside is a network\n"
	  "namespace that sandboxtime makes to stand for the host;\n"
	  "bench churn: none, veth or bridge, each sandbox's pair made\n"
	  "and removed in the lab's own network namespace", parse_net, 0,
	  "join:PATH|PID",
	  "enter an existing network namespace (a file such as\n"
	  "/run/netns/NAME, or a process's) instead of making one", CHURN },
	{ "addr", 0, ARG, RUN, "A.B.C.D/N",
	  "the sandbox's eth0 address (default: a free 10.213.x.y/30,\n"
	  "or 10.214.x.2/24 with a bridge)", parse_addr, 0, NULL, NULL, 0 },
	{ "ipv6", 0, NOARG, RUN, NULL,
	  "also give eth0 an IPv6 address from a free fd5b:7e1d:ab00::/48\n"
	  "/64 and a default IPv6 route (veth and bridge)", parse_ipv6, 0, NULL, NULL, 0 },
	{ "addr6", 0, ARG, RUN, "ADDR/N",
	  "eth0's IPv6 address, in fd00::/8 with N from 64 to 126\n"
	  "(implies --ipv6)", parse_addr6, 0, NULL, NULL, 0 },
	{ "net-batch", 0, NOARG, RUN, NULL,
	  "configure eth0 inside with one netlink batch (one step,\n"
	  "inside_batch) instead of one timed step per request", parse_net_batch, 0, NULL, NULL, 0 },
	{ "bridge", 0, ARG, RUN, "NAME",
	  "join this existing bridge (root only) instead of a new one", parse_bridge, 0, NULL, NULL, 0 },
	{ "mtu", 0, ARG, RUN | NETBENCH, "N",
	  "MTU of the veth pair and bridge (68 to 65535)", parse_mtu, 0, NULL, NULL, 0 },
	{ "net-steps-repeat", 0, ARG, RUN, "N",
	  "also wire and unwire a private namespace N times the way the\n"
	  "sandbox is wired, each step timed (default: 0)", parse_net_steps_repeat,
	  ST_OPT_HELP_BREAK, NULL, NULL, 0 },
	{ "paths", 0, ARG, NETBENCH, "LIST",
	  "netbench: comma list of host,veth,bridge,host-to-sandbox,\n"
	  "macvlan, or all (default: host,veth,bridge)", st_opt_paths, 0, NULL, NULL, 0 },
	{ "duration", 0, ARG, NETBENCH | BENCH, "SECONDS",
	  "netbench: measured time per run, fractions allowed, at\n"
	  "most 3600 (default: 3); bench churn: create for that long\n"
	  "instead of --count sandboxes, at most 300", st_opt_duration, 0, NULL, NULL, CHURN },
	{ "size", 0, ARG, NETBENCH, "BYTES",
	  "netbench: bytes per write of the stream, at most 64 MiB\n"
	  "(default: 131072)", st_opt_size, 0, NULL, NULL, 0 },
	{ "rr", 0, NOARG, NETBENCH, NULL,
	  "netbench: also measure 1-byte request/response latency\n"
	  "(default)", st_opt_rr, 0, NULL, NULL, 0 },
	{ "no-rr", 0, NOARG, NETBENCH, NULL,
	  "netbench: throughput only", st_opt_no_rr, 0, NULL, NULL, 0 },
	{ "streams", 0, ARG, NETBENCH, "N",
	  "netbench: parallel TCP connections of the stream, 1 to 64\n"
	  "(default: 1)", st_opt_streams, 0, NULL, NULL, 0 },
	{ "busy-poll", 0, NOARG, NETBENCH, NULL,
	  "netbench: the latency ends spin on non-blocking reads (and\n"
	  "SO_BUSY_POLL) instead of sleeping until a byte arrives", st_opt_busy_poll, 0, NULL, NULL, 0 },
	{ "udp", 0, NOARG, NETBENCH, NULL,
	  "netbench: also a UDP stream (sent, received, lost)", st_opt_udp, 0, NULL, NULL, 0 },
	{ "cpu-pin", 0, NOARG, NETBENCH, NULL,
	  "netbench: pin the server and the client to two different CPUs", st_opt_cpu_pin, 0, NULL, NULL, 0 },
	{ "sizes", 0, ARG, BENCH, "LIST",
	  "bench fork: comma list of the parent's sizes in MB\n"
	  "(default: 1,10,100,500,1000)", st_opt_sizes, 0, NULL, NULL, FORK | ALL },
	{ "files", 0, ARG, BENCH, "N",
	  "bench files: files per pass, 1 to 100000 (default: 3000;\n"
	  "the tree: a third more)", st_opt_files, 0, NULL, NULL, FILES | ALL },
	{ "kernel", 0, ARG, BENCH, "PATH",
	  "bench where: the microVM's kernel (default:\n"
	  "/boot/vmlinuz-$(uname -r), else the newest /boot/vmlinuz-*)", st_opt_kernel, 0, NULL, NULL,
	  WHERE | ALL },
	{ "vm-accel", 0, ARG, BENCH, "kvm|tcg",
	  "bench where: run the microVM on KVM (default) or emulate\n"
	  "it with qemu's TCG (no KVM needed; its figures are emulation's)", st_opt_vm_accel, 0, NULL,
	  NULL, WHERE | ALL },
	{ "count", 0, ARG, BENCH, "N",
	  "bench churn: sandboxes made and destroyed per creator count\n"
	  "(default: " ST_CLI_DEFAULT_TEXT(ST_CLI_CHURN_COUNT)
	  ")", st_opt_count, 0, NULL, NULL, CHURN },
	{ "parallel", 0, ARG, BENCH, "LIST",
	  "bench churn: comma list of how many processes create at\n"
	  "once, each 1 to 64 (default: 1)", st_opt_parallel, 0, NULL, NULL, CHURN },
	{ "max-alive", 0, ARG, BENCH, "N",
	  "bench churn, mounts: at most N sandboxes alive or not yet\n"
	  "freed by the kernel at any time (default: " ST_CLI_DEFAULT_TEXT(ST_CLI_CHURN_MAX_ALIVE)
	  ")", st_opt_max_alive, 0, NULL, NULL,
	  CHURN | MOUNTS },
	{ "mounts", 0, ARG, BENCH, "LIST",
	  "bench mounts: comma list of bind mounts added to the\n"
	  "parent's table, each 1 to 50000 (default: 10,100,1000,5000)", st_opt_mounts, 0, NULL, NULL,
	  MOUNTS },
	{ "background", 0, ARG, BENCH, "LIST",
	  "bench mounts: comma list of idle sandboxes held open while\n"
	  "new namespaces are made (default: 0,10,100,1000)", st_opt_background, 0, NULL, NULL,
	  MOUNTS },
	{ "launches", 0, ARG, BENCH, "N",
	  "bench launch: launches per place and round, 10 to 100000\n"
	  "(default: " ST_CLI_DEFAULT_TEXT(ST_CLI_LAUNCHES) ")", st_opt_launches, 0, NULL, NULL, LAUNCH },
	{ "repeat", 0, ARG, RUN | LAYERS | NETBENCH | BENCH, "N",
	  "measured repetitions per layer set (default: " ST_CLI_DEFAULT_TEXT(ST_CLI_REPEAT)
	  "; 0 in a run:\n"
	  "no measuring, only build and run the sandbox; netbench:\n"
	  "runs per path, " ST_CLI_DEFAULT_TEXT(ST_CLI_NETBENCH_REPEAT)
	  "; bench files, where, cgroup, launch: 5;\n"
	  "mounts: 10)", parse_repeat, 0, NULL, NULL, MEASURING_BENCHES },
	{ "warmup", 0, ARG, RUN | LAYERS, "N",
	  "unrecorded repetitions before measuring (default: " ST_CLI_DEFAULT_TEXT(ST_CLI_WARMUP)
	  ")", parse_warmup, 0, NULL, NULL, 0 },
	{ "deferred-repeat", 0, ARG, RUN | LAYERS, "N",
	  "samples of the deferred teardown (default: --repeat, at most 10)", parse_deferred_repeat,
	  ST_OPT_HELP_BREAK, NULL, NULL, 0 },
	{ "seed", 0, ARG, RUN | LAYERS | NETBENCH | COMPARE, "N",
	  "the seed of the random order of the sets (netbench: of the\n"
	  "paths) in each round, and of compare's intervals\n"
	  "(default: a new one, printed in the report)", parse_seed, 0, NULL, NULL, 0 },
	{ "resamples", 0, ARG, COMPARE, "N",
	  "compare: bootstrap resamples per interval, 100 to 1000000\n"
	  "(default: " ST_CLI_DEFAULT_TEXT(ST_CLI_RESAMPLES)
	  ")", parse_resamples, 0, NULL, NULL, 0 },
	{ "fail-if-slower", 0, ARG, COMPARE, "PCT",
	  "compare: exit 1 when a figure's interval lies wholly above\n"
	  "1+PCT/100 (significantly slower by more than PCT percent)", parse_fail_if_slower,
	  ST_OPT_HELP_BREAK, NULL, NULL, 0 },
	{ "cold", 0, ARG, RUN | LAYERS, "MS",
	  "also measure after MS milliseconds idle before every sample", parse_cold, 0, NULL, NULL, 0 },
	{ "alone", 0, NOARG, RUN | LAYERS, NULL,
	  "also measure each layer alone against the base (rootless:\n"
	  "user plus that layer, against user alone)", parse_alone, 0, NULL, NULL, 0 },
	{ "cpu", 0, ARG, RUN | LAYERS | NETBENCH | BENCH, "N",
	  "pin sandboxtime and its children to CPU N", parse_cpu, 0, NULL, NULL, 0 },
	{ "format", 0, ARG, REPORTING, "FORMAT",
	  "table (default), json, csv, markdown (pipe tables to paste\n"
	  "into a pull request) or prometheus (orphans, netbench, layers)", parse_format, 0, NULL, NULL, 0 },
	{ "json", 'J', NOARG, REPORTING, NULL,
	  "same as --format=json", parse_json, 0, NULL, NULL, 0 },
	{ "output", 'o', ARG, REPORTING, "FILE",
	  "write the report to FILE instead of standard error", parse_output, 0, NULL, NULL, 0 },
	{ "svg", 0, ARG, CHARTED, "FILE",
	  "also draw the report's charts into FILE (SVG)", parse_svg, 0, NULL, NULL, 0 },
	{ "html", 0, ARG, CHARTED, "FILE",
	  "also write one self-contained HTML page with the charts and\n"
	  "the tables to FILE", parse_html, 0, NULL, NULL, 0 },
	{ "color", 0, ARG, REPORTING, "WHEN",
	  "colour the table: auto (default), always or never; auto\n"
	  "colours on a terminal unless NO_COLOR is set", parse_color, 0, NULL, NULL, 0 },
	{ "quiet", 'q', NOARG, ST_CMDS_ALL, NULL,
	  "no report and no progress (the exit status remains)", parse_quiet, 0, NULL, NULL, 0 },
	{ "verbose", 'v', NOARG, RUN | LAYERS | NETBENCH | BENCH, NULL,
	  "also print min, median, p95, mean and stddev of every figure", parse_verbose, 0, NULL, NULL, 0 },
	{ "hostname", 0, ARG, RUN, "NAME",
	  "hostname inside the sandbox (default: sandbox)", parse_hostname, 0, NULL, NULL, 0 },
	{ "no-init", 0, NOARG, RUN, NULL,
	  "exec CMD as the sandbox's first process, without the init", parse_no_init, 0, NULL, NULL, 0 },
	{ "kill-after", 0, ARG, RUN, "SECONDS",
	  "after SIGINT/SIGTERM/SIGHUP/SIGQUIT, kill the sandbox if it\n"
	  "has not ended in that time (default: " ST_CLI_DEFAULT_TEXT(ST_CLI_KILL_AFTER_S)
	  "; 0: wait forever)", parse_kill_after, 0, NULL, NULL, 0 },
	{ "cap-add", 0, ARG, RUN, "LIST",
	  "give the workload these capabilities too (CAP_NET_ADMIN,...)", parse_cap_add, 0, NULL, NULL, 0 },
	{ "cap-drop", 0, ARG, RUN, "LIST",
	  "take these from it (ALL: every one); default: Docker's set", parse_cap_drop, 0, NULL, NULL, 0 },
	{ "no-new-privileges", 0, optional_argument, RUN, "true|false",
	  "set no_new_privs for the workload (default: true)", parse_nnp, ST_OPT_HELP_BREAK, NULL, NULL, 0 },
	{ "seccomp", 0, ARG, RUN, "PROFILE",
	  "default (built in), none, or an OCI/Docker JSON profile file", parse_seccomp, 0, NULL, NULL, 0 },
	{ "config", 0, ARG, RUN, "FILE",
	  "read an OCI runtime-spec config.json (options given here win)", parse_config, 0, NULL, NULL, 0 },
	{ "cgroup", 0, optional_argument, RUN | LAYERS | BENCH, "PARENT",
	  "run in a cgroup of its own, sandboxtime-PID, made under\n"
	  "PARENT (a cgroup path; default: sandboxtime's own cgroup)\n"
	  "with the config's linux.resources limits; and measure the\n"
	  "cgroup layer (mkdir, limits, attach, rmdir, the free);\n"
	  "bench cgroup: make its cgroups under PARENT", parse_cgroup, 0, NULL, NULL, CGROUP },
	{ "dry-run", 0, NOARG, CLEANUP | ORPHANS, NULL,
	  "cleanup, orphans --cleanup: list what would be deleted,\n"
	  "delete nothing", parse_dry_run, 0, NULL, NULL, 0 },
	{ "all", 0, NOARG, ORPHANS, NULL,
	  "orphans: also show the active namespaces in the table", parse_all, 0, NULL, NULL, 0 },
	{ "watch", 0, NOARG, ORPHANS | LAYERS, NULL,
	  "orphans, layers: scan (measure) again and again until SIGINT,\n"
	  "SIGTERM or SIGHUP", parse_watch, 0, NULL, NULL, 0 },
	{ "interval", 0, ARG, ORPHANS | LAYERS, "SECONDS",
	  "--watch: seconds between scans, fractions allowed,\n"
	  "0.1 to 86400 (default: 60; layers: 3600)", parse_interval, 0, NULL, NULL, 0 },
	{ "textfile", 0, ARG, ORPHANS | LAYERS, "PATH",
	  "orphans, layers: write the Prometheus text format to PATH\n"
	  "atomically (node_exporter's textfile collector), each time\n"
	  "with --watch", parse_textfile, 0, NULL, NULL, 0 },
	{ "cleanup", 0, NOARG, ORPHANS, NULL,
	  "orphans: as root, remove the orphans that only bind mounts\n"
	  "hold (umount, then unlink an empty mount point file)", parse_cleanup, 0, NULL, NULL, 0 },
	{ "min-age", 0, ARG, ORPHANS, "SECONDS",
	  "orphans --cleanup: only orphans at least that old, by their\n"
	  "mount point file's ctime (default: " ST_CLI_DEFAULT_TEXT(ST_CLI_MIN_AGE_S)
	  ")", parse_min_age, 0, NULL, NULL, 0 },
	{ "cleanup-path", 0, ARG, ORPHANS, "DIR",
	  "orphans --cleanup: may act under DIR too, besides /run/netns\n"
	  "and /var/run/netns (repeatable, up to 8)", parse_cleanup_path, 0, NULL, NULL, 0 },
	{ "help", 'h', NOARG, ST_CMDS_ALL, NULL,
	  "display this help", parse_help, ST_OPT_ANSWER, NULL, NULL, 0 },
	{ "version", 'V', NOARG, ST_CMDS_ALL, NULL,
	  "display version", parse_version, ST_OPT_ANSWER, NULL, NULL, 0 },
};
/* clang-format on */

const size_t st_cli_noptions = ARRAY_SIZE(st_cli_options);
