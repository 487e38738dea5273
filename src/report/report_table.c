// SPDX-License-Identifier: MIT
#include <limits.h>
#include <math.h>
#include <string.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/report.h"
#include "sandboxtime/version.h"

#define BAR_WIDTH 24

/*
 * A column: one figure's median, its increment over the reference set, or
 * its ratio to another figure of the same set (cold over warm).
 */
struct column {
	const char *heading;
	enum st_figure fig;
	int increment;
	int ratio_to; /* a figure + 1, or 0 */
};

static const struct column warm_columns[] = {
	{ .heading = "setup", .fig = ST_FIG_SETUP, .increment = 0 },
	{ .heading = "ready", .fig = ST_FIG_READY, .increment = 0 },
	{ .heading = "teardown", .fig = ST_FIG_TEARDOWN, .increment = 0 },
	{ .heading = "+setup", .fig = ST_FIG_SETUP, .increment = 1 },
	{ .heading = "+teardown", .fig = ST_FIG_TEARDOWN, .increment = 1 },
	{ .heading = "deferred", .fig = ST_FIG_DEFERRED, .increment = 0 },
};

static const struct column cold_columns[] = {
	{ .heading = "setup", .fig = ST_FIG_SETUP_COLD, .increment = 0 },
	{ .heading = "ready", .fig = ST_FIG_READY_COLD, .increment = 0 },
	{ .heading = "teardown", .fig = ST_FIG_TEARDOWN_COLD, .increment = 0 },
	{ .heading = "+setup", .fig = ST_FIG_SETUP_COLD, .increment = 1 },
	{ .heading = "setup x", .fig = ST_FIG_SETUP_COLD, .increment = 0, .ratio_to = ST_FIG_SETUP + 1 },
	{ .heading = "ready x", .fig = ST_FIG_READY_COLD, .increment = 0, .ratio_to = ST_FIG_READY + 1 },
};

static void print_header(const struct st_report *r, FILE *out)
{
	const struct st_host *h = &r->host;
	const struct st_opts *o = r->opts;

	fprintf(out, "sandboxtime %s: kernel %s, %d CPUs (%s)%s, %s, ", ST_VERSION, h->kernel, h->cpus,
		h->cpu_model[0] ? h->cpu_model : "unknown model", h->virtualized == 1 ? " in a VM" : "",
		h->rootless ? "rootless" : "root");
	if (h->pinned_cpu >= 0)
		fprintf(out, "pinned to CPU %d", h->pinned_cpu);
	else
		fputs("not pinned", out);
	fprintf(out, ", rcu_expedited %d, cgroup %s\n", h->rcu_expedited, h->cgroup);
	if (h->clone_call && strcmp(h->clone_call, "clone3") != 0)
		fputs("clone3 is missing here (old kernel or a filter): every layer is made with clone()\n", out);
	if (r->m)
		fprintf(out,
			"%u runs after %u warm-up, each round in a random order (--seed=%llu); deferred: %u runs; medians in microseconds\n",
			o->repeat, o->warmup, (unsigned long long)r->m->seed, o->deferred_repeat);
}

static double cell_value(const struct st_measurement *m, size_t i, const struct column *c,
			 int *empty)
{
	const struct st_set *set = &m->sets[i];

	*empty = set->fig[c->fig].n == 0;
	if (c->ratio_to) {
		double base = st_set_median(set, (enum st_figure)(c->ratio_to - 1));

		*empty = *empty || base <= 0;
		return *empty ? 0 : st_set_median(set, c->fig) / base;
	}
	return st_set_median(set, c->fig);
}

/* A significant positive increment, else 0. */
static double cost(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	struct st_increment inc;

	if (st_set_increment(m, i, fig, &inc) < 0 || !inc.significant || inc.median < 0)
		return 0;
	return inc.median;
}

/* What a layer makes the caller wait for: its setup and teardown increments. */
static double bar_value(const struct st_measurement *m, size_t i)
{
	return cost(m, i, ST_FIG_SETUP) + cost(m, i, ST_FIG_TEARDOWN);
}

/* The type freed last in most of the set's samples. */
static const char *last_type(const struct st_set *set)
{
	int best = -1;

	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (set->last[l] && (best < 0 || set->last[l] > set->last[best]))
			best = l;
	return best < 0 ? "-" : st_layers[best].name;
}

