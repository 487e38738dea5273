// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/ns_uts.h"
#include "sandboxtime/util.h"

#define MAX_REPEAT 100000u
#define MAX_COLD_MS 60000u
#define ST_MIN_INTERVAL_S 0.1
#define ST_MAX_INTERVAL_S 86400.0

enum {
	OPT_NS = CHAR_MAX + 1,
	OPT_NET,
	OPT_REPEAT,
	OPT_WARMUP,
	OPT_DEFERRED_REPEAT,
	OPT_COLD,
	OPT_ALONE,
	OPT_CPU,
	OPT_FORMAT,
	OPT_HOSTNAME,
	OPT_NO_INIT,
	OPT_ADDR,
	OPT_BRIDGE,
	OPT_MTU,
	OPT_DRY_RUN,
	OPT_ALL,
	OPT_PATHS,
	OPT_DURATION,
	OPT_SIZE,
	OPT_RR,
	OPT_NO_RR,
	OPT_CAP_ADD,
	OPT_CAP_DROP,
	OPT_NNP,
	OPT_SECCOMP,
	OPT_CONFIG,
	OPT_KILL_AFTER,
	OPT_NET_STEPS_REPEAT,
	OPT_WATCH,
	OPT_INTERVAL,
	OPT_TEXTFILE,
	OPT_STREAMS,
	OPT_BUSY_POLL,
	OPT_UDP,
	OPT_CPU_PIN,
	OPT_CLEANUP,
	OPT_MIN_AGE,
	OPT_CLEANUP_PATH,
	OPT_IPV6,
	OPT_ADDR6,
	OPT_NET_BATCH,
	OPT_SEED,
};

static const struct option long_options[] = {
	{ "ns", required_argument, NULL, OPT_NS },
	{ "net", required_argument, NULL, OPT_NET },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "deferred-repeat", required_argument, NULL, OPT_DEFERRED_REPEAT },
	{ "cold", required_argument, NULL, OPT_COLD },
	{ "alone", no_argument, NULL, OPT_ALONE },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "json", no_argument, NULL, 'J' },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "hostname", required_argument, NULL, OPT_HOSTNAME },
	{ "no-init", no_argument, NULL, OPT_NO_INIT },
	{ "addr", required_argument, NULL, OPT_ADDR },
	{ "bridge", required_argument, NULL, OPT_BRIDGE },
	{ "mtu", required_argument, NULL, OPT_MTU },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "paths", required_argument, NULL, OPT_PATHS },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "rr", no_argument, NULL, OPT_RR },
	{ "no-rr", no_argument, NULL, OPT_NO_RR },
	{ "cap-add", required_argument, NULL, OPT_CAP_ADD },
	{ "cap-drop", required_argument, NULL, OPT_CAP_DROP },
	{ "no-new-privileges", optional_argument, NULL, OPT_NNP },
	{ "seccomp", required_argument, NULL, OPT_SECCOMP },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "kill-after", required_argument, NULL, OPT_KILL_AFTER },
	{ "net-steps-repeat", required_argument, NULL, OPT_NET_STEPS_REPEAT },
	{ "watch", no_argument, NULL, OPT_WATCH },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "streams", required_argument, NULL, OPT_STREAMS },
	{ "busy-poll", no_argument, NULL, OPT_BUSY_POLL },
	{ "udp", no_argument, NULL, OPT_UDP },
	{ "cpu-pin", no_argument, NULL, OPT_CPU_PIN },
	{ "cleanup", no_argument, NULL, OPT_CLEANUP },
	{ "min-age", required_argument, NULL, OPT_MIN_AGE },
	{ "cleanup-path", required_argument, NULL, OPT_CLEANUP_PATH },
	{ "ipv6", no_argument, NULL, OPT_IPV6 },
	{ "addr6", required_argument, NULL, OPT_ADDR6 },
	{ "net-batch", no_argument, NULL, OPT_NET_BATCH },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Subcommands of DESIGN.md that this version does not have yet. */
