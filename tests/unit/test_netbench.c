// SPDX-License-Identifier: MIT
/*
 * The pure parts of netbench: the log-linear histogram (known inputs give
 * percentiles within one bucket's width), the per-path sums and the ratios.
 */
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/histogram.h"
#include "sandboxtime/cli_parse.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/netbench_engine.h"
#include "sandboxtime/report_netbench.h"

/* |got - want| within @tol. */
#define assert_within(got, want, tol) \
	assert_true(fabs((double)(got) - (double)(want)) <= (double)(tol))

static struct st_hist h;

static void test_index_is_monotonic_and_covers(void **state)
{
	unsigned int prev = 0;

	/* Every value falls into a bucket whose range holds it; indexes never go down. */
	for (uint64_t v = 0; v < (1ull << 36); v = v < 300 ? v + 1 : v + v / 37) {
		unsigned int i = st_hist_index(v);
		uint64_t low, width;

		assert_true(i < ST_HIST_BUCKETS);
		assert_true(i >= prev);
		st_hist_bucket_range(i, &low, &width);
		assert_true(v >= low && v < low + width);
		/* Resolution: a bucket is at most 1/64 of its values wide. */
		assert_true(v < 128 ? width == 1 : width * 64 <= v);
		prev = i;
	}
	assert_int_equal(st_hist_index(UINT64_MAX), ST_HIST_BUCKETS - 1);
}

static void test_small_values_are_exact(void **state)
{
	st_hist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		st_hist_record(&h, v);
	assert_int_equal(h.n, 100);
	assert_within(st_hist_quantile_ns(&h, 0.5), 50, 0);
	assert_within(st_hist_quantile_ns(&h, 0.99), 99, 0);
	assert_within(st_hist_quantile_ns(&h, 1.0), 100, 0);
	assert_within(st_hist_mean_ns(&h), 50.5, 1e-9);
}

static void test_large_values_within_resolution(void **state)
{
	/* 1..100000 us in ns: p50 = 50000 us, p99 = 99000 us, each within 1/64. */
	st_hist_init(&h);
	for (uint64_t v = 1; v <= 100000; v++)
		st_hist_record(&h, v * 1000);
	assert_within(st_hist_quantile_ns(&h, 0.5), 50000e3, 50000e3 / 64);
	assert_within(st_hist_quantile_ns(&h, 0.99), 99000e3, 99000e3 / 64);
	/* The mean is exact: the sum is kept apart from the buckets. */
	assert_within(st_hist_mean_ns(&h), 50000.5e3, 1e-3);
	assert_int_equal(h.min_ns, 1000);
	assert_int_equal(h.max_ns, 100000000);
}

static void test_bimodal_and_merge(void **state)
{
	static struct st_hist a, b;

	/* 98 fast transactions of 10 us and 2 slow ones of 1 ms, in two runs. */
	st_hist_init(&a);
	st_hist_init(&b);
	for (int i = 0; i < 49; i++) {
		st_hist_record(&a, 10000);
		st_hist_record(&b, 10000);
	}
	st_hist_record(&a, 1000000);
	st_hist_record(&b, 1000000);
	st_hist_merge(&a, &b);
	assert_int_equal(a.n, 100);
	assert_within(st_hist_quantile_ns(&a, 0.5), 10000, 10000 / 64);
	assert_within(st_hist_quantile_ns(&a, 0.98), 10000, 10000 / 64);
	assert_within(st_hist_quantile_ns(&a, 0.99), 1000000, 1000000 / 64);
	/* Clamped to what was seen: never above the maximum. */
	assert_true(st_hist_quantile_ns(&a, 1.0) <= 1000000);
}

static void test_empty(void **state)
{
	st_hist_init(&h);
	assert_within(st_hist_quantile_ns(&h, 0.5), 0, 0);
	assert_within(st_hist_mean_ns(&h), 0, 0);
}

