// SPDX-License-Identifier: MIT
/*
 * The netbench document (sandboxtime/netbench/v1): one row per measured path,
 * described once by path_cols[]; the ratios by ratio_rows[]. The table, CSV
 * and JSON writers read the same rows, so the CSV header, its fields and the
 * JSON keys cannot disagree.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sandboxtime/report.h"
#include "sandboxtime/report_netbench.h"
#include "sandboxtime/version.h"

double st_nb_transactions_per_s(const struct st_nb_path_result *p)
{
	return p->rr_ns ? (double)p->hist.n * 1e9 / (double)p->rr_ns : 0;
}

/* ---- the path columns ---------------------------------------------------- */

#define PATH(row) ((const struct st_nb_path_result *)(row))
#define REPORT(doc) ((const struct st_nb_report *)(doc))

static void get_path(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = st_nb_path_names[PATH(row) - REPORT(doc)->paths];
}

static void get_gbps(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_STATS;
	c->stats = &PATH(row)->gbps;
}

/* The table's figures of the runs: col->arg 0 the median, 1 the minimum. */
static void get_gbps_stat(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	struct st_stats s;

	c->kind = ST_CELL_REAL;
	c->empty = st_stats_compute(PATH(row)->gbps.v, PATH(row)->gbps.n, &s) < 0;
	c->d = c->empty ? NAN : col->arg ? s.min : s.median;
	c->empty = c->empty || isnan(c->d);
}

/* Null in JSON without a latency phase: its columns are left out then. */
static void get_latency(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	c->kind = ST_CELL_GROUP;
	c->null = !PATH(row)->measured || !PATH(row)->hist.n;
}

enum { LAT_P50, LAT_P99, LAT_MEAN, LAT_N, LAT_MIN, LAT_MAX };

static void get_lat(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_hist *h = &PATH(row)->hist;

	c->kind = ST_CELL_REAL;
	c->empty = !h->n;
	if (c->empty)
		return;
	switch (col->arg) {
	case LAT_P50:
		c->d = st_hist_quantile_ns(h, 0.5) / 1000.0;
		break;
	case LAT_P99:
		c->d = st_hist_quantile_ns(h, 0.99) / 1000.0;
		break;
	case LAT_MEAN:
		c->d = st_hist_mean_ns(h) / 1000.0;
		break;
	case LAT_N:
		c->kind = ST_CELL_UINT;
		c->u = h->n;
		break;
	case LAT_MIN:
		c->d = (double)h->min_ns / 1000.0;
		break;
	default:
		c->d = (double)h->max_ns / 1000.0;
		break;
	}
}

static void get_tps(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_REAL;
	c->d = st_nb_transactions_per_s(PATH(row));
	c->empty = !PATH(row)->hist.n;
	c->null = !REPORT(doc)->cfg->rr;
}

/* The unsigned int or uint64_t of struct st_nb_path_result at offset col->arg. */
#define AT(f) ((int)offsetof(struct st_nb_path_result, f))

static void get_u32(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = *(const unsigned int *)((const char *)row + col->arg);
}

static void get_u64(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = *(const uint64_t *)((const char *)row + col->arg);
}

static void get_cpu_s(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_REAL;
	c->d = col->arg ? PATH(row)->client_cpu_s : PATH(row)->server_cpu_s;
}

/* CPU seconds per GB received: null when nothing was received over TCP. */
static void get_per_gb(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	get_cpu_s(col, row, doc, c);
	c->empty = c->null = PATH(row)->stream_gb <= 0;
	c->d /= PATH(row)->stream_gb;
}

/* Each connection of the stream, summed over the runs, counted at both ends. */
static json_t *streams_json(const struct st_nb_path_result *p)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < p->nstreams; i++) {
		const struct st_nb_stream *s = &p->streams[i];
		double gbps = st_nb_stream_gbps(s);

		json_array_append_new(a, json_pack("{s:I,s:I,s:I,s:o}", "stream", (json_int_t)i,
						   "bytes_sent", (json_int_t)s->bytes_sent,
						   "bytes_received", (json_int_t)s->bytes_received,
						   "throughput_gbps", isnan(gbps) ? json_null() : json_real(gbps)));
	}
	return a;
}