/* The options that mean something to `orphans`; any other is a usage error. */
static const int orphans_options[] = { OPT_FORMAT, 'J', 'o', 'q', OPT_ALL, OPT_WATCH, OPT_INTERVAL,
					OPT_TEXTFILE, OPT_CLEANUP, OPT_DRY_RUN, OPT_MIN_AGE,
					OPT_CLEANUP_PATH, 'h', 'V' };

/* sandboxtime bench NAME: the micro-benchmarks behind the numbers. */
static const char *const bench_names[] = { "syscall", "cpu" };

void st_cli_usage(FILE *out)
{
	fputs("Usage:\n"
	      " sandboxtime [OPTIONS] -- CMD [ARG...]   build the sandbox layer by layer, time it, run CMD in it\n"
	      " sandboxtime layers [OPTIONS]            only measure the layers (no workload)\n"
	      " sandboxtime cleanup [--dry-run]         delete stv<pid>/stbr<pid> links of a killed sandboxtime\n"
	      " sandboxtime orphans [OPTIONS]           find network namespaces no process lives in any more\n"
	      " sandboxtime netbench [OPTIONS]          TCP throughput and latency: loopback vs veth vs bridge\n"
	      " sandboxtime bench syscall [OPTIONS]     syscall cost on the host, in a sandbox, with seccomp\n"
	      " sandboxtime bench cpu [OPTIONS]         CPU and memcpy cost, with seccomp and SPEC_ALLOW\n"
	      " sandboxtime --help | --version\n"
	      "\n"
	      "Measure what each layer of isolation costs: setup, ready, teardown and the\n"
	      "teardown the kernel finishes later, per namespace, then run CMD inside.\n"
	      "\n"
	      "Options:\n"
	      "     --ns=LIST          namespaces: comma list of user,uts,ipc,pid,mount,cgroup,time,net,\n"
	      "                          or all, or none (default: all)\n"
	      "     --net=MODE         host (no net namespace), none (only lo, up; default),\n"
	      "                          veth (eth0 paired with an outside end) or bridge (that\n"
	      "                          outside end on a bridge); rootless, outside is a network\n"
	      "                          namespace that sandboxtime makes to stand for the host\n"
	      "     --net=join:PATH|PID  enter an existing network namespace (a file such as\n"
	      "                          /run/netns/NAME, or a process's) instead of making one\n"
	      "     --addr=A.B.C.D/N   the sandbox's eth0 address (default: a free 10.213.x.y/30,\n"
	      "                          or 10.214.x.2/24 with a bridge)\n"
	      "     --ipv6             also give eth0 an IPv6 address from a free fd5b:7e1d:ab00::/48\n"
	      "                          /64 and a default IPv6 route (veth and bridge)\n"
	      "     --addr6=ADDR/N     eth0's IPv6 address, in fd00::/8 with N from 64 to 126\n"
	      "                          (implies --ipv6)\n"
	      "     --net-batch        configure eth0 inside with one netlink batch (one step,\n"
	      "                          inside_batch) instead of one timed step per request\n"
	      "     --bridge=NAME      join this existing bridge (root only) instead of a new one\n"
	      "     --mtu=N            MTU of the veth pair and bridge (68 to 65535)\n"
	      "     --net-steps-repeat=N\n"
	      "                        also wire and unwire a private namespace N times the way the\n"
	      "                          sandbox is wired, each step timed (default: 0)\n"
	      "     --paths=LIST       netbench: comma list of host,veth,bridge,host-to-sandbox,\n"
	      "                          macvlan, or all (default: host,veth,bridge)\n"
	      "     --duration=SECONDS netbench: measured time per run, fractions allowed, at\n"
	      "                          most 3600 (default: 3)\n"
	      "     --size=BYTES       netbench: bytes per write of the stream, at most 64 MiB\n"
	      "                          (default: 131072)\n"
	      "     --rr               netbench: also measure 1-byte request/response latency\n"
	      "                          (default)\n"
	      "     --no-rr            netbench: throughput only\n"
	      "     --streams=N        netbench: parallel TCP connections of the stream, 1 to 64\n"
	      "                          (default: 1)\n"
	      "     --busy-poll        netbench: the latency ends spin on non-blocking reads (and\n"
	      "                          SO_BUSY_POLL) instead of sleeping until a byte arrives\n"
	      "     --udp              netbench: also a UDP stream (sent, received, lost)\n"
	      "     --cpu-pin          netbench: pin the server and the client to two different CPUs\n"
	      "     --repeat=N         measured repetitions per layer set (default: 20; 0 in a run:\n"
	      "                          no measuring, only build and run the sandbox; netbench:\n"
	      "                          runs per path, 3)\n"
	      "     --warmup=N         unrecorded repetitions before measuring (default: 3)\n"
	      "     --deferred-repeat=N\n"
	      "                        samples of the deferred teardown (default: --repeat, at most 10)\n"
	      "     --seed=N           the seed of the sets' random order and of the intervals\n"
	      "                          (default: a new one, printed in the report)\n"
	      "     --cold=MS          also measure after MS milliseconds idle before every sample\n"
	      "     --alone            also measure each layer alone against the base (rootless:\n"
	      "                          user plus that layer, against user alone)\n"
	      "     --cpu=N            pin sandboxtime and its children to CPU N\n"
	      "     --format=FORMAT    table (default), json, csv, or prometheus (orphans, netbench)\n"
	      " -J, --json             same as --format=json\n"
	      " -o, --output=FILE      write the report to FILE instead of standard error\n"
	      " -q, --quiet            no report and no progress (the exit status remains)\n"
	      " -v, --verbose          also print min, median, p95, mean and stddev of every figure\n"
	      "     --hostname=NAME    hostname inside the sandbox (default: sandbox)\n"
	      "     --no-init          exec CMD as the sandbox's first process, without the init\n"
	      "     --kill-after=SECONDS  after SIGINT/SIGTERM/SIGHUP/SIGQUIT, kill the sandbox if it\n"
	      "                          has not ended in that time (default: 10; 0: wait forever)\n"
	      "     --cap-add=LIST     give the workload these capabilities too (CAP_NET_ADMIN,...)\n"
	      "     --cap-drop=LIST    take these from it (ALL: every one); default: Docker's set\n"
	      "     --no-new-privileges[=true|false]\n"
	      "                        set no_new_privs for the workload (default: true)\n"
	      "     --seccomp=PROFILE  default (built in), none, or an OCI/Docker JSON profile file\n"
	      "     --config=FILE      read an OCI runtime-spec config.json (options given here win)\n"
	      "     --dry-run          cleanup, orphans --cleanup: list what would be deleted,\n"
	      "                          delete nothing\n"
	      "     --all              orphans: also show the active namespaces in the table\n"
	      "     --watch            orphans: scan again and again until SIGINT, SIGTERM or SIGHUP\n"
	      "     --interval=SECONDS orphans --watch: seconds between scans, fractions allowed,\n"
	      "                          0.1 to 86400 (default: 60)\n"
	      "     --textfile=PATH    orphans: write the Prometheus text format to PATH atomically\n"
	      "                          (node_exporter's textfile collector), each scan with --watch\n"
	      "     --cleanup          orphans: as root, remove the orphans that only bind mounts\n"
	      "                          hold (umount, then unlink an empty mount point file)\n"
	      "     --min-age=SECONDS  orphans --cleanup: only orphans at least that old, by their\n"
	      "                          mount point file's ctime (default: 60)\n"
	      "     --cleanup-path=DIR orphans --cleanup: may act under DIR too, besides /run/netns\n"
	      "                          and /var/run/netns (repeatable, up to 8)\n"
	      " -h, --help             display this help\n"
	      " -V, --version          display version\n"
	      "\n"
	      "Exit status: CMD's own; 128+N if it was killed by signal N; 125 if sandboxtime\n"
	      "failed; 126 if CMD could not be executed; 127 if CMD was not found.\n"
	      "orphans: 0 if no orphan was found, 1 if one was, 125 if the scan failed;\n"
	      "with --cleanup: 0 if no orphan is left, 1 if one is (skipped, failed, --dry-run).\n"
	      "\n"
	      "For more details see sandboxtime(1).\n",
	      out);
}

