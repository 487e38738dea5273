// SPDX-License-Identifier: MIT
/*
 * The netbench document's notes: the method, as sentences written for the
 * options of this run (the JSON "notes" and the table's footer).
 */
#include <stdio.h>

#include "sandboxtime/report.h"
#include "sandboxtime/report_netbench.h"

/* CPU time per GB received over TCP, per path, as one sentence. */
static void cpu_note(const struct st_nb_report *r, char *note)
{
	int len = snprintf(note, ST_NB_NOTE_MAX, "CPU time (user+system, getrusage of each process, warm-up, UDP and latency phases included) per GB received over TCP:");

	for (int i = 0; i < ST_NB_PATH_COUNT && len > 0 && len < ST_NB_NOTE_MAX; i++) {
		const struct st_nb_path_result *p = &r->paths[i];

		if (!p->measured || p->stream_gb <= 0)
			continue;
		len += snprintf(note + len, ST_NB_NOTE_MAX - (size_t)len, " %s server %.3f s, client %.3f s;",
				st_nb_path_names[i], p->server_cpu_s / p->stream_gb,
				p->client_cpu_s / p->stream_gb);
	}
	if (len > 0 && len < ST_NB_NOTE_MAX && note[len - 1] == ';')
		note[len - 1] = '.';
}

/* Unpinned: how much of each path's stream both ends spent on one CPU (median over the runs). */
static void same_cpu_note(const struct st_nb_report *r, char *note)
{
	int len = snprintf(note, ST_NB_NOTE_MAX, "Both ends on one CPU, share of the stream's 10 ms slots (median over the runs; where the scheduler puts them can move throughput by 20%% or more, so compare runs of like placement):");
	int any = 0;

	for (int i = 0; i < ST_NB_PATH_COUNT && len > 0 && len < ST_NB_NOTE_MAX; i++) {
		const struct st_nb_path_result *p = &r->paths[i];
		struct st_stats st;

		if (!p->measured || !p->same_cpu.n ||
		    st_stats_compute(p->same_cpu.v, p->same_cpu.n, &st) < 0)
			continue;
		any = 1;
		len += snprintf(note + len, ST_NB_NOTE_MAX - (size_t)len, " %s %.0f%% (%.0f-%.0f%%);",
				st_nb_path_names[i], st.median * 100, st.min * 100, st.max * 100);
	}
	if (!any)
		note[0] = '\0';
	else if (len > 0 && len < ST_NB_NOTE_MAX && note[len - 1] == ';')
		note[len - 1] = '.';
}

#define NOTE(...) (n < max ? (void)snprintf(notes[n++], ST_NB_NOTE_MAX, __VA_ARGS__) : (void)0)

/* Where the server and the client ran, and how that was chosen. */
static size_t placement_notes(const struct st_nb_report *r, char notes[][ST_NB_NOTE_MAX], size_t n,
			      size_t max)
{
	if (r->server_cpu >= 0)
		NOTE("CPU placement: --cpu-pin put the server on CPU %d and the client on CPU %d (netbench itself waits, unpinned); they compete with each other only through shared caches and the kernel's softirq work.",
		     r->server_cpu, r->client_cpu);
	else if (r->host->pinned_cpu >= 0)
		NOTE("CPU placement: netbench, server and client all pinned to CPU %d (--cpu), so server and client share one CPU.",
		     r->host->pinned_cpu);
	else {
		NOTE("CPU placement: not pinned; the scheduler placed server and client on any of %d CPUs, and may move them between runs (pin all to one with --cpu, server and client apart with --cpu-pin).",
		     r->host->cpus);
		if (n < max) {
			same_cpu_note(r, notes[n]);
			n += notes[n][0] != '\0';
		}
	}
	return n;
}