/* CSV: how many connections; JSON: each of them. */
static void get_streams(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	if (c->format == ST_FORMAT_JSON) {
		c->kind = ST_CELL_JSON;
		c->json = streams_json(PATH(row));
		return;
	}
	c->kind = ST_CELL_UINT;
	c->u = PATH(row)->nstreams;
}

/* --udp: its object in JSON, null without; CSV fields only where datagrams went out. */
static void get_udp(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_GROUP;
	c->null = !REPORT(doc)->cfg->udp;
}

static void get_udp_mode(const struct st_col *col, const void *row, const void *doc,
			 struct st_cell *c)
{
	c->text = "stream";
}

enum { UDP_SENT_GBPS, UDP_RECEIVED_GBPS, UDP_LOSS, UDP_LOSS_PERCENT };

static void get_udp_real(const struct st_col *col, const void *row, const void *doc,
			 struct st_cell *c)
{
	const struct st_nb_udp *u = &PATH(row)->udp;

	c->kind = ST_CELL_REAL;
	if (col->arg == UDP_SENT_GBPS)
		c->d = st_nb_udp_sent_gbps(u);
	else if (col->arg == UDP_RECEIVED_GBPS)
		c->d = st_nb_udp_received_gbps(u);
	else
		c->d = st_nb_udp_loss(u) * (col->arg == UDP_LOSS_PERCENT ? 100.0 : 1.0);
	c->null = isnan(c->d);
	if (c->format == ST_FORMAT_TABLE)
		c->empty = isnan(c->d);
	else if (c->format == ST_FORMAT_PROMETHEUS) /* a rate needs the sender's time, a loss its datagrams */
		c->empty = col->arg == UDP_RECEIVED_GBPS ? !u->send_ns : !u->sent_datagrams;
	else
		c->empty = !(REPORT(doc)->cfg->udp && u->sent_datagrams);
}

static void get_udp_datagram(const struct st_col *col, const void *row, const void *doc,
			     struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = PATH(row)->udp.datagram;
	c->empty = c->format == ST_FORMAT_CSV && !(REPORT(doc)->cfg->udp && PATH(row)->udp.sent_datagrams);
}

static void get_busy_poll(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	const struct st_nb_config *o = REPORT(doc)->cfg;

	c->kind = ST_CELL_JSON;
	c->json = o->rr ? json_pack("{s:b,s:b}", "spin", o->busy_poll, "so_busy_poll",
				    o->busy_poll && PATH(row)->so_busy_poll)
			: json_null();
}

static json_t *cpu_list(uint64_t mask)
{
	json_t *a = json_array();

	for (int c = 0; c < 64; c++)
		if (mask & (1ull << c))
			json_array_append_new(a, json_integer(c));
	return a;
}

static void get_cpus_seen(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	c->kind = ST_CELL_JSON;
	c->json = json_pack("{s:o,s:o}", "server", cpu_list(PATH(row)->server_cpus), "client",
			    cpu_list(PATH(row)->client_cpus));
}

static void get_same_cpu(const struct st_col *col, const void *row, const void *doc,
			 struct st_cell *c)
{
	c->kind = ST_CELL_STATS;
	c->stats = &PATH(row)->same_cpu;
}

/* Each round's own latency p50 or p99: stats with samples, so that compare gives them intervals. */
static void get_round_latency(const struct st_col *col, const void *row, const void *doc,
			      struct st_cell *c)
{
	c->kind = ST_CELL_STATS;
	c->stats = col->arg ? &PATH(row)->p99_us : &PATH(row)->p50_us;
}

static int has_rr(const void *doc)
{
	return REPORT(doc)->cfg->rr;
}

static int has_udp(const void *doc)
{
	return REPORT(doc)->cfg->udp;
}

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON
#define P ST_COL_PROM