static void set_defaults(struct st_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->command = ST_CMD_RUN;
	o->ns_mask = ST_LAYERS_ALL;
	o->net = ST_NET_NONE;
	o->repeat = 20;
	o->warmup = 3;
	o->deferred_repeat = UINT_MAX; /* resolved after parsing */
	o->cpu = -1;
	o->no_new_privs = 1;
	o->seccomp = "default";
	o->kill_after_s = 10;
	o->format = ST_FORMAT_TABLE;
	o->rr = -1;
	o->min_age_s = 60;
}

static int parse_count(const char *what, const char *text, uint64_t min, uint64_t max,
		       unsigned int *out, struct st_error *err)
{
	uint64_t v;
	int ret = st_parse_uint(what, text, min, max, &v, err);

	if (ret == 0)
		*out = (unsigned int)v;
	return ret;
}

static int parse_format(const char *text, enum st_format *out, struct st_error *err)
{
	static const char *const names[] = { "table", "json", "csv", "prometheus" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (strcmp(text, names[i]) == 0) {
			*out = (enum st_format)i;
			return 0;
		}
	}
	return st_error_usage(err, "--format: unknown format '%s' (known: table, json, csv, prometheus)", text);
}

/* --interval: seconds, fractions allowed, 0.1 to a day (DESIGN.md). */
static int parse_interval(const char *text, double *out, struct st_error *err)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || errno || !end || *end || !isfinite(v) || text[0] == '-' || text[0] == '+')
		return st_error_usage(err, "--interval: '%s' is not a number of seconds", text);
	if (v < ST_MIN_INTERVAL_S || v > ST_MAX_INTERVAL_S)
		return st_error_usage(err, "--interval: %s is out of range (0.1 to 86400 seconds)", text);
	*out = v;
	return 0;
}

