// SPDX-License-Identifier: MIT
/*
 * The arithmetic of netbench's results: one path's runs summed up, Gbit/s of
 * streams and datagrams, loss, medians and the path-over-path ratios. Pure:
 * no sockets, no processes, so the unit tests reach all of it.
 */
#include <math.h>

#include "sandboxtime/netbench.h"

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

void st_nb_path_add_run(struct st_nb_path_result *p, const struct st_nb_run *run)
{
	int first = !p->measured;

	if (first)
		st_hist_init(&p->hist);
	p->measured = 1;
	st_samples_add(&p->gbps, run->gbps);
	p->bytes_sent += run->bytes_sent;
	p->bytes_received += run->bytes_received;
	p->retransmits += run->retransmits;
	p->dsack_dups += run->dsack_dups;
	p->reord_seen += run->reord_seen;
	p->mtu = run->mtu;
	st_hist_merge(&p->hist, &run->hist);
	p->rr_ns += run->rr_ns;
	p->server_cpu_s += tv_s(run->ru_server.ru_utime) + tv_s(run->ru_server.ru_stime);
	p->client_cpu_s += tv_s(run->ru_client.ru_utime) + tv_s(run->ru_client.ru_stime);
	/* CPU time covers warm-up and rr too: per GB is an upper bound for the stream. */
	p->stream_gb += (double)run->bytes_received / 1e9;
	p->nstreams = run->nstreams;
	for (unsigned int i = 0; i < run->nstreams; i++) {
		p->streams[i].bytes_sent += run->streams[i].bytes_sent;
		p->streams[i].bytes_received += run->streams[i].bytes_received;
		p->streams[i].ns += run->streams[i].ns;
	}
	p->udp.datagram = run->udp.datagram;
	p->udp.sent_datagrams += run->udp.sent_datagrams;
	p->udp.sent_bytes += run->udp.sent_bytes;
	p->udp.received_datagrams += run->udp.received_datagrams;
	p->udp.received_bytes += run->udp.received_bytes;
	p->udp.send_ns += run->udp.send_ns;
	p->so_busy_poll = (first || p->so_busy_poll) && run->so_busy_poll;
	p->server_cpus |= run->server_cpus;
	p->client_cpus |= run->client_cpus;
	if (!isnan(run->same_cpu_share))
		st_samples_add(&p->same_cpu, run->same_cpu_share);
	if (run->hist.n) {
		st_samples_add(&p->p50_us, st_hist_quantile_ns(&run->hist, 0.5) / 1000.0);
		st_samples_add(&p->p99_us, st_hist_quantile_ns(&run->hist, 0.99) / 1000.0);
	}
}

void st_nb_placement_note(struct st_nb_placement *p, uint64_t now_ns, int cpu)
{
	uint64_t slot = now_ns / ST_NB_PLACE_SLOT_NS;

	if (cpu < 0 || cpu >= UINT16_MAX || slot == 0)
		return;
	if (!p->first_slot)
		p->first_slot = slot;
	if (slot - p->first_slot < ST_NB_PLACE_SLOTS)
		p->cpu[slot - p->first_slot] = (uint16_t)(cpu + 1);
}

double st_nb_same_cpu_share(const struct st_nb_placement *a, const struct st_nb_placement *b)
{
	unsigned int both = 0, same = 0;

	if (!a->first_slot || !b->first_slot)
		return NAN;
	for (unsigned int i = 0; i < ST_NB_PLACE_SLOTS; i++) {
		uint64_t slot = a->first_slot + i;
		uint16_t ca = a->cpu[i], cb;

		if (slot < b->first_slot || slot - b->first_slot >= ST_NB_PLACE_SLOTS)
			continue;
		cb = b->cpu[slot - b->first_slot];
		if (!ca || !cb)
			continue;
		both++;
		same += ca == cb;
	}
	return both ? (double)same / both : NAN;
}

void st_nb_path_result_free(struct st_nb_path_result *p)
{
	st_samples_free(&p->gbps);
	st_samples_free(&p->same_cpu);
	st_samples_free(&p->p50_us);
	st_samples_free(&p->p99_us);
}

double st_nb_stream_gbps(const struct st_nb_stream *s)
{
	return s->ns ? (double)s->bytes_received * 8.0 / (double)s->ns : NAN;
}

double st_nb_udp_sent_gbps(const struct st_nb_udp *u)
{
	return u->send_ns ? (double)u->sent_bytes * 8.0 / (double)u->send_ns : NAN;
}

double st_nb_udp_received_gbps(const struct st_nb_udp *u)
{
	return u->send_ns ? (double)u->received_bytes * 8.0 / (double)u->send_ns : NAN;
}

double st_nb_udp_loss(const struct st_nb_udp *u)
{
	if (!u->sent_datagrams)
		return NAN;
	/* Late warm-up datagrams are not counted: more received than sent cannot happen. */
	return 1.0 - (double)u->received_datagrams / (double)u->sent_datagrams;
}

double st_nb_median_gbps(const struct st_nb_path_result *p)
{
	struct st_stats s;

	if (!p->measured || p->gbps.n == 0 || st_stats_compute(p->gbps.v, p->gbps.n, &s) < 0)
		return NAN;
	return s.median;
}

double st_nb_p50_us(const struct st_nb_path_result *p)
{
	if (!p->measured || p->hist.n == 0)
		return NAN;
	return st_hist_quantile_ns(&p->hist, 0.5) / 1000.0;
}

static double ratio(double a, double b)
{
	return isnan(a) || isnan(b) || b <= 0 ? NAN : a / b;
}

void st_nb_ratios_compute(const struct st_nb_path_result paths[ST_NB_PATH_COUNT],
			  struct st_nb_ratios *r)
{
	double host = st_nb_median_gbps(&paths[ST_NB_HOST]);
	double host_lat = st_nb_p50_us(&paths[ST_NB_HOST]);

	r->throughput_host_over_veth = ratio(host, st_nb_median_gbps(&paths[ST_NB_VETH]));
	r->throughput_host_over_bridge = ratio(host, st_nb_median_gbps(&paths[ST_NB_BRIDGE]));
	r->latency_veth_over_host = ratio(st_nb_p50_us(&paths[ST_NB_VETH]), host_lat);
	r->latency_bridge_over_host = ratio(st_nb_p50_us(&paths[ST_NB_BRIDGE]), host_lat);
	r->throughput_host_over_host_to_sandbox =
		ratio(host, st_nb_median_gbps(&paths[ST_NB_HOST_TO_SANDBOX]));
	r->latency_host_to_sandbox_over_host =
		ratio(st_nb_p50_us(&paths[ST_NB_HOST_TO_SANDBOX]), host_lat);
	r->throughput_host_over_macvlan = ratio(host, st_nb_median_gbps(&paths[ST_NB_MACVLAN]));
	r->latency_macvlan_over_host = ratio(st_nb_p50_us(&paths[ST_NB_MACVLAN]), host_lat);
}