static void print_bar(FILE *out, double v, double max)
{
	int n = max > 0 ? (int)(v / max * BAR_WIDTH + 0.5) : 0;

	fputc(' ', out);
	for (int k = 0; k < n; k++)
		fputs("\u2588", out);
}

static void print_set_row(const struct st_measurement *m, size_t i, const struct column *columns,
			  size_t ncolumns, FILE *out, double bar_max)
{
	const struct st_set *set = &m->sets[i];
	char name[24];

	snprintf(name, sizeof(name), "%s%s", set->alone ? "alone:" : "", set->name);
	fprintf(out, "%-12s", name);
	for (size_t c = 0; c < ncolumns; c++) {
		int empty;
		double v = cell_value(m, i, &columns[c], &empty);
		char text[32];

		if (columns[c].fig == ST_FIG_DEFERRED && m->deferred_errnum) {
			fprintf(out, " %11s %-6s", set->mask ? "unavailable" : "-", "");
			continue;
		}
		if (columns[c].increment)
			st_report_increment_text(m, i, columns[c].fig, text, sizeof(text));
		else if (empty)
			snprintf(text, sizeof(text), "-");
		else
			snprintf(text, sizeof(text), columns[c].ratio_to ? "%.2fx" : "%.1f", v);
		fprintf(out, columns[c].fig == ST_FIG_DEFERRED ? " %11s" : " %10s", text);
		if (columns[c].fig == ST_FIG_DEFERRED)
			fprintf(out, " %-6s", last_type(set));
	}
	if (bar_max > 0 && set->layer >= 0)
		print_bar(out, bar_value(m, i), bar_max);
	fputc('\n', out);
}

static void print_samples(const struct st_measurement *m, FILE *out)
{
	for (size_t i = 0; i < m->nsets; i++) {
		const struct st_set *set = &m->sets[i];

		for (int f = 0; f < ST_FIG_COUNT; f++) {
			struct st_stats s;

			if (!set->fig[f].n || st_stats_compute(set->fig[f].v, set->fig[f].n, &s) < 0)
				continue;
			/* Too few samples for a p95 that says more than the maximum: call it that. */
			fprintf(out, "  %s%-8s %-17s min %9.1f  median %9.1f  %s %9.1f  mean %9.1f  stddev %8.1f  n %zu\n",
				set->alone ? "alone:" : "", set->name, st_figures[f].key, s.min, s.median,
				st_stats_p95_meaningful(s.n) ? "p95" : "max", st_stats_p95_meaningful(s.n) ? s.p95 : s.max,
				s.mean, s.stddev, s.n);
		}
		if (set->fig[ST_FIG_SETUP].n)
			fprintf(out, "  %s%-8s preempted in %u of %zu warm samples\n", set->alone ? "alone:" : "",
				set->name, set->preempted, set->fig[ST_FIG_SETUP].n);
	}
}

/* -v: when each type became creatable again, medians in microseconds after the reap. */
static void print_freed(const struct st_report *r, FILE *out)
{
	const struct st_measurement *m = r->m;

	fprintf(out, "\nFREED       ");
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (r->mask & ST_LAYER_BIT(l))
			fprintf(out, " %10s", st_layers[l].name);
	fprintf(out, " %10s\n", "drain");
	for (size_t i = 0; i < m->nsets; i++) {
		const struct st_set *set = &m->sets[i];
		char name[24];

		if (!set->mask)
			continue;
		snprintf(name, sizeof(name), "%s%s", set->alone ? "alone:" : "", set->name);
		fprintf(out, "%-12s", name);
		for (int l = 0; l < ST_LAYER_COUNT; l++) {
			struct st_stats st;

			if (!(r->mask & ST_LAYER_BIT(l)))
				continue;
			if (!set->freed[l].n || st_stats_compute(set->freed[l].v, set->freed[l].n, &st) < 0)
				fprintf(out, " %10s", "-");
			else
				fprintf(out, " %10.1f", st.median);
		}
		fprintf(out, " %10.1f\n", st_set_median(set, ST_FIG_DEFERRED_DRAIN));
	}
}

