/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CLI_H
#define SANDBOXTIME_CLI_H

/*
 * The command line: one table of options (src/cmd/cli_options.c), each row
 * naming the commands that take it, and one options struct per command. Only
 * src/cmd and src/main.c include this header.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sandboxtime/error.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/output.h"
#include "sandboxtime/stats.h"

enum st_command {
	ST_CMD_RUN,    /* sandboxtime [OPTIONS] -- CMD [ARG...] */
	ST_CMD_LAYERS, /* sandboxtime layers [OPTIONS] */
	ST_CMD_CLEANUP, /* sandboxtime cleanup [--dry-run] */
	ST_CMD_ORPHANS, /* sandboxtime orphans [OPTIONS] */
	ST_CMD_NETBENCH, /* sandboxtime netbench [OPTIONS] */
	ST_CMD_BENCH,   /* sandboxtime bench NAME [OPTIONS] */
	ST_CMD_COMPARE, /* sandboxtime compare A.json B.json [C.json ...] [OPTIONS] */
	ST_CMD_HELP,
	ST_CMD_VERSION,
};

#define ST_CMD_BIT(c) (1u << (c))
/* The commands that take options (help and version are answers, not commands). */
#define ST_CMDS_ALL                                                                         \
	(ST_CMD_BIT(ST_CMD_RUN) | ST_CMD_BIT(ST_CMD_LAYERS) | ST_CMD_BIT(ST_CMD_CLEANUP) |   \
	 ST_CMD_BIT(ST_CMD_ORPHANS) | ST_CMD_BIT(ST_CMD_NETBENCH) | ST_CMD_BIT(ST_CMD_BENCH) |   \
	 ST_CMD_BIT(ST_CMD_COMPARE))

enum {
	ST_GIVEN_NS = 1 << 0,
	ST_GIVEN_NET = 1 << 1,
	ST_GIVEN_CAPS = 1 << 2,
	ST_GIVEN_NNP = 1 << 3,
	ST_GIVEN_SECCOMP = 1 << 4,
};

/* Which layers, how often: what a run, `layers` and `bench` measure. */
struct st_measure_opts {
	unsigned int ns_mask;     /* asked layers, before availability */
	unsigned int ns_explicit; /* named one by one: missing ones are errors */
	unsigned int repeat;
	unsigned int warmup;
	unsigned int deferred_repeat;
	struct st_seed seed; /* --seed: the order of the sets and the bootstrap */
	unsigned int cold_ms;
	int alone;
	int cgroup;                /* --cgroup: also measure the cgroup layer */
	const char *cgroup_parent; /* --cgroup=PARENT */
};

/* A run (`sandboxtime -- CMD`) and `layers`: measuring, plus the sandbox a run builds. */
struct st_run_opts {
	struct st_measure_opts measure;
	struct st_net_opts net;
	unsigned int net_steps_repeat; /* --net-steps-repeat: wire a lab N times, timed */
	const char *hostname; /* NULL: the default, "sandbox" */
	int no_init;
	unsigned int kill_after_s; /* --kill-after: grace after a terminating signal, 0: none */
	const char *cap_add;  /* --cap-add LIST */
	const char *cap_drop; /* --cap-drop LIST|ALL */
	int no_new_privs;     /* --no-new-privileges[=true|false], default on */
	const char *seccomp;  /* --seccomp=default|none|FILE */
	const char *config;   /* --config: an OCI runtime-spec config.json */
	int oci_runtime;      /* the config is an engine's bundle (runtime create): read as runc reads it */
	int no_pivot;         /* runtime create --no-pivot (accepted; the root is always pivoted) */
	const char *container_cgroup; /* runtime create: the cgroup path when the bundle names none ("/ID") */
	int cgroup;           /* --cgroup[=PARENT]: the cgroup resource layer */
	const char *cgroup_parent; /* PARENT, a cgroup path; NULL: our own cgroup */
	unsigned int given;   /* ST_GIVEN_*: options on the command line win over --config */
	char **argv; /* CMD and its arguments (run only) */
	int watch;            /* layers --watch: measure until SIGINT, SIGTERM or SIGHUP */
	double interval_s;    /* layers --watch --interval (default 3600) */
	int interval_given;
	const char *textfile; /* layers --textfile: Prometheus text, replaced atomically */
};

