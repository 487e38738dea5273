// SPDX-License-Identifier: MIT
/*
 * sandboxtime report FILE...: the --report lines of many real containers
 * turned into one figure per operation and step: how many samples, the
 * median with its distribution-free 95% interval (the order statistics
 * that a binomial(n, 1/2) puts around the median; none below n = 6, where
 * no such interval reaches 95%), p95 and max. A table, or JSON that
 * `compare` and scripts read (schema sandboxtime/runtime-report/v1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/runtime.h"
#include "sandboxtime/runtime_args.h"
#include "sandboxtime/runtime_ops.h"
#include "sandboxtime/stats.h"
#include "sandboxtime/textfile.h"
#include "sandboxtime/util.h"

#define MAX_FIGURES 256

/* The samples of one (op, step). */
struct figure {
	char op[16];
	char step[32];
	double *v;
	size_t n, cap;
};

struct summary {
	struct figure f[MAX_FIGURES];
	size_t n;
	size_t lines, skipped;
};

static struct figure *figure_of(struct summary *s, const char *op, const char *step)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->f[i].op, op) == 0 && strcmp(s->f[i].step, step) == 0)
			return &s->f[i];
	if (s->n == MAX_FIGURES)
		return NULL;
	snprintf(s->f[s->n].op, sizeof(s->f[s->n].op), "%s", op);
	snprintf(s->f[s->n].step, sizeof(s->f[s->n].step), "%s", step);
	return &s->f[s->n++];
}

static int add(struct figure *f, double us)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		double *v = realloc(f->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n++] = us;
	return 0;
}

static int add_line(struct summary *s, json_t *doc)
{
	const char *op = json_string_value(json_object_get(doc, "op"));
	json_t *steps = json_object_get(doc, "steps"), *st;
	struct figure *f;
	size_t i;

	if (!op || !json_is_array(steps) || !json_is_number(json_object_get(doc, "total_us")))
		return -EINVAL;
	json_array_foreach(steps, i, st) {
		const char *name = json_string_value(json_object_get(st, "step"));

		if (!name || !json_is_number(json_object_get(st, "us")))
			return -EINVAL;
		if (!(f = figure_of(s, op, name)) || add(f, json_number_value(json_object_get(st, "us"))) < 0)
			return -ENOMEM;
	}
	if (!(f = figure_of(s, op, "total")) || add(f, json_number_value(json_object_get(doc, "total_us"))) < 0)
		return -ENOMEM;
	return 0;
}

/* Every line of @path; a line that is not a report line is counted and left out. */
static int read_file(struct summary *s, const char *path, struct st_error *err)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	if (!f)
		return st_error_set(err, errno, "report: cannot read %s", path);
	while (ret == 0 && (len = getline(&line, &cap, f)) > 0) {
		json_auto_t *doc = json_loadb(line, (size_t)len, 0, NULL);
		const char *schema = doc ? json_string_value(json_object_get(doc, "schema")) : NULL;

		if (!schema || strcmp(schema, "sandboxtime/runtime/v1") != 0 || add_line(s, doc) == -EINVAL) {
			s->skipped++;
			continue;
		}
		s->lines++;
	}
	free(line);
	return ret;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The 95% interval of the median: sorted samples x(k) .. x(n-k+1) with the
 * largest k whose binomial tail P(B <= k-1) stays <= 2.5%. 0 when none
 * reaches 95% (n < 6).
 */
static size_t median_rank(size_t n)
{
	double tail = 0, p = pow(0.5, (double)n); /* P(B = 0) */
	size_t k = 0;

	for (size_t j = 0; j < n; j++) {
		tail += p;
		if (tail > 0.025)
			break;
		k = j + 1;
		p = p * (double)(n - j) / (double)(j + 1);
	}
	return k;
}

static json_t *figure_json(struct figure *f)
{
	struct st_stats st;
	size_t k;
	json_t *o;

	double sum = 0;

	qsort(f->v, f->n, sizeof(*f->v), by_value);
	st_stats_compute(f->v, f->n, &st);
	for (size_t i = 0; i < f->n; i++)
		sum += f->v[i];
	k = median_rank(f->n);
	o = json_pack("{s:s,s:s,s:I,s:f,s:f,s:f,s:f}", "op", f->op, "step", f->step, "n", (json_int_t)f->n,
		      "median_us", st.median, "p95_us", st.p95, "max_us", st.max, "sum_us", sum);
	if (k) {
		json_object_set_new(o, "ci_low_us", json_real(f->v[k - 1]));
		json_object_set_new(o, "ci_high_us", json_real(f->v[f->n - k]));
	} else {
		char why[64];

		snprintf(why, sizeof(why), "n=%zu: 95%% needs n >= 6", f->n);
		json_object_set_new(o, "ci_low_us", json_null());
		json_object_set_new(o, "ci_high_us", json_null());
		json_object_set_new(o, "ci_why", json_string(why));
	}
	return o;
}

