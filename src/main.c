// SPDX-License-Identifier: MIT
/*
 * The edge: parse, dispatch, and print the one error line. Nothing below this
 * file prints an error or exits.
 */
#include <seccomp.h>
#include <stdio.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/runtime.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/version.h"

static void print_error(const struct st_error *err)
{
	char line[3 * ST_ERROR_MSG_MAX];

	st_error_format(err, line, sizeof(line));
	fprintf(stderr, "sandboxtime: %s\n", line);
	if (err->usage)
		fputs("Try 'sandboxtime --help' for more information.\n", stderr);
}

/* A lost write to stdout (a full disk, a closed pipe) is a failure too. */
static int close_stdout(int code)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fputs("sandboxtime: write error on standard output\n", stderr);
		return code ? code : ST_EXIT_FAILURE;
	}
	return code;
}

/* runc's command line (create, start, ...): the OCI runtime that engines drive (src/runtime/). */
static int runtime_main(int argc, char **argv)
{
	struct st_rt_global g = { 0 };
	struct st_error err = { 0 };
	int code = ST_EXIT_FAILURE;

	if (st_runtime_main(argc, argv, &g, &code, &err) < 0) {
		char line[3 * ST_ERROR_MSG_MAX];

		st_error_format(&err, line, sizeof(line));
		st_runtime_log_error(&g, line);
	}
	return close_stdout(code);
}

int main(int argc, char **argv)
{
	struct st_error err = { 0 };
	struct st_opts opts;
	int code = ST_EXIT_FAILURE;
	int ret;

	if (st_signals_block() < 0) {
		perror("sandboxtime: sigprocmask");
		return ST_EXIT_FAILURE;
	}
	if (st_runtime_argv(argc, argv))
		return runtime_main(argc, argv);
	if (st_cli_parse(argc, argv, &opts, &err) < 0) {
		print_error(&err);
		return ST_EXIT_FAILURE;
	}
	switch (opts.command) {
	case ST_CMD_HELP:
		st_cli_help(stdout, &opts);
		return close_stdout(ST_EXIT_OK);
	case ST_CMD_VERSION: {
		/* runc's form, which engines read (podman info): name and version, then the spec's and libseccomp's. */
		const struct scmp_version *v = seccomp_version();

		printf("sandboxtime version %s\nspec: 1.0.2\nlibseccomp: %u.%u.%u\n", ST_VERSION, v->major, v->minor,
		       v->micro);
		return close_stdout(ST_EXIT_OK);
	}
	case ST_CMD_LAYERS:
		ret = st_cmd_layers(&opts.run, &opts.out, &code, &err);
		break;
	case ST_CMD_NETBENCH:
		ret = st_cmd_netbench(&opts.netbench, &opts.out, &code, &err);
		break;
	case ST_CMD_BENCH:
		ret = st_cmd_bench(&opts.bench, &opts.out, &code, &err);
		break;
	case ST_CMD_CLEANUP:
		ret = st_cmd_cleanup(&opts.cleanup, &opts.out, &code, &err);
		break;
	case ST_CMD_COMPARE:
		ret = st_cmd_compare(&opts.compare, &opts.out, &code, &err);
		break;
	case ST_CMD_ORPHANS:
		ret = st_cmd_orphans(&opts.orphans, &opts.out, &code, &err);
		break;
	case ST_CMD_RUN:
	default:
		ret = st_cmd_run(&opts.run, &opts.out, &code, &err);
		break;
	}
	if (ret < 0)
		print_error(&err);
	return close_stdout(code);
}