/* One row per measured path; the order is the JSON's and the CSV's. */
static const struct st_col path_cols[] = {
	{ .name = "path", .key = "path", .heading = "path", .width = 15, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_path, .help = "the path: host (loopback), veth, bridge, ..." },
	{ .name = "throughput", .unit = "gbps", .key = "throughput_gbps", .stats = 1, .csv_prec = 6,
	  .in = C | J, .get = get_gbps, .help = "TCP stream throughput of each run, in Gbit/s" },
	{ .heading = "Gbit/s", .width = 10, .prec = 2, .in = T | P, .get = get_gbps_stat, .arg = 0,
	  .prom = "sandboxtime_netbench_throughput_gbps",
	  .help = "Median TCP stream throughput of the path over the runs, in Gbit/s." },
	{ .heading = "min", .width = 10, .prec = 2, .in = T, .get = get_gbps_stat, .arg = 1,
	  .help = "lowest TCP stream throughput of a run, in Gbit/s" },
	{ .key = "latency_us", .in = J, .get = get_latency },
	{ .name = "latency_p50", .unit = "us", .key = "latency_us.p50", .heading = "p50 us", .width = 10,
	  .prec = 1, .csv_prec = 3, .in = T | C | J, .get = get_lat, .arg = LAT_P50,
	  .help = "median latency of a 1-byte request/response, in microseconds" },
	{ .name = "latency_p99", .unit = "us", .key = "latency_us.p99", .heading = "p99 us", .width = 10,
	  .prec = 1, .csv_prec = 3, .in = T | C | J, .get = get_lat, .arg = LAT_P99,
	  .help = "99th percentile of that latency, in microseconds" },
	{ .name = "latency_mean", .unit = "us", .key = "latency_us.mean", .heading = "mean us",
	  .width = 10, .prec = 1, .csv_prec = 3, .in = T | C | J, .get = get_lat, .arg = LAT_MEAN,
	  .help = "mean of that latency, in microseconds" },
	{ .name = "latency_n", .key = "latency_us.n", .in = C | J, .get = get_lat, .arg = LAT_N,
	  .help = "transactions measured" },
	{ .prom = "sandboxtime_netbench_latency_us", .prom_label = "quantile=\"0.5\"", .in = P,
	  .shown = has_rr, .get = get_lat, .arg = LAT_P50,
	  .help = "Latency of a 1-byte TCP request/response on the path, in microseconds." },
	{ .prom = "sandboxtime_netbench_latency_us", .prom_label = "quantile=\"0.99\"", .in = P,
	  .shown = has_rr, .get = get_lat, .arg = LAT_P99 },
	{ .key = "latency_us.min", .in = J, .get = get_lat, .arg = LAT_MIN },
	{ .key = "latency_us.max", .in = J, .get = get_lat, .arg = LAT_MAX },
	{ .key = "latency_rounds_p50_us", .in = J, .get = get_round_latency, .arg = 0,
	  .help = "each run's own latency p50, in microseconds (stats with samples)" },
	{ .key = "latency_rounds_p99_us", .in = J, .get = get_round_latency, .arg = 1,
	  .help = "each run's own latency p99, in microseconds (stats with samples)" },
	{ .name = "transactions_per_s", .key = "transactions_per_s", .heading = "trans/s", .width = 11,
	  .prec = 0, .csv_prec = 1, .in = T | C | J, .get = get_tps,
	  .help = "request/response transactions per second" },
	{ .name = "retransmits", .key = "retransmits", .heading = "retrans", .width = 8,
	  .in = T | C | J | P, .get = get_u32, .arg = AT(retransmits),
	  .prom = "sandboxtime_netbench_retransmits",
	  .help = "TCP retransmissions of the stream's sender, summed over the runs." },
	{ .name = "mtu", .unit = "bytes", .key = "mtu", .heading = "mtu", .width = 6, .in = T | C | J,
	  .get = get_u32, .arg = AT(mtu), .help = "MTU of the client's interface" },
	{ .name = "bytes_sent", .key = "bytes_sent", .in = C | J, .get = get_u64,
	  .arg = AT(bytes_sent), .help = "bytes the senders wrote after warm-up, over the runs" },
	{ .name = "bytes_received", .key = "bytes_received", .in = C | J, .get = get_u64,
	  .arg = AT(bytes_received),
	  .help = "bytes the receivers read in the throughput window, over the runs" },
	{ .key = "cpu.server_s", .in = J, .get = get_cpu_s, .arg = 0 },
	{ .key = "cpu.client_s", .in = J, .get = get_cpu_s, .arg = 1 },
	{ .name = "server_cpu", .unit = "s_per_gb", .key = "cpu.server_s_per_gb", .csv_prec = 6,
	  .in = C | J, .get = get_per_gb, .arg = 0,
	  .help = "the server's CPU seconds per GB received over TCP" },
	{ .name = "client_cpu", .unit = "s_per_gb", .key = "cpu.client_s_per_gb", .csv_prec = 6,
	  .in = C | J, .get = get_per_gb, .arg = 1,
	  .help = "the client's CPU seconds per GB received over TCP" },
	{ .key = "retransmits_dsacked", .in = J, .get = get_u32, .arg = AT(dsack_dups) },
	{ .key = "reordering_seen", .in = J, .get = get_u32, .arg = AT(reord_seen) },
	{ .name = "streams", .key = "streams", .in = C | J, .get = get_streams,
	  .help = "TCP connections of the stream" },
	{ .key = "udp", .in = J, .get = get_udp },
	{ .key = "udp.mode", .in = J, .get = get_udp_mode },
	{ .name = "udp_datagram", .unit = "bytes", .key = "udp.datagram_bytes", .in = C | J,
	  .get = get_udp_datagram, .help = "UDP payload bytes per datagram" },
	{ .key = "udp.sent_datagrams", .in = J, .get = get_u64, .arg = AT(udp.sent_datagrams) },
	{ .key = "udp.sent_bytes", .in = J, .get = get_u64, .arg = AT(udp.sent_bytes) },
	{ .key = "udp.received_datagrams", .in = J, .get = get_u64,
	  .arg = AT(udp.received_datagrams) },
	{ .key = "udp.received_bytes", .in = J, .get = get_u64, .arg = AT(udp.received_bytes) },
	{ .name = "udp_sent", .unit = "gbps", .key = "udp.sent_gbps", .csv_prec = 6, .in = C | J,
	  .get = get_udp_real, .arg = UDP_SENT_GBPS, .help = "UDP Gbit/s that send(2) took" },
	{ .name = "udp_received", .unit = "gbps", .key = "udp.received_gbps", .csv_prec = 6,
	  .in = C | J, .get = get_udp_real, .arg = UDP_RECEIVED_GBPS,
	  .help = "UDP Gbit/s the receiver counted, over the sender's time" },
	{ .name = "udp_loss", .key = "udp.loss", .csv_prec = 6, .in = C | J, .get = get_udp_real,
	  .arg = UDP_LOSS, .help = "share of the sent datagrams the receiver did not count" },
	{ .prom = "sandboxtime_netbench_udp_received_gbps", .in = P, .shown = has_udp,
	  .get = get_udp_real, .arg = UDP_RECEIVED_GBPS,
	  .help = "UDP stream: what the receiver counted, over the sender's measured time, in Gbit/s." },
	{ .prom = "sandboxtime_netbench_udp_loss_ratio", .in = P, .shown = has_udp,
	  .get = get_udp_real, .arg = UDP_LOSS,
	  .help = "UDP stream: share of the sent datagrams the receiver did not count." },
	{ .key = "busy_poll", .in = J, .get = get_busy_poll },
	{ .key = "cpus_seen", .in = J, .get = get_cpus_seen },
	{ .name = "same_cpu_share", .key = "same_cpu_share", .stats = 1, .csv_prec = 3, .in = C | J,
	  .get = get_same_cpu,
	  .help = "share of the stream (10 ms slots) both ends ran on one CPU, per run" },
};