static void write_table(json_t *figures, const struct summary *s, FILE *out)
{
	size_t i;
	json_t *f;

	fprintf(out, "sandboxtime report: %zu operations%s\n\n", s->lines, s->skipped ? " (some lines were not report lines)" : "");
	fprintf(out, "%-8s %-24s %6s %12s %25s %12s\n", "OP", "STEP", "N", "MEDIAN us", "95% CI of the median", "MAX us");
	json_array_foreach(figures, i, f) {
		char ci[48] = "~? (n < 6)";
		json_t *lo = json_object_get(f, "ci_low_us");

		if (json_is_number(lo))
			snprintf(ci, sizeof(ci), "[%.1f, %.1f]", json_number_value(lo),
				 json_number_value(json_object_get(f, "ci_high_us")));
		fprintf(out, "%-8s %-24s %6lld %12.1f %25s %12.1f\n", json_string_value(json_object_get(f, "op")),
			json_string_value(json_object_get(f, "step")), (long long)json_integer_value(json_object_get(f, "n")),
			json_number_value(json_object_get(f, "median_us")), ci,
			json_number_value(json_object_get(f, "max_us")));
	}
}

/*
 * --textfile: Prometheus summaries in seconds, one per operation and step
 * (quantile 0.5 the median, 0.95 the p95), with _sum and _count, for
 * node_exporter's textfile collector.
 */
static int write_prom(const void *ctx, FILE *out, struct st_error *err)
{
	json_t *figures = (json_t *)ctx, *f;
	size_t i;

	fputs("# HELP sandboxtime_runtime_step_seconds A container operation's step, across the containers of the --report files.\n"
	      "# TYPE sandboxtime_runtime_step_seconds summary\n",
	      out);
	json_array_foreach(figures, i, f) {
		const char *op = json_string_value(json_object_get(f, "op"));
		const char *step = json_string_value(json_object_get(f, "step"));
		double n = (double)json_integer_value(json_object_get(f, "n"));

		fprintf(out, "sandboxtime_runtime_step_seconds{op=\"%s\",step=\"%s\",quantile=\"0.5\"} %.9g\n", op, step,
			json_number_value(json_object_get(f, "median_us")) / 1e6);
		fprintf(out, "sandboxtime_runtime_step_seconds{op=\"%s\",step=\"%s\",quantile=\"0.95\"} %.9g\n", op, step,
			json_number_value(json_object_get(f, "p95_us")) / 1e6);
		fprintf(out, "sandboxtime_runtime_step_seconds_sum{op=\"%s\",step=\"%s\"} %.9g\n", op, step,
			json_number_value(json_object_get(f, "sum_us")) / 1e6);
		fprintf(out, "sandboxtime_runtime_step_seconds_count{op=\"%s\",step=\"%s\"} %.0f\n", op, step, n);
	}
	return ferror(out) ? st_error_set(err, EIO, "report: --textfile") : 0;
}

int st_rt_cmd_report(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	static struct summary s;
	const char *format = "table", *textfile = NULL;
	const struct st_rt_flag flags[] = { ST_RT_FLAG_STR("format", 'f', &format),
					    ST_RT_FLAG_STR("textfile", 0, &textfile), { .name = NULL } };
	json_auto_t *figures = json_array();
	int next = 1, ret;

	*code = ST_EXIT_FAILURE;
	memset(&s, 0, sizeof(s));
	ret = st_rt_parse_flags("report", flags, argc, argv, &next, err);
	if (ret == 0 && strcmp(format, "table") && strcmp(format, "json"))
		ret = st_error_usage(err, "report: --format: '%s' (table or json)", format);
	if (ret == 0 && next >= argc)
		ret = st_error_usage(err, "report: give the --report files to summarize");
	for (int i = next; ret == 0 && i < argc; i++)
		ret = read_file(&s, argv[i], err);
	if (ret == 0 && !s.lines)
		ret = st_error_usage(err, "report: no sandboxtime/runtime/v1 line in %s", argv[next]);
	for (size_t i = 0; ret == 0 && i < s.n; i++)
		json_array_append_new(figures, figure_json(&s.f[i]));
	if (ret == 0 && textfile)
		ret = st_textfile_write("report", textfile, write_prom, figures, err);
	if (ret == 0 && strcmp(format, "json") == 0) {
		json_auto_t *doc = json_pack("{s:s,s:I,s:I,s:O}", "schema", "sandboxtime/runtime-report/v1", "operations",
					     (json_int_t)s.lines, "skipped_lines", (json_int_t)s.skipped, "figures", figures);

		json_dumpf(doc, stdout, JSON_INDENT(2));
		putchar('\n');
	} else if (ret == 0) {
		write_table(figures, &s, stdout);
	}
	for (size_t i = 0; i < s.n; i++)
		free(s.f[i].v);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}