static void print_table(const struct st_measurement *m, const struct column *columns,
			size_t ncolumns, FILE *out, double bar_max)
{
	fprintf(out, "\n%-12s", "LAYER");
	for (size_t c = 0; c < ncolumns; c++)
		if (columns[c].fig == ST_FIG_DEFERRED)
			fprintf(out, " %11s %-6s", columns[c].heading, "last");
		else
			fprintf(out, " %10s", columns[c].heading);
	fputc('\n', out);
	for (size_t i = 0; i < m->nsets; i++)
		print_set_row(m, i, columns, ncolumns, out, bar_max);
}

static void print_layers(const struct st_report *r, FILE *out, int tty)
{
	const struct st_measurement *m = r->m;
	double bar_max = 0;

	if (tty)
		for (size_t i = 1; i < m->nsets; i++)
			if (bar_value(m, i) > bar_max)
				bar_max = bar_value(m, i);
	print_table(m, warm_columns, ARRAY_SIZE(warm_columns), out, bar_max);
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		char reason[ST_ERROR_MSG_MAX * 2];

		if (!(r->unavailable & ST_LAYER_BIT(l)))
			continue;
		st_report_layer_reason(r, l, reason, sizeof(reason));
		fprintf(out, "%-12s unavailable: %s\n", st_layers[l].name, reason);
	}
	fprintf(out, "(+: median of the within-round differences to the previous row, ~0 when its 95%% interval contains 0;\n"
		" deferred: from the reap until the last type was freed, named under last; waited %.0f ms for frees,\n"
		" and %.0f ms untimed before the samples for earlier samples' frees)\n",
		st_ns_to_us(m->deferred_wait_ns) / 1000.0, st_ns_to_us(m->drain_wait_ns) / 1000.0);
	if (m->deferred_errnum)
		fprintf(out, "%-12s unavailable: %s\n", "deferred", m->deferred_reason);
	if (r->opts->cold_ms) {
		fprintf(out, "\nCOLD: after %u ms idle before every sample (x: cold over warm)", r->opts->cold_ms);
		print_table(m, cold_columns, ARRAY_SIZE(cold_columns), out, 0);
	}
	if (r->opts->verbose && m->nsets > 1 && !m->deferred_errnum && r->opts->deferred_repeat)
		print_freed(r, out);
	if (r->opts->verbose)
		print_samples(m, out);
}

static void print_run(const struct st_report *r, FILE *out)
{
	const struct st_workload *w = r->workload;

	if (r->steps && r->steps->n) {
		fprintf(out, "\n%-16s %10s\n", "STEP", "us");
		for (size_t i = 0; i < r->steps->n; i++)
			fprintf(out, "%-16s %10.1f%s\n", r->steps->v[i].name, r->steps->v[i].us,
				r->steps->v[i].already_gone ? "  (already gone with the sandbox's namespace)" : "");
	}
	if (r->net && r->net->mode == ST_NET_JOIN)
		fprintf(out, "\nnetwork: joined %s\n", r->net->join_target);
	if (r->net && st_net_wired(r->net->mode)) {
		const struct st_net_plan *p = r->net;
		char inside[32], outside[32];

		st_ip4_format(&p->inside, inside, sizeof(inside));
		st_ip4_format(&p->outside, outside, sizeof(outside));
		fprintf(out, "\nnetwork: %s, eth0 %s via %s (%s%s%s)%s\n", st_net_mode_names[p->mode], inside,
			outside, p->host_if, p->mode == ST_NET_BRIDGE ? " on " : "",
			p->mode == ST_NET_BRIDGE ? p->bridge : "",
			p->simulated_host ? "; rootless: the host side is a namespace sandboxtime made" : "");
		if (p->ipv6) {
			char inside6[64], outside6[64];

			st_ip6_format(&p->inside6, inside6, sizeof(inside6));
			st_ip6_format(&p->outside6, outside6, sizeof(outside6));
			fprintf(out, "network: eth0 %s via %s\n", inside6, outside6);
		}
	}
	if (r->net_steps) {
		const struct st_net_steps *ns = r->net_steps;

		fprintf(out, "\nNET STEP           median        p95        min  (%u rounds in a private namespace)\n",
			ns->repeat);
		for (size_t i = 0; i < ns->n; i++) {
			struct st_stats st;

			st_stats_compute(ns->step[i].us.v, ns->step[i].us.n, &st);
			fprintf(out, "%-16s %10.1f %10.1f %10.1f\n", ns->step[i].name, st.median, st.p95, st.min);
		}
	}
	if (r->harden) {
		const struct st_seccomp *sc = r->harden->seccomp;
		char caps[1024];

		st_caps_format(r->harden->caps, caps, sizeof(caps));
		fprintf(out, "\nsecurity: capabilities %s%s; no_new_privs %s; seccomp ", caps[0] ? caps : "none",
			(r->mask & ST_LAYER_BIT(ST_LAYER_USER)) ? " (in the user namespace)" : "", r->harden->no_new_privs ? "on" : "off");
		if (sc && sc->prog)
			fprintf(out, "%s (%zu rules, %zu instructions)\n", sc->source, sc->rules, sc->len);
		else
			fputs("none\n", out);
	}
	if (!w)
		return;
	fprintf(out, "\nworkload: ");
	if (WIFSIGNALED(w->status))
		fprintf(out, "killed by %s (exit %d)", strsignal(WTERMSIG(w->status)), w->exit_code);
	else
		fprintf(out, "exit %d", w->exit_code);
	fprintf(out, ", wall %.1f us, user %.1f us, sys %.1f us, max RSS %ld KiB\n",
		st_ns_to_us(w->wall_ns), (double)w->ru.ru_utime.tv_sec * 1e6 + (double)w->ru.ru_utime.tv_usec,
		(double)w->ru.ru_stime.tv_sec * 1e6 + (double)w->ru.ru_stime.tv_usec,
		w->ru.ru_maxrss);
}

