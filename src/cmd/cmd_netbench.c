// SPDX-License-Identifier: MIT
/*
 * sandboxtime netbench: builds the paths in namespaces of its own, runs
 * --repeat rounds interleaved across the paths (each round in an order drawn
 * from the seed, so that drift hits every path alike and no path always
 * follows another), and reports medians and ratios.
 */
#include <stdio.h>
#include <string.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/netbench.h"
#include "sandboxtime/report_netbench.h"
#include "sandboxtime/session.h"
#include "sandboxtime/signals.h"

struct nb_state {
	struct st_nb_path_result paths[ST_NB_PATH_COUNT];
	struct st_nb_run run;
	int server_cpu, client_cpu; /* --cpu-pin, else -1 */
};

static void nb_state_free(struct nb_state **sp)
{
	struct nb_state *s = *sp;

	if (!s)
		return;
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		st_nb_path_result_free(&s->paths[i]);
	free(s);
	*sp = NULL;
}

static void progress(const struct st_output *out, unsigned int done, unsigned int total, int path)
{
	if (out->quiet || !isatty(STDERR_FILENO))
		return;
	if (done == total)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "\rsandboxtime: netbench %-6s run %u of %u", st_nb_path_names[path],
			done + 1, total);
	fflush(stderr);
}

static int interrupted(struct st_session *s, int sig, struct st_error *err)
{
	s->m.interrupted_by = sig;
	return st_error_set(err, EINTR, "netbench: interrupted by %s", st_signal_name(sig));
}

/* What a run of one path needs to know of the options. */
static void nb_config(const struct st_netbench_opts *o, const struct nb_state *st,
		      struct st_nb_config *cfg)
{
	*cfg = (struct st_nb_config){
		.duration_s = o->duration_s,
		.size = o->size,
		.rr = o->rr,
		.repeat = o->repeat,
		.mtu = o->mtu,
		.streams = o->streams,
		.busy_poll = o->busy_poll,
		.udp = o->udp,
		.server_cpu = st->server_cpu,
		.client_cpu = st->client_cpu,
		.seed = st_seed_or_new(&o->seed),
	};
}

static int measure(struct st_session *s, const struct st_netbench_opts *o,
		   const struct st_nb_config *cfg, const struct st_nb_lab *lab, struct nb_state *st,
		   struct st_error *err)
{
	int order[ST_NB_PATH_COUNT];
	size_t idx[ST_NB_PATH_COUNT];
	unsigned int n = 0, done = 0;
	uint64_t rng = cfg->seed;

	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (o->paths & (1u << i))
			order[n++] = i;
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (st_samples_reserve(&st->paths[i].gbps, o->repeat) < 0)
			return st_error_set(err, ENOMEM, "netbench: samples");
	for (unsigned int round = 0; round < o->repeat; round++) {
		st_permute(idx, n, &rng);
		for (unsigned int k = 0; k < n; k++) {
			int path = order[idx[k]];
			int sig = st_signals_poll(), ret;

			if (sig)
				return interrupted(s, sig, err);
			progress(s->output, done, o->repeat * n, path);
			ret = st_nb_run_once(cfg, &lab->ep[path], &st->run, &sig, err);
			if (ret == -EINTR && sig)
				return interrupted(s, sig, err);
			if (ret < 0)
				return st_error_wrap(err, "netbench: %s path, run %u", st_nb_path_names[path],
						     round + 1);
			st_nb_path_add_run(&st->paths[path], &st->run);
			done++;
		}
	}
	progress(s->output, done, done, 0);
	return 0;
}

static const struct st_sink_writers nb_writers = {
	.format = &st_nb_format, .title = "sandboxtime netbench", .what = "netbench",
};

int st_cmd_netbench(const struct st_netbench_opts *o, const struct st_output *out, int *exit_code,
		    struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_nb_lab lab __attribute__((cleanup(st_nb_lab_release))) = { .base_fd = -1 };
	_cleanup_(nb_state_free) struct nb_state *st = calloc(1, sizeof(*st));
	struct st_nb_report r;
	struct st_nb_config cfg;
	uint64_t t0 = st_now_ns();
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = st_session_open(&s, out, err);
	if (ret < 0)
		return ret;
	if (!st)
		return st_error_set(err, ENOMEM, "netbench");
	st->server_cpu = st->client_cpu = -1;
	if (o->cpu_pin && st_nb_pick_cpus(&st->server_cpu, &st->client_cpu) < 0)
		return st_error_set(err, EINVAL, "--cpu-pin: netbench may run on one CPU only (it needs two, one for the server, one for the client)");
	/* Host facts come from the host: read them before leaving its namespaces. */
	st_host_collect(&s.report.host);
	ret = st_nb_lab_enter(err);
	if (ret == 0)
		ret = st_nb_lab_build(&lab, o->paths, o->mtu, err);
	nb_config(o, st, &cfg);
	if (ret == 0)
		ret = measure(&s, o, &cfg, &lab, st, err);
	/* The host facts were read before the runs: the steal must cover them. */
	st_steal_end(&s.report.host.steal);
	if (ret < 0) {
		*exit_code = st_session_failure_code(&s);
		return ret;
	}
	memset(&r, 0, sizeof(r));
	r.out = out;
	r.cfg = &cfg;
	r.path_mask = o->paths;
	r.cpu_pin = o->cpu_pin;
	r.host = &s.report.host;
	r.server_cpu = st->server_cpu;
	r.client_cpu = st->client_cpu;
	r.paths = st->paths;
	r.elapsed_ns = st_now_ns() - t0;
	st_nb_ratios_compute(st->paths, &r.ratios);
	ret = st_sink_emit(&s.sink, &nb_writers, &r, err);
	if (ret < 0)
		return ret;
	*exit_code = ST_EXIT_OK;
	return 0;
}
