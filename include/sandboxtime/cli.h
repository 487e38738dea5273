/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CLI_H
#define SANDBOXTIME_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ns_net.h"

enum st_command {
	ST_CMD_RUN,    /* sandboxtime [OPTIONS] -- CMD [ARG...] */
	ST_CMD_LAYERS, /* sandboxtime layers [OPTIONS] */
	ST_CMD_CLEANUP, /* sandboxtime cleanup [--dry-run] */
	ST_CMD_ORPHANS, /* sandboxtime orphans [OPTIONS] */
	ST_CMD_NETBENCH, /* sandboxtime netbench [OPTIONS] */
	ST_CMD_BENCH,   /* sandboxtime bench NAME [OPTIONS] */
	ST_CMD_HELP,
	ST_CMD_VERSION,
};

enum st_format {
	ST_FORMAT_TABLE,
	ST_FORMAT_JSON,
	ST_FORMAT_CSV,
	ST_FORMAT_PROMETHEUS, /* orphans and netbench only */
};

enum {
	ST_GIVEN_NS = 1 << 0,
	ST_GIVEN_NET = 1 << 1,
	ST_GIVEN_CAPS = 1 << 2,
	ST_GIVEN_NNP = 1 << 3,
	ST_GIVEN_SECCOMP = 1 << 4,
};

struct st_opts {
	enum st_command command;
	unsigned int ns_mask;     /* asked layers, before availability */
	unsigned int ns_explicit; /* named one by one: missing ones are errors */
	enum st_net_mode net;
	const char *join;   /* --net=join:TARGET: TARGET */
	const char *addr;   /* --addr: the sandbox's IPv4 address/prefix */
	const char *bridge; /* --bridge: join this existing bridge */
	unsigned int mtu;   /* --mtu: veth and bridge MTU, 0 for the default */
	unsigned int net_steps_repeat; /* --net-steps-repeat: wire a lab N times, timed */
	int ipv6;           /* --ipv6 or --addr6: eth0 gets an IPv6 address and route too */
	int addr6_given;    /* --addr6: addr6 holds it (else a free default block) */
	struct st_ip6 addr6;
	int net_batch;      /* --net-batch: the inside configuration in one sendmsg */
	unsigned int repeat;
	unsigned int warmup;
	unsigned int deferred_repeat;
	uint64_t seed;      /* --seed: the order of the sets and the bootstrap */
	int seed_given;
	unsigned int cold_ms;
	int alone;
	int cpu; /* -1: not pinned */
	enum st_format format;
	const char *output; /* NULL: standard error */
	int quiet;
	int verbose;
	const char *hostname; /* NULL: the default, "sandbox" */
	int no_init;
	unsigned int kill_after_s; /* --kill-after: grace after a terminating signal, 0: none */
	int dry_run; /* cleanup, orphans --cleanup: list, delete nothing */
	int all;     /* orphans: the table shows active namespaces too */
	int watch;   /* orphans --watch: scan until SIGINT, SIGTERM or SIGHUP */
	double interval_s;    /* orphans --interval, 0: not given (60 with --watch) */
	const char *textfile; /* orphans --textfile: Prometheus text, replaced atomically */
	int cleanup;          /* orphans --cleanup: remove orphans only bind mounts hold */
	unsigned int min_age_s; /* orphans --cleanup --min-age (default 60) */
	int min_age_given;
#define ST_MAX_CLEANUP_PATHS 8
	const char *cleanup_paths[ST_MAX_CLEANUP_PATHS]; /* --cleanup-path, repeatable */
	size_t ncleanup_paths;
	const char *bench; /* bench NAME */
	const char *cap_add;  /* --cap-add LIST */
	const char *cap_drop; /* --cap-drop LIST|ALL */
	int no_new_privs;     /* --no-new-privileges[=true|false], default on */
	const char *seccomp;  /* --seccomp=default|none|FILE */
	int hardening_given;  /* one of the four above was given (a run's options) */
	const char *config;   /* --config: an OCI runtime-spec config.json */
	unsigned int given;   /* ST_GIVEN_*: options on the command line win over --config */
	char **argv; /* CMD and its arguments (run only) */
	/* netbench (0 or -1: not given; defaults are filled in after parsing) */
	unsigned int nb_paths; /* mask of enum st_nb_path */
	double duration_s;
	uint64_t size;
	int rr; /* -1 not given, 0 --no-rr, 1 --rr */
	int repeat_given;
	unsigned int streams; /* --streams: parallel TCP connections (0: not given, 1) */
	int busy_poll;        /* --busy-poll: rr ends spin instead of sleeping */
	int udp;              /* --udp: also a UDP stream */
	int cpu_pin;          /* --cpu-pin: server and client on two different CPUs */
};

/*
 * Parses @argv into @opts without side effects (no file is opened, nothing is
 * printed), so that it can be unit-tested. Defaults follow DESIGN.md.
 */
int st_cli_parse(int argc, char **argv, struct st_opts *opts, struct st_error *err);

/* The --help text; its lines match man/sandboxtime.1. */
void st_cli_usage(FILE *out);

#endif
