// SPDX-License-Identifier: MIT
/*
 * The column table's core: a getter fills a cell, the format files render
 * it. Progress on a terminal lives here too: every measuring command shows it.
 */
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/report.h"
#include "sandboxtime/version.h"

int st_col_shown(const struct st_col *col, const void *doc, unsigned int in)
{
	return (col->in & in) && (!col->shown || col->shown(doc));
}

void st_cell_get(const struct st_col *col, const void *row, const void *doc,
		 enum st_format format, struct st_cell *cell)
{
	memset(cell, 0, offsetof(struct st_cell, buf));
	cell->buf[0] = '\0';
	cell->format = format;
	cell->kind = ST_CELL_TEXT;
	cell->text = "";
	col->get(col, row, doc, cell);
}

void st_cell_release(struct st_cell *cell)
{
	json_decref(cell->json);
	cell->json = NULL;
	free(cell->owned);
	cell->owned = NULL;
}

void st_report_steal_line(FILE *out, const struct st_steal *s)
{
	if (st_steal_flagged(s))
		fprintf(out, "STEAL: the hypervisor took %.1f%% of the CPU time in this run (%.0f ms): figures may include another guest's work\n",
			100.0 * s->share, s->ms);
}

void st_report_host_line(FILE *out, const struct st_host *h)
{
	fprintf(out, "sandboxtime %s: kernel %s, %d CPUs (%s)%s, %s, ", ST_VERSION, h->kernel, h->cpus,
		h->cpu_model[0] ? h->cpu_model : "unknown model", h->virtualized == 1 ? " in a VM" : "",
		h->rootless ? "rootless" : "root");
	if (h->pinned_cpu >= 0)
		fprintf(out, "pinned to CPU %d", h->pinned_cpu);
	else
		fputs("not pinned", out);
	fprintf(out, ", rcu_expedited %d, cgroup %s\n", h->rcu_expedited, h->cgroup);
	st_report_steal_line(out, &h->steal);
	if (h->clone_call && strcmp(h->clone_call, "clone3") != 0)
		fputs("clone3 is missing here (old kernel or a filter): every layer is made with clone()\n", out);
}

static int progress_shown;

void st_report_progress(void *ctx _unused_, const char *phase, unsigned int done,
			unsigned int total)
{
	/* Redraw at most ~100 times per pass: a terminal write costs more than a clone. */
	if (done != total && total > 100 && done % (total / 100))
		return;
	fprintf(stderr, "\rsandboxtime: measuring %-8s %3u%%", phase, total ? done * 100 / total : 100);
	fflush(stderr);
	progress_shown = 1;
}

void st_report_progress_done(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = 0;
}