static void add(struct st_nb_path_result *p, double gbps, uint64_t latency_ns)
{
	static struct st_nb_run run;

	memset(&run, 0, sizeof(run));
	st_hist_init(&run.hist);
	run.gbps = gbps;
	run.bytes_sent = run.bytes_received = 1000000000;
	run.retransmits = 2;
	run.mtu = 1500;
	run.ru_server.ru_utime.tv_sec = 1;
	run.ru_client.ru_stime.tv_usec = 500000;
	for (int i = 0; i < 10; i++)
		st_hist_record(&run.hist, latency_ns);
	run.rr_ns = 1000000;
	st_nb_path_add_run(p, &run);
}

static void test_path_sums_and_ratios(void **state)
{
	static struct st_nb_path_result paths[ST_NB_PATH_COUNT];
	struct st_nb_ratios r;

	memset(paths, 0, sizeof(paths));
	/* host: medians 40 Gbit/s and 10 us; veth 20 and 15; bridge 10 and 20. */
	add(&paths[ST_NB_HOST], 30, 10000);
	add(&paths[ST_NB_HOST], 40, 10000);
	add(&paths[ST_NB_HOST], 50, 10000);
	add(&paths[ST_NB_VETH], 20, 15000);
	add(&paths[ST_NB_BRIDGE], 10, 20000);
	assert_int_equal(paths[ST_NB_HOST].bytes_sent, 3000000000ull);
	assert_int_equal(paths[ST_NB_HOST].bytes_received, 3000000000ull);
	assert_int_equal(paths[ST_NB_HOST].retransmits, 6);
	assert_int_equal(paths[ST_NB_HOST].hist.n, 30);
	assert_within(paths[ST_NB_HOST].server_cpu_s / paths[ST_NB_HOST].stream_gb, 1.0, 1e-9);
	assert_within(paths[ST_NB_HOST].client_cpu_s / paths[ST_NB_HOST].stream_gb, 0.5, 1e-9);
	assert_within(st_nb_median_gbps(&paths[ST_NB_HOST]), 40, 1e-9);
	/* Each run keeps its own p50 and p99: 10 us within the histogram's 1.6% buckets. */
	assert_int_equal(paths[ST_NB_HOST].p50_us.n, 3);
	assert_int_equal(paths[ST_NB_HOST].p99_us.n, 3);
	assert_within(paths[ST_NB_HOST].p50_us.v[2], 10, 0.2);
	assert_within(paths[ST_NB_VETH].p99_us.v[0], 15, 0.3);
	st_nb_ratios_compute(paths, &r);
	assert_within(r.throughput_host_over_veth, 2.0, 1e-9);
	assert_within(r.throughput_host_over_bridge, 4.0, 1e-9);
	assert_within(r.latency_veth_over_host, 1.5, 0.05);
	assert_within(r.latency_bridge_over_host, 2.0, 0.05);
	/* A path that was not measured gives no ratio, not zero or infinity. */
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		st_nb_path_result_free(&paths[i]);
	memset(&paths[ST_NB_BRIDGE], 0, sizeof(paths[ST_NB_BRIDGE]));
	st_nb_ratios_compute(paths, &r);
	assert_true(isnan(r.throughput_host_over_bridge));
	assert_true(isnan(r.latency_bridge_over_host));
}

