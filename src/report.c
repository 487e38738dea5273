// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <string.h>

#include "sandboxtime/report.h"

void st_report_add_error(struct st_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nerrors >= ST_MAX_REPORT_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->errors[r->nerrors++], ST_ERROR_MSG_MAX, fmt, ap);
	va_end(ap);
}

void st_report_layer_reason(const struct st_report *r, int layer, char *buf, size_t len)
{
	struct st_error e = { .errnum = r->layer_errnum[layer] };

	st_layer_hint(&e, e.errnum, (enum st_layer)layer);
	snprintf(buf, len, "%s%s%s%s", strerror(e.errnum), e.hint[0] ? " (" : "", e.hint,
		 e.hint[0] ? ")" : "");
}

double st_report_increment(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	const struct st_set *ref = st_set_reference(m, i);
	double v = st_set_median(&m->sets[i], fig);

	return ref ? v - st_set_median(ref, fig) : v;
}

int st_report_write(const struct st_report *r, FILE *out, struct st_error *err)
{
	switch (r->opts->format) {
	case ST_FORMAT_JSON:
		return st_report_write_json(r, out, err);
	case ST_FORMAT_CSV:
		return st_report_write_csv(r, out, err);
	case ST_FORMAT_TABLE:
	default:
		return st_report_write_table(r, out, isatty(fileno(out)), err);
	}
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

int st_orphans_write(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	switch (r->opts->format) {
	case ST_FORMAT_JSON:
		return st_orphans_write_json(r, out, err);
	case ST_FORMAT_CSV:
		return st_orphans_write_csv(r, out, err);
	case ST_FORMAT_PROMETHEUS:
		return st_orphans_write_prom(r, out, err);
	case ST_FORMAT_TABLE:
	default:
		return st_orphans_write_table(r, out, err);
	}
}
