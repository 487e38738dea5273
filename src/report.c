// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <string.h>

#include "sandboxtime/report.h"

void st_report_add_error(struct st_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nerrors >= ST_MAX_REPORT_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->errors[r->nerrors++], ST_ERROR_MSG_MAX, fmt, ap);
	va_end(ap);
}

void st_report_layer_reason(const struct st_report *r, int layer, char *buf, size_t len)
{
	struct st_error e = { .errnum = r->layer_errnum[layer] };

	st_layer_hint(&e, e.errnum, (enum st_layer)layer);
	snprintf(buf, len, "%s%s%s%s", strerror(e.errnum), e.hint[0] ? " (" : "", e.hint,
		 e.hint[0] ? ")" : "");
}

double st_report_increment(const struct st_measurement *m, size_t i, enum st_figure fig)
{
	const struct st_set *ref = st_set_reference(m, i);
	double v = st_set_median(&m->sets[i], fig);

	return ref ? v - st_set_median(ref, fig) : v;
}

int st_report_write(const struct st_report *r, FILE *out, struct st_error *err)
{
	switch (r->opts->format) {
	case ST_FORMAT_JSON:
		return st_report_write_json(r, out, err);
	case ST_FORMAT_CSV:
		return st_report_write_csv(r, out, err);
	case ST_FORMAT_TABLE:
	default:
		return st_report_write_table(r, out, isatty(fileno(out)), err);
	}
}

static int progress_shown;

void st_report_progress(void *ctx _unused_, const char *phase, unsigned int done,
			unsigned int total)
{
	/* Redraw at most ~100 times per pass: a terminal write costs more than a clone. */
	if (done != total && total > 100 && done % (total / 100))
		return;
	fprintf(stderr, "\rsandboxtime: measuring %-8s %3u%%", phase, total ? done * 100 / total : 100);
	fflush(stderr);
	progress_shown = 1;
}

void st_report_progress_done(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = 0;
}

int st_orphans_write(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	switch (r->opts->format) {
	case ST_FORMAT_JSON:
		return st_orphans_write_json(r, out, err);
	case ST_FORMAT_CSV:
		return st_orphans_write_csv(r, out, err);
	case ST_FORMAT_PROMETHEUS:
		return st_orphans_write_prom(r, out, err);
	case ST_FORMAT_TABLE:
	default:
		return st_orphans_write_table(r, out, err);
	}
}
double st_nb_transactions_per_s(const struct st_nb_path_result *p)
{
	return p->rr_ns ? (double)p->hist.n * 1e9 / (double)p->rr_ns : 0;
}

int st_nb_report_write(const void *ctx, FILE *out, struct st_error *err)
{
	const struct st_nb_report *r = ctx;

	switch (r->opts->format) {
	case ST_FORMAT_JSON:
		return st_nb_write_json(r, out, err);
	case ST_FORMAT_CSV:
		return st_nb_write_csv(r, out, err);
	case ST_FORMAT_PROMETHEUS:
		return st_nb_write_prometheus(r, out, err);
	case ST_FORMAT_TABLE:
	default:
		return st_nb_write_table(r, out, err);
	}
}

size_t st_nb_report_notes(const struct st_nb_report *r, char notes[][ST_NB_NOTE_MAX], size_t max)
{
	size_t n = 0;
	int len;

#define NOTE(...) (n < max ? (void)snprintf(notes[n++], ST_NB_NOTE_MAX, __VA_ARGS__) : (void)0)
	NOTE("The paths differ as a whole: veth adds a veth pair and a second network stack (the client's namespace) to loopback, bridge adds a bridge and a second veth pair; no figure isolates one of these parts.");
	NOTE("'host' is the loopback of a fresh network namespace that netbench made in its own user namespace (%s): what the host's loopback costs, not the host's own namespace, which netbench never touches.",
	     r->host->rootless ? "rootless" : "as root too");
	if (r->host->pinned_cpu >= 0)
		NOTE("CPU placement: netbench, server and client all pinned to CPU %d (--cpu), so server and client share one CPU.",
		     r->host->pinned_cpu);
	else
		NOTE("CPU placement: not pinned; the scheduler placed server and client on any of %d CPUs, and may move them between runs (pin with --cpu).",
		     r->host->cpus);
	NOTE("Throughput: one TCP stream of %llu-byte writes for %g s after %g s of warm-up on the same connection; Gbit/s = bytes the receiver counted * 8 / (sender's first measured byte to receiver's EOF). Runs interleave across paths, rotating the order each round.",
	     (unsigned long long)r->opts->size, r->opts->duration_s, st_nb_warmup_s(r->opts->duration_s));
	if (r->opts->rr)
		NOTE("Latency: 1-byte request and response over one TCP_NODELAY connection, one transaction at a time, for %g s per run; p50/p99 from a log-linear histogram (buckets at most 1.6%% wide).",
		     r->opts->duration_s);
	if (n < max) {
		len = snprintf(notes[n], ST_NB_NOTE_MAX, "CPU time (user+system, getrusage of each process, warm-up and latency phase included) per GB received:");
		for (int i = 0; i < ST_NB_PATH_COUNT && len > 0 && len < ST_NB_NOTE_MAX; i++) {
			const struct st_nb_path_result *p = &r->paths[i];

			if (!p->measured || p->stream_gb <= 0)
				continue;
			len += snprintf(notes[n] + len, ST_NB_NOTE_MAX - (size_t)len,
					" %s server %.3f s, client %.3f s;", st_nb_path_names[i],
					p->server_cpu_s / p->stream_gb, p->client_cpu_s / p->stream_gb);
		}
		if (len > 0 && len < ST_NB_NOTE_MAX && notes[n][len - 1] == ';')
			notes[n][len - 1] = '.';
		n++;
	}
	NOTE("Not shown: more than one stream, UDP, traffic to or from the real host, or any other machine; every byte stayed inside namespaces netbench made.");
#undef NOTE
	return n;
}