/* Six runs a path: every measured ratio gets an interval that holds it; three runs: none. */
static void test_ratio_intervals(void **state)
{
	static struct st_nb_path_result paths[ST_NB_PATH_COUNT];
	static const double host[] = { 38, 42, 40, 39, 41, 40 }, veth[] = { 19, 21, 20, 20, 22, 18 };
	struct st_nb_config cfg = { .duration_s = 1, .repeat = 6, .rr = 1, .seed = 5 };
	struct st_host hostfacts = { .pinned_cpu = -1 };
	struct st_output out = { .cpu = -1 };
	struct st_nb_report r = { .out = &out, .cfg = &cfg, .host = &hostfacts, .paths = paths,
				  .path_mask = (1u << ST_NB_HOST) | (1u << ST_NB_VETH),
				  .server_cpu = -1, .client_cpu = -1 };
	json_t *doc, *iv;

	memset(paths, 0, sizeof(paths));
	for (int k = 0; k < 6; k++) {
		add(&paths[ST_NB_HOST], host[k], 10000 + 100 * (uint64_t)k);
		add(&paths[ST_NB_VETH], veth[k], 15000 + 100 * (uint64_t)k);
	}
	st_nb_ratios_compute(paths, &r.ratios);
	doc = st_nb_report_json(&r);
	iv = json_object_get(json_object_get(doc, "ratio_intervals"), "throughput_host_over_veth");
	assert_true(json_is_object(iv));
	/* Medians 40 and 20: the ratio 2 lies inside. */
	assert_true(json_real_value(json_object_get(iv, "ci_low")) <= 2.0);
	assert_true(json_real_value(json_object_get(iv, "ci_high")) >= 2.0);
	assert_true(json_real_value(json_object_get(iv, "ci_low")) > 1.0);
	iv = json_object_get(json_object_get(doc, "ratio_intervals"), "latency_veth_over_host");
	assert_true(json_is_object(iv));
	assert_true(json_real_value(json_object_get(iv, "ci_low")) > 1.0);
	/* No bridge measured: no ratio, no interval. */
	assert_true(json_is_null(json_object_get(json_object_get(doc, "ratio_intervals"),
						 "throughput_host_over_bridge")));
	json_decref(doc);
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		st_nb_path_result_free(&paths[i]);
	/* Three runs a side: too few for 95%. */
	for (int k = 0; k < 3; k++) {
		add(&paths[ST_NB_HOST], host[k], 10000);
		add(&paths[ST_NB_VETH], veth[k], 15000);
	}
	st_nb_ratios_compute(paths, &r.ratios);
	doc = st_nb_report_json(&r);
	assert_true(json_is_null(json_object_get(json_object_get(doc, "ratio_intervals"),
						 "throughput_host_over_veth")));
	json_decref(doc);
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		st_nb_path_result_free(&paths[i]);
}

/* Each connection and the UDP counts add up over runs; a stream's Gbit/s is bytes over time. */
static void test_streams_and_udp_sums(void **state)
{
	static struct st_nb_path_result p;
	static struct st_nb_run run;

	memset(&p, 0, sizeof(p));
	for (int k = 0; k < 2; k++) {
		memset(&run, 0, sizeof(run));
		st_hist_init(&run.hist);
		run.nstreams = 3;
		for (unsigned int i = 0; i < 3; i++) {
			run.streams[i].bytes_sent = run.streams[i].bytes_received = 1000000000ull * (i + 1);
			run.streams[i].ns = 1000000000ull; /* 1 s */
		}
		run.udp = (struct st_nb_udp){ .datagram = 1472, .sent_datagrams = 100, .sent_bytes = 147200,
					      .received_datagrams = 75, .received_bytes = 110400,
					      .send_ns = 1000000 };
		run.so_busy_poll = k == 0; /* only every run's counts */
		run.server_cpus = 1ull << k;
		run.client_cpus = 2;
		st_nb_path_add_run(&p, &run);
	}
	assert_int_equal(p.nstreams, 3);
	assert_int_equal(p.streams[2].bytes_received, 6000000000ull);
	assert_within(st_nb_stream_gbps(&p.streams[0]), 8.0, 1e-9);
	assert_within(st_nb_stream_gbps(&p.streams[2]), 24.0, 1e-9);
	assert_int_equal(p.udp.sent_datagrams, 200);
	assert_within(st_nb_udp_loss(&p.udp), 0.25, 1e-12);
	assert_within(st_nb_udp_sent_gbps(&p.udp), 294400 * 8.0 / 2e6, 1e-9);
	assert_within(st_nb_udp_received_gbps(&p.udp) / st_nb_udp_sent_gbps(&p.udp), 0.75, 1e-12);
	assert_false(p.so_busy_poll);
	assert_int_equal(p.server_cpus, 3);
	assert_int_equal(p.client_cpus, 2);
	/* Nothing sent: no loss figure, not 0 or 100%. */
	memset(&p.udp, 0, sizeof(p.udp));
	assert_true(isnan(st_nb_udp_loss(&p.udp)));
	assert_true(isnan(st_nb_udp_sent_gbps(&p.udp)));
	st_nb_path_result_free(&p);
}

