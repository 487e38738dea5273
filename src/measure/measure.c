// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <string.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/deferred.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"

const struct st_figure_info st_figures[ST_FIG_COUNT] = {
	[ST_FIG_SETUP] = { "setup_us", "setup" },
	[ST_FIG_SETUP_CPU] = { "setup_cpu_us", "setup cpu" },
	[ST_FIG_READY] = { "ready_us", "ready" },
	[ST_FIG_TEARDOWN] = { "teardown_us", "teardown" },
	[ST_FIG_TEARDOWN_CPU] = { "teardown_cpu_us", "teardown cpu" },
	[ST_FIG_DEFERRED] = { "deferred_us", "deferred" },
	[ST_FIG_SETUP_COLD] = { "setup_cold_us", "setup cold" },
	[ST_FIG_READY_COLD] = { "ready_cold_us", "ready cold" },
	[ST_FIG_TEARDOWN_COLD] = { "teardown_cold_us", "teardown cold" },
};

/*
 * The measured child: say "running", wait for EOF on @go, exit. It holds the
 * only write end of the ready pipe, so if it dies the parent sees EOF instead
 * of blocking; and EOF on @go also comes if the parent dies.
 */
static void _noreturn_ cycle_child(int ready_wr, int go_rd)
{
	char c = 'r';

	if (write(ready_wr, &c, 1) != 1)
		_exit(1);
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

int st_measure_cycle(uint64_t flags, struct st_cycle *out, struct st_error *err)
{
	_cleanup_close_ int ready_rd = -1, ready_wr = -1, go_rd = -1, go_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	uint64_t t0, t1, t2, t3, t4, cpu0, cpu1, cpu2, cpu3;
	int fds[2], status, ret;
	char c;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "pipe");
	ready_rd = fds[0];
	ready_wr = fds[1];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "pipe");
	go_rd = fds[0];
	go_wr = fds[1];

	/*
	 * The CPU clock is read inside the wall window, never around it, so that
	 * CPU time cannot exceed wall time; the wall figures thus include two
	 * CPU-clock reads (well under a microsecond), alike in every set.
	 */
	t0 = st_now_ns();
	cpu0 = st_thread_cpu_ns();
	pid = st_clone3(flags, err);
	cpu1 = st_thread_cpu_ns();
	t1 = st_now_ns();
	if (pid < 0)
		return (int)pid;
	if (pid == 0) {
		close(ready_rd);
		close(go_wr);
		cycle_child(ready_wr, go_rd);
	}
	closep(&ready_wr);
	closep(&go_rd);
	if (TEMP_FAILURE_RETRY(read(ready_rd, &c, 1)) != 1)
		return st_error_set(err, EPROTO, "measured child %d died before it was ready", pid);
	t2 = st_now_ns();

	t3 = st_now_ns();
	cpu2 = st_thread_cpu_ns();
	closep(&go_wr);
	ret = st_reap(pid, &status, err);
	cpu3 = st_thread_cpu_ns();
	t4 = st_now_ns();
	if (ret < 0)
		return ret;
	take_pid(&pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return st_error_set(err, EPROTO, "measured child failed (status 0x%x)", status);

	out->setup_ns = t1 - t0;
	out->setup_cpu_ns = cpu1 - cpu0;
	out->ready_ns = t2 - t0;
	out->teardown_ns = t4 - t3;
	out->teardown_cpu_ns = cpu3 - cpu2;
	out->reaped_at_ns = t4;
	return 0;
}

static void add_set(struct st_measurement *m, const char *name, int layer, int alone,
		    unsigned int mask)
{
	struct st_set *set = &m->sets[m->nsets++];

	set->name = name;
	set->layer = layer;
	set->alone = alone;
	set->mask = mask;
}

/* base, then one cumulative set per layer in the fixed order, then the alones. */
static void build_sets(const struct st_measure_config *cfg, struct st_measurement *m)
{
	unsigned int cum = 0;
	unsigned int user = cfg->rootless ? ST_LAYER_BIT(ST_LAYER_USER) : 0;

	add_set(m, "base", -1, 0, 0);
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		if (!(cfg->mask & ST_LAYER_BIT(l)))
			continue;
		cum |= ST_LAYER_BIT(l);
		add_set(m, st_layers[l].name, l, 0, cum);
	}
	if (!cfg->alone)
		return;
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		if (!(cfg->mask & ST_LAYER_BIT(l)) || l == ST_LAYER_USER)
			continue;
		add_set(m, st_layers[l].name, l, 1, ST_LAYER_BIT(l) | user);
	}
}

static int reserve_all(struct st_measurement *m, const struct st_measure_config *cfg)
{
	for (size_t i = 0; i < m->nsets; i++)
		for (int f = 0; f < ST_FIG_COUNT; f++)
			if (st_samples_reserve(&m->sets[i].fig[f], cfg->repeat + 1) < 0)
				return -ENOMEM;
	return 0;
}

static int check_signal(struct st_measurement *m, struct st_error *err)
{
	int sig = st_signals_poll();

	if (!sig)
		return 0;
	m->interrupted_by = sig;
	return st_error_set(err, EINTR, "interrupted by %s while measuring", st_signal_name(sig));
}

