// SPDX-License-Identifier: MIT
/*
 * bench churn's document (schema sandboxtime/bench/v1, "bench": "churn"):
 * one row per creator count, described once by churn_cols[] for the table,
 * CSV and JSON; JSON adds each row's time series (the plot's input).
 */
#include <string.h>

#include "sandboxtime/churn_net.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/report_bench_churn.h"

#define LV(row) ((const struct st_churn_level *)(row))

enum figure {
	F_PARALLEL,
	F_CREATED,
	F_REAPED,
	F_FREED,
	F_THROTTLED,
	F_BACKLOG_MAX,
	F_BACKLOG_END,
	F_SAMPLES,
	F_POINTS,
	F_BARE_CREATED,
	F_COLLISIONS,
};

enum real {
	R_WALL_S,
	R_RATE,
	R_DRAIN_MS,
	R_GROWTH,
	R_BARE_RATE,
	R_OVERHEAD,
	R_PAUSED_MS,
	R_BARE_BEFORE,
	R_BARE_AFTER,
};

/* A quantile column: histogram (0 create, 1 cycle, 2 wire) * 8 + which. */
enum { Q_P50, Q_P99, Q_P999, Q_MAX, Q_MIN, Q_MEAN, Q_N };
#define QARG(h, q) ((h) * 8 + (q))

static double rate(const struct st_churn_level *l)
{
	return l->wall_ns ? (double)l->created * 1e9 / (double)l->wall_ns : 0;
}

static void get_u(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_churn_level *l = LV(row);
	const uint64_t v[] = {
		[F_PARALLEL] = l->parallel,	  [F_CREATED] = l->created, [F_REAPED] = l->reaped,
		[F_FREED] = l->freed,		  [F_THROTTLED] = l->throttled,
		[F_BACKLOG_MAX] = l->backlog_max, [F_BACKLOG_END] = l->backlog_end,
		[F_SAMPLES] = l->samples,	  [F_POINTS] = l->npoints,
		[F_BARE_CREATED] = l->bare_created[0] + l->bare_created[1],
		[F_COLLISIONS] = l->collisions,
	};

	c->kind = ST_CELL_UINT;
	c->u = v[col->arg];
}

static void get_real(const struct st_col *col, const void *row, const void *doc,
		     struct st_cell *c)
{
	const struct st_churn_level *l = LV(row);
	/* Up to the last reap: the drain's points are not creation. */
	double until = (double)l->wall_ns / 1e9;
	const double v[] = {
		[R_WALL_S] = (double)l->wall_ns / 1e9,
		[R_RATE] = rate(l),
		[R_DRAIN_MS] = (double)l->drain_ns / 1e6,
		[R_GROWTH] = st_churn_backlog_slope(l->series, l->npoints, until),
		[R_BARE_RATE] = st_churn_bare_rate(l),
		[R_OVERHEAD] = st_churn_overhead_pct(l),
		[R_PAUSED_MS] = (double)l->paused_ns / 1e6,
		[R_BARE_BEFORE] = l->bare_wall_ns[0] ? (double)l->bare_created[0] * 1e9 / (double)l->bare_wall_ns[0] : 0,
		[R_BARE_AFTER] = l->bare_wall_ns[1] ? (double)l->bare_created[1] * 1e9 / (double)l->bare_wall_ns[1] : 0,
	};

	c->kind = ST_CELL_REAL;
	c->d = v[col->arg];
}

static void get_q(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_hist *hists[] = { &LV(row)->create, &LV(row)->cycle, &LV(row)->wire };
	const struct st_hist *h = hists[col->arg / 8];

	c->kind = ST_CELL_REAL;
	c->empty = c->null = h->n == 0;
	switch (col->arg % 8) {
	case Q_P50:
		c->d = st_hist_quantile_ns(h, 0.5) / 1e3;
		break;
	case Q_P99:
		c->d = st_hist_quantile_ns(h, 0.99) / 1e3;
		break;
	case Q_P999:
		c->d = st_hist_quantile_ns(h, 0.999) / 1e3;
		break;
	case Q_MAX:
		c->d = (double)h->max_ns / 1e3;
		break;
	case Q_MIN:
		c->d = (double)h->min_ns / 1e3;
		break;
	case Q_MEAN:
		c->d = st_hist_mean_ns(h) / 1e3;
		break;
	default:
		c->kind = ST_CELL_UINT;
		c->u = h->n;
		c->empty = c->null = 0;
		break;
	}
}