/* --udp in the table: what the sender sent and the receiver counted, per path. */
static const struct st_col udp_table_cols[] = {
	{ .heading = "udp path", .width = 15, .align = ST_ALIGN_LEFT, .in = T, .get = get_path },
	{ .heading = "datagram", .width = 10, .in = T, .get = get_udp_datagram },
	{ .heading = "sent Gb/s", .width = 10, .prec = 2, .in = T, .get = get_udp_real,
	  .arg = UDP_SENT_GBPS },
	{ .heading = "recv Gb/s", .width = 10, .prec = 2, .in = T, .get = get_udp_real,
	  .arg = UDP_RECEIVED_GBPS },
	{ .heading = "loss %", .width = 10, .prec = 2, .in = T, .get = get_udp_real,
	  .arg = UDP_LOSS_PERCENT },
};

#undef T
#undef C
#undef J
#undef P

/* ---- the ratios ---------------------------------------------------------- */

/*
 * Each ratio once: its JSON key, Prometheus label and field, and the path
 * set against the host (throughput: host over it; latency: it over host).
 */
static const struct {
	const char *name;
	size_t offset;
	int path;
	int latency;
} ratio_rows[] = {
#define RATIO(f, p, lat) { #f, offsetof(struct st_nb_ratios, f), p, lat }
	RATIO(throughput_host_over_veth, ST_NB_VETH, 0),
	RATIO(throughput_host_over_bridge, ST_NB_BRIDGE, 0),
	RATIO(latency_veth_over_host, ST_NB_VETH, 1),
	RATIO(latency_bridge_over_host, ST_NB_BRIDGE, 1),
	RATIO(throughput_host_over_host_to_sandbox, ST_NB_HOST_TO_SANDBOX, 0),
	RATIO(latency_host_to_sandbox_over_host, ST_NB_HOST_TO_SANDBOX, 1),
	RATIO(throughput_host_over_macvlan, ST_NB_MACVLAN, 0),
	RATIO(latency_macvlan_over_host, ST_NB_MACVLAN, 1),
#undef RATIO
};