/* Slots line up by number: the share counts only slots both ends were seen in. */
static void test_same_cpu_share(void **state)
{
	static struct st_nb_placement server, client;
	const uint64_t slot = ST_NB_PLACE_SLOT_NS, t0 = 1000 * slot;

	memset(&server, 0, sizeof(server));
	memset(&client, 0, sizeof(client));
	assert_true(isnan(st_nb_same_cpu_share(&server, &client)));
	/* Server seen in slots 1000..1009 on CPU 0; the client from slot 1005, 3 on CPU 0, then CPU 1. */
	for (uint64_t i = 0; i < 10; i++)
		st_nb_placement_note(&server, t0 + i * slot + slot / 2, 0);
	for (uint64_t i = 5; i < 20; i++)
		st_nb_placement_note(&client, t0 + i * slot, i < 8 ? 0 : 1);
	assert_true(isnan(st_nb_same_cpu_share(&server, &(struct st_nb_placement){ 0 })));
	/* Both seen in 1005..1009 (5 slots): 3 alike. The order of the two does not matter. */
	assert_within(st_nb_same_cpu_share(&server, &client), 3.0 / 5.0, 1e-12);
	assert_within(st_nb_same_cpu_share(&client, &server), 3.0 / 5.0, 1e-12);
	/* The last note in a slot wins; a slot past the last kept is dropped, not wrapped. */
	st_nb_placement_note(&client, t0 + 5 * slot + 1, 1);
	assert_within(st_nb_same_cpu_share(&server, &client), 2.0 / 5.0, 1e-12);
	st_nb_placement_note(&server, t0 + (ST_NB_PLACE_SLOTS + 5) * slot, 1);
	assert_within(st_nb_same_cpu_share(&server, &client), 2.0 / 5.0, 1e-12);
	/* An unknown CPU is not noted. */
	st_nb_placement_note(&server, t0 + 11 * slot, -1);
	assert_int_equal(server.cpu[11], 0);
}

static void test_parse_paths(void **state)
{
	struct st_error err = { 0 };
	unsigned int mask = 0;

	assert_int_equal(st_nb_parse_paths("host-to-sandbox,host", &mask, &err), 0);
	assert_int_equal(mask, (1u << ST_NB_HOST_TO_SANDBOX) | (1u << ST_NB_HOST));
	assert_int_equal(st_nb_parse_paths("macvlan", &mask, &err), 0);
	assert_int_equal(mask, 1u << ST_NB_MACVLAN);
	assert_int_equal(st_nb_parse_paths("all", &mask, &err), 0);
	assert_int_equal(mask, ST_NB_ALL_PATHS);
	assert_true(st_nb_parse_paths("host-to", &mask, &err) < 0);
}

static void test_pick_cpus(void **state)
{
	cpu_set_t set;
	int s, c, ret = st_nb_pick_cpus(&s, &c);

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	if (CPU_COUNT(&set) < 2) {
		assert_int_equal(ret, -1);
		return;
	}
	assert_int_equal(ret, 0);
	assert_true(s >= 0 && c > s);
	assert_true(CPU_ISSET(s, &set) && CPU_ISSET(c, &set));
}

