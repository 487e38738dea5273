// SPDX-License-Identifier: MIT
/*
 * st_cli_parse() on any command line: the input is split into words at NUL
 * bytes (so that words may hold blanks and newlines) after "sandboxtime".
 * A parse must end in success or in one usage error that formats as one line,
 * and a run it accepts has a command, on the line or from --config.
 */
#include "sandboxtime/cli.h"
#include "fuzz.h"

#define MAX_WORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *words[MAX_WORDS + 2];
	char *text = fuzz_strndup(data, size);
	struct st_error err = { 0 };
	struct st_opts opts;
	int argc = 0;
	char *p = text;
	int ret;

	words[argc++] = "sandboxtime";
	while (argc < MAX_WORDS + 1 && p <= text + size) {
		words[argc++] = p;
		p += strlen(p) + 1;
	}
	words[argc] = NULL;
	ret = st_cli_parse(argc, words, &opts, &err);
	if (ret < 0) {
		if (!err.msg[0])
			abort(); /* every failure says why */
		fuzz_check_error(&err);
	} else if (opts.command == ST_CMD_RUN && !opts.run.config && (!opts.run.argv || !opts.run.argv[0])) {
		abort(); /* a run always has a CMD, or --config's process.args */
	}
	free(text);
	return 0;
}