#define ST_MAX_CLEANUP_PATHS 8

struct st_orphans_opts {
	int all;     /* the table shows active namespaces too */
	int watch;   /* --watch: scan until SIGINT, SIGTERM or SIGHUP */
	double interval_s;    /* --watch --interval (default 60) */
	int interval_given;
	const char *textfile; /* --textfile: Prometheus text, replaced atomically */
	int cleanup;          /* --cleanup: remove orphans only bind mounts hold */
	int dry_run;          /* --cleanup --dry-run: list, delete nothing */
	unsigned int min_age_s; /* --cleanup --min-age (default 60) */
	int min_age_given;
	const char *cleanup_paths[ST_MAX_CLEANUP_PATHS]; /* --cleanup-path, repeatable */
	size_t ncleanup_paths;
};

/* netbench (0 or -1: not given; the defaults are filled in after parsing). */
struct st_netbench_opts {
	unsigned int paths; /* mask of enum st_nb_path */
	double duration_s;
	uint64_t size;
	int rr; /* -1 not given, 0 --no-rr, 1 --rr */
	unsigned int repeat;
	int repeat_given;
	unsigned int mtu;
	unsigned int streams; /* --streams: parallel TCP connections (0: not given, 1) */
	int busy_poll;        /* --busy-poll: rr ends spin instead of sleeping */
	int udp;              /* --udp: also a UDP stream */
	int cpu_pin;          /* --cpu-pin: server and client on two different CPUs */
	struct st_seed seed;  /* --seed: the paths' order in each round */
};

#define ST_BENCH_MAX_SIZES 16 /* ST_FORK_MAX_SIZES */
#define ST_BENCH_MAX_PARALLEL 8 /* ST_CHURN_MAX_LEVELS */
#define ST_BENCH_MAX_CHURN_S 300 /* ST_CHURN_MAX_DURATION_S */
#define ST_BENCH_MAX_MOUNTS 5 /* ST_MOUNTS_MAX_COUNTS, ST_MOUNTS_MAX_BACKGROUND */

/* sandboxtime bench NAME: an option row may name the ones that take it. */
enum st_bench_kind {
	ST_BENCH_NAME_SYSCALL,
	ST_BENCH_NAME_CPU,
	ST_BENCH_NAME_FORK,
	ST_BENCH_NAME_CHURN,
	ST_BENCH_NAME_FILES,
	ST_BENCH_NAME_USERNS,
	ST_BENCH_NAME_WHERE,
	ST_BENCH_NAME_MOUNTS,
	ST_BENCH_NAME_CGROUP,
	ST_BENCH_NAME_LAUNCH,
	ST_BENCH_NAME_ALL,
	ST_BENCH_NAME_KINDS,
};

#define ST_BENCH_NAME_BIT(k) (1u << (k))

