// SPDX-License-Identifier: MIT
/*
 * st_probe_parse() on any line: what bench where reads from a microVM's
 * serial console or from qemu-user, where anything may arrive. A parse ends
 * in success, with an arch of its own and every refusal saying
 * "impossible: ...", or in an error that says why and formats as one line.
 */
#include "sandboxtime/where_probe.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_strndup(data, size);
	struct st_error err = { 0 };
	struct st_probe_result r;

	if (st_probe_parse(line, &r, &err) < 0) {
		if (!err.msg[0])
			abort(); /* every failure says why */
		fuzz_check_error(&err);
	} else {
		if (!r.arch[0] || strchr(r.arch, ' '))
			abort();
		for (int f = 0; f < ST_PROBE_FIGURES; f++)
			if (r.refused[f][0] && strncmp(r.refused[f], "impossible: ", 12) != 0)
				abort();
	}
	free(line);
	return 0;
}