static void get_net(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_TEXT;
	c->text = st_net_mode_names[((const struct st_bench_churn *)doc)->net];
}

/* Lab ends left after the drain: only a wired run has any to count. */
static void get_links_end(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = LV(row)->links_end;
	c->empty = c->null = !st_net_wired(((const struct st_bench_churn *)doc)->net);
}

static void get_truncated(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	c->kind = ST_CELL_BOOL;
	c->i = LV(row)->truncated;
}

/* The plot's input: one object per point. */
static void get_series(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	const struct st_churn_level *l = LV(row);
	json_t *a = json_array();

	for (size_t i = 0; i < l->npoints; i++) {
		const struct st_churn_point *p = &l->series[i];

		json_array_append_new(a, json_pack("{s:f,s:I,s:I,s:I,s:I}", "t_s", p->t_s, "created",
						   (json_int_t)p->created, "reaped",
						   (json_int_t)p->reaped, "freed", (json_int_t)p->freed,
						   "backlog", (json_int_t)p->backlog));
	}
	c->kind = ST_CELL_JSON;
	c->json = a;
}

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON
#define U(nm, k, h, w, f, hl) { .name = nm, .key = k, .heading = h, .width = w, .in = T | C | J, \
				.get = get_u, .arg = f, .help = hl }
#define UCJ(nm, k, f, hl) { .name = nm, .key = k, .in = C | J, .get = get_u, .arg = f, .help = hl }
#define R(nm, un, k, h, w, p, f, hl) { .name = nm, .unit = un, .key = k, .heading = h, .width = w, \
				       .prec = p, .csv_prec = 3, .in = T | C | J, .get = get_real, \
				       .arg = f, .help = hl }
#define Q(nm, k, h, hist, q, in_) { .name = nm, .unit = "us", .key = k, .heading = h, .width = 9, \
				    .prec = 1, .csv_prec = 2, .in = in_, .get = get_q, \
				    .arg = QARG(hist, q), .help = "microseconds" }