/* What each phase measures, as run with these options. */
static size_t method_notes(const struct st_nb_report *r, char notes[][ST_NB_NOTE_MAX], size_t n,
			   size_t max)
{
	const struct st_nb_config *o = r->cfg;

	if (o->streams > 1)
		NOTE("Throughput: %u TCP connections at once, written in turn by one client process (MSG_DONTWAIT, poll when none takes more) and read in turn by one server process, %llu-byte writes for %g s after %g s of warm-up; every connection's bytes are counted at both ends; Gbit/s = all bytes received * 8 / (first measured byte to the last connection's EOF). Runs interleave across paths, rotating the order each round.",
		     o->streams, (unsigned long long)o->size, o->duration_s, st_nb_warmup_s(o->duration_s));
	else
		NOTE("Throughput: one TCP stream of %llu-byte writes for %g s after %g s of warm-up on the same connection; Gbit/s = bytes the receiver counted * 8 / (sender's first measured byte to receiver's EOF). Runs interleave across paths, rotating the order each round.",
		     (unsigned long long)o->size, o->duration_s, st_nb_warmup_s(o->duration_s));
	if (o->udp)
		NOTE("UDP (--udp, a stream, not request/response): datagrams as large as the client's MTU allows without fragments (at most --size), sent as fast as send(2) returns for %g s after %g s of warm-up; sent Gbit/s counts what send(2) took, received Gbit/s what the receiver counted, both over the sender's measured time; loss = 1 - datagrams received / sent.",
		     o->duration_s, st_nb_warmup_s(o->duration_s));
	if (o->rr)
		NOTE("Latency: 1-byte request and response over one TCP_NODELAY connection, one transaction at a time, for %g s per run; p50/p99 from a log-linear histogram (buckets at most 1.6%% wide). %s",
		     o->duration_s,
		     o->busy_poll ? "--busy-poll: both ends spin on MSG_DONTWAIT reads and ask for SO_BUSY_POLL, so no wake-up of a sleeping receiver is in a round trip; each end keeps a CPU busy."
				  : "Both ends sleep in read(2) until the byte arrives: a round trip includes two wake-ups (--busy-poll takes them out).");
	return n;
}

size_t st_nb_report_notes(const struct st_nb_report *r, char notes[][ST_NB_NOTE_MAX], size_t max)
{
	unsigned int rtx = 0, dup = 0;
	size_t n = 0;

	NOTE("The paths differ as a whole: veth adds a veth pair and a second network stack (the client's namespace) to loopback, bridge adds a bridge and a second veth pair; no figure isolates one of these parts.");
	NOTE("'host' is the loopback of a fresh network namespace that netbench made in its own user namespace (%s): what the host's loopback costs, not the host's own namespace, which netbench never touches.",
	     r->host->rootless ? "rootless" : "as root too");
	n = placement_notes(r, notes, n, max);
	n = method_notes(r, notes, n, max);
	if (r->paths[ST_NB_MACVLAN].measured)
		NOTE("macvlan: server and client each on a bridge-mode macvlan of one parent (a veth end in the lab's base namespace, for carrier; dummy is not in every kernel); the frames go from one macvlan to the other without touching the parent or a bridge.");
	if (r->paths[ST_NB_HOST_TO_SANDBOX].measured)
		NOTE("host-to-sandbox: the client in the lab's 'host' namespace (the bridge's own address), the server behind a veth on that bridge, reached at its address directly; a published port's DNAT rule or proxy is not in the path.");
	if (n < max)
		cpu_note(r, notes[n++]);
	for (int i = 0; i < ST_NB_PATH_COUNT; i++)
		if (r->paths[i].measured)
			rtx += r->paths[i].retransmits, dup += r->paths[i].dsack_dups;
	if (n < max && rtx)
		NOTE("Retransmits: %u of %u were of segments the receiver already had (it said so by DSACK): segments that arrived out of order, not lost. A veth without GRO hands each packet to the backlog of the CPU that sends it, and TCP sends from the writer's CPU and from the CPU that processes the ACKs, so with server and client on two CPUs segments overtake each other; on one CPU (--cpu) they do not.",
		     dup, rtx);
	NOTE("Not shown: traffic to or from the real host, or any other machine; every byte stayed inside namespaces netbench made.");
	return n;
}

#undef NOTE