static double ratio_value(const struct st_nb_report *r, size_t i)
{
	return *(const double *)((const char *)&r->ratios + ratio_rows[i].offset);
}

/* Bootstrap resamples per ratio interval: compare's default. */
#define RATIO_RESAMPLES 2000

/*
 * {ci_low, ci_high} of ratio @i: a 95% bootstrap interval of the ratio of
 * the two paths' medians over their runs (throughput: Gbit/s of each run;
 * latency: each run's own p50), the runs resampled from a stream keyed by
 * the seed and the ratio's name. null with fewer than ST_RATIO_MIN_N runs a
 * side or without a ratio.
 */
static json_t *ratio_interval_json(const struct st_nb_report *r, size_t i)
{
	const struct st_nb_path_result *host = &r->paths[ST_NB_HOST], *p = &r->paths[ratio_rows[i].path];
	const struct st_samples *num = ratio_rows[i].latency ? &p->p50_us : &host->gbps;
	const struct st_samples *den = ratio_rows[i].latency ? &host->p50_us : &p->gbps;
	uint64_t seed = st_seed_fold(r->cfg->seed, ratio_rows[i].name, strlen(ratio_rows[i].name));
	struct st_ratio q;

	if (!num->n || !den->n ||
	    st_ratio_interval(den->v, den->n, num->v, num->n, RATIO_RESAMPLES, seed, &q) < 0 ||
	    !q.has_interval)
		return json_null();
	return json_pack("{s:f,s:f}", "ci_low", q.ci_low, "ci_high", q.ci_high);
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *config_json(const struct st_nb_report *r)
{
	const struct st_nb_config *o = r->cfg;
	json_t *names = json_array(), *config;
	char seed[24];

	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->path_mask & (1u << i))
			json_array_append_new(names, json_string(st_nb_path_names[i]));
	config = json_pack("{s:o,s:f,s:f,s:I,s:I,s:b,s:o,s:s}", "paths", names, "duration_s",
			   o->duration_s, "warmup_s", st_nb_warmup_s(o->duration_s), "repeat",
			   (json_int_t)o->repeat, "size", (json_int_t)o->size, "rr", o->rr, "mtu",
			   o->mtu ? json_integer(o->mtu) : json_null(), "namespaces",
			   "a fresh user and network namespace, made by netbench");
	/* A string: JSON numbers lose a 64-bit seed's low digits in many readers. */
	snprintf(seed, sizeof(seed), "%" PRIu64, o->seed);
	json_object_set_new(config, "seed", json_string(seed));
	json_object_set_new(config, "streams", json_integer(o->streams));
	json_object_set_new(config, "busy_poll", json_boolean(o->busy_poll));
	json_object_set_new(config, "udp", o->udp ? json_string("stream") : json_null());
	json_object_set_new(config, "cpu_placement",
			    json_pack("{s:b,s:o,s:o,s:o}", "cpu_pin", r->cpu_pin, "server_cpu",
				      r->server_cpu >= 0 ? json_integer(r->server_cpu) : json_null(),
				      "client_cpu",
				      r->client_cpu >= 0 ? json_integer(r->client_cpu) : json_null(),
				      "all_on_cpu",
				      r->host->pinned_cpu >= 0 ? json_integer(r->host->pinned_cpu)
							       : json_null()));
	return config;
}

