// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition format 0.0.4: "# HELP" and "# TYPE" before each
 * metric family, label values escaped (backslash, double quote, line feed).
 * A node exporter's textfile collector or a scrape of -o FILE reads it.
 */
#include "sandboxtime/report.h"

size_t st_prom_escape_label(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in; in++) {
		const char *rep = NULL;
		char one[2] = { *in, '\0' };

		if (*in == '\\')
			rep = "\\\\";
		else if (*in == '"')
			rep = "\\\"";
		else if (*in == '\n')
			rep = "\\n";
		else
			rep = one;
		for (; *rep; rep++, n++)
			if (len && n < len - 1)
				out[n] = *rep;
	}
	if (len)
		out[n < len ? n : len - 1] = '\0';
	return n;
}

void st_prom_family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

void st_prom_gauge(FILE *out, const char *name, const char *help, size_t value)
{
	st_prom_family(out, name, help);
	fprintf(out, "%s %zu\n", name, value);
}
