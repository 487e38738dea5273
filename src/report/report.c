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

	st_layer_hint_here(&e, e.errnum, (enum st_layer)layer);
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
	if (r->server_cpu >= 0)
		NOTE("CPU placement: --cpu-pin put the server on CPU %d and the client on CPU %d (netbench itself waits, unpinned); they compete with each other only through shared caches and the kernel's softirq work.",
		     r->server_cpu, r->client_cpu);
	else if (r->host->pinned_cpu >= 0)
		NOTE("CPU placement: netbench, server and client all pinned to CPU %d (--cpu), so server and client share one CPU.",
		     r->host->pinned_cpu);
	else
		NOTE("CPU placement: not pinned; the scheduler placed server and client on any of %d CPUs, and may move them between runs (pin all to one with --cpu, server and client apart with --cpu-pin).",
		     r->host->cpus);
	if (r->opts->streams > 1)
		NOTE("Throughput: %u TCP connections at once, written in turn by one client process (MSG_DONTWAIT, poll when none takes more) and read in turn by one server process, %llu-byte writes for %g s after %g s of warm-up; every connection's bytes are counted at both ends; Gbit/s = all bytes received * 8 / (first measured byte to the last connection's EOF). Runs interleave across paths, rotating the order each round.",
		     r->opts->streams, (unsigned long long)r->opts->size, r->opts->duration_s,
		     st_nb_warmup_s(r->opts->duration_s));
	else
		NOTE("Throughput: one TCP stream of %llu-byte writes for %g s after %g s of warm-up on the same connection; Gbit/s = bytes the receiver counted * 8 / (sender's first measured byte to receiver's EOF). Runs interleave across paths, rotating the order each round.",
		     (unsigned long long)r->opts->size, r->opts->duration_s, st_nb_warmup_s(r->opts->duration_s));
	if (r->opts->udp)
		NOTE("UDP (--udp, a stream, not request/response): datagrams as large as the client's MTU allows without fragments (at most --size), sent as fast as send(2) returns for %g s after %g s of warm-up; sent Gbit/s counts what send(2) took, received Gbit/s what the receiver counted, both over the sender's measured time; loss = 1 - datagrams received / sent.",
		     r->opts->duration_s, st_nb_warmup_s(r->opts->duration_s));
	if (r->opts->rr)
		NOTE("Latency: 1-byte request and response over one TCP_NODELAY connection, one transaction at a time, for %g s per run; p50/p99 from a log-linear histogram (buckets at most 1.6%% wide). %s",
		     r->opts->duration_s,
		     r->opts->busy_poll ? "--busy-poll: both ends spin on MSG_DONTWAIT reads and ask for SO_BUSY_POLL, so no wake-up of a sleeping receiver is in a round trip; each end keeps a CPU busy."
					: "Both ends sleep in read(2) until the byte arrives: a round trip includes two wake-ups (--busy-poll takes them out).");
	if (r->paths[ST_NB_MACVLAN].measured)
		NOTE("macvlan: server and client each on a bridge-mode macvlan of one parent (a veth end in the lab's base namespace, for carrier; dummy is not in every kernel); the frames go from one macvlan to the other without touching the parent or a bridge.");
	if (r->paths[ST_NB_HOST_TO_SANDBOX].measured)
		NOTE("host-to-sandbox: the client in the lab's 'host' namespace (the bridge's own address), the server behind a veth on that bridge, reached at its address directly; a published port's DNAT rule or proxy is not in the path.");
	if (n < max) {
		len = snprintf(notes[n], ST_NB_NOTE_MAX, "CPU time (user+system, getrusage of each process, warm-up, UDP and latency phases included) per GB received over TCP:");
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
	if (n < max) {
		unsigned int rtx = 0, dup = 0;

		for (int i = 0; i < ST_NB_PATH_COUNT; i++)
			if (r->paths[i].measured)
				rtx += r->paths[i].retransmits, dup += r->paths[i].dsack_dups;
		if (rtx)
			NOTE("Retransmits: %u of %u were of segments the receiver already had (it said so by DSACK): segments that arrived out of order, not lost. A veth without GRO hands each packet to the backlog of the CPU that sends it, and TCP sends from the writer's CPU and from the CPU that processes the ACKs, so with server and client on two CPUs segments overtake each other; on one CPU (--cpu) they do not.",
			     dup, rtx);
	}
	NOTE("Not shown: traffic to or from the real host, or any other machine; every byte stayed inside namespaces netbench made.");
#undef NOTE
	return n;
}
