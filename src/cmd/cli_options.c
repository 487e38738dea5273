// SPDX-License-Identifier: MIT
/*
 * The option table: one row per option (name, short letter, argument, the
 * commands that take it, --help text, kind, where each command keeps its
 * value, bounds and default). getopt's table, the short option string,
 * --help, the defaults and the "applies to ... only" errors all come from
 * it (src/cmd/cli.c, cli_kinds.c). Adding an option is one row here; only a
 * value no kind parses needs a function (the custom ones below). The rows
 * are in --help's order.
 */
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>

#include "sandboxtime/bench_files.h"
#include "sandboxtime/bench_mounts.h"
#include "sandboxtime/cgroup.h"
#include "sandboxtime/cli.h"
#include "sandboxtime/cli_parse.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/netbench_stats.h"
#include "sandboxtime/ns_uts.h"

#define MAX_REPEAT 100000u
#define MAX_COLD_MS 60000u
#define MAX_MIN_AGE_S 315360000u
#define MAX_RESAMPLES 1000000u
#define MAX_CHURN 1000000u /* bench churn --count, --max-alive */
#define MAX_PARALLEL 64u   /* ST_CHURN_MAX_PARALLEL */

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

/* Where a value lives: an offset into struct st_opts. */
#define AT(field) offsetof(struct st_opts, field)
/* The one place of a row that every command of it shares. */
#define ONE(field) { { .at = AT(field) } }

/* --ns, into a run's, layers' or bench's measuring options. */
static int parse_ns(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	struct st_measure_opts *m = at;

	return st_layer_parse(arg, &m->ns_mask, &m->ns_explicit, err);
}

static int parse_run_net(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	struct st_net_opts *n = at;

	return st_ns_net_parse_mode(arg, &n->mode, &n->join, err);
}

/* bench churn wires each sandbox or not: no host, no join (nothing outside its lab). */
static int parse_churn_net(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	static const enum st_net_mode modes[] = { ST_NET_NONE, ST_NET_VETH, ST_NET_BRIDGE };

	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (strcmp(arg, st_net_mode_names[modes[i]]) == 0) {
			*(enum st_net_mode *)at = modes[i];
			return 0;
		}
	return st_error_usage(err, "--net: bench churn takes none, veth or bridge, not '%s'", arg);
}

/* --addr6 gives eth0 that address, and IPv6 with it. */
static int parse_addr6(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	struct st_net_opts *n = at;

	n->ipv6 = 1;
	n->addr6_given = 1;
	return st_net_parse_addr6(arg, &n->addr6, err);
}

static int check_bridge(const char *arg, struct st_error *err)
{
	return st_net_validate_ifname("--bridge", arg, err);
}

static int parse_paths(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	return st_nb_parse_paths(arg, at, err);
}

/* bench where runs qemu with -accel kvm or tcg: it keeps the word. */
static int check_vm_accel(const char *arg, struct st_error *err)
{
	if (strcmp(arg, "kvm") != 0 && strcmp(arg, "tcg") != 0)
		return st_error_usage(err, "--vm-accel: '%s' is neither kvm nor tcg", arg);
	return 0;
}

/* --format and -J: the output's own parser (src/report owns the formats). */
static int parse_format(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	return st_cli_parse_format(arg, &o->out.format, err);
}

static int parse_json(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	o->out.format = ST_FORMAT_JSON;
	return 0;
}

/* --cgroup[=PARENT]: a run and layers build the cgroup layer and measure it. */
static int parse_cgroup_measure(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	struct st_measure_opts *m = at;

	m->cgroup = 1;
	m->cgroup_parent = arg;
	return arg ? st_cgroup_path_check("--cgroup", arg, 1, err) : 0;
}

static int parse_cgroup_run(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	struct st_run_opts *r = at;

	r->cgroup = 1;
	r->cgroup_parent = arg;
	return parse_cgroup_measure(o, &r->measure, arg, err);
}

