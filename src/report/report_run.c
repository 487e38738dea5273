// SPDX-License-Identifier: MIT
/*
 * The run's own sections of the sandboxtime/v1 document: lists and nested
 * objects of one of a kind each (a step list, a network, a workload), so
 * they are written out here rather than through a column table.
 */
#include <string.h>
#include <sys/wait.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/harden.h"
#include "sandboxtime/net_steps.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_run.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/seccomp_filter.h"

/* ---- JSON ---------------------------------------------------------------- */

static json_t *steps_json(const struct st_steps *steps)
{
	json_t *a = json_array();

	for (size_t i = 0; steps && i < steps->n; i++) {
		json_t *step = json_pack("{s:s,s:f}", "step", steps->v[i].name, "us", steps->v[i].us);

		/* The kernel deleted it with the sandbox's namespace before we asked. */
		if (steps->v[i].already_gone)
			json_object_set_new(step, "already_gone", json_true());
		json_array_append_new(a, step);
	}
	return a;
}

/* How the sandbox was wired: what a script needs to reach it, and from where. */
static json_t *network_json(const struct st_net_plan *p)
{
	char inside[32], outside[32], inside6[64], outside6[64];
	json_t *net;

	if (p->mode == ST_NET_JOIN)
		return json_pack("{s:s,s:s}", "mode", "join", "target", p->join_target);
	if (!st_net_wired(p->mode))
		return json_pack("{s:s}", "mode", st_net_mode_names[p->mode]);
	st_ip4_format(&p->inside, inside, sizeof(inside));
	st_ip4_format(&p->outside, outside, sizeof(outside));
	net = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:b,s:o}", "mode", st_net_mode_names[p->mode],
			"interface", ST_NET_INSIDE_IF, "address", inside, "gateway", outside, "host_interface",
			p->host_if, "bridge", p->mode == ST_NET_BRIDGE ? json_string(p->bridge) : json_null(),
			"bridge_joined", json_boolean(p->bridge_joined), "simulated_host", p->simulated_host,
			"mtu", p->mtu ? json_integer(p->mtu) : json_null());
	/* --ipv6: null without it, so that a reader need not test for the key. */
	st_ip6_format(&p->inside6, inside6, sizeof(inside6));
	st_ip6_format(&p->outside6, outside6, sizeof(outside6));
	json_object_set_new(net, "address6", p->ipv6 ? json_string(inside6) : json_null());
	json_object_set_new(net, "gateway6", p->ipv6 ? json_string(outside6) : json_null());
	json_object_set_new(net, "batch", json_boolean(p->batch));
	return net;
}

/* --net-steps-repeat: each wiring step's figures over the lab's rounds. */
static json_t *net_steps_json(const struct st_net_steps *ns)
{
	json_t *steps = json_array();

	for (size_t i = 0; i < ns->n; i++) {
		struct st_stats st;

		st_stats_compute(ns->step[i].us.v, ns->step[i].us.n, &st);
		json_array_append_new(steps, json_pack("{s:s,s:o,s:f}", "step", ns->step[i].name, "us",
						       st_report_stats_json(&ns->step[i].us), "median_us",
						       st.median));
	}
	return json_pack("{s:I,s:s,s:o}", "repeat", (json_int_t)ns->repeat, "where",
			 "a fresh network namespace wired from a worker in a network namespace of its own, N times",
			 "steps", steps);
}

/* Splits "a,b,c" into @a's strings. */
static void append_words(json_t *a, char *list)
{
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		json_array_append_new(a, json_string(tok));
}

/* What the workload gave up: its capabilities, no_new_privs, the filter. */
json_t *st_run_security_json(const struct st_hardening *h, int in_userns)
{
	const struct st_seccomp *sc = h->seccomp;
	json_t *caps = json_array(), *filter = json_null();
	char names[1024];

	st_caps_format(h->caps, names, sizeof(names));
	append_words(caps, names);
	if (sc && sc->prog) {
		char list[sizeof(sc->unknown_names)], digest[ST_SECCOMP_DIGEST_LEN];
		json_t *unknown = json_array();

		snprintf(list, sizeof(list), "%s", sc->unknown_names);
		append_words(unknown, list);
		/* Counted and digested from the program handed to seccomp(2), never from where it came from. */
		st_seccomp_digest(sc, digest, sizeof(digest));
		filter = json_pack("{s:s,s:I,s:I,s:s,s:o,s:s}", "profile", sc->source, "rules", (json_int_t)sc->rules,
				   "instructions", (json_int_t)sc->len, "digest", digest, "unknown_syscalls", unknown,
				   "program", st_seccomp_origin_names[sc->origin]);
	}
	return json_pack("{s:s,s:o,s:s,s:b,s:o}", "from", h->from_config ? "config" : "defaults", "capabilities",
			 caps, "capabilities_scope", in_userns ? "user namespace" : "host", "no_new_privs",
			 h->no_new_privs, "seccomp", filter);
}

