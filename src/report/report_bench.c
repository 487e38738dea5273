// SPDX-License-Identifier: MIT
/*
 * The sandboxtime/bench/v1 document: one row per op and place, described
 * once by bench_cols[] for JSON and CSV. The table shows syscalls in
 * nanoseconds per call (CSV and JSON: microseconds), so it keeps its own
 * layout.
 */
#include <string.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"

/* A row: op @op at place @w of bench @b. */
struct bench_row {
	const struct st_bench_syscall *b;
	const struct st_syscall_place *w;
	int op;
};

#define ROW(row) ((const struct bench_row *)(row))
#define BENCH(doc) ((const struct st_bench_syscall *)(doc))

/* Microseconds per op, each sample a fresh child. */
static int row_stats(const struct bench_row *row, struct st_stats *st)
{
	const struct st_samples *s = &row->w->us[row->op];

	return st_stats_compute(s->v, s->n, st);
}

static double median_us(const struct st_syscall_place *w, int op)
{
	struct st_stats st;

	return st_stats_compute(w->us[op].v, w->us[op].n, &st) == 0 ? st.median : 0;
}

static void get_op(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = st_bench_op_names[ROW(row)->op];
}

static void get_where(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->w->name;
}

static const char *row_refused(const struct bench_row *r)
{
	return r->w->refused[r->op];
}

static void get_us(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_STATS;
	c->stats = &ROW(row)->w->us[ROW(row)->op];
	c->empty = c->null = row_refused(ROW(row))[0] != '\0';
}

/* Why the figure is not shown (bench_guard.h), or null. */
static void get_refused(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	c->text = row_refused(ROW(row));
	c->empty = c->null = !c->text[0];
}

enum { STAT_MEDIAN, STAT_P95, STAT_MIN, STAT_MEAN, STAT_STDDEV, STAT_N };

static void get_stat(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	struct st_stats st;

	c->kind = ST_CELL_REAL;
	if (row_refused(ROW(row))[0]) {
		c->empty = c->null = 1;
		return;
	}
	if (col->arg == STAT_MEDIAN && c->format == ST_FORMAT_JSON) {
		c->d = median_us(ROW(row)->w, ROW(row)->op);
		return;
	}
	row_stats(ROW(row), &st);
	switch (col->arg) {
	case STAT_MEDIAN:
		c->d = st.median;
		break;
	case STAT_P95:
		c->d = st.p95;
		break;
	case STAT_MIN:
		c->d = st.min;
		break;
	case STAT_MEAN:
		c->d = st.mean;
		break;
	case STAT_STDDEV:
		c->d = st.stddev;
		break;
	default:
		c->kind = ST_CELL_UINT;
		c->u = st.n;
		break;
	}
}

/* The median's cost over the same op on the host (the first place). */
static void get_over_host(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	const struct bench_row *r = ROW(row);

	c->kind = ST_CELL_REAL;
	c->empty = c->null = row_refused(r)[0] || r->b->where[0].refused[r->op][0];
	c->d = median_us(r->w, r->op) - median_us(&r->b->where[0], r->op);
}

/* Bandwidth of the copy: memcpy rows only. */
static void get_gbps(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_REAL;
	c->empty = c->absent = ROW(row)->op != ST_BENCH_MEMCPY;
	c->null = c->empty = c->empty || row_refused(ROW(row))[0];
	if (!c->empty)
		c->d = st_bench_memcpy_gbps(median_us(ROW(row)->w, ROW(row)->op));
}

/* The copy is checked (a checksum); a failed one refuses the figure. */
static void get_checksum(const struct st_col *col, const void *row, const void *doc,
			 struct st_cell *c)
{
	c->kind = ST_CELL_BOOL;
	c->i = strstr(row_refused(ROW(row)), "checksum") == NULL;
	c->absent = ROW(row)->op != ST_BENCH_MEMCPY;
}