static void print_bench(const struct st_bench_syscall *b, FILE *out)
{
	int cpu = b->op_first == ST_BENCH_CPU;

	if (cpu)
		fprintf(out, "%u samples, interleaved; microseconds per 2^22-step loop or 64 MiB copy\n\n",
			b->repeat);
	else
		fprintf(out, "%u samples of %u calls each, interleaved; nanoseconds per call\n\n",
			b->repeat, b->calls);
	fprintf(out, "%-14s %-20s %10s %10s %12s%s\n", "OP", "WHERE", "median", "p95", "over host",
		cpu ? "    GB/s  SPECULATION_STORE_BYPASS" : "");
	for (int op = b->op_first; op < b->op_end; op++) {
		double scale = cpu ? 1 : 1000;
		struct st_stats host;

		st_stats_compute(b->where[0].us[op].v, b->where[0].us[op].n, &host);
		for (size_t i = 0; i < b->nwhere; i++) {
			struct st_stats st;

			st_stats_compute(b->where[i].us[op].v, b->where[i].us[op].n, &st);
			fprintf(out, "%-14s %-20s %10.1f %10.1f %+12.1f", st_bench_op_names[op],
				b->where[i].name, st.median * scale, st.p95 * scale,
				(st.median - host.median) * scale);
			if (op == ST_BENCH_MEMCPY)
				fprintf(out, "  %6.2f  %s", st_bench_memcpy_gbps(st.median),
					b->where[i].ssb);
			else if (cpu)
				fprintf(out, "  %6s  %s", "", b->where[i].ssb);
			fputc('\n', out);
		}
	}
}

int st_report_write_table(const struct st_report *r, FILE *out, int tty, struct st_error *err)
{
	if (r->bench) {
		print_header(r, out);
		print_bench(r->bench, out);
		return ferror(out) ? st_error_set(err, EIO, "report: writing the table") : 0;
	}
	print_header(r, out);
	if (r->m)
		print_layers(r, out, tty);
	print_run(r, out);
	for (size_t i = 0; i < r->nerrors; i++)
		fprintf(out, "note: %s\n", r->errors[i]);
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing the table");
	return 0;
}

/* Interfaces as "lo,veth0", "?" when unknown. */
static void interfaces_text(const struct st_netns *ns, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "%s", ns->interfaces ? "-" : "?");
	for (size_t k = 0; ns->interfaces && k < ns->ninterfaces && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? "," : "", ns->interfaces[k]);
}

