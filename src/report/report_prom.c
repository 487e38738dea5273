// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition format 0.0.4: "# HELP" and "# TYPE" before each
 * metric family, label values escaped (backslash, double quote, line feed).
 * A node exporter's textfile collector or a scrape of -o FILE reads it.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
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

int st_orphans_write_textfile(const struct st_orphans_report *r, double scan_time_s,
			      double scan_duration_s, FILE *out, struct st_error *err)
{
	int ret = st_orphans_write_prom(r, out, err);

	if (ret < 0)
		return ret;
	fprintf(out, "# HELP sandboxtime_orphans_last_scan_timestamp_seconds When the scan of this file ended, in seconds since the Epoch.\n"
		     "# TYPE sandboxtime_orphans_last_scan_timestamp_seconds gauge\n"
		     "sandboxtime_orphans_last_scan_timestamp_seconds %.3f\n",
		scan_time_s);
	fprintf(out, "# HELP sandboxtime_orphans_scan_duration_seconds How long the scan of this file took.\n"
		     "# TYPE sandboxtime_orphans_scan_duration_seconds gauge\n"
		     "sandboxtime_orphans_scan_duration_seconds %.6f\n",
		scan_duration_s);
	return ferror(out) ? st_error_set(err, EIO, "report: writing Prometheus text") : 0;
}

/* netbench: label values are path and ratio names of our own, which need no escaping. */
static void family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

int st_nb_write_prometheus(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	static const struct {
		const char *name;
		size_t offset;
	} ratios[] = {
		{ "throughput_host_over_veth", offsetof(struct st_nb_ratios, throughput_host_over_veth) },
		{ "throughput_host_over_bridge", offsetof(struct st_nb_ratios, throughput_host_over_bridge) },
		{ "latency_veth_over_host", offsetof(struct st_nb_ratios, latency_veth_over_host) },
		{ "latency_bridge_over_host", offsetof(struct st_nb_ratios, latency_bridge_over_host) },
		{ "throughput_host_over_host_to_sandbox",
		  offsetof(struct st_nb_ratios, throughput_host_over_host_to_sandbox) },
		{ "latency_host_to_sandbox_over_host",
		  offsetof(struct st_nb_ratios, latency_host_to_sandbox_over_host) },
		{ "throughput_host_over_macvlan", offsetof(struct st_nb_ratios, throughput_host_over_macvlan) },
		{ "latency_macvlan_over_host", offsetof(struct st_nb_ratios, latency_macvlan_over_host) },
	};

	family(out, "sandboxtime_netbench_throughput_gbps",
	       "Median TCP stream throughput of the path over the runs, in Gbit/s.");
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->paths[i].measured)
			fprintf(out, "sandboxtime_netbench_throughput_gbps{path=\"%s\"} %.9g\n",
				st_nb_path_names[i], st_nb_median_gbps(&r->paths[i]));
	if (r->cfg->rr) {
		family(out, "sandboxtime_netbench_latency_us",
		       "Latency of a 1-byte TCP request/response on the path, in microseconds.");
		for (int i = 0; i < ST_NB_PATH_COUNT; i++) {
			const struct st_nb_path_result *p = &r->paths[i];

			if (!p->measured || !p->hist.n)
				continue;
			fprintf(out, "sandboxtime_netbench_latency_us{path=\"%s\",quantile=\"0.5\"} %.9g\n",
				st_nb_path_names[i], st_hist_quantile_ns(&p->hist, 0.5) / 1000.0);
			fprintf(out, "sandboxtime_netbench_latency_us{path=\"%s\",quantile=\"0.99\"} %.9g\n",
				st_nb_path_names[i], st_hist_quantile_ns(&p->hist, 0.99) / 1000.0);
		}
	}
	family(out, "sandboxtime_netbench_retransmits",
	       "TCP retransmissions of the stream's sender, summed over the runs.");
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->paths[i].measured)
			fprintf(out, "sandboxtime_netbench_retransmits{path=\"%s\"} %u\n", st_nb_path_names[i],
				r->paths[i].retransmits);
	if (r->cfg->udp) {
		family(out, "sandboxtime_netbench_udp_received_gbps",
		       "UDP stream: what the receiver counted, over the sender's measured time, in Gbit/s.");
		for (int i = 0; i < ST_NB_PATH_COUNT; i++)
			if (r->paths[i].measured && r->paths[i].udp.send_ns)
				fprintf(out, "sandboxtime_netbench_udp_received_gbps{path=\"%s\"} %.9g\n",
					st_nb_path_names[i], st_nb_udp_received_gbps(&r->paths[i].udp));
		family(out, "sandboxtime_netbench_udp_loss_ratio",
		       "UDP stream: share of the sent datagrams the receiver did not count.");
		for (int i = 0; i < ST_NB_PATH_COUNT; i++)
			if (r->paths[i].measured && r->paths[i].udp.sent_datagrams)
				fprintf(out, "sandboxtime_netbench_udp_loss_ratio{path=\"%s\"} %.9g\n",
					st_nb_path_names[i], st_nb_udp_loss(&r->paths[i].udp));
	}
	family(out, "sandboxtime_netbench_ratio",
	       "Cost of a namespace path relative to loopback; above 1 means it costs that much more.");
	for (size_t i = 0; i < ARRAY_SIZE(ratios); i++) {
		double v = *(const double *)((const char *)&r->ratios + ratios[i].offset);

		if (!isnan(v))
			fprintf(out, "sandboxtime_netbench_ratio{ratio=\"%s\"} %.9g\n", ratios[i].name, v);
	}
	if (ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing Prometheus text");
	return 0;
}