static const struct st_col churn_cols[] = {
	U("parallel", "parallel", "PARALLEL", 8, F_PARALLEL, "creator processes at once"),
	U("created", "created", "CREATED", 8, F_CREATED, "sandboxes made by the measured run"),
	UCJ("reaped", "reaped", F_REAPED, "of them reaped by their creator"),
	UCJ("freed", "freed", F_FREED, "of them freed by the kernel (their user namespace gone)"),
	R("wall", "s", "wall_s", "WALL_s", 7, 2, R_WALL_S, "the first clone3() until the last reap"),
	R("rate", "per_s", "rate_per_s", "PER_S", 8, 0, R_RATE, "created over wall_s"),
	Q("create_p50", "create_us.p50", "p50_us", 0, Q_P50, T | C | J),
	Q("create_p99", "create_us.p99", "p99_us", 0, Q_P99, T | C | J),
	Q("create_p999", "create_us.p999", "p99.9_us", 0, Q_P999, T | C | J),
	Q("create_max", "create_us.max", "max_us", 0, Q_MAX, T | C | J),
	Q("create_min", "create_us.min", NULL, 0, Q_MIN, C | J),
	Q("create_mean", "create_us.mean", NULL, 0, Q_MEAN, C | J),
	{ .name = "create_n", .key = "create_us.n", .in = C | J, .get = get_q, .arg = QARG(0, Q_N),
	  .help = "creations in the histogram" },
	Q("cycle_p50", "cycle_us.p50", "cycle_p50", 1, Q_P50, T | C | J),
	Q("cycle_p99", "cycle_us.p99", NULL, 1, Q_P99, C | J),
	Q("cycle_max", "cycle_us.max", NULL, 1, Q_MAX, C | J),
	Q("wire_p50", "wire_us.p50", NULL, 2, Q_P50, C | J),
	Q("wire_p99", "wire_us.p99", NULL, 2, Q_P99, C | J),
	Q("wire_max", "wire_us.max", NULL, 2, Q_MAX, C | J),
	U("backlog_max", "backlog_max", "BACKLOG", 7, F_BACKLOG_MAX,
	  "the most sandboxes reaped but not yet freed at a sample"),
	R("backlog_growth", "per_s", "backlog_growth_per_s", "GROW/s", 7, 0, R_GROWTH,
	  "least-squares slope of backlog while creating"),
	R("drain", "ms", "drain_ms", "DRAIN_ms", 8, 1, R_DRAIN_MS,
	  "the last reap until the kernel had freed everything"),
	UCJ("backlog_end", "backlog_end", F_BACKLOG_END, "sandboxes not freed after the drain (0)"),
	UCJ("throttled", "throttled", F_THROTTLED,
	    "clone3() calls refused because --max-alive sandboxes were counted"),
	R("bare_rate", "per_s", "bare.rate_per_s", "BARE/s", 8, 0, R_BARE_RATE,
	  "the bare clone loops before and after, together"),
	UCJ("bare_created", "bare.created", F_BARE_CREATED, "sandboxes the two bare loops made"),
	{ .name = "bare_before_rate", .unit = "per_s", .key = "bare.before_rate_per_s", .csv_prec = 3,
	  .in = C | J, .get = get_real, .arg = R_BARE_BEFORE, .help = "the bare loop before" },
	{ .name = "bare_after_rate", .unit = "per_s", .key = "bare.after_rate_per_s", .csv_prec = 3,
	  .in = C | J, .get = get_real, .arg = R_BARE_AFTER, .help = "the bare loop after" },
	R("overhead", "pct", "overhead_pct", "OVERHEAD", 8, 1, R_OVERHEAD,
	  "time per sandbox over the bare loops', minus one"),
	UCJ("samples", "samples", F_SAMPLES, "counts read while creating"),
	UCJ("collisions", "collisions", F_COLLISIONS,
	    "clone3() calls refused by a count's lowered limit, tried again"),
	{ .name = "paused", .unit = "ms", .key = "paused_ms", .csv_prec = 3, .in = C | J,
	  .get = get_real, .arg = R_PAUSED_MS, .help = "new clones held off while counts were read" },
	{ .name = "net", .key = "net", .in = C | J, .get = get_net, .align = ST_ALIGN_LEFT,
	  .help = "--net: none, veth or bridge" },
	{ .name = "links_end", .key = "links_end", .in = C | J, .get = get_links_end,
	  .help = "veth ends left in the lab after the drain (0; null without --net=veth|bridge)" },
	{ .key = "series_truncated", .in = J, .get = get_truncated,
	  .help = "more points than the series holds" },
	{ .key = "series", .in = J, .get = get_series, .help = "[{t_s, created, reaped, freed, backlog}]" },
};

#undef U
#undef UCJ
#undef R
#undef Q
#undef T
#undef C
#undef J

static const char method_note[] =
	"Every sandbox is a clone3() with CLONE_NEWUSER and the layers of config.ns whose child "
	"_exit()s at once, reaped by its creator, in a lab: a process in a user namespace of its "
	"own. A user namespace is freed only after all it owns, so the user namespaces counted in "
	"the lab's are the sandboxes alive or not yet freed; the count is read through the "
	"kernel's limit check (a chrooted prober's unshare(CLONE_NEWUSER) fails with ENOSPC at the "
	"limit, EPERM below it, a binary search over the lab's own max_user_namespaces) while new "
	"clones are held off, every config.sample_interval_ms; one under way goes on, so backlog = "
	"counted - alive is exact to within config.parallel, and one that the lowered limit refused "
	"is tried again (collisions). The "
	"lab's max_user_namespaces is config.max_alive throughout: the kernel refuses more.";

