// SPDX-License-Identifier: MIT
#include <string.h>

#include <stdio.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/cycle.h"
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
	[ST_FIG_CHILD_CPU] = { "child_cpu_us", "child cpu" },
	[ST_FIG_DEFERRED] = { "deferred_us", "deferred" },
	[ST_FIG_DEFERRED_DRAIN] = { "deferred_drain_us", "drain" },
	[ST_FIG_SETUP_COLD] = { "setup_cold_us", "setup cold" },
	[ST_FIG_READY_COLD] = { "ready_cold_us", "ready cold" },
	[ST_FIG_TEARDOWN_COLD] = { "teardown_cold_us", "teardown cold" },
};

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
	for (size_t i = 0; i < m->nsets; i++) {
		for (int f = 0; f < ST_FIG_COUNT; f++)
			if (st_samples_reserve(&m->sets[i].fig[f], cfg->repeat + 1) < 0)
				return -ENOMEM;
		for (int l = 0; l < ST_LAYER_COUNT; l++)
			if ((m->sets[i].mask & ST_LAYER_BIT(l)) &&
			    (st_samples_reserve(&m->sets[i].freed[l], cfg->deferred_repeat + 1) < 0 ||
			     st_samples_reserve(&m->sets[i].attempt[l], cfg->deferred_repeat + 1) < 0))
				return -ENOMEM;
	}
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
		st_samples_add(&set->fig[ST_FIG_CHILD_CPU], st_ns_to_us(c->child_cpu_ns));
		set->preempted += c->preempted ? 1 : 0;
	}
}

/*
 * Repetitions are interleaved across sets (rep 1 of every set, then rep 2...),
 * each round in a fresh random order drawn from the seed, so that drift and
 * the predecessor's after-effects hit all sets alike, and sample r of every
 * set comes from round r (the increments pair them).
 */