struct st_bench_opts {
	const char *name; /* bench NAME */
	enum st_bench_kind kind;
	struct st_measure_opts measure; /* --ns and --repeat only */
	unsigned int sizes_mb[ST_BENCH_MAX_SIZES]; /* bench fork --sizes; none: the defaults */
	size_t nsizes;
	/* bench files, userns (issue 14.3, 14.4) */
	int repeat_given;   /* --repeat given: bench files has its own default */
	unsigned int files; /* bench files --files; 0: the default */
	unsigned int count;     /* bench churn --count (default 1000) */
	int count_given;
	double duration_s;      /* bench churn --duration, 0: --count */
	unsigned int max_alive; /* bench churn --max-alive (default 1000) */
	unsigned int parallel[ST_BENCH_MAX_PARALLEL]; /* bench churn --parallel */
	size_t nparallel;                              /* 0: the default, 1 */
	enum st_net_mode net;   /* bench churn --net: none (default), veth or bridge */
	/* bench where (issue 14.2) */
	const char *ns_text;  /* --ns as given: the sandbox place runs sandboxtime with it */
	const char *kernel;   /* --kernel: the microVM's kernel */
	const char *vm_accel; /* --vm-accel: kvm or tcg; NULL: kvm */
	/* bench mounts (issue 15.2); none given: the defaults */
	unsigned int mounts[ST_BENCH_MAX_MOUNTS];     /* --mounts */
	size_t nmounts;
	unsigned int background[ST_BENCH_MAX_MOUNTS]; /* --background */
	size_t nbackground;
	unsigned int launches; /* bench launch --launches: per place and round */
};

#define ST_CMP_MAX_FILES 16

/* compare: the files, and how the intervals are drawn. */
struct st_compare_opts {
	const char *files[ST_CMP_MAX_FILES]; /* A first */
	size_t nfiles;
	struct st_seed seed; /* --seed, else st_compare_files_seed() */
	unsigned int resamples; /* --resamples (default 2000) */
	double fail_pct;        /* --fail-if-slower, -1: not given */
};

struct st_cleanup_opts {
	int dry_run; /* list, delete nothing */
};

/* A parsed command line: the command, the options all share, and its own. */
struct st_opts {
	enum st_command command;
	enum st_command help_for; /* --help after a command word: that command's help only */
	struct st_output out;
	struct st_run_opts run; /* run and layers */
	struct st_orphans_opts orphans;
	struct st_netbench_opts netbench;
	struct st_bench_opts bench;
	struct st_cleanup_opts cleanup;
	struct st_compare_opts compare;
};

/* One option: a row of the table that getopt, --help and the checks read. */
enum {
	ST_OPT_HELP_BREAK = 1 << 0, /* --help: the text starts on the line after the option */
	ST_OPT_ANSWER = 1 << 1,     /* --help, --version: taken by every command, listed by none */
};

/*
 * What an option's value is: one parser per kind (src/cmd/cli_kinds.c) turns
 * the text into the type stored at the row's place, with the same one-line
 * errors for every option of that kind.
 */
enum st_opt_kind {
	ST_OPT_FLAG,     /* no value: an int set to 1 (0 with .clears) */
	ST_OPT_UINT,     /* an unsigned int from .min to .max */
	ST_OPT_U64,      /* a uint64_t from .min to .max */
	ST_OPT_DOUBLE,   /* a double from .dmin to .dmax, a .noun ("percentage") */
	ST_OPT_DURATION, /* seconds, fractions allowed: a double from .dmin (0: more than 0) to .dmax */
	ST_OPT_STRING,   /* the text itself; with a .noun it may not be empty, .check vets it */
	ST_OPT_CHOICE,   /* one word of .choices: its index, in an int */
	ST_OPT_LIST,     /* a comma list of counts (.list) in an unsigned int array */
	ST_OPT_CUSTOM,   /* the place's own .parse */
};

struct st_opts;
struct st_cli_list;

/* A custom option's parser: stores @arg at @at, the option's place in @o. */
typedef int st_cli_parse_fn(struct st_opts *o, void *at, const char *arg, struct st_error *err);

#define ST_CLI_MAX_PLACES 3

/*
 * Where a command keeps an option's value: offsets into struct st_opts (0:
 * none; nothing is kept in the command word at offset 0).
 */
