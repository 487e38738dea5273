// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandboxtime/bench_grid.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

int st_grid_init(struct st_bench_grid *g, const char *bench, const char *unit, unsigned int repeat,
		 const char *const *places, size_t nplaces, const char *const *ops, size_t nops,
		 struct st_error *err)
{
	memset(g, 0, sizeof(*g));
	if (nplaces > ST_GRID_MAX_PLACES || nops > ST_GRID_MAX_OPS)
		return st_error_set(err, EINVAL, "bench %s: too many places or operations", bench);
	g->bench = bench;
	g->unit = unit;
	g->repeat = repeat;
	g->resolution_us = st_guard_clock_resolution_us();
	g->nplaces = nplaces;
	g->nops = nops;
	memcpy(g->places, places, nplaces * sizeof(*places));
	memcpy(g->ops, ops, nops * sizeof(*ops));
	for (size_t p = 0; p < nplaces; p++)
		for (size_t o = 0; o < nops; o++)
			if (st_samples_reserve(&g->cell[p][o].v, repeat) < 0)
				return st_error_set(err, ENOMEM, "bench %s: samples", bench);
	return 0;
}

void st_grid_set_config(struct st_bench_grid *g, const char *key, double value)
{
	if (g->nconfig < ST_GRID_MAX_CONFIG)
		g->config[g->nconfig++] = (struct st_grid_config){ key, value };
}

int st_grid_in_child(const char *what, void (*fn)(void *arg, struct st_grid_result *r), void *arg,
		     struct st_grid_result *r, struct st_error *err)
{
	_cleanup_close_ int rd = -1, wr = -1;
	_cleanup_pid_ pid_t pid = -1;

	if (st_pipe(&rd, &wr, "bench: pipe", err) < 0)
		return -err->errnum;
	pid = st_fork_child(err);
	if (pid < 0)
		return pid;
	if (pid == 0) {
		closep(&rd);
		memset(r, 0, sizeof(*r));
		fn(arg, r);
		_exit(st_write_all(wr, r, sizeof(*r)) == 0 ? 0 : 1);
	}
	closep(&wr);
	if (TEMP_FAILURE_RETRY(read(rd, r, sizeof(*r))) != (ssize_t)sizeof(*r))
		return st_error_set(err, EPROTO, "%s: the measuring child died", what);
	return st_reap(take_pid(&pid), NULL, err);
}

struct place_call {
	const struct st_bench_grid *g;
	size_t place;
	st_grid_sample_fn fn;
	void *ctx;
};

static void call_place(void *arg, struct st_grid_result *r)
{
	const struct place_call *c = arg;

	c->fn(c->g, c->place, c->ctx, r);
}

/* One child measures @place once; its result comes back through a pipe. */
static int sample(struct st_bench_grid *g, size_t place, st_grid_sample_fn fn, void *ctx,
		  struct st_grid_result *r, struct st_error *err)
{
	struct place_call c = { g, place, fn, ctx };
	char what[96];

	snprintf(what, sizeof(what), "bench %s: %s", g->bench, g->places[place]);
	return st_grid_in_child(what, call_place, &c, r, err);
}

static void record(struct st_bench_grid *g, size_t place, const struct st_grid_result *r)
{
	for (size_t o = 0; o < g->nops; o++) {
		struct st_grid_cell *c = &g->cell[place][o];

		st_samples_add(&c->v, r->v[o]);
		/* A mismatch in any round refuses the figure for good. */
		if (r->refused[o][0] && !c->refused[0])
			snprintf(c->refused, sizeof(c->refused), "%s", r->refused[o]);
		if (r->flag[o][0])
			snprintf(c->flag, sizeof(c->flag), "%s", r->flag[o]);
	}
}

int st_grid_run(struct st_bench_grid *g, st_grid_sample_fn fn, void *ctx, struct st_error *err)
{
	struct st_grid_result r;

	for (unsigned int round = 0; round <= g->repeat; round++) {
		for (size_t k = 0; k < g->nplaces; k++) {
			size_t p = (k + round) % g->nplaces;
			int sig = st_signals_poll(), ret;

			if (sig) {
				g->interrupted_by = sig;
				return st_error_set(err, EINTR, "interrupted by %s while measuring",
						    st_signal_name(sig));
			}
			if (g->unavailable[p][0])
				continue;
			ret = sample(g, p, fn, ctx, &r, err);
			/*
			 * ^C reaches the whole process group: a place's own programs
			 * (bench where's qemu) die of it before this process polls.
			 */
			sig = st_signals_poll();
			if (sig) {
				g->interrupted_by = sig;
				return st_error_set(err, EINTR, "interrupted by %s while measuring",
						    st_signal_name(sig));
			}
			if (ret < 0)
				return ret;
			/* Refused in the warm-up round: the kernel's reason stands for the place. */
			if (r.failed && round == 0) {
				st_error_format(&r.err, g->unavailable[p], sizeof(g->unavailable[p]));
				continue;
			}
			if (r.failed) {
				*err = r.err;
				return st_error_wrap(err, "bench %s: %s", g->bench, g->places[p]);
			}
			if (round > 0)
				record(g, p, &r);
		}
	}
	return 0;
}

const char *st_grid_op_unit(const struct st_bench_grid *g, size_t op)
{
	return g->op_units ? g->op_units[op] : g->unit;
}

/* Operation @op's unit in microseconds. */
static double unit_us(const struct st_bench_grid *g, size_t op)
{
	return strcmp(st_grid_op_unit(g, op), "ns") == 0 ? 1e-3 : 1.0;
}

void st_grid_apply_guards(struct st_bench_grid *g)
{
	for (size_t p = 0; p < g->nplaces; p++)
		for (size_t o = 0; o < g->nops; o++) {
			struct st_grid_cell *c = &g->cell[p][o];
			struct st_stats st;

			if (c->refused[0] || c->v.n == 0 || st_stats_compute(c->v.v, c->v.n, &st) < 0)
				continue;
			st_guard_time(st.min * unit_us(g, o), g->resolution_us, c->refused, sizeof(c->refused));
		}
}

double st_grid_median(const struct st_bench_grid *g, size_t place, size_t op)
{
	const struct st_grid_cell *c = &g->cell[place][op];
	struct st_stats st;

	if (g->unavailable[place][0] || c->refused[0] || c->v.n == 0 ||
	    st_stats_compute(c->v.v, c->v.n, &st) < 0)
		return -1;
	return st.median;
}

void st_grid_free(struct st_bench_grid *g)
{
	for (size_t p = 0; p < ST_GRID_MAX_PLACES; p++)
		for (size_t o = 0; o < ST_GRID_MAX_OPS; o++)
			st_samples_free(&g->cell[p][o].v);
	g->nplaces = 0;
}

struct st_bench_grid *st_grid_of(const struct st_grid_bench *gb, void *b)
{
	return (struct st_bench_grid *)((char *)b + gb->grid);
}

int st_grid_bench_run(const struct st_grid_bench *gb, void *b, struct st_error *err)
{
	struct st_bench_grid *g = st_grid_of(gb, b);
	int ret = st_grid_run(g, gb->sample, b, err);

	if (ret == 0) {
		st_grid_apply_guards(g);
		gb->finish(b);
	}
	return ret;
}

void st_grid_bench_free(const struct st_grid_bench *gb, void *b)
{
	if (gb->free)
		gb->free(b);
	st_grid_free(st_grid_of(gb, b));
}