static int parse_option(int c, const char *arg, struct st_opts *o, struct st_error *err)
{
	unsigned int v;
	int ret;

	switch (c) {
	case OPT_NS:
		o->given |= ST_GIVEN_NS;
		return st_layer_parse(arg, &o->ns_mask, &o->ns_explicit, err);
	case OPT_NET:
		o->given |= ST_GIVEN_NET;
		return st_ns_net_parse_mode(arg, &o->net, &o->join, err);
	case OPT_REPEAT:
		o->repeat_given = 1;
		return parse_count("--repeat", arg, 0, MAX_REPEAT, &o->repeat, err);
	case OPT_WARMUP:
		return parse_count("--warmup", arg, 0, MAX_REPEAT, &o->warmup, err);
	case OPT_DEFERRED_REPEAT:
		return parse_count("--deferred-repeat", arg, 0, MAX_REPEAT, &o->deferred_repeat, err);
	case OPT_SEED:
		o->seed_given = 1;
		return st_parse_uint("--seed", arg, 0, UINT64_MAX, &o->seed, err);
	case OPT_COLD:
		return parse_count("--cold", arg, 1, MAX_COLD_MS, &o->cold_ms, err);
	case OPT_ALONE:
		o->alone = 1;
		return 0;
	case OPT_CPU:
		ret = parse_count("--cpu", arg, 0, CPU_SETSIZE - 1, &v, err);
		if (ret == 0)
			o->cpu = (int)v;
		return ret;
	case OPT_FORMAT:
		return parse_format(arg, &o->format, err);
	case 'J':
		o->format = ST_FORMAT_JSON;
		return 0;
	case 'o':
		if (!*arg)
			return st_error_usage(err, "--output: empty file name");
		o->output = arg;
		return 0;
	case 'q':
		o->quiet = 1;
		return 0;
	case 'v':
		o->verbose = 1;
		return 0;
	case OPT_HOSTNAME:
		o->hostname = arg;
		return st_ns_uts_validate(arg, err);
	case OPT_NO_INIT:
		o->no_init = 1;
		return 0;
	case OPT_ADDR:
		o->addr = arg;
		return 0;
	case OPT_IPV6:
		o->ipv6 = 1;
		return 0;
	case OPT_ADDR6:
		o->ipv6 = 1;
		o->addr6_given = 1;
		return st_net_parse_addr6(arg, &o->addr6, err);
	case OPT_NET_BATCH:
		o->net_batch = 1;
		return 0;
	case OPT_BRIDGE:
		o->bridge = arg;
		return st_net_validate_ifname("--bridge", arg, err);
	case OPT_MTU:
		return parse_count("--mtu", arg, 68, 65535, &o->mtu, err);
	case OPT_DRY_RUN:
		o->dry_run = 1;
		return 0;
	case OPT_ALL:
		o->all = 1;
		return 0;
	case OPT_PATHS:
		return st_nb_parse_paths(arg, &o->nb_paths, err);
	case OPT_DURATION:
		return st_nb_parse_duration(arg, &o->duration_s, err);
	case OPT_SIZE:
		return st_parse_uint("--size", arg, 1, ST_NB_MAX_SIZE, &o->size, err);
	case OPT_RR:
	case OPT_NO_RR:
		o->rr = c == OPT_RR;
		return 0;
	case OPT_STREAMS:
		return parse_count("--streams", arg, 1, ST_NB_MAX_STREAMS, &o->streams, err);
	case OPT_BUSY_POLL:
		o->busy_poll = 1;
		return 0;
	case OPT_UDP:
		o->udp = 1;
		return 0;
	case OPT_CPU_PIN:
		o->cpu_pin = 1;
		return 0;
	case OPT_CAP_ADD:
	case OPT_CAP_DROP:
		*(c == OPT_CAP_ADD ? &o->cap_add : &o->cap_drop) = arg;
		o->hardening_given = 1;
		o->given |= ST_GIVEN_CAPS;
		return 0;
	case OPT_NNP:
		o->hardening_given = 1;
		o->given |= ST_GIVEN_NNP;
		if (!arg || strcmp(arg, "true") == 0) {
			o->no_new_privs = 1;
			return 0;
		}
		if (strcmp(arg, "false") == 0) {
			o->no_new_privs = 0;
			return 0;
		}
		return st_error_usage(err, "--no-new-privileges: '%s' is neither true nor false", arg);
	case OPT_SECCOMP:
		if (!*arg)
			return st_error_usage(err, "--seccomp: empty (default, none, or a profile file)");
		o->seccomp = arg;
		o->hardening_given = 1;
		o->given |= ST_GIVEN_SECCOMP;
		return 0;
	case OPT_NET_STEPS_REPEAT:
		return parse_count("--net-steps-repeat", arg, 0, MAX_REPEAT, &o->net_steps_repeat, err);
	case OPT_KILL_AFTER:
		return parse_count("--kill-after", arg, 0, 86400, &o->kill_after_s, err);
	case OPT_WATCH:
		o->watch = 1;
		return 0;
	case OPT_INTERVAL:
		return parse_interval(arg, &o->interval_s, err);
	case OPT_TEXTFILE:
		if (!*arg)
			return st_error_usage(err, "--textfile: empty file name");
		o->textfile = arg;
		return 0;
	case OPT_CLEANUP:
		o->cleanup = 1;
		return 0;
	case OPT_MIN_AGE:
		o->min_age_given = 1;
		return parse_count("--min-age", arg, 0, 315360000u, &o->min_age_s, err);
	case OPT_CLEANUP_PATH:
		if (!*arg)
			return st_error_usage(err, "--cleanup-path: empty directory name");
		if (o->ncleanup_paths == ST_MAX_CLEANUP_PATHS)
			return st_error_usage(err, "--cleanup-path: at most %d directories", ST_MAX_CLEANUP_PATHS);
		o->cleanup_paths[o->ncleanup_paths++] = arg;
		return 0;
	case OPT_CONFIG:
		if (!*arg)
			return st_error_usage(err, "--config: empty file name");
		o->config = arg;
		o->hardening_given = 1;
		return 0;
	case 'h':
		o->command = ST_CMD_HELP;
		return 0;
	case 'V':
		o->command = ST_CMD_VERSION;
		return 0;
	default:
		return st_error_usage(err, "unknown option");
	}
}