/*
 * Two connections whose warm-up bytes were still queued when the client
 * started measuring at 10.0 s. A: 3 MB warm-up, 10 MB measured; B: 2 MB and
 * 6 MB. The server (which accepted B first) had read them all at 10.2 s,
 * with 0.5 MB of each connection's measured bytes as well; A ends at
 * 12.2 s, B at 11.2 s. By hand: A read 13 - 3.5 = 9.5 MB in 2.0 s
 * (0.038 Gbit/s), B 8 - 2.5 = 5.5 MB in 1.0 s (0.044), the run 15 MB in
 * 2.0 s (0.06). Counting from the client's start instead would give the
 * 16 MB sent over 2.2 s (0.058): the queued warm-up's delivery time with
 * none of its bytes.
 */
static void window_fixture(struct st_nb_child_result *sr, struct st_nb_child_result *cr)
{
	memset(sr, 0, sizeof(*sr));
	memset(cr, 0, sizeof(*cr));
	cr->nconn = sr->nconn = 2;
	cr->t_start_ns = 10000000000ull;
	cr->conn[0] = (struct st_nb_conn_count){ .port = 40000, .warm_bytes = 3000000,
						  .bytes = 10000000 };
	cr->conn[1] = (struct st_nb_conn_count){ .port = 40001, .warm_bytes = 2000000,
						  .bytes = 6000000 };
	sr->t_window_ns = 10200000000ull;
	sr->conn[0] = (struct st_nb_conn_count){ .port = 40001, .bytes = 8000000,
						  .before_window = 2500000,
						  .t_eof_ns = 11200000000ull };
	sr->conn[1] = (struct st_nb_conn_count){ .port = 40000, .bytes = 13000000,
						  .before_window = 3500000,
						  .t_eof_ns = 12200000000ull };
}

static void test_window_holds_only_measured_bytes(void **state)
{
	static struct st_nb_child_result sr, cr;
	static struct st_nb_run run;
	struct rusage ru[2];
	struct st_error err = { 0 };

	memset(ru, 0, sizeof(ru));
	window_fixture(&sr, &cr);
	assert_int_equal(st_nb_run_fill(&sr, &cr, &run, ru, &err), 0);
	assert_int_equal(run.nstreams, 2);
	assert_int_equal(run.streams[0].bytes_sent, 10000000);
	assert_int_equal(run.streams[0].bytes_received, 9500000);
	assert_int_equal(run.streams[0].ns, 2000000000ull);
	assert_within(st_nb_stream_gbps(&run.streams[0]), 0.038, 1e-12);
	assert_int_equal(run.streams[1].bytes_received, 5500000);
	assert_int_equal(run.streams[1].ns, 1000000000ull);
	assert_within(st_nb_stream_gbps(&run.streams[1]), 0.044, 1e-12);
	assert_int_equal(run.bytes_sent, 16000000);
	assert_int_equal(run.bytes_received, 15000000);
	assert_int_equal(run.stream_ns, 2000000000ull);
	assert_within(run.gbps, 0.06, 1e-12);

	/* A window that never opened, or ends that disagree on a byte: no figure. */
	sr.t_window_ns = 0;
	assert_int_equal(st_nb_run_fill(&sr, &cr, &run, ru, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "warm-up"));
	window_fixture(&sr, &cr);
	sr.conn[1].bytes--;
	assert_int_equal(st_nb_run_fill(&sr, &cr, &run, ru, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "stream 0"));
}

static void test_warmup(void **state)
{
	assert_within(st_nb_warmup_s(3), 1.0, 0);
	assert_within(st_nb_warmup_s(0.3), 0.15, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_is_monotonic_and_covers),
		cmocka_unit_test(test_small_values_are_exact),
		cmocka_unit_test(test_large_values_within_resolution),
		cmocka_unit_test(test_bimodal_and_merge),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_path_sums_and_ratios),
		cmocka_unit_test(test_ratio_intervals),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_window_holds_only_measured_bytes),
		cmocka_unit_test(test_streams_and_udp_sums),
		cmocka_unit_test(test_same_cpu_share),
		cmocka_unit_test(test_parse_paths),
		cmocka_unit_test(test_pick_cpus),
	};

	return cmocka_run_group_tests_name("netbench", tests, NULL, NULL);
}