static int warm_pass(const struct st_measure_config *cfg, struct st_measurement *m, int cold,
		     uint64_t *rng, struct st_error *err)
{
	unsigned int rounds = cfg->warmup + cfg->repeat;
	unsigned int total = rounds * (unsigned int)m->nsets, done = 0;
	size_t order[ST_MAX_SETS];

	for (unsigned int r = 0; r < rounds; r++) {
		st_permute(order, m->nsets, rng);
		for (size_t k = 0; k < m->nsets; k++) {
			struct st_set *set = &m->sets[order[k]];
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

static void record_deferred(struct st_set *set, const struct st_deferred_sample *d)
{
	st_samples_add(&set->fig[ST_FIG_DEFERRED], st_ns_to_us(d->deferred_ns));
	st_samples_add(&set->fig[ST_FIG_DEFERRED_DRAIN], st_ns_to_us(d->drain_ns));
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (set->mask & ST_LAYER_BIT(l)) {
			st_samples_add(&set->freed[l], st_ns_to_us(d->freed_ns[l]));
			st_samples_add(&set->attempt[l], st_ns_to_us(d->call_ns[l]));
		}
	if (d->last_layer >= 0)
		set->last[d->last_layer]++;
	set->deferred_probes += d->probes;
}

/* One unrecorded round, then deferred_repeat rounds; base has nothing to free. */
static int deferred_rounds(const struct st_measure_config *cfg, struct st_measurement *m,
			   struct st_deferred_lab *lab, uint64_t *rng, struct st_error *err)
{
	unsigned int rounds = 1 + cfg->deferred_repeat;
	unsigned int total = rounds * (unsigned int)(m->nsets - 1), done = 0;
	size_t order[ST_MAX_SETS];

	for (unsigned int r = 0; r < rounds; r++) {
		st_permute(order, m->nsets, rng);
		for (size_t k = 0; k < m->nsets; k++) {
			struct st_set *set = &m->sets[order[k]];
			struct st_deferred_sample d;

			if (!set->mask)
				continue;
			if (check_signal(m, err) < 0)
				return -EINTR;
			if (st_deferred_lab_sample(lab, set->mask, st_rng_next(rng), &d, err) < 0)
				return st_error_wrap(err, "measuring deferred teardown of %s", set->name);
			m->deferred_wait_ns += d.deferred_ns;
			m->drain_wait_ns += d.drain_ns;
			m->drains++;
			m->drain_sleeps += d.settled_by == ST_SETTLE_SLEEP;
			if (r >= 1)
				record_deferred(set, &d);
			if (cfg->progress)
				cfg->progress(cfg->progress_ctx, "deferred", ++done, total);
		}
	}
	return 0;
}

/*
 * Where no user namespace can be made (a chroot, a sysctl, an LSM or a
 * seccomp filter), the deferred figures are unavailable, with the kernel's
 * reason; everything else is still measured.
 */
static int deferred_pass(const struct st_measure_config *cfg, struct st_measurement *m,
			 uint64_t *rng, struct st_error *err)
{
	struct st_deferred_lab lab;
	struct st_error why = { 0 };
	int ret;

	if (st_deferred_lab_open(&lab, &why) < 0) {
		m->deferred_errnum = why.errnum ? why.errnum : EIO;
		snprintf(m->deferred_reason, sizeof(m->deferred_reason), "%s: %s%s%s%s", why.msg,
			 strerror(m->deferred_errnum), why.hint[0] ? " (" : "", why.hint,
			 why.hint[0] ? ")" : "");
		return 0;
	}
	m->deferred_poll_us = lab.poll_us;
	ret = deferred_rounds(cfg, m, &lab, rng, err);
	st_deferred_lab_close(&lab);
	return ret;
}

/* One figure of one set: st_set_increment computes it once. */
struct st_increment_memo {
	int done; /* 1: ret and inc hold the result */
	int ret;
	struct st_increment inc;
};

int st_measure_run(const struct st_measure_config *cfg, struct st_measurement *m,
		   struct st_error *err)
{
	uint64_t start = st_now_ns(), rng = cfg->seed;
	int ret;

	memset(m, 0, sizeof(*m));
	m->seed = cfg->seed;
	m->memo = calloc(ST_MAX_SETS * ST_FIG_COUNT, sizeof(*m->memo)); /* NULL: no memo */
	build_sets(cfg, m);
	if (reserve_all(m, cfg) < 0)
		return st_error_set(err, ENOMEM, "measuring");
	ret = warm_pass(cfg, m, 0, &rng, err);
	if (ret == 0 && cfg->deferred_repeat && m->nsets > 1)
		ret = deferred_pass(cfg, m, &rng, err);
	if (ret == 0 && cfg->cold_ms)
		ret = warm_pass(cfg, m, 1, &rng, err);
	m->elapsed_ns = st_now_ns() - start;
	m->clock_read_ns = st_clock_read_ns();
	return ret;
}

void st_measurement_free(struct st_measurement *m)
{
	for (size_t i = 0; i < m->nsets; i++) {
		for (int f = 0; f < ST_FIG_COUNT; f++)
			st_samples_free(&m->sets[i].fig[f]);
		for (int l = 0; l < ST_LAYER_COUNT; l++) {
			st_samples_free(&m->sets[i].freed[l]);
			st_samples_free(&m->sets[i].attempt[l]);
		}
	}
	m->nsets = 0;
	free(m->memo);
	m->memo = NULL;
}

int st_set_differences(const struct st_measurement *m, size_t i, enum st_figure fig, double **out,
		       size_t *n)
{
	const struct st_set *ref = st_set_reference(m, i);
	const struct st_samples *x = &m->sets[i].fig[fig];
	size_t k = x->n;
	double *d;

	if (ref && ref->fig[fig].n < k)
		k = ref->fig[fig].n;
	d = malloc((k ? k : 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	/* The base's increment is its own figure: paired with zeros. */
	for (size_t r = 0; r < k; r++)
		d[r] = x->v[r] - (ref ? ref->fig[fig].v[r] : 0);
	*out = d;
	*n = k;
	return 0;
}

static int compute_increment(const struct st_measurement *m, size_t i, enum st_figure fig,
			     struct st_increment *out)
{
	_cleanup_free_ double *d = NULL;
	size_t n;
	int ret = st_set_differences(m, i, fig, &d, &n);

	if (ret < 0)
		return ret;
	st_increment_of(d, n, out);
	return 0;
}

/* The result is the same every time: the memo changes no figure, only the cost. */
int st_set_increment(const struct st_measurement *m, size_t i, enum st_figure fig,
		     struct st_increment *out)
{
	struct st_increment_memo *memo = m->memo ? &m->memo[i * ST_FIG_COUNT + fig] : NULL;

	if (memo && memo->done) {
		*out = memo->inc;
		return memo->ret;
	}
	if (!memo)
		return compute_increment(m, i, fig, out);
	memo->ret = compute_increment(m, i, fig, &memo->inc);
	/* ENOMEM may pass: try again next time. */
	memo->done = memo->ret != -ENOMEM;
	*out = memo->inc;
	return memo->ret;
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
