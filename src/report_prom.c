// SPDX-License-Identifier: MIT
/*
 * Prometheus text exposition (format 0.0.4): a HELP and a TYPE line per
 * metric family, then one sample per line. Label values are path and ratio
 * names of our own, which need no escaping.
 */
#include <math.h>
#include <stddef.h>

#include "sandboxtime/report.h"

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
	};

	family(out, "sandboxtime_netbench_throughput_gbps",
	       "Median TCP stream throughput of the path over the runs, in Gbit/s.");
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->paths[i].measured)
			fprintf(out, "sandboxtime_netbench_throughput_gbps{path=\"%s\"} %.9g\n",
				st_nb_path_names[i], st_nb_median_gbps(&r->paths[i]));
	if (r->opts->rr) {
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