static double tv_us(struct timeval tv)
{
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

static json_t *workload_json(const struct st_report_config *o, const struct st_workload *w)
{
	json_t *argv = json_array();

	for (char **a = o->argv; a && *a; a++)
		json_array_append_new(argv, json_string(*a));
	return json_pack("{s:o,s:i,s:o,s:f,s:f,s:f,s:I}", "argv", argv, "exit_code", w->exit_code,
			 "signal", WIFSIGNALED(w->status) ? json_integer(WTERMSIG(w->status)) : json_null(),
			 "wall_us", st_ns_to_us(w->wall_ns), "user_us", tv_us(w->ru.ru_utime), "sys_us",
			 tv_us(w->ru.ru_stime), "max_rss_kb", (json_int_t)w->ru.ru_maxrss);
}

void st_run_json(json_t *doc, const struct st_report *r)
{
	json_object_set_new(doc, "steps", steps_json(r->steps));
	if (r->net)
		json_object_set_new(doc, "network", network_json(r->net));
	if (r->net_steps)
		json_object_set_new(doc, "net_steps", net_steps_json(r->net_steps));
	if (r->harden)
		json_object_set_new(doc, "security",
				    st_run_security_json(r->harden, !!(r->mask & ST_LAYER_BIT(ST_LAYER_USER))));
	if (r->cgroup_run)
		json_object_set_new(doc, "cgroup", st_report_cgroup_run_json(r->cgroup_run));
	json_object_set_new(doc, "workload", r->workload ? workload_json(r->config, r->workload) : json_null());
}

/* ---- table --------------------------------------------------------------- */

static void print_steps(const struct st_steps *steps, FILE *out)
{
	fprintf(out, "\n%-16s %10s\n", "STEP", "us");
	for (size_t i = 0; i < steps->n; i++)
		fprintf(out, "%-16s %10.1f%s\n", steps->v[i].name, steps->v[i].us,
			steps->v[i].already_gone ? "  (already gone with the sandbox's namespace)" : "");
}

static void print_network(const struct st_net_plan *p, FILE *out)
{
	char inside[32], outside[32];

	if (p->mode == ST_NET_JOIN)
		fprintf(out, "\nnetwork: joined %s\n", p->join_target);
	if (!st_net_wired(p->mode))
		return;
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

static void print_net_steps(const struct st_net_steps *ns, FILE *out)
{
	fprintf(out, "\nNET STEP           median        p95        min  (%u rounds in a private namespace)\n",
		ns->repeat);
	for (size_t i = 0; i < ns->n; i++) {
		struct st_stats st;

		st_stats_compute(ns->step[i].us.v, ns->step[i].us.n, &st);
		fprintf(out, "%-16s %10.1f %10.1f %10.1f\n", ns->step[i].name, st.median, st.p95, st.min);
	}
}

static void print_security(const struct st_hardening *h, int in_userns, FILE *out)
{
	const struct st_seccomp *sc = h->seccomp;
	char caps[1024];

	st_caps_format(h->caps, caps, sizeof(caps));
	fprintf(out, "\nsecurity: capabilities %s%s; no_new_privs %s; seccomp ", caps[0] ? caps : "none",
		in_userns ? " (in the user namespace)" : "", h->no_new_privs ? "on" : "off");
	if (sc && sc->prog) {
		char digest[ST_SECCOMP_DIGEST_LEN];

		st_seccomp_digest(sc, digest, sizeof(digest));
		/* The digest cut to 12 hex digits, as git shortens a hash; the JSON has all of it. */
		fprintf(out, "%s (%zu rules, %zu instructions, %s, %.19s)", sc->source, sc->rules, sc->len,
			st_seccomp_origin_names[sc->origin], digest);
	} else {
		fputs("none", out);
	}
	fprintf(out, "; from %s\n", h->from_config ? "the config" : "sandboxtime's defaults");
}

static void print_workload(const struct st_workload *w, FILE *out)
{
	fprintf(out, "\nworkload: ");
	if (WIFSIGNALED(w->status))
		fprintf(out, "killed by %s (exit %d)", strsignal(WTERMSIG(w->status)), w->exit_code);
	else
		fprintf(out, "exit %d", w->exit_code);
	fprintf(out, ", wall %.1f us, user %.1f us, sys %.1f us, max RSS %ld KiB\n",
		st_ns_to_us(w->wall_ns), tv_us(w->ru.ru_utime), tv_us(w->ru.ru_stime), w->ru.ru_maxrss);
}

void st_run_write_table(const struct st_report *r, FILE *out)
{
	if (r->steps && r->steps->n)
		print_steps(r->steps, out);
	if (r->net)
		print_network(r->net, out);
	if (r->cgroup_run)
		st_report_cgroup_run_table(r->cgroup_run, out);
	if (r->net_steps)
		print_net_steps(r->net_steps, out);
	if (r->harden)
		print_security(r->harden, !!(r->mask & ST_LAYER_BIT(ST_LAYER_USER)), out);
	if (r->workload)
		print_workload(r->workload, out);
}