json_t *st_nb_report_json(const struct st_nb_report *r)
{
	char notes[ST_NB_MAX_NOTES][ST_NB_NOTE_MAX];
	size_t nnotes = st_nb_report_notes(r, notes, ST_NB_MAX_NOTES);
	json_t *doc = json_object(), *paths = json_array(), *ratios = json_object();
	json_t *jnotes = json_array(), *intervals = json_object();

	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if ((r->path_mask & (1u << i)) && r->paths[i].measured)
			json_array_append_new(paths, st_json_row(ST_COLS(path_cols), &r->paths[i], r));
	for (size_t i = 0; i < ARRAY_SIZE(ratio_rows); i++) {
		double v = ratio_value(r, i);

		json_object_set_new(ratios, ratio_rows[i].name, isnan(v) ? json_null() : json_real(v));
		json_object_set_new(intervals, ratio_rows[i].name,
				    isnan(v) ? json_null() : ratio_interval_json(r, i));
	}
	for (size_t i = 0; i < nnotes; i++)
		json_array_append_new(jnotes, json_string(notes[i]));
	json_object_set_new(doc, "schema", json_string(ST_NB_SCHEMA));
	json_object_set_new(doc, "tool", st_report_tool_json());
	json_object_set_new(doc, "host", st_report_host_json(r->host));
	json_object_set_new(doc, "config", config_json(r));
	json_object_set_new(doc, "paths", paths);
	json_object_set_new(doc, "ratios", ratios);
	json_object_set_new(doc, "ratio_intervals", intervals);
	json_object_set_new(doc, "elapsed_s", json_real((double)r->elapsed_ns / 1e9));
	json_object_set_new(doc, "notes", jnotes);
	return doc;
}

int st_nb_write_json(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = st_nb_report_json(r);

	return st_json_write(doc, out, err);
}

/* ---- table --------------------------------------------------------------- */

/* A number, or "-" when it is unknown (a path missing, no latency phase). */
static void ratio_cell(FILE *out, double v)
{
	if (isnan(v))
		fprintf(out, " %6s", "-");
	else
		fprintf(out, " %6.2f", v);
}

/* The ratios, two to a line, each pair under its label. */
static void ratios_table(const struct st_nb_report *r, FILE *out)
{
	static const struct {
		int path; /* the pair is shown when this path was measured, -1 always */
		const char *label[2];
	} pairs[] = {
		{ -1, { "  throughput host/veth  ", "   host/bridge  " } },
		{ -1, { "\n  latency    veth/host  ", "   bridge/host  " } },
		{ ST_NB_HOST_TO_SANDBOX, { "\n  host-to-sandbox: throughput host/it ", "   latency it/host " } },
		{ ST_NB_MACVLAN, { "\n  macvlan:         throughput host/it ", "   latency it/host " } },
	};

	fputs("\nratios (above 1: the namespace path costs that much more):\n", out);
	for (size_t k = 0; k < ARRAY_SIZE(pairs); k++) {
		if (pairs[k].path >= 0 && !r->paths[pairs[k].path].measured)
			continue;
		/* ratio_rows[] holds the pairs in this order. */
		for (size_t j = 0; j < 2; j++) {
			fputs(pairs[k].label[j], out);
			ratio_cell(out, ratio_value(r, 2 * k + j));
		}
	}
}