/* What the kernel did to the measured task: the reason a filter can slow computation. */
static void get_ssb(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = ROW(row)->w->ssb;
	c->absent = ROW(row)->op < ST_BENCH_CPU;
}

static int is_cpu_bench(const void *doc)
{
	return BENCH(doc)->op_first == ST_BENCH_CPU;
}

#define C ST_COL_CSV
#define J ST_COL_JSON
#define STAT(n, a, h) { .name = n, .unit = "us", .csv_prec = 4, .in = C, .get = get_stat, .arg = a, \
			.help = h }

static const struct st_col bench_cols[] = {
	{ .name = "op", .key = "op", .in = C | J, .get = get_op, .help = "what each sample times" },
	{ .name = "where", .key = "where", .in = C | J, .get = get_where,
	  .help = "host, sandbox, or the sandbox with a seccomp filter" },
	{ .key = "us", .in = J, .get = get_us, .help = "microseconds per op, one sample per child" },
	{ .name = "median", .unit = "us", .key = "median_us", .csv_prec = 4, .in = C | J,
	  .get = get_stat, .arg = STAT_MEDIAN, .help = "median microseconds per op" },
	STAT("p95", STAT_P95, "95th percentile, microseconds per op"),
	STAT("min", STAT_MIN, "fastest sample, microseconds per op"),
	STAT("mean", STAT_MEAN, "mean microseconds per op"),
	STAT("stddev", STAT_STDDEV, "standard deviation, microseconds"),
	{ .name = "n", .in = C, .get = get_stat, .arg = STAT_N, .help = "samples" },
	{ .key = "over_host_us", .in = J, .get = get_over_host,
	  .help = "median minus the host's median of the same op" },
	{ .name = "median", .unit = "gbps", .key = "median_gbps", .csv_prec = 3, .in = C | J,
	  .get = get_gbps, .shown = is_cpu_bench, .help = "memcpy: GB copied per second" },
	{ .key = "checksum_ok", .in = J, .get = get_checksum, .help = "memcpy: the copy was checked" },
	{ .name = "speculation_store_bypass", .key = "speculation_store_bypass", .in = C | J,
	  .get = get_ssb, .shown = is_cpu_bench,
	  .help = "Speculation_Store_Bypass of /proc/self/status in the measured child" },
	{ .name = "refused", .key = "refused", .in = C | J, .get = get_refused,
	  .help = "why the figure is impossible and not shown, or null" },
};

#undef STAT
#undef C
#undef J

static json_t *bench_notes(const struct st_bench_syscall *b)
{
	char summary[768];

	st_bench_syscall_summary(b, summary, sizeof(summary));
	if (b->op_first == ST_BENCH_CPU)
		return json_pack(
		    "[s,s,s,s]", summary,
		    "Each sample is a fresh child: cpu_loop is the time of 2^22 steps of a "
		    "multiply-xorshift chain (registers only), memcpy_64mib the time of one copy "
		    "of 64 MiB between buffers larger than the last-level cache (median_gbps: "
		    "bytes copied per ns); both checked.",
		    "host: no namespace; sandbox: the layers in config.ns; seccomp:default: the "
		    "sandbox plus the default filter, loaded as sandboxtime run loads it (no "
		    "flags); seccomp:spec_allow: the same filter loaded with "
		    "SECCOMP_FILTER_FLAG_SPEC_ALLOW.",
		    "speculation_store_bypass: the task's line in /proc/self/status. Kernels "
		    "before 5.16 (or booted with spec_store_bypass_disable=seccomp) turn the "
		    "mitigation on for every task that loads a filter without SPEC_ALLOW; where it "
		    "says vulnerable or not affected, the filter cannot slow this work.");
	return json_pack(
	    "[s,s,s,s]", summary,
	    "Each sample is a fresh child that runs the calls back to back and divides by "
	    "their number; a checksum over the results guards against loops the compiler "
	    "could drop.",
	    "host: no namespace; sandbox: the layers in config.ns; seccomp:N: the sandbox "
	    "plus a filter of N rules that never fire (default allow; each rule compares "
	    "an argument with a value no call passes), so each call walks past them; "
	    "seccomp:default: the built-in profile.",
	    "Not shown: the cost of seccomp on computation that makes no syscalls, and of "
	    "SECCOMP_FILTER_FLAG_SPEC_ALLOW (see bench cpu); sandboxtime does not set that "
	    "flag (as runc; crun sets it unless the config lists flags).");
}