static int parse_cleanup_path(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	struct st_orphans_opts *a = at;

	if (!*arg)
		return st_error_usage(err, "--cleanup-path: empty directory name");
	if (a->ncleanup_paths == ST_MAX_CLEANUP_PATHS)
		return st_error_usage(err, "--cleanup-path: at most %d directories", ST_MAX_CLEANUP_PATHS);
	a->cleanup_paths[a->ncleanup_paths++] = arg;
	return 0;
}

static int parse_help(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	o->help_for = o->command;
	o->command = ST_CMD_HELP;
	return 0;
}

static int parse_version(struct st_opts *o, void *at, const char *arg, struct st_error *err)
{
	o->command = ST_CMD_VERSION;
	return 0;
}

static const char *const color_modes[] = { [ST_COLOR_AUTO] = "auto", [ST_COLOR_ALWAYS] = "always",
					   [ST_COLOR_NEVER] = "never", NULL };
/* --no-new-privileges=true|false: in that order in its error, 1 and 0 in no_new_privs. */
static const char *const booleans[] = { "true", "false", NULL };
static const int boolean_values[] = { 1, 0 };

static const struct st_cli_list sizes_list = { "--sizes", "size", " MB", " of MB: 1,10,100", 1,
					       ST_CLI_MAX_SIZE_MB, ST_BENCH_MAX_SIZES };
static const struct st_cli_list parallel_list = { "--parallel", "creator count", "", ": 1,2,4,8",
						  1, MAX_PARALLEL, ST_BENCH_MAX_PARALLEL };
static const struct st_cli_list mounts_list = { "--mounts", "mount count", " mounts", ": 10,100,1000",
						1, ST_MOUNTS_MAX_MOUNTS, ST_BENCH_MAX_MOUNTS };
static const struct st_cli_list background_list = { "--background", "sandbox count", " sandboxes",
						    ": 0,10,100", 0, MAX_CHURN, ST_BENCH_MAX_MOUNTS };

#define NOARG no_argument
#define ARG required_argument
#define OPTARG optional_argument