/* --cleanup: one line per orphan, what was done (or would be) and why not. */
static void print_cleanup(const struct st_cleanup *c, FILE *out)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct st_cleanup_action *a = &c->v[i];

		fprintf(out, "cleanup %llu: %s", (unsigned long long)a->ino,
			st_cleanup_result_names[a->result]);
		if (a->reason[0])
			fprintf(out, ": %s", a->reason);
		for (size_t k = 0; k < a->nsteps; k++)
			fprintf(out, "%s%s %s%s%s%s", k ? ", " : (a->reason[0] ? "; " : ": "),
				st_cleanup_op_names[a->steps[k].op], a->steps[k].path,
				a->steps[k].why ? " (" : "", a->steps[k].why ? a->steps[k].why : "",
				a->steps[k].why ? ")" : "");
		fputc('\n', out);
	}
	fprintf(out, "cleanup: %zu removed, %zu left (--min-age=%u)%s\n", c->removed, c->left,
		c->min_age_s, c->dry_run ? "; --dry-run: nothing was changed" : "");
}

/* One row per namespace, orphans first; the holders last, as they are long. */
int st_orphans_write_table(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	const struct st_orphans *s = r->scan;
	size_t shown = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct st_netns *ns = &s->v[i];
		char ifs[256], nsid[16], text[PATH_MAX + 64];

		if (ns->state == ST_NETNS_UNVERIFIED || (ns->state == ST_NETNS_ACTIVE && !r->opts->all))
			continue;
		if (!shown++)
			fprintf(out, "%12s %-7s %5s %5s %-24s %s\n", "NS", "STATE", "PROCS", "NSID",
				"INTERFACES", "HOLDERS");
		interfaces_text(ns, ifs, sizeof(ifs));
		snprintf(nsid, sizeof(nsid), ns->nsid >= 0 ? "%d" : "-", ns->nsid);
		fprintf(out, "%12llu %-7s %5zu %5s %-24s", (unsigned long long)ns->ino,
			st_netns_state_names[ns->state], ns->processes, nsid, ifs);
		for (size_t k = 0; k < ns->nholders; k++) {
			st_holder_text(&ns->holders[k], text, sizeof(text));
			fprintf(out, "%s%s", k ? ", " : " ", text);
		}
		if (!ns->nholders)
			fputs(" -", out);
		fputc('\n', out);
	}
	if (!shown)
		fputs("no orphaned network namespace\n", out);
	for (size_t i = 0; i < s->nleftovers; i++)
		fprintf(out, "leftover %s %s: pid %d is no sandboxtime any more (sandboxtime cleanup removes it)\n",
			s->leftovers[i].kind == ST_LEFTOVER_BRIDGE ? "bridge" : "veth", s->leftovers[i].name,
			s->leftovers[i].pid);
	if (r->cleanup)
		print_cleanup(r->cleanup, out);
	fprintf(out, "%zu network namespaces: %zu active, %zu orphan%s", s->active + s->orphans,
		s->active, s->orphans, s->orphans == 1 ? "" : "s");
	if (s->unreadable_processes)
		fprintf(out, "; %zu processes unreadable", s->unreadable_processes);
	if (s->unverified)
		fprintf(out, ", %zu held namespaces not verifiable", s->unverified);
	fputc('\n', out);
	if (ferror(out))
		return st_error_set(err, EIO, "report: writing the table");
	return 0;
}

/* A number, or "-" when it is unknown (a path missing, no latency phase). */
static void nb_cell(FILE *out, int width, int precision, double v)
{
	if (isnan(v))
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*.*f", width, precision, v);
}

/* --udp: what the sender sent and the receiver counted, per path. */
static void nb_udp_table(const struct st_nb_report *r, FILE *out)
{
	fprintf(out, "\n%-15s %10s %10s %10s %10s\n", "udp path", "datagram", "sent Gb/s", "recv Gb/s",
		"loss %");
	for (int i = 0; i < ST_NB_PATH_COUNT; i++) {
		const struct st_nb_udp *u = &r->paths[i].udp;

		if (!r->paths[i].measured)
			continue;
		fprintf(out, "%-15s %10u", st_nb_path_names[i], u->datagram);
		nb_cell(out, 10, 2, st_nb_udp_sent_gbps(u));
		nb_cell(out, 10, 2, st_nb_udp_received_gbps(u));
		nb_cell(out, 10, 2, st_nb_udp_loss(u) * 100.0);
		fputc('\n', out);
	}
}