/* "sandboxtime/bench/v1": one row per op and place, with its cost over the host's. */
json_t *st_bench_json(const struct st_host *h, const struct st_bench_syscall *b)
{
	json_t *rows = json_array();

	for (int op = b->op_first; op < b->op_end; op++)
		for (size_t i = 0; i < b->nwhere; i++) {
			struct bench_row row = { .b = b, .w = &b->where[i], .op = op };

			json_array_append_new(rows, st_json_row(ST_COLS(bench_cols), &row, b));
		}
	return json_pack("{s:s,s:o,s:o,s:s,s:{s:I,s:I,s:o},s:o,s:o}", "schema", ST_SCHEMA_BENCH,
			 "tool", st_report_tool_json(), "host", st_report_host_json(h), "bench",
			 b->name, "config", "repeat", (json_int_t)b->repeat, "calls",
			 (json_int_t)b->calls, "ns", st_report_layer_names_json(b->mask), "rows", rows, "notes",
			 bench_notes(b));
}

void st_bench_write_csv(const struct st_bench_syscall *b, FILE *out)
{
	st_csv_header(out, ST_COLS(bench_cols), b);
	for (int op = b->op_first; op < b->op_end; op++)
		for (size_t i = 0; i < b->nwhere; i++) {
			struct bench_row row = { .b = b, .w = &b->where[i], .op = op };

			st_csv_row(out, ST_COLS(bench_cols), &row, b);
		}
}

void st_bench_write_table(const struct st_bench_syscall *b, FILE *out)
{
	int cpu = b->op_first == ST_BENCH_CPU;
	double scale = cpu ? 1 : 1000; /* syscalls in nanoseconds per call */
	char summary[768];

	if (cpu)
		fprintf(out, "%u samples, interleaved; microseconds per 2^22-step loop or 64 MiB copy\n\n",
			b->repeat);
	else
		fprintf(out, "%u samples of %u calls each, interleaved; nanoseconds per call\n\n",
			b->repeat, b->calls);
	fprintf(out, "%-14s %-20s %10s %10s %12s%s\n", "OP", "WHERE", "median", "p95", "over host",
		cpu ? "    GB/s  SPECULATION_STORE_BYPASS" : "");
	for (int op = b->op_first; op < b->op_end; op++) {
		struct st_stats host;

		st_stats_compute(b->where[0].us[op].v, b->where[0].us[op].n, &host);
		for (size_t i = 0; i < b->nwhere; i++) {
			struct bench_row row = { .b = b, .w = &b->where[i], .op = op };
			struct st_stats st;

			row_stats(&row, &st);
			if (row_refused(&row)[0]) {
				fprintf(out, "%-14s %-20s %s\n", st_bench_op_names[op], b->where[i].name,
					row_refused(&row));
				continue;
			}
			fprintf(out, "%-14s %-20s %10.1f %10.1f %+12.1f", st_bench_op_names[op],
				b->where[i].name, st.median * scale, st.p95 * scale,
				(st.median - host.median) * scale);
			if (op == ST_BENCH_MEMCPY)
				fprintf(out, "  %6.2f  %s", st_bench_memcpy_gbps(st.median), b->where[i].ssb);
			else if (cpu)
				fprintf(out, "  %6s  %s", "", b->where[i].ssb);
			fputc('\n', out);
		}
	}
	st_bench_syscall_summary(b, summary, sizeof(summary));
	fprintf(out, "\n%s\n", summary);
}