static void record_cycle(struct st_set *set, const struct st_cycle *c, int cold)
{
	st_samples_add(&set->fig[cold ? ST_FIG_SETUP_COLD : ST_FIG_SETUP], st_ns_to_us(c->setup_ns));
	st_samples_add(&set->fig[cold ? ST_FIG_READY_COLD : ST_FIG_READY], st_ns_to_us(c->ready_ns));
	st_samples_add(&set->fig[cold ? ST_FIG_TEARDOWN_COLD : ST_FIG_TEARDOWN],
		       st_ns_to_us(c->teardown_ns));
	if (!cold) {
		st_samples_add(&set->fig[ST_FIG_SETUP_CPU], st_ns_to_us(c->setup_cpu_ns));
		st_samples_add(&set->fig[ST_FIG_TEARDOWN_CPU], st_ns_to_us(c->teardown_cpu_ns));
	}
}

/*
 * Repetitions are interleaved across sets (rep 1 of every set, then rep 2...)
 * and each round starts one set further on, so that drift and order effects
 * hit all sets alike.
 */
static int warm_pass(const struct st_measure_config *cfg, struct st_measurement *m, int cold,
		     struct st_error *err)
{
	unsigned int rounds = cfg->warmup + cfg->repeat;
	unsigned int total = rounds * (unsigned int)m->nsets, done = 0;

	for (unsigned int r = 0; r < rounds; r++) {
		for (size_t k = 0; k < m->nsets; k++) {
			struct st_set *set = &m->sets[(k + r) % m->nsets];
			struct st_cycle c;

			if (check_signal(m, err) < 0)
				return -EINTR;
			if (cold)
				st_sleep_ms(cfg->cold_ms);
			if (st_measure_cycle(st_layer_flags(set->mask), &c, err) < 0)
				return st_error_wrap(err, "measuring %s", set->name);
			if (r >= cfg->warmup)
				record_cycle(set, &c, cold);
			if (cfg->progress)
				cfg->progress(cfg->progress_ctx, cold ? "cold" : "warm", ++done, total);
		}
	}
	return 0;
}

/* One warm-up round, then deferred_repeat rounds; base has nothing to free. */
static int deferred_pass(const struct st_measure_config *cfg, struct st_measurement *m,
			 struct st_error *err)
{
	unsigned int rounds = 1 + cfg->deferred_repeat;
	unsigned int total = rounds * (unsigned int)(m->nsets - 1), done = 0;

	for (unsigned int r = 0; r < rounds; r++) {
		for (size_t k = 0; k < m->nsets; k++) {
			struct st_set *set = &m->sets[(k + r) % m->nsets];
			struct st_deferred_sample d;

			if (!set->mask)
				continue;
			if (check_signal(m, err) < 0)
				return -EINTR;
			if (st_deferred_measure(set->mask, &d, err) < 0)
				return st_error_wrap(err, "measuring deferred teardown of %s", set->name);
			m->deferred_wait_ns += d.deferred_ns;
			if (r >= 1) {
				st_samples_add(&set->fig[ST_FIG_DEFERRED], st_ns_to_us(d.deferred_ns));
				set->deferred_probes += d.probes;
			}
			if (cfg->progress)
				cfg->progress(cfg->progress_ctx, "deferred", ++done, total);
		}
	}
	return 0;
}

int st_measure_run(const struct st_measure_config *cfg, struct st_measurement *m,
		   struct st_error *err)
{
	uint64_t start = st_now_ns();
	int ret;

	memset(m, 0, sizeof(*m));
	build_sets(cfg, m);
	if (reserve_all(m, cfg) < 0)
		return st_error_set(err, ENOMEM, "measuring");
	ret = warm_pass(cfg, m, 0, err);
	if (ret == 0 && cfg->deferred_repeat)
		ret = deferred_pass(cfg, m, err);
	if (ret == 0 && cfg->cold_ms)
		ret = warm_pass(cfg, m, 1, err);
	m->elapsed_ns = st_now_ns() - start;
	return ret;
}

void st_measurement_free(struct st_measurement *m)
{
	for (size_t i = 0; i < m->nsets; i++)
		for (int f = 0; f < ST_FIG_COUNT; f++)
			st_samples_free(&m->sets[i].fig[f]);
	m->nsets = 0;
}

double st_set_median(const struct st_set *set, enum st_figure fig)
{
	struct st_stats s;

	if (st_stats_compute(set->fig[fig].v, set->fig[fig].n, &s) < 0)
		return 0;
	return s.median;
}

const struct st_set *st_set_reference(const struct st_measurement *m, size_t i)
{
	const struct st_set *set = &m->sets[i];

	if (set->layer < 0)
		return NULL;
	if (!set->alone)
		return &m->sets[i - 1];
	/* Rootless, a layer "alone" still needs user: compare with the user set. */
	for (size_t j = 0; j < m->nsets; j++)
		if (!m->sets[j].alone && m->sets[j].mask == (set->mask & ST_LAYER_BIT(ST_LAYER_USER)))
			return &m->sets[j];
	return &m->sets[0];
}