static const char bare_note[] =
	"Per creator count, each from an empty backlog: a bare loop (the same clone3/_exit/waitpid, "
	"no clock and no counter), the measured run, the bare loop again. overhead_pct is the "
	"measured run's time per sandbox over the bare loops' (it includes the hold-offs, "
	"paused_ms); noise on a shared machine can make it negative.";

static const char net_note[] =
	"--net=%s: the lab is a network namespace of its own too, and every sandbox, in the "
	"measured run and in the bare loops alike, gets a veth pair from its creator over "
	"rtnetlink (RTM_NEWLINK, eth0 born in the sandbox's network namespace through "
	"IFLA_NET_NS_FD of /proc/PID/ns/net, the other end in the lab's network namespace%s) while its child waits "
	"on a pipe; wire_us is that, after clone3(). The lab end is not deleted: it goes with the "
	"sandbox's network namespace in the kernel's cleanup_net, which ends before that "
	"namespace releases its user namespace, so the pair's removal is in the backlog and "
	"drain_ms, where cleanup_net removes the pairs of many namespaces in one batch (deleting each "
	"lab end with RTM_DELLINK instead would make every creator wait for an unregister of its "
	"own); links_end counts the veth ends still in the lab after the drain.";

static json_t *limits_json(const struct st_bench_churn *b)
{
	const struct st_churn_limits *l = &b->limits;
	json_t *o = json_pack("{s:I,s:I,s:I,s:I,s:I}", "pid_max", (json_int_t)l->pid_max, "tasks",
			      (json_int_t)l->threads, "need_pids", (json_int_t)l->need_pids,
			      "mem_available_mb", (json_int_t)l->mem_available_mb, "need_mb",
			      (json_int_t)l->need_mb);

	for (int i = 0; i < ST_LAYER_COUNT; i++)
		if ((b->mask & ST_LAYER_BIT(i)) && l->max_ns[i] != UINT64_MAX)
			json_object_set_new(o, st_layers[i].max_file, json_integer((json_int_t)l->max_ns[i]));
	return o;
}

static json_t *config_json(const struct st_bench_churn *b)
{
	json_t *par = json_array();

	for (size_t i = 0; i < b->nlevels; i++)
		json_array_append_new(par, json_integer(b->parallel[i]));
	return json_pack("{s:o,s:s,s:o,s:o,s:o,s:I,s:f,s:o}", "ns", st_report_layer_names_json(b->mask),
			 "net", st_net_mode_names[b->net],
			 "count", b->duration_ns ? json_null() : json_integer((json_int_t)b->count),
			 "duration_s", b->duration_ns ? json_real((double)b->duration_ns / 1e9) : json_null(),
			 "parallel", par, "max_alive", (json_int_t)b->max_alive, "sample_interval_ms",
			 ST_CHURN_SAMPLE_NS / 1e6, "limits", limits_json(b));
}

void st_bench_churn_net_note(const struct st_bench_churn *b, char *buf, size_t len)
{
	if (!st_net_wired(b->net)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, net_note, st_net_mode_names[b->net],
		 b->net == ST_NET_BRIDGE ? ", enslaved to the lab's one bridge " ST_CHURN_BRIDGE : "");
}