struct st_cli_place {
	unsigned int commands; /* ST_CMD_BIT()s served; 0: every command of the row */
	size_t at;             /* the value */
	const char *def;       /* the default, as text; NULL: the row's */
	size_t given_at;       /* an int set to 1 when given, or with given_bit... */
	unsigned int given_bit; /* ...an unsigned this bit is set in */
	size_t text_at;        /* a const char * that keeps the text as given */
	size_t count_at;       /* ST_OPT_LIST: the size_t count of the array at .at */
	st_cli_parse_fn *parse; /* ST_OPT_CUSTOM */
};

struct st_cli_option {
	const char *name;      /* long name, without "--" */
	int short_name;        /* the short letter, 0 for none */
	int has_arg;           /* no_argument, required_argument or optional_argument */
	unsigned int commands; /* ST_CMD_BIT()s of the commands that take it */
	const char *arg_name;  /* --help's placeholder: LIST in --ns=LIST */
	/* --help's text; '\n' starts a continuation line, "{}" prints the default, "{N}" place N's */
	const char *help;
	unsigned int flags;    /* ST_OPT_* */
	const char *alt_arg;   /* a second form in --help (--net=join:PATH|PID), or NULL */
	const char *alt_help;
	unsigned int benches;  /* bench: ST_BENCH_NAME_BIT()s of the names that take it, 0: all */
	enum st_opt_kind kind;
	struct st_cli_place places[ST_CLI_MAX_PLACES];
	/*
	 * The default, as the user would write it: st_cli_defaults() parses it
	 * into every place (a place's own .def wins), and --help prints it. NULL:
	 * the value is zero, or "not given" until a command's checks decide.
	 */
	const char *def;
	const char *implied;   /* optional_argument given without a value: this text */
	uint64_t min, max;     /* ST_OPT_UINT, ST_OPT_U64 */
	double dmin, dmax;     /* ST_OPT_DOUBLE, ST_OPT_DURATION */
	const char *noun;      /* the errors' word: "file name" in "--output: empty file name" */
	const char *const *choices;    /* ST_OPT_CHOICE: NULL-terminated */
	const int *values;             /* ST_OPT_CHOICE: what each stores; NULL: its index */
	const struct st_cli_list *list; /* ST_OPT_LIST */
	int clears;            /* ST_OPT_FLAG: stores 0 (--no-rr) */
	int (*check)(const char *arg, struct st_error *err); /* ST_OPT_STRING */
};

extern const struct st_cli_option st_cli_options[];
extern const size_t st_cli_noptions;

/* "a run", "layers", ...: how messages name command @c. */
const char *st_cli_command_name(enum st_command c);

/*
 * Option @r's place for command @c: the first place that serves it, or NULL
 * (the answers --help and --version have none).
 */
const struct st_cli_place *st_cli_place_of(const struct st_cli_option *r, enum st_command c);

/* The default of @r's place @i as text (the place's own, else the row's), or NULL. */
const char *st_cli_default_text(const struct st_cli_option *r, size_t i);

/*
 * Stores @arg (NULL: no value) into the place of option @r for o->command,
 * parsed by the row's kind, and marks it given. A usage error names the option.
 */
int st_cli_store(struct st_opts *o, const struct st_cli_option *r, const char *arg,
		 struct st_error *err);

/*
 * Resets @o for every command: each row's default (docs/DESIGN.md) into its
 * places, the rest zero or the "not given" marks the commands' checks read.
 */
void st_cli_defaults(struct st_opts *o);

/*
 * Parses @argv into @opts without side effects (no file is opened, nothing is
 * printed), so that it can be unit-tested. Defaults follow docs/DESIGN.md.
 */
int st_cli_parse(int argc, char **argv, struct st_opts *opts, struct st_error *err);

/* The --help text, from the option table; its lines match man/sandboxtime.1. */
void st_cli_usage(FILE *out);
/*
 * --help as @o asked it: `sandboxtime --help` is st_cli_usage(); `sandboxtime
 * CMD --help` (and `bench NAME --help`) shows that command's usage line and
 * the options it takes only, from the same table.
 */
void st_cli_help(FILE *out, const struct st_opts *o);

#endif