static int check_net_options(const struct st_opts *o, struct st_error *err)
{
	int wired = o->net == ST_NET_VETH || o->net == ST_NET_BRIDGE;

	if (wired && !(o->ns_mask & ST_LAYER_BIT(ST_LAYER_NET)))
		return st_error_usage(err, "--net=%s needs the net layer: add net to --ns",
				      st_net_mode_names[o->net]);
	if (o->addr && !wired)
		return st_error_usage(err, "--addr needs --net=veth or --net=bridge");
	if (o->mtu && !wired && o->command != ST_CMD_NETBENCH)
		return st_error_usage(err, "--mtu needs --net=veth or --net=bridge");
	if (o->bridge && o->net != ST_NET_BRIDGE)
		return st_error_usage(err, "--bridge needs --net=bridge");
	if (o->net_steps_repeat && !wired)
		return st_error_usage(err, "--net-steps-repeat needs --net=veth or --net=bridge");
	if (o->ipv6 && !wired)
		return st_error_usage(err, "--%s needs --net=veth or --net=bridge",
				      o->addr6_given ? "addr6" : "ipv6");
	/* The kernel keeps IPv6 off a link under 1280 bytes (RFC 8200's minimum). */
	if (o->ipv6 && o->mtu && o->mtu < 1280)
		return st_error_usage(err, "--mtu=%u: IPv6 needs an MTU of 1280 or more (--ipv6, --addr6)", o->mtu);
	if (o->net_batch && !wired)
		return st_error_usage(err, "--net-batch needs --net=veth or --net=bridge");
	return 0;
}