void st_bench_churn_summary(const struct st_bench_churn *b, char *buf, size_t len)
{
	const struct st_churn_level *l = &b->levels[b->done - 1];
	char ns[96];
	size_t n = 0;

	ns[0] = '\0';
	for (int i = 0; i < ST_LAYER_COUNT; i++)
		if (b->mask & ST_LAYER_BIT(i))
			n += (size_t)snprintf(ns + n, sizeof(ns) - n, "%s%s", n ? "," : "", st_layers[i].name);
	if (st_net_wired(b->net))
		n += (size_t)snprintf(ns + n, sizeof(ns) - n, " with a %s pair each",
				      b->net == ST_NET_BRIDGE ? "bridged veth" : "veth");
	snprintf(buf, len,
		 "On this machine %u creator%s made and destroyed %.0f sandboxes (%s) a second; one "
		 "creation took %.1f us (p50), %.1f us (p99); at most %llu were reaped but not yet "
		 "freed, and the kernel had freed the last %.1f ms after the last reap; sandboxtime "
		 "cost %+.1f%% per sandbox over a bare clone loop.",
		 l->parallel, l->parallel == 1 ? "" : "s", rate(l), ns, st_hist_quantile_ns(&l->create, 0.5) / 1e3,
		 st_hist_quantile_ns(&l->create, 0.99) / 1e3, (unsigned long long)l->backlog_max,
		 (double)l->drain_ns / 1e6, st_churn_overhead_pct(l));
}

json_t *st_bench_churn_json(const struct st_bench_churn_report *r)
{
	const struct st_bench_churn *b = r->b;
	json_t *rows = json_array();
	char summary[512], net[sizeof(net_note) + 64];

	for (size_t i = 0; i < b->done; i++)
		json_array_append_new(rows, st_json_row(ST_COLS(churn_cols), &b->levels[i], b));
	st_bench_churn_summary(b, summary, sizeof(summary));
	st_bench_churn_net_note(b, net, sizeof(net));
	return json_pack("{s:s,s:o,s:o,s:s,s:o,s:o,s:o}", "schema", ST_SCHEMA_BENCH, "tool",
			 st_report_tool_json(), "host", st_report_host_json(r->host), "bench", "churn",
			 "config", config_json(b), "rows", rows, "notes",
			 *net ? json_pack("[s,s,s,s]", summary, method_note, bare_note, net)
			      : json_pack("[s,s,s]", summary, method_note, bare_note));
}

int st_bench_churn_write_table(const struct st_bench_churn_report *r, FILE *out, unsigned int style)
{
	const struct st_bench_churn *b = r->b;
	char summary[512];
	char what[64];

	st_report_host_line(out, r->host);

	if (b->duration_ns)
		snprintf(what, sizeof(what), "%.1f s of creation", (double)b->duration_ns / 1e9);
	else
		snprintf(what, sizeof(what), "%llu sandboxes", (unsigned long long)b->count);
	fprintf(out, "bench churn: %s per creator count, at most %u counted at once%s%s; "
		"microseconds per clone3(); BACKLOG: reaped, not yet freed; OVERHEAD: over a bare "
		"clone loop\n\n", what, b->max_alive, st_net_wired(b->net) ? "; --net=" : "",
		st_net_wired(b->net) ? st_net_mode_names[b->net] : "");
	st_text_header(out, style, ST_COLS(churn_cols), b);
	for (size_t i = 0; i < b->done; i++) {
		st_text_row(out, style, ST_COLS(churn_cols), &b->levels[i], b);
		fputc('\n', out);
	}
	st_bench_churn_summary(b, summary, sizeof(summary));
	fprintf(out, "\n%s\n", summary);
	return 0;
}

static json_t *churn_json(const void *doc)
{
	return st_bench_churn_json(doc);
}

static int churn_csv(const void *doc, FILE *out, struct st_error *err)
{
	const struct st_bench_churn_report *r = doc;

	st_csv_header(out, ST_COLS(churn_cols), r->b);
	for (size_t i = 0; i < r->b->done; i++)
		st_csv_row(out, ST_COLS(churn_cols), &r->b->levels[i], r->b);
	return 0;
}

static int churn_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	return st_bench_churn_write_table(doc, out, style);
}

const struct st_doc_format st_bench_churn_format = { .json = churn_json, .csv = churn_csv, .text = churn_text };

int st_bench_churn_report_write(const void *ctx, FILE *out, struct st_error *err)
{
	const struct st_bench_churn_report *r = ctx;

	return st_doc_write(&st_bench_churn_format, r->out, r, out, "bench churn", err);
}