/* clang-format off */
const struct st_cli_option st_cli_options[] = {
	{ "ns", 0, ARG, RUN | LAYERS | BENCH, "LIST",
	  "namespaces: comma list of user,uts,ipc,pid,mount,cgroup,time,net,\n"
	  "or all, or none (default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .def = "all",
	  .places = { { .commands = RUN | LAYERS, .at = AT(run.measure), .parse = parse_ns,
			.given_at = AT(run.given), .given_bit = ST_GIVEN_NS },
		      { .commands = BENCH, .at = AT(bench.measure), .parse = parse_ns,
			.text_at = AT(bench.ns_text) } } },
	{ "net", 0, ARG, RUN | LAYERS | BENCH, "MODE",
	  "host (no net namespace), none (only lo, up; default),\n"
	  "veth (eth0 paired with an outside end) or bridge (that\n"
	  "outside end on a bridge); rootless, outside is a network\n"
	  "namespace that sandboxtime makes to stand for the host;\n"
	  "bench churn: none, veth or bridge, each sandbox's pair made\n"
	  "and removed in the lab's own network namespace", 0,
	  "join:PATH|PID",
	  "enter an existing network namespace (a file such as\n"
	  "/run/netns/NAME, or a process's) instead of making one", CHURN,
	  .kind = ST_OPT_CUSTOM, .def = "none",
	  .places = { { .commands = RUN | LAYERS, .at = AT(run.net), .parse = parse_run_net,
			.given_at = AT(run.given), .given_bit = ST_GIVEN_NET },
		      { .commands = BENCH, .at = AT(bench.net), .parse = parse_churn_net } } },
	{ "addr", 0, ARG, RUN, "A.B.C.D/N",
	  "the sandbox's eth0 address (default: a free 10.213.x.y/30,\n"
	  "or 10.214.x.2/24 with a bridge)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .places = ONE(run.net.addr) },
	{ "ipv6", 0, NOARG, RUN, NULL,
	  "also give eth0 an IPv6 address from a free fd5b:7e1d:ab00::/48\n"
	  "/64 and a default IPv6 route (veth and bridge)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(run.net.ipv6) },
	{ "addr6", 0, ARG, RUN, "ADDR/N",
	  "eth0's IPv6 address, in fd00::/8 with N from 64 to 126\n"
	  "(implies --ipv6)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .places = { { .at = AT(run.net), .parse = parse_addr6 } } },
	{ "net-batch", 0, NOARG, RUN, NULL,
	  "configure eth0 inside with one netlink batch (one step,\n"
	  "inside_batch) instead of one timed step per request", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(run.net.batch) },
	{ "bridge", 0, ARG, RUN, "NAME",
	  "join this existing bridge (root only) instead of a new one", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .places = ONE(run.net.bridge), .check = check_bridge },
	{ "mtu", 0, ARG, RUN | NETBENCH, "N",
	  "MTU of the veth pair and bridge (68 to 65535)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .min = 68, .max = 65535,
	  .places = { { .commands = RUN, .at = AT(run.net.mtu) },
		      { .commands = NETBENCH, .at = AT(netbench.mtu) } } },
	{ "net-steps-repeat", 0, ARG, RUN, "N",
	  "also wire and unwire a private namespace N times the way the\n"
	  "sandbox is wired, each step timed (default: {})", ST_OPT_HELP_BREAK, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .max = MAX_REPEAT, .def = "0", .places = ONE(run.net_steps_repeat) },
	{ "paths", 0, ARG, NETBENCH, "LIST",
	  "netbench: comma list of host,veth,bridge,host-to-sandbox,\n"
	  "macvlan, or all (default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .def = "host,veth,bridge",
	  .places = { { .at = AT(netbench.paths), .parse = parse_paths } } },
	{ "duration", 0, ARG, NETBENCH | BENCH, "SECONDS",
	  "netbench: measured time per run, fractions allowed, at\n"
	  "most 3600 (default: {0}); bench churn: create for that long\n"
	  "instead of --count sandboxes, at most 300", 0, NULL, NULL, CHURN,
	  .kind = ST_OPT_DURATION, .dmax = ST_NB_MAX_DURATION_S,
	  .places = { { .commands = NETBENCH, .at = AT(netbench.duration_s), .def = "3" },
		      { .commands = BENCH, .at = AT(bench.duration_s) } } },
	{ "size", 0, ARG, NETBENCH, "BYTES",
	  "netbench: bytes per write of the stream, at most 64 MiB\n"
	  "(default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_U64, .min = 1, .max = ST_NB_MAX_SIZE, .def = "131072",
	  .places = ONE(netbench.size) },
	{ "rr", 0, NOARG, NETBENCH, NULL,
	  "netbench: also measure 1-byte request/response latency\n"
	  "(default)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(netbench.rr) },
	{ "no-rr", 0, NOARG, NETBENCH, NULL,
	  "netbench: throughput only", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .clears = 1, .places = ONE(netbench.rr) },
	{ "streams", 0, ARG, NETBENCH, "N",
	  "netbench: parallel TCP connections of the stream, 1 to 64\n"
	  "(default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .min = 1, .max = ST_NB_MAX_STREAMS, .def = "1",
	  .places = ONE(netbench.streams) },
	{ "busy-poll", 0, NOARG, NETBENCH, NULL,
	  "netbench: the latency ends spin on non-blocking reads (and\n"
	  "SO_BUSY_POLL) instead of sleeping until a byte arrives", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(netbench.busy_poll) },
	{ "udp", 0, NOARG, NETBENCH, NULL,
	  "netbench: also a UDP stream (sent, received, lost)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(netbench.udp) },
	{ "cpu-pin", 0, NOARG, NETBENCH, NULL,
	  "netbench: pin the server and the client to two different CPUs", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(netbench.cpu_pin) },
	{ "sizes", 0, ARG, BENCH, "LIST",
	  "bench fork: comma list of the parent's sizes in MB\n"
	  "(default: {})", 0, NULL, NULL, FORK | ALL,
	  .kind = ST_OPT_LIST, .list = &sizes_list, .def = "1,10,100,500,1000", /* the articles' table */
	  .places = { { .at = AT(bench.sizes_mb), .count_at = AT(bench.nsizes) } } },
	{ "files", 0, ARG, BENCH, "N",
	  "bench files: files per pass, 1 to 100000 (default: {};\n"
	  "the tree: a third more)", 0, NULL, NULL, FILES | ALL,
	  .kind = ST_OPT_UINT, .min = 1, .max = ST_FILES_MAX, .def = "3000", .places = ONE(bench.files) },
	{ "kernel", 0, ARG, BENCH, "PATH",
	  "bench where: the microVM's kernel (default:\n"
	  "/boot/vmlinuz-$(uname -r), else the newest /boot/vmlinuz-*)", 0, NULL, NULL, WHERE | ALL,
	  .kind = ST_OPT_STRING, .noun = "path", .places = ONE(bench.kernel) },
	{ "vm-accel", 0, ARG, BENCH, "kvm|tcg",
	  "bench where: run the microVM on KVM (default) or emulate\n"
	  "it with qemu's TCG (no KVM needed; its figures are emulation's)", 0, NULL, NULL, WHERE | ALL,
	  .kind = ST_OPT_STRING, .check = check_vm_accel, .places = ONE(bench.vm_accel) },
	{ "count", 0, ARG, BENCH, "N",
	  "bench churn: sandboxes made and destroyed per creator count\n"
	  "(default: {})", 0, NULL, NULL, CHURN,
	  .kind = ST_OPT_UINT, .min = 1, .max = MAX_CHURN, .def = "1000",
	  .places = { { .at = AT(bench.count), .given_at = AT(bench.count_given) } } },
	{ "parallel", 0, ARG, BENCH, "LIST",
	  "bench churn: comma list of how many processes create at\n"
	  "once, each 1 to 64 (default: {})", 0, NULL, NULL, CHURN,
	  .kind = ST_OPT_LIST, .list = &parallel_list, .def = "1",
	  .places = { { .at = AT(bench.parallel), .count_at = AT(bench.nparallel) } } },
	{ "max-alive", 0, ARG, BENCH, "N",
	  "bench churn, mounts: at most N sandboxes alive or not yet\n"
	  "freed by the kernel at any time (default: {})", 0, NULL, NULL, CHURN | MOUNTS,
	  .kind = ST_OPT_UINT, .min = 1, .max = MAX_CHURN, .def = "1000",
	  .places = ONE(bench.max_alive) },
	{ "mounts", 0, ARG, BENCH, "LIST",
	  "bench mounts: comma list of bind mounts added to the\n"
	  "parent's table, each 1 to 50000 (default: {})", 0, NULL, NULL, MOUNTS,
	  .kind = ST_OPT_LIST, .list = &mounts_list, .def = "10,100,1000,5000",
	  .places = { { .at = AT(bench.mounts), .count_at = AT(bench.nmounts) } } },
	{ "background", 0, ARG, BENCH, "LIST",
	  "bench mounts: comma list of idle sandboxes held open while\n"
	  "new namespaces are made (default: {})", 0, NULL, NULL, MOUNTS,
	  .kind = ST_OPT_LIST, .list = &background_list, .def = "0,10,100,1000",
	  .places = { { .at = AT(bench.background), .count_at = AT(bench.nbackground) } } },
	/* At least 10 launches: p99 of fewer would be the largest. */
	{ "launches", 0, ARG, BENCH, "N",
	  "bench launch: launches per place and round, 10 to 100000\n"
	  "(default: {})", 0, NULL, NULL, LAUNCH,
	  .kind = ST_OPT_UINT, .min = 10, .max = 100000, .def = "100", .places = ONE(bench.launches) },
	{ "repeat", 0, ARG, RUN | LAYERS | NETBENCH | BENCH, "N",
	  "measured repetitions per layer set (default: {}; 0 in a run:\n"
	  "no measuring, only build and run the sandbox; netbench:\n"
	  "runs per path, {1}; bench files, where, cgroup, launch: 5;\n"
	  "mounts: 10)", 0, NULL, NULL, MEASURING_BENCHES,
	  .kind = ST_OPT_UINT, .max = MAX_REPEAT, .def = "20",
	  .places = { { .commands = RUN | LAYERS, .at = AT(run.measure.repeat) },
		      { .commands = NETBENCH, .at = AT(netbench.repeat), .def = "3",
			.given_at = AT(netbench.repeat_given) },
		      { .commands = BENCH, .at = AT(bench.measure.repeat),
			.given_at = AT(bench.repeat_given) } } },
	{ "warmup", 0, ARG, RUN | LAYERS, "N",
	  "unrecorded repetitions before measuring (default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .max = MAX_REPEAT, .def = "3", .places = ONE(run.measure.warmup) },
	{ "deferred-repeat", 0, ARG, RUN | LAYERS, "N",
	  "samples of the deferred teardown (default: --repeat, at most 10)",
	  ST_OPT_HELP_BREAK, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .max = MAX_REPEAT, .places = ONE(run.measure.deferred_repeat) },
	{ "seed", 0, ARG, RUN | LAYERS | NETBENCH | COMPARE, "N",
	  "the seed of the random order of the sets (netbench: of the\n"
	  "paths) in each round, and of compare's intervals\n"
	  "(default: a new one, printed in the report)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_U64, .max = UINT64_MAX,
	  .places = { { .commands = RUN | LAYERS, .at = AT(run.measure.seed.value),
			.given_at = AT(run.measure.seed.given) },
		      { .commands = NETBENCH, .at = AT(netbench.seed.value),
			.given_at = AT(netbench.seed.given) },
		      { .commands = COMPARE, .at = AT(compare.seed.value),
			.given_at = AT(compare.seed.given) } } },
	{ "resamples", 0, ARG, COMPARE, "N",
	  "compare: bootstrap resamples per interval, 100 to 1000000\n"
	  "(default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .min = 100, .max = MAX_RESAMPLES, .def = "2000",
	  .places = ONE(compare.resamples) },
	{ "fail-if-slower", 0, ARG, COMPARE, "PCT",
	  "compare: exit 1 when a figure's interval lies wholly above\n"
	  "1+PCT/100 (significantly slower by more than PCT percent)", ST_OPT_HELP_BREAK, NULL, NULL, 0,
	  .kind = ST_OPT_DOUBLE, .dmax = 1000, .noun = "percentage", .places = ONE(compare.fail_pct) },
	{ "cold", 0, ARG, RUN | LAYERS, "MS",
	  "also measure after MS milliseconds idle before every sample", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .min = 1, .max = MAX_COLD_MS, .places = ONE(run.measure.cold_ms) },
	{ "alone", 0, NOARG, RUN | LAYERS, NULL,
	  "also measure each layer alone against the base (rootless:\n"
	  "user plus that layer, against user alone)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(run.measure.alone) },
	{ "cpu", 0, ARG, RUN | LAYERS | NETBENCH | BENCH, "N",
	  "pin sandboxtime and its children to CPU N", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .max = CPU_SETSIZE - 1, .places = ONE(out.cpu) },
	{ "format", 0, ARG, REPORTING, "FORMAT",
	  "table (default), json, csv, markdown (pipe tables to paste\n"
	  "into a pull request) or prometheus (orphans, netbench, layers)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .def = "table",
	  .places = { { .at = AT(out.format), .parse = parse_format } } },
	{ "json", 'J', NOARG, REPORTING, NULL,
	  "same as --format=json", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .places = { { .at = AT(out.format), .parse = parse_json } } },
	{ "output", 'o', ARG, REPORTING, "FILE",
	  "write the report to FILE instead of standard error", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .noun = "file name", .places = ONE(out.path) },
	{ "svg", 0, ARG, CHARTED, "FILE",
	  "also draw the report's charts into FILE (SVG)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .noun = "file name", .places = ONE(out.svg) },
	{ "html", 0, ARG, CHARTED, "FILE",
	  "also write one self-contained HTML page with the charts and\n"
	  "the tables to FILE", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .noun = "file name", .places = ONE(out.html) },
	{ "color", 0, ARG, REPORTING, "WHEN",
	  "colour the table: {} (default), always or never; auto\n"
	  "colours on a terminal unless NO_COLOR is set", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CHOICE, .choices = color_modes, .noun = "mode", .def = "auto",
	  .places = ONE(out.color) },
	{ "quiet", 'q', NOARG, ST_CMDS_ALL, NULL,
	  "no report and no progress (the exit status remains)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(out.quiet) },
	{ "verbose", 'v', NOARG, RUN | LAYERS | NETBENCH | BENCH, NULL,
	  "also print min, median, p95, mean and stddev of every figure", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(out.verbose) },
	{ "hostname", 0, ARG, RUN, "NAME",
	  "hostname inside the sandbox (default: sandbox)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .check = st_ns_uts_validate, .places = ONE(run.hostname) },
	{ "no-init", 0, NOARG, RUN, NULL,
	  "exec CMD as the sandbox's first process, without the init", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(run.no_init) },
	{ "kill-after", 0, ARG, RUN, "SECONDS",
	  "after SIGINT/SIGTERM/SIGHUP/SIGQUIT, kill the sandbox if it\n"
	  "has not ended in that time (default: {}; 0: wait forever)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .max = 86400, .def = "10", .places = ONE(run.kill_after_s) },
	{ "cap-add", 0, ARG, RUN, "LIST",
	  "give the workload these capabilities too (CAP_NET_ADMIN,...)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING,
	  .places = { { .at = AT(run.cap_add), .given_at = AT(run.given), .given_bit = ST_GIVEN_CAPS } } },
	{ "cap-drop", 0, ARG, RUN, "LIST",
	  "take these from it (ALL: every one); default: Docker's set", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING,
	  .places = { { .at = AT(run.cap_drop), .given_at = AT(run.given), .given_bit = ST_GIVEN_CAPS } } },
	{ "no-new-privileges", 0, OPTARG, RUN, "true|false",
	  "set no_new_privs for the workload (default: {})", ST_OPT_HELP_BREAK, NULL, NULL, 0,
	  .kind = ST_OPT_CHOICE, .choices = booleans, .values = boolean_values, .noun = "value",
	  .def = "true",
	  .implied = "true",
	  .places = { { .at = AT(run.no_new_privs), .given_at = AT(run.given), .given_bit = ST_GIVEN_NNP } } },
	/* The noun completes "--seccomp: empty": what it may be instead. */
	{ "seccomp", 0, ARG, RUN, "PROFILE",
	  "default (built in), none, or an OCI/Docker JSON profile file", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .noun = "(default, none, or a profile file)", .def = "default",
	  .places = { { .at = AT(run.seccomp), .given_at = AT(run.given), .given_bit = ST_GIVEN_SECCOMP } } },
	{ "config", 0, ARG, RUN, "FILE",
	  "read an OCI runtime-spec config.json (options given here win)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .noun = "file name", .places = ONE(run.config) },
	{ "cgroup", 0, OPTARG, RUN | LAYERS | BENCH, "PARENT",
	  "run in a cgroup of its own, sandboxtime-PID, made under\n"
	  "PARENT (a cgroup path; default: sandboxtime's own cgroup)\n"
	  "with the config's linux.resources limits; and measure the\n"
	  "cgroup layer (mkdir, limits, attach, rmdir, the free);\n"
	  "bench cgroup: make its cgroups under PARENT", 0, NULL, NULL, CGROUP,
	  .kind = ST_OPT_CUSTOM,
	  .places = { { .commands = RUN | LAYERS, .at = AT(run), .parse = parse_cgroup_run },
		      { .commands = BENCH, .at = AT(bench.measure), .parse = parse_cgroup_measure } } },
	{ "dry-run", 0, NOARG, CLEANUP | ORPHANS, NULL,
	  "cleanup, orphans --cleanup: list what would be deleted,\n"
	  "delete nothing", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG,
	  .places = { { .commands = CLEANUP, .at = AT(cleanup.dry_run) },
		      { .commands = ORPHANS, .at = AT(orphans.dry_run) } } },
	{ "all", 0, NOARG, ORPHANS, NULL,
	  "orphans: also show the active namespaces in the table", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(orphans.all) },
	{ "watch", 0, NOARG, ORPHANS | LAYERS, NULL,
	  "orphans, layers: scan (measure) again and again until SIGINT,\n"
	  "SIGTERM or SIGHUP", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG,
	  .places = { { .commands = LAYERS, .at = AT(run.watch) },
		      { .commands = ORPHANS, .at = AT(orphans.watch) } } },
	{ "interval", 0, ARG, ORPHANS | LAYERS, "SECONDS",
	  "--watch: seconds between scans, fractions allowed,\n"
	  "0.1 to 86400 (default: {0}; layers: {1})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_DURATION, .dmin = 0.1, .dmax = 86400,
	  .places = { { .commands = ORPHANS, .at = AT(orphans.interval_s), .def = "60",
			.given_at = AT(orphans.interval_given) },
		      { .commands = LAYERS, .at = AT(run.interval_s), .def = "3600",
			.given_at = AT(run.interval_given) } } },
	{ "textfile", 0, ARG, ORPHANS | LAYERS, "PATH",
	  "orphans, layers: write the Prometheus text format to PATH\n"
	  "atomically (node_exporter's textfile collector), each time\n"
	  "with --watch", 0, NULL, NULL, 0,
	  .kind = ST_OPT_STRING, .noun = "file name",
	  .places = { { .commands = LAYERS, .at = AT(run.textfile) },
		      { .commands = ORPHANS, .at = AT(orphans.textfile) } } },
	{ "cleanup", 0, NOARG, ORPHANS, NULL,
	  "orphans: as root, remove the orphans that only bind mounts\n"
	  "hold (umount, then unlink an empty mount point file)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_FLAG, .places = ONE(orphans.cleanup) },
	{ "min-age", 0, ARG, ORPHANS, "SECONDS",
	  "orphans --cleanup: only orphans at least that old, by their\n"
	  "mount point file's ctime (default: {})", 0, NULL, NULL, 0,
	  .kind = ST_OPT_UINT, .max = MAX_MIN_AGE_S, .def = "60",
	  .places = { { .at = AT(orphans.min_age_s), .given_at = AT(orphans.min_age_given) } } },
	{ "cleanup-path", 0, ARG, ORPHANS, "DIR",
	  "orphans --cleanup: may act under DIR too, besides /run/netns\n"
	  "and /var/run/netns (repeatable, up to 8)", 0, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .places = { { .at = AT(orphans), .parse = parse_cleanup_path } } },
	{ "help", 'h', NOARG, ST_CMDS_ALL, NULL,
	  "display this help", ST_OPT_ANSWER, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .places = { { .parse = parse_help } } },
	{ "version", 'V', NOARG, ST_CMDS_ALL, NULL,
	  "display version", ST_OPT_ANSWER, NULL, NULL, 0,
	  .kind = ST_OPT_CUSTOM, .places = { { .parse = parse_version } } },
};
/* clang-format on */

const size_t st_cli_noptions = ARRAY_SIZE(st_cli_options);