static int orphans_option(int c)
{
	for (size_t i = 0; i < ARRAY_SIZE(orphans_options); i++)
		if (orphans_options[i] == c)
			return 1;
	return 0;
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
		if (argc < 3 || argv[2][0] == '-')
			return st_error_usage(err, "bench: which benchmark? (known: syscall, cpu)");
		for (size_t i = 0; i < ARRAY_SIZE(bench_names); i++)
			if (strcmp(argv[2], bench_names[i]) == 0)
				o->bench = bench_names[i];
		if (!o->bench)
			return st_error_usage(err, "bench: unknown benchmark '%s' (known: syscall, cpu)", argv[2]);
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

/*
 * netbench measures paths it makes itself: the options that shape a sandbox
 * do not apply. Fills in its defaults (DESIGN.md).
 */
static int check_netbench(int argc, char **argv, int ind, struct st_opts *o, struct st_error *err)
{
	const struct {
		int set;
		const char *name;
	} sandbox_only[] = {
		{ o->ns_explicit != 0 || o->ns_mask != ST_LAYERS_ALL, "--ns" },
		{ o->addr != NULL, "--addr" },
		{ o->bridge != NULL, "--bridge" },
		{ o->hostname != NULL, "--hostname" },
		{ o->no_init, "--no-init" },
		{ o->cold_ms != 0, "--cold" },
		{ o->alone, "--alone" },
	};

	if (ind < argc)
		return st_error_usage(err, "netbench: unexpected argument '%s' (netbench runs no command)",
				      argv[ind]);
	for (size_t i = 0; i < ARRAY_SIZE(sandbox_only); i++)
		if (sandbox_only[i].set)
			return st_error_usage(err, "netbench makes its own paths: %s applies to a sandbox",
					      sandbox_only[i].name);
	if (o->net != ST_NET_NONE)
		return st_error_usage(err, "netbench makes its own paths: --net applies to a sandbox (use --paths)");
	if (o->repeat_given && o->repeat == 0)
		return st_error_usage(err, "--repeat=0: netbench would measure nothing (use N >= 1)");
	if (!o->repeat_given)
		o->repeat = 3;
	if (!o->nb_paths)
		o->nb_paths = ST_NB_DEFAULT_PATHS;
	if (o->cpu_pin && o->cpu >= 0)
		return st_error_usage(err, "--cpu-pin puts server and client on two CPUs, --cpu=%d all on one: choose one",
				      o->cpu);
	if (o->busy_poll && o->rr == 0)
		return st_error_usage(err, "--busy-poll applies to the latency phase: drop --no-rr");
	if (!o->streams)
		o->streams = 1;
	if (o->duration_s <= 0)
		o->duration_s = 3.0;
	if (!o->size)
		o->size = 131072;
	if (o->rr < 0)
		o->rr = 1;
	return 0;
}

/*
 * After the options: "-- CMD [ARG...]" for a run, nothing for layers. A "--"
 * that getopt took as an option's value ("-o --") is not the separator.
 */
static int parse_operands(int argc, char **argv, int ind, int value_index, struct st_opts *o,
			  struct st_error *err)
{
	int dashdash = ind > 1 && strcmp(argv[ind - 1], "--") == 0 && ind - 1 != value_index;

	if (o->cleanup && o->command != ST_CMD_ORPHANS)
		return st_error_usage(err, "--cleanup applies to orphans only (sandboxtime orphans --cleanup)");
	if (o->dry_run && o->command != ST_CMD_CLEANUP && !o->cleanup)
		return st_error_usage(err, "--dry-run applies to cleanup and orphans --cleanup only");
	if ((o->min_age_given || o->ncleanup_paths) && !o->cleanup)
		return st_error_usage(err, "--min-age and --cleanup-path need orphans --cleanup");
	if (o->all && o->command != ST_CMD_ORPHANS)
		return st_error_usage(err, "--all applies to orphans only");
	if (o->format == ST_FORMAT_PROMETHEUS && o->command != ST_CMD_ORPHANS && o->command != ST_CMD_NETBENCH)
		return st_error_usage(err, "--format=prometheus applies to orphans and netbench only");
	if (o->command == ST_CMD_ORPHANS) {
		if (ind < argc)
			return st_error_usage(err, "orphans: unexpected argument '%s'", argv[ind]);
		if (o->interval_s > 0 && !o->watch)
			return st_error_usage(err, "--interval needs --watch");
		if (o->output && (o->watch || o->textfile))
			return st_error_usage(err, "orphans: -o writes one report: use --textfile=PATH with --watch");
		if (o->cleanup && (o->watch || o->textfile))
			return st_error_usage(err, "orphans --cleanup acts once and reports on standard output or -o: not with --watch or --textfile");
		if (o->watch && o->interval_s <= 0)
			o->interval_s = 60.0;
		return 0;
	}
	if (o->watch || o->interval_s > 0 || o->textfile)
		return st_error_usage(err, "--watch, --interval and --textfile apply to orphans only");
	if (o->command == ST_CMD_NETBENCH)
		return check_netbench(argc, argv, ind, o, err);
	if (o->nb_paths || o->duration_s > 0 || o->size || o->rr >= 0)
		return st_error_usage(err, "--paths, --duration, --size, --rr and --no-rr apply to netbench only");
	if (o->streams || o->busy_poll || o->udp || o->cpu_pin)
		return st_error_usage(err, "--streams, --busy-poll, --udp and --cpu-pin apply to netbench only");
	if (o->command == ST_CMD_CLEANUP) {
		if (ind < argc)
			return st_error_usage(err, "cleanup: unexpected argument '%s'", argv[ind]);
		return 0;
	}
	if (o->command == ST_CMD_BENCH) {
		if (ind < argc)
			return st_error_usage(err, "bench: unexpected argument '%s'", argv[ind]);
		if (o->repeat == 0)
			return st_error_usage(err, "--repeat=0: bench would measure nothing (use N >= 1)");
		if (o->hostname || o->no_init || o->hardening_given || o->net != ST_NET_NONE)
			return st_error_usage(err, "bench %s builds its own sandboxes: only --ns, --repeat, --cpu and the output options apply",
					      o->bench);
		return 0;
	}
	if (o->command == ST_CMD_LAYERS) {
		if (ind < argc)
			return st_error_usage(err, "layers: unexpected argument '%s' (layers runs no command)",
					      argv[ind]);
		if (o->repeat == 0)
			return st_error_usage(err, "--repeat=0: layers would measure nothing (use N >= 1)");
		if (o->hostname || o->no_init)
			return st_error_usage(err, "layers runs no command: --%s applies to a run only",
					      o->hostname ? "hostname" : "no-init");
		if (o->hardening_given)
			return st_error_usage(err, "layers runs no command: capabilities, no_new_privs and seccomp apply to a run");
		/* Measured sets are never wired: the wiring is a run's (host alone changes the sets). */
		if (o->net != ST_NET_NONE && o->net != ST_NET_HOST)
			return st_error_usage(err, "layers measures namespaces only: --net=%s applies to a run",
					      st_net_mode_names[o->net]);
		return 0;
	}
	/* With --config, CMD may come from its process.args. */
	if (ind >= argc && o->config && !dashdash)
		return 0;
	if (ind >= argc)
		return st_error_usage(err, dashdash ? "missing CMD after '--'"
						    : "missing '-- CMD' (sandboxtime [OPTIONS] -- CMD [ARG...])");
	if (!dashdash)
		return st_error_usage(err, "missing '--' before '%s'", argv[ind]);
	if (o->hostname && !(o->ns_mask & ST_LAYER_BIT(ST_LAYER_UTS)))
		return st_error_usage(err, "--hostname needs the uts layer: add uts to --ns");
	o->argv = &argv[ind];
	return 0;
}

int st_cli_parse(int argc, char **argv, struct st_opts *o, struct st_error *err)
{
	int value_index = -1; /* argv index of the last word taken as an option's value */
	int first, c, ret;
	char **args;
	int nargs;

	set_defaults(o);
	ret = parse_command(argc, argv, o, &first, err);
	if (ret < 0)
		return ret;
	/*
	 * optind = 0 makes glibc forget everything of an earlier parse, even a
	 * half-read cluster like "-Vq"; it then starts at args[1], so args
	 * begins one before the first option.
	 */
	args = argv + first - 1;
	nargs = argc - first + 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(nargs, args, "+:Jo:qvhV", long_options, NULL)) != -1) {
		if (c == ':')
			return st_error_usage(err, "option '%s' needs a value", args[optind - 1]);
		if (c == '?') {
			if (optopt > 0 && optopt < CHAR_MAX)
				return st_error_usage(err, "unknown option '-%c'", optopt);
			return st_error_usage(err, "unknown option '%s'", args[optind - 1]);
		}
		if (optarg && optarg == args[optind - 1])
			value_index = optind - 1 + first - 1;
		if (o->command == ST_CMD_ORPHANS && !orphans_option(c))
			return st_error_usage(err, "orphans: option '%s' does not apply (orphans takes --format, -J, -o, --all, -q, --watch, --interval, --textfile, --cleanup, --dry-run, --min-age, --cleanup-path)",
					      args[optarg && optarg == args[optind - 1] ? optind - 2 : optind - 1]);
		ret = parse_option(c, optarg, o, err);
		if (ret < 0)
			return ret;
		if (o->command == ST_CMD_HELP || o->command == ST_CMD_VERSION)
			return 0;
	}
	if (o->deferred_repeat == UINT_MAX)
		o->deferred_repeat = o->repeat < 10 ? o->repeat : 10;
	/* host and join make no network namespace of their own. */
	if (o->net == ST_NET_HOST || o->net == ST_NET_JOIN) {
		if (o->ns_explicit & ST_LAYER_BIT(ST_LAYER_NET))
			return st_error_usage(err, "--net=%s conflicts with net in --ns (it makes no network namespace)",
					      st_net_mode_names[o->net]);
		o->ns_mask &= ~ST_LAYER_BIT(ST_LAYER_NET);
	}
	ret = check_net_options(o, err);
	if (ret < 0)
		return ret;
	return parse_operands(argc, argv, optind + first - 1, value_index, o, err);
}
