// SPDX-License-Identifier: MIT
#include <string.h>

#include "sandboxtime/report.h"

/* Per figure: these statistics, each a column "<figure>_<stat>_us". */
static const char *const stat_names[] = { "min", "median", "p95", "mean", "stddev" };

/* RFC 4180: quote a field that holds a comma, a quote or a line break. */
static void field(FILE *out, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (; *text; text++) {
		if (*text == '"')
			fputc('"', out);
		fputc(*text, out);
	}
	fputc('"', out);
}

static void header(FILE *out)
{
	fputs("layer,alone,available,reason", out);
	for (int f = 0; f < ST_FIG_COUNT; f++) {
		/* "setup_us" -> "setup_median_us": units stay last, in the header only. */
		int base_len = (int)(strlen(st_figures[f].key) - 3);

		for (size_t k = 0; k < ARRAY_SIZE(stat_names); k++)
			fprintf(out, ",%.*s_%s_us", base_len, st_figures[f].key, stat_names[k]);
		fprintf(out, ",%.*s_n", base_len, st_figures[f].key);
	}
	fputs(",incremental_setup_us,incremental_teardown_us,incremental_deferred_us\n", out);
}

static void row(const struct st_measurement *m, size_t i, FILE *out)
{
	const struct st_set *set = &m->sets[i];

	fprintf(out, "%s,%d,1,", set->name, set->alone);
	for (int f = 0; f < ST_FIG_COUNT; f++) {
		struct st_stats s;

		if (!set->fig[f].n || st_stats_compute(set->fig[f].v, set->fig[f].n, &s) < 0) {
			fputs(",,,,,,", out);
			continue;
		}
		fprintf(out, ",%.3f,%.3f,%.3f,%.3f,%.3f,%zu", s.min, s.median, s.p95, s.mean, s.stddev, s.n);
	}
	fprintf(out, ",%.3f,%.3f,", st_report_increment(m, i, ST_FIG_SETUP),
		st_report_increment(m, i, ST_FIG_TEARDOWN));
	if (set->mask && set->fig[ST_FIG_DEFERRED].n)
		fprintf(out, "%.3f", st_report_increment(m, i, ST_FIG_DEFERRED));
	fputc('\n', out);
}

/* A layer the kernel refused: its name and why, every figure empty. */
static void unavailable_row(const struct st_report *r, int l, FILE *out)
{
	char reason[ST_ERROR_MSG_MAX * 2];

	st_report_layer_reason(r, l, reason, sizeof(reason));
	fprintf(out, "%s,0,0,", st_layers[l].name);
	field(out, reason);
	for (int f = 0; f < ST_FIG_COUNT; f++)
		fputs(",,,,,,", out);
	fputs(",,,\n", out);
}

/* bench: one row per op and place; units in the header only. */
static void bench_csv(const struct st_bench_syscall *b, FILE *out)
{
	fputs("op,where,median_us,p95_us,min_us,mean_us,stddev_us,n\n", out);
	for (int op = 0; op < ST_BENCH_OPS; op++) {
		for (size_t i = 0; i < b->nwhere; i++) {
			struct st_stats st;

			st_stats_compute(b->where[i].us[op].v, b->where[i].us[op].n, &st);
			fprintf(out, "%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%zu\n", st_bench_op_names[op], b->where[i].name,
				st.median, st.p95, st.min, st.mean, st.stddev, st.n);
		}
	}
}

int st_report_write_csv(const struct st_report *r, FILE *out, struct st_error *err)
{
	if (r->bench) {
		bench_csv(r->bench, out);
		return ferror(out) ? st_error_set(err, EIO, "report: writing CSV") : 0;
	}
	header(out);
	for (size_t i = 0; r->m && i < r->m->nsets; i++)
		row(r->m, i, out);
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (r->unavailable & ST_LAYER_BIT(l))
			unavailable_row(r, l, out);
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing CSV");
	return 0;
}
