// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdlib.h>
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
	int cpu = b->op_first == ST_BENCH_CPU;

	fprintf(out, "op,where,median_us,p95_us,min_us,mean_us,stddev_us,n%s\n",
		cpu ? ",median_gbps,speculation_store_bypass" : "");
	for (int op = b->op_first; op < b->op_end; op++) {
		for (size_t i = 0; i < b->nwhere; i++) {
			struct st_stats st;

			st_stats_compute(b->where[i].us[op].v, b->where[i].us[op].n, &st);
			fprintf(out, "%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%zu", st_bench_op_names[op],
				b->where[i].name, st.median, st.p95, st.min, st.mean, st.stddev,
				st.n);
			if (op == ST_BENCH_MEMCPY)
				fprintf(out, ",%.3f,%s", st_bench_memcpy_gbps(st.median),
					b->where[i].ssb);
			else if (cpu)
				fprintf(out, ",,%s", b->where[i].ssb);
			fputc('\n', out);
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

/* One row per namespace; nothing here has a unit, so no header carries one. */
int st_orphans_write_csv(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	const struct st_orphans *s = r->scan;

	fputs("inode,state,processes,nsid,interfaces,holders\n", out);
	for (size_t i = 0; i < s->n; i++) {
		const struct st_netns *ns = &s->v[i];
		char *list = NULL, text[PATH_MAX + 64];
		size_t len = 0;
		FILE *m;

		if (ns->state == ST_NETNS_UNVERIFIED)
			continue;
		fprintf(out, "%llu,%s,%zu,", (unsigned long long)ns->ino, st_netns_state_names[ns->state],
			ns->processes);
		if (ns->nsid >= 0)
			fprintf(out, "%d", ns->nsid);
		fputc(',', out);
		m = open_memstream(&list, &len);
		if (!m)
			return st_error_set(err, errno, "report: CSV");
		for (size_t k = 0; k < ns->ninterfaces; k++)
			fprintf(m, "%s%s", k ? ";" : "", ns->interfaces[k]);
		fclose(m);
		field(out, list);
		free(list);
		fputc(',', out);
		list = NULL;
		m = open_memstream(&list, &len);
		if (!m)
			return st_error_set(err, errno, "report: CSV");
		for (size_t k = 0; k < ns->nholders; k++) {
			st_holder_text(&ns->holders[k], text, sizeof(text));
			fprintf(m, "%s%s", k ? ";" : "", text);
		}
		fclose(m);
		field(out, list);
		free(list);
		fputc('\n', out);
	}
	return ferror(out) ? st_error_set(err, EIO, "report: writing CSV") : 0;
}

/* netbench: one row per measured path; units in the header, none in cells. */
int st_nb_write_csv(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	fputs("path,throughput_min_gbps,throughput_median_gbps,throughput_p95_gbps,"
	      "throughput_mean_gbps,throughput_stddev_gbps,throughput_n,latency_p50_us,"
	      "latency_p99_us,latency_mean_us,latency_n,transactions_per_s,retransmits,mtu_bytes,"
	      "bytes_sent,bytes_received,server_cpu_s_per_gb,client_cpu_s_per_gb,streams,"
	      "udp_datagram_bytes,udp_sent_gbps,udp_received_gbps,udp_loss\n",
	      out);
	for (int i = 0; i < ST_NB_PATH_COUNT; i++) {
		const struct st_nb_path_result *p = &r->paths[i];
		struct st_stats s;

		if (!p->measured)
			continue;
		st_stats_compute(p->gbps.v, p->gbps.n, &s);
		fprintf(out, "%s,%.6f,%.6f,%.6f,%.6f,%.6f,%zu,", st_nb_path_names[i], s.min, s.median, s.p95,
			s.mean, s.stddev, s.n);
		if (p->hist.n)
			fprintf(out, "%.3f,%.3f,%.3f,%llu,%.1f,", st_hist_quantile_ns(&p->hist, 0.5) / 1000.0,
				st_hist_quantile_ns(&p->hist, 0.99) / 1000.0, st_hist_mean_ns(&p->hist) / 1000.0,
				(unsigned long long)p->hist.n, st_nb_transactions_per_s(p));
		else
			fputs(",,,,,", out);
		fprintf(out, "%u,%u,%llu,%llu,", p->retransmits, p->mtu, (unsigned long long)p->bytes_sent,
			(unsigned long long)p->bytes_received);
		if (p->stream_gb > 0)
			fprintf(out, "%.6f,%.6f,", p->server_cpu_s / p->stream_gb, p->client_cpu_s / p->stream_gb);
		else
			fputs(",,", out);
		fprintf(out, "%u,", p->nstreams);
		if (r->cfg->udp && p->udp.sent_datagrams)
			fprintf(out, "%u,%.6f,%.6f,%.6f\n", p->udp.datagram, st_nb_udp_sent_gbps(&p->udp),
				st_nb_udp_received_gbps(&p->udp), st_nb_udp_loss(&p->udp));
		else
			fputs(",,,\n", out);
	}
	if (ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing CSV");
	return 0;
}