static void rows_table(const struct st_nb_report *r, struct st_cols cols, FILE *out,
		       unsigned int style)
{
	st_text_header(out, style, cols, r);
	for (int i = 0; i < ST_NB_PATH_COUNT; i++) {
		if (!r->paths[i].measured)
			continue;
		st_text_row(out, style, cols, &r->paths[i], r);
		fputc('\n', out);
	}
}

/* Markdown: the paths as pipe tables, the ratios (two to a line) fenced, the notes a list. */
int st_nb_write_table(const struct st_nb_report *r, FILE *out, unsigned int style,
		      struct st_error *err)
{
	const struct st_host *h = r->host;
	const struct st_nb_config *o = r->cfg;
	char notes[ST_NB_MAX_NOTES][ST_NB_NOTE_MAX];
	size_t nnotes = st_nb_report_notes(r, notes, ST_NB_MAX_NOTES);

	fprintf(out, "sandboxtime %s netbench: kernel %s, %d CPUs (%s)%s, %s, %s\n", ST_VERSION,
		h->kernel, h->cpus, h->cpu_model[0] ? h->cpu_model : "unknown model",
		h->virtualized == 1 ? " in a VM" : "", h->rootless ? "rootless" : "root",
		h->pinned_cpu >= 0 ? "pinned" : "not pinned");
	st_report_steal_line(out, &h->steal);
	fprintf(out, "%u run(s) per path of %g s after %g s warm-up, %llu-byte writes; medians over runs;\n"
		"paths in a random order in each round (--seed=%" PRIu64 ")\n\n",
		o->repeat, o->duration_s, st_nb_warmup_s(o->duration_s), (unsigned long long)o->size,
		o->seed);
	rows_table(r, ST_COLS(path_cols), out, style);
	if (o->udp) {
		fputc('\n', out);
		rows_table(r, ST_COLS(udp_table_cols), out, style);
	}
	st_text_fence(out, style, 1);
	ratios_table(r, out);
	fputc('\n', out);
	st_text_fence(out, style, 0);
	fputs("\nnotes:\n", out);
	for (size_t i = 0; i < nnotes; i++)
		fprintf(out, "  - %s\n", notes[i]);
	if (ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing the table");
	return 0;
}

/* ---- CSV and Prometheus -------------------------------------------------- */

/* One row per measured path; units in the header, none in cells. */
int st_nb_write_csv(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	st_csv_header(out, ST_COLS(path_cols), r);
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->paths[i].measured)
			st_csv_row(out, ST_COLS(path_cols), &r->paths[i], r);
	if (ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing CSV");
	return 0;
}

int st_nb_write_prometheus(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	const void *rows[ST_NB_PATH_COUNT];
	size_t n = 0;

	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->paths[i].measured)
			rows[n++] = &r->paths[i];
	st_prom_rows(out, ST_COLS(path_cols), &path_cols[0], rows, n, r);
	/* Ratio names are our own: no label value here needs escaping. */
	st_prom_family(out, "sandboxtime_netbench_ratio",
		       "Cost of a namespace path relative to loopback; above 1 means it costs that much more.");
	for (size_t i = 0; i < ARRAY_SIZE(ratio_rows); i++)
		if (!isnan(ratio_value(r, i)))
			fprintf(out, "sandboxtime_netbench_ratio{ratio=\"%s\"} %.9g\n", ratio_rows[i].name,
				ratio_value(r, i));
	if (ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing Prometheus text");
	return 0;
}

static json_t *nb_json(const void *doc)
{
	return st_nb_report_json(doc);
}

static int nb_csv(const void *doc, FILE *out, struct st_error *err)
{
	return st_nb_write_csv(doc, out, err);
}

static int nb_prom(const void *doc, FILE *out, struct st_error *err)
{
	return st_nb_write_prometheus(doc, out, err);
}

static int nb_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	return st_nb_write_table(doc, out, style, err);
}

const struct st_doc_format st_nb_format = {
	.json = nb_json, .csv = nb_csv, .prom = nb_prom, .text = nb_text,
};

int st_nb_report_write(const void *ctx, FILE *out, struct st_error *err)
{
	const struct st_nb_report *r = ctx;

	return st_doc_write(&st_nb_format, r->out, r, out, "netbench", err);
}