int st_nb_write_table(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	const struct st_host *h = r->host;
	const struct st_opts *o = r->opts;
	char notes[ST_NB_MAX_NOTES][ST_NB_NOTE_MAX];
	size_t nnotes = st_nb_report_notes(r, notes, ST_NB_MAX_NOTES);

	fprintf(out, "sandboxtime %s netbench: kernel %s, %d CPUs (%s)%s, %s, %s\n", ST_VERSION,
		h->kernel, h->cpus, h->cpu_model[0] ? h->cpu_model : "unknown model",
		h->virtualized == 1 ? " in a VM" : "", h->rootless ? "rootless" : "root",
		h->pinned_cpu >= 0 ? "pinned" : "not pinned");
	fprintf(out, "%u run(s) per path of %g s after %g s warm-up, %llu-byte writes; medians over runs\n\n",
		o->repeat, o->duration_s, st_nb_warmup_s(o->duration_s), (unsigned long long)o->size);
	fprintf(out, "%-15s %10s %10s %10s %10s %10s %11s %8s %6s\n", "path", "Gbit/s", "min", "p50 us",
		"p99 us", "mean us", "trans/s", "retrans", "mtu");
	for (int i = 0; i < ST_NB_PATH_COUNT; i++) {
		const struct st_nb_path_result *p = &r->paths[i];
		struct st_stats s;
		int lat = p->measured && p->hist.n > 0;

		if (!p->measured)
			continue;
		st_stats_compute(p->gbps.v, p->gbps.n, &s);
		fprintf(out, "%-15s", st_nb_path_names[i]);
		nb_cell(out, 10, 2, s.median);
		nb_cell(out, 10, 2, s.min);
		nb_cell(out, 10, 1, lat ? st_hist_quantile_ns(&p->hist, 0.5) / 1000.0 : NAN);
		nb_cell(out, 10, 1, lat ? st_hist_quantile_ns(&p->hist, 0.99) / 1000.0 : NAN);
		nb_cell(out, 10, 1, lat ? st_hist_mean_ns(&p->hist) / 1000.0 : NAN);
		nb_cell(out, 11, 0, lat ? st_nb_transactions_per_s(p) : NAN);
		fprintf(out, " %8u %6u\n", p->retransmits, p->mtu);
	}
	if (o->udp)
		nb_udp_table(r, out);
	fputs("\nratios (above 1: the namespace path costs that much more):\n", out);
	fputs("  throughput host/veth  ", out);
	nb_cell(out, 6, 2, r->ratios.throughput_host_over_veth);
	fputs("   host/bridge  ", out);
	nb_cell(out, 6, 2, r->ratios.throughput_host_over_bridge);
	fputs("\n  latency    veth/host  ", out);
	nb_cell(out, 6, 2, r->ratios.latency_veth_over_host);
	fputs("   bridge/host  ", out);
	nb_cell(out, 6, 2, r->ratios.latency_bridge_over_host);
	if (r->paths[ST_NB_HOST_TO_SANDBOX].measured) {
		fputs("\n  host-to-sandbox: throughput host/it ", out);
		nb_cell(out, 6, 2, r->ratios.throughput_host_over_host_to_sandbox);
		fputs("   latency it/host ", out);
		nb_cell(out, 6, 2, r->ratios.latency_host_to_sandbox_over_host);
	}
	if (r->paths[ST_NB_MACVLAN].measured) {
		fputs("\n  macvlan:         throughput host/it ", out);
		nb_cell(out, 6, 2, r->ratios.throughput_host_over_macvlan);
		fputs("   latency it/host ", out);
		nb_cell(out, 6, 2, r->ratios.latency_macvlan_over_host);
	}
	fputs("\n\nnotes:\n", out);
	for (size_t i = 0; i < nnotes; i++)
		fprintf(out, "  - %s\n", notes[i]);
	if (ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing the table");
	return 0;
}
