// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition format 0.0.4: "# HELP" and "# TYPE" before each
 * metric family, label values escaped (backslash, double quote, line feed).
 * A node exporter's textfile collector or a scrape of -o FILE reads it.
 */
#include <limits.h>
#include <string.h>

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

static void gauge(FILE *out, const char *name, const char *help, size_t value)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n%s %zu\n", name, help, name, name, value);
}

int st_orphans_write_prom(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	const struct st_orphans *s = r->scan;

	gauge(out, "sandboxtime_netns", "Network namespaces found (active and orphaned).",
	      s->active + s->orphans);
	gauge(out, "sandboxtime_netns_orphans",
	      "Network namespaces no process lives in, held by a mount, an fd or a socket.", s->orphans);
	gauge(out, "sandboxtime_netns_unreadable_processes",
	      "Processes the scan could not read (not the caller's, without root).",
	      s->unreadable_processes);
	gauge(out, "sandboxtime_leftover_links",
	      "stv/stbr links of a sandboxtime that is gone.", s->nleftovers);
	fputs("# HELP sandboxtime_netns_orphan_info An orphaned network namespace and one of its holders.\n"
	      "# TYPE sandboxtime_netns_orphan_info gauge\n",
	      out);
	for (size_t i = 0; i < s->n; i++) {
		const struct st_netns *ns = &s->v[i];

		if (ns->state != ST_NETNS_ORPHAN)
			continue;
		for (size_t k = 0; k < ns->nholders; k++) {
			char text[PATH_MAX + 64], label[2 * (PATH_MAX + 64)];

			st_holder_text(&ns->holders[k], text, sizeof(text));
			st_prom_escape_label(text, label, sizeof(label));
			fprintf(out, "sandboxtime_netns_orphan_info{inode=\"%llu\",holder=\"%s\"} 1\n",
				(unsigned long long)ns->ino, label);
		}
	}
	return ferror(out) ? st_error_set(err, EIO, "report: writing Prometheus text") : 0;
}
