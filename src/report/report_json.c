// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <string.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/report.h"
#include "sandboxtime/version.h"

json_t *st_report_stats_json(const struct st_samples *s)
{
	struct st_stats st;
	json_t *samples;

	if (s->n == 0 || st_stats_compute(s->v, s->n, &st) < 0)
		return json_null();
	samples = json_array();
	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(samples, json_real(s->v[i]));
	/* p95_is_max: too few samples for a p95 that says more than the maximum. */
	return json_pack("{s:f,s:f,s:f,s:b,s:f,s:f,s:f,s:I,s:o}", "min", st.min, "median", st.median,
			 "p95", st.p95, "p95_is_max", !st_stats_p95_meaningful(st.n), "max", st.max,
			 "mean", st.mean, "stddev", st.stddev, "n", (json_int_t)st.n, "samples", samples);
}

json_t *st_report_host_json(const struct st_host *h)
{
	return json_pack("{s:s,s:i,s:s,s:b,s:I,s:o,s:o,s:s,s:o,s:s}", "kernel", h->kernel, "cpus", h->cpus,
			 "cpu_model", h->cpu_model, "rootless", h->rootless, "uid", (json_int_t)h->uid,
			 "pinned_cpu", h->pinned_cpu >= 0 ? json_integer(h->pinned_cpu) : json_null(),
			 "rcu_expedited",
			 h->rcu_expedited >= 0 ? json_integer(h->rcu_expedited) : json_null(), "cgroup",
			 h->cgroup, "virtualized",
			 h->virtualized >= 0 ? json_boolean(h->virtualized) : json_null(), "clone",
			 h->clone_call ? h->clone_call : "clone3");
}

static json_t *layer_names_json(unsigned int mask)
{
	json_t *a = json_array();

	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (mask & ST_LAYER_BIT(l))
			json_array_append_new(a, json_string(st_layers[l].name));
	return a;
}

static json_t *config_json(const struct st_report *r)
{
	const struct st_opts *o = r->opts;

	json_t *c = json_pack("{s:o,s:s,s:I,s:I,s:I,s:o,s:b,s:o}", "ns", layer_names_json(r->mask), "net",
			      st_net_mode_names[o->net], "repeat", (json_int_t)o->repeat, "warmup",
			      (json_int_t)o->warmup, "deferred_repeat", (json_int_t)o->deferred_repeat,
			      "cold_ms", o->cold_ms ? json_integer(o->cold_ms) : json_null(), "alone",
			      o->alone, "config_file", o->config ? json_string(o->config) : json_null());
	char seed[24];

	/* A string: a 64-bit seed does not survive a reader's doubles. */
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)(r->m ? r->m->seed : o->seed));
	json_object_set_new(c, "seed", r->m || o->seed_given ? json_string(seed) : json_null());
	return c;
}

static json_t *flags_json(unsigned int mask)
{
	json_t *a = json_array();

	json_array_append_new(a, json_string("SIGCHLD"));
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (mask & ST_LAYER_BIT(l))
			json_array_append_new(a, json_string(st_layers[l].flag_name));
	return a;
}

static json_t *increment_json(const struct st_measurement *m, size_t i)
{
	const struct st_set *set = &m->sets[i];

	return json_pack("{s:f,s:f,s:o}", "setup_us", st_report_increment(m, i, ST_FIG_SETUP),
			 "teardown_us", st_report_increment(m, i, ST_FIG_TEARDOWN), "deferred_us",
			 set->fig[ST_FIG_DEFERRED].n && set->mask
				 ? json_real(st_report_increment(m, i, ST_FIG_DEFERRED))
				 : json_null());
}

static json_t *set_json(const struct st_measurement *m, size_t i)
{
	const struct st_set *set = &m->sets[i];
	json_t *o = json_pack("{s:s,s:b,s:o}", "layer", set->name, "available", 1, "flags",
			      flags_json(set->mask));

	for (int f = 0; f < ST_FIG_COUNT; f++) {
		int cold = f >= ST_FIG_SETUP_COLD;

		/* Cold figures exist only with --cold; deferred is null for base. */
		if (cold && !set->fig[f].n)
			continue;
		json_object_set_new(o, st_figures[f].key, st_report_stats_json(&set->fig[f]));
	}
	json_object_set_new(o, "deferred_probes", json_integer((json_int_t)set->deferred_probes));
	st_report_deferred_types_json(o, set);
	json_object_set_new(o, "preempted_samples", json_integer(set->preempted));
	json_object_set_new(o, "incremental", increment_json(m, i));
	json_object_set_new(o, "increments", st_report_increments_json(m, i));
	return o;
}

/* The alone figures of layer @l, if measured: that layer against the base. */
static json_t *alone_json(const struct st_measurement *m, int l)
{
	for (size_t i = 0; i < m->nsets; i++)
		if (m->sets[i].alone && m->sets[i].layer == l) {
			json_t *o = increment_json(m, i);

			json_object_set_new(o, "increments", st_report_increments_json(m, i));
			/* "deferred_us" here is the old increment: the set's own figure has a key of its own. */
			json_object_set_new(o, "deferred_set_us", st_report_stats_json(&m->sets[i].fig[ST_FIG_DEFERRED]));
			st_report_deferred_types_json(o, &m->sets[i]);
			return o;
		}
	return NULL;
}

static json_t *layers_json(const struct st_report *r)
{
	json_t *a = json_array();
	const struct st_measurement *m = r->m;

	if (m && m->nsets)
		json_array_append_new(a, set_json(m, 0));
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		if (r->unavailable & ST_LAYER_BIT(l)) {
			char reason[ST_ERROR_MSG_MAX * 2];

			st_report_layer_reason(r, l, reason, sizeof(reason));
			json_array_append_new(a, json_pack("{s:s,s:b,s:s}", "layer", st_layers[l].name,
							   "available", 0, "reason", reason));
			continue;
		}
		for (size_t i = 0; m && i < m->nsets; i++) {
			json_t *o, *alone;

			if (m->sets[i].alone || m->sets[i].layer != l)
				continue;
			o = set_json(m, i);
			alone = alone_json(m, l);
			if (alone)
				json_object_set_new(o, "alone", alone);
			json_array_append_new(a, o);
		}
	}
	return a;
}

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

/* What the workload gave up: its capabilities, no_new_privs, the filter. */
static json_t *security_json(const struct st_hardening *h, int in_userns)
{
	const struct st_seccomp *sc = h->seccomp;
	json_t *caps = json_array(), *unknown = json_array();
	char names[1024];
	json_t *filter = json_null();

	st_caps_format(h->caps, names, sizeof(names));
	for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		json_array_append_new(caps, json_string(tok));
	if (sc && sc->prog) {
		char list[sizeof(sc->unknown_names)];

		snprintf(list, sizeof(list), "%s", sc->unknown_names);
		for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			json_array_append_new(unknown, json_string(tok));
		filter = json_pack("{s:s,s:I,s:I,s:o,s:s}", "profile", sc->source, "rules", (json_int_t)sc->rules,
				   "instructions", (json_int_t)sc->len, "unknown_syscalls", unknown, "cache",
				   st_seccomp_cache_names[sc->cache]);
		unknown = NULL;
	}
	json_decref(unknown);
	return json_pack("{s:o,s:s,s:b,s:o}", "capabilities", caps, "capabilities_scope",
			 in_userns ? "user namespace" : "host", "no_new_privs", h->no_new_privs, "seccomp", filter);
}

static double tv_us(struct timeval tv)
{
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

static json_t *workload_json(const struct st_opts *o, const struct st_workload *w)
{
	json_t *argv = json_array();

	for (char **a = o->argv; a && *a; a++)
		json_array_append_new(argv, json_string(*a));
	return json_pack("{s:o,s:i,s:o,s:f,s:f,s:f,s:I}", "argv", argv, "exit_code", w->exit_code,
			 "signal", WIFSIGNALED(w->status) ? json_integer(WTERMSIG(w->status)) : json_null(),
			 "wall_us", st_ns_to_us(w->wall_ns), "user_us", tv_us(w->ru.ru_utime), "sys_us",
			 tv_us(w->ru.ru_stime), "max_rss_kb", (json_int_t)w->ru.ru_maxrss);
}

/* Median microseconds per call of @op at place @w. */
static double bench_median(const struct st_bench_where *w, int op)
{
	struct st_stats st;

	return st_stats_compute(w->us[op].v, w->us[op].n, &st) == 0 ? st.median : 0;
}

static json_t *bench_row(const struct st_bench_syscall *b, const struct st_bench_where *w, int op)
{
	double med = bench_median(w, op);
	json_t *row = json_pack("{s:s,s:s,s:o,s:f,s:f}", "op", st_bench_op_names[op], "where",
				w->name, "us", st_report_stats_json(&w->us[op]), "median_us", med,
				"over_host_us", med - bench_median(&b->where[0], op));

	if (op == ST_BENCH_MEMCPY) {
		json_object_set_new(row, "median_gbps", json_real(st_bench_memcpy_gbps(med)));
		json_object_set_new(row, "checksum_ok", json_true());
	}
	/* What the kernel did to the measured task: the reason a filter can slow computation. */
	if (op >= ST_BENCH_CPU)
		json_object_set_new(row, "speculation_store_bypass", json_string(w->ssb));
	return row;
}

/* "sandboxtime/bench/v1": one row per op and place, with its cost over the host's. */
static json_t *bench_json(const struct st_report *r)
{
	const struct st_bench_syscall *b = r->bench;
	json_t *rows = json_array(), *notes;

	for (int op = b->op_first; op < b->op_end; op++)
		for (size_t i = 0; i < b->nwhere; i++)
			json_array_append_new(rows, bench_row(b, &b->where[i], op));
	if (b->op_first == ST_BENCH_CPU)
		notes = json_pack(
		    "[s,s,s]",
		    "Each sample is a fresh child: cpu_loop is the time of 2^22 steps of a "
		    "multiply-xorshift chain (registers only), memcpy_64mib the time of one copy "
		    "of 64 MiB between buffers larger than the last-level cache (median_gbps: "
		    "bytes copied per ns); both checked.",
		    "host: no namespace; sandbox: the layers in config.ns; seccomp:default: the "
		    "sandbox plus the default filter, loaded as sandboxtime run loads it (no "
		    "flags); seccomp:spec_allow: the same filter loaded with "
		    "SECCOMP_FILTER_FLAG_SPEC_ALLOW.",
		    "speculation_store_bypass: the task's line in /proc/self/status. Kernels "
		    "before 5.16 (or booted with spec_store_bypass_disable=seccomp) turn the "
		    "mitigation on for every task that loads a filter without SPEC_ALLOW; where it "
		    "says vulnerable or not affected, the filter cannot slow this work.");
	else
		notes = json_pack(
		    "[s,s,s]",
		    "Each sample is a fresh child that runs the calls back to back and divides by "
		    "their number; a checksum over the results guards against loops the compiler "
		    "could drop.",
		    "host: no namespace; sandbox: the layers in config.ns; seccomp:N: the sandbox "
		    "plus a filter of N rules that never fire (default allow; each rule compares "
		    "an argument with a value no call passes), so each call walks past them; "
		    "seccomp:default: the built-in profile.",
		    "Not shown: the cost of seccomp on computation that makes no syscalls, and of "
		    "SECCOMP_FILTER_FLAG_SPEC_ALLOW (see bench cpu); sandboxtime does not set that "
		    "flag (as runc; crun sets it unless the config lists flags).");
	return json_pack("{s:s,s:{s:s,s:s},s:o,s:s,s:{s:I,s:I,s:o},s:o,s:o}", "schema",
			 "sandboxtime/bench/v1", "tool", "name", "sandboxtime", "version",
			 ST_VERSION, "host", st_report_host_json(&r->host), "bench", b->name,
			 "config", "repeat", (json_int_t)b->repeat, "calls", (json_int_t)b->calls,
			 "ns", layer_names_json(b->mask), "rows", rows, "notes", notes);
}

json_t *st_report_json(const struct st_report *r)
{
	json_t *doc = json_object();
	json_t *errors = json_array();

	json_object_set_new(doc, "schema", json_string(ST_SCHEMA));
	json_object_set_new(doc, "tool", json_pack("{s:s,s:s}", "name", "sandboxtime", "version",
						   ST_VERSION));
	json_object_set_new(doc, "host", st_report_host_json(&r->host));
	json_object_set_new(doc, "config", config_json(r));
	json_object_set_new(doc, "layers", layers_json(r));
	if (r->m)
		json_object_set_new(doc, "measurement", st_report_measurement_json(r->m));
	if (r->opts->command == ST_CMD_RUN) {
		json_object_set_new(doc, "steps", steps_json(r->steps));
		if (r->net)
			json_object_set_new(doc, "network", network_json(r->net));
		if (r->net_steps)
			json_object_set_new(doc, "net_steps", net_steps_json(r->net_steps));
		if (r->harden)
			json_object_set_new(doc, "security", security_json(r->harden, !!(r->mask & ST_LAYER_BIT(ST_LAYER_USER))));
		json_object_set_new(doc, "workload",
				    r->workload ? workload_json(r->opts, r->workload) : json_null());
	}
	for (size_t i = 0; i < r->nerrors; i++)
		json_array_append_new(errors, json_string(r->errors[i]));
	json_object_set_new(doc, "errors", errors);
	return doc;
}

/* Every document goes out the same way: indented, keys in order, 9 digits. */
static int write_doc(json_t *doc, FILE *out, struct st_error *err)
{
	if (!doc)
		return st_error_set(err, ENOMEM, "report: building JSON");
	if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) < 0 ||
	    fputc('\n', out) == EOF)
		return st_error_set(err, errno ? errno : EIO, "report: writing JSON");
	return 0;
}

int st_report_write_json(const struct st_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = r->bench ? bench_json(r) : st_report_json(r);

	return write_doc(doc, out, err);
}

static json_t *holder_json(const struct st_holder *h)
{
	if (h->kind == ST_HOLDER_MOUNT)
		return json_pack("{s:s,s:s,s:I}", "kind", "mount", "path", h->path ? h->path : "",
				 "mntns", (json_int_t)h->mntns);
	return json_pack("{s:s,s:I,s:i,s:s}", "kind", st_holder_kind_names[h->kind], "pid",
			 (json_int_t)h->pid, "fd", h->fd, "comm", h->comm);
}

static json_t *netns_json(const struct st_netns *ns)
{
	json_t *holders = json_array(), *ifs = json_null();

	for (size_t i = 0; i < ns->nholders; i++)
		json_array_append_new(holders, holder_json(&ns->holders[i]));
	if (ns->interfaces) {
		ifs = json_array();
		for (size_t i = 0; i < ns->ninterfaces; i++)
			json_array_append_new(ifs, json_string(ns->interfaces[i]));
	}
	return json_pack("{s:I,s:s,s:I,s:o,s:o,s:o,s:o}", "inode", (json_int_t)ns->ino, "state",
			 st_netns_state_names[ns->state], "processes", (json_int_t)ns->processes,
			 "holders", holders, "interfaces", ifs, "nsid",
			 ns->nsid >= 0 ? json_integer(ns->nsid) : json_null(), "age_s",
			 ns->age_s >= 0 ? json_integer((json_int_t)ns->age_s) : json_null());
}

static json_t *cleanup_action_json(const struct st_cleanup_action *a)
{
	json_t *steps = json_array();

	for (size_t k = 0; k < a->nsteps; k++) {
		const struct st_cleanup_step *st = &a->steps[k];

		json_array_append_new(steps,
				      json_pack("{s:s,s:s,s:o}", "op", st_cleanup_op_names[st->op],
						"path", st->path, "why",
						st->why ? json_string(st->why) : json_null()));
	}
	return json_pack("{s:I,s:s,s:o,s:o}", "inode", (json_int_t)a->ino, "action",
			 st_cleanup_result_names[a->result], "reason",
			 a->reason[0] ? json_string(a->reason) : json_null(), "steps", steps);
}

/* What --cleanup did to each orphan, or null without --cleanup. */
static json_t *cleanup_json(const struct st_cleanup *c)
{
	json_t *actions, *roots;

	if (!c)
		return json_null();
	actions = json_array();
	roots = json_array();
	for (size_t i = 0; i < c->n; i++)
		json_array_append_new(actions, cleanup_action_json(&c->v[i]));
	for (size_t i = 0; i < c->nroots; i++)
		json_array_append_new(roots, json_string(c->roots[i]));
	return json_pack("{s:b,s:I,s:o,s:I,s:I,s:o}", "dry_run", c->dry_run, "min_age_s",
			 (json_int_t)c->min_age_s, "paths", roots, "removed",
			 (json_int_t)c->removed, "left", (json_int_t)c->left, "actions", actions);
}

/*
 * Namespaces that no source explains need the kernel's own list (listns(2),
 * Linux 6.19): their count is null here, and why.
 */
static json_t *hidden_check_json(const struct st_orphans *s)
{
	return json_pack("{s:b,s:s}", "available", 0, "reason",
			 s->listns_errno == ENOSYS
			     ? "listns(2) is not in this kernel (ENOSYS; it came in Linux 6.19): "
			       "hidden namespaces were not looked for"
			     : "listns(2) is available, but this version does not read it yet: "
			       "hidden namespaces were not looked for");
}

json_t *st_orphans_json(const struct st_orphans_report *r)
{
	const struct st_orphans *s = r->scan;
	json_t *doc = json_object(), *netns = json_array(), *left = json_array(), *notes = json_array();

	json_object_set_new(doc, "schema", json_string(ST_SCHEMA_ORPHANS));
	json_object_set_new(doc, "tool", json_pack("{s:s,s:s}", "name", "sandboxtime", "version",
						   ST_VERSION));
	json_object_set_new(doc, "host", st_report_host_json(&r->host));
	/* Unverified namespaces are no finding: only counted (summary.unverified). */
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].state != ST_NETNS_UNVERIFIED)
			json_array_append_new(netns, netns_json(&s->v[i]));
	json_object_set_new(doc, "netns", netns);
	for (size_t i = 0; i < s->nleftovers; i++)
		json_array_append_new(left, json_pack("{s:s,s:s,s:I}", "name", s->leftovers[i].name, "kind",
						      s->leftovers[i].kind == ST_LEFTOVER_BRIDGE ? "bridge" : "veth",
						      "pid", (json_int_t)s->leftovers[i].pid));
	json_object_set_new(doc, "leftovers", left);
	json_object_set_new(doc, "summary",
			    json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:n}", "total",
				      (json_int_t)(s->active + s->orphans), "active",
				      (json_int_t)s->active, "orphans", (json_int_t)s->orphans,
				      "unreadable_processes", (json_int_t)s->unreadable_processes,
				      "unverified", (json_int_t)s->unverified, "sockets_unchecked",
				      (json_int_t)s->sockets_unchecked, "hidden"));
	json_object_set_new(doc, "hidden_check", hidden_check_json(s));
	json_object_set_new(doc, "cleanup", cleanup_json(r->cleanup));
	json_array_append_new(
	    notes,
	    json_string("hidden namespaces (held by nothing a process, fd, socket or mount shows) "
			"need listns(2), Linux 6.19+: not looked for (hidden_check)"));
	if (!s->rootless)
		json_array_append_new(
		    notes,
		    json_string(
			"age_s: seconds since the youngest mount point file of a namespace no "
			"process lives in changed (its ctime under the nsfs mount; ip netns add "
			"creates it just before mounting); null when only fds, sockets or other "
			"mount namespaces hold it: the kernel records no time for those"));
	if (s->rootless)
		json_array_append_new(notes, json_string("rootless: interfaces are unknown (null), and only the caller's processes are read"));
	json_object_set_new(doc, "notes", notes);
	return doc;
}

int st_orphans_write_json(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = st_orphans_json(r);

	return write_doc(doc, out, err);
}

/* A ratio, or null when a path is missing or measured nothing. */
static json_t *ratio_json(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *latency_json(const struct st_nb_path_result *p)
{
	const struct st_hist *h = &p->hist;

	if (!p->measured || h->n == 0)
		return json_null();
	return json_pack("{s:f,s:f,s:f,s:I,s:f,s:f}", "p50", st_hist_quantile_ns(h, 0.5) / 1000.0, "p99",
			 st_hist_quantile_ns(h, 0.99) / 1000.0, "mean", st_hist_mean_ns(h) / 1000.0, "n",
			 (json_int_t)h->n, "min", (double)h->min_ns / 1000.0, "max",
			 (double)h->max_ns / 1000.0);
}

static json_t *nb_path_core_json(const struct st_nb_report *r, int i);

static json_t *per_gb(double cpu_s, double gb)
{
	return gb > 0 ? json_real(cpu_s / gb) : json_null();
}

/* NAN (nothing to divide by) as null. */
static json_t *real_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* Each connection of the stream, summed over the runs, counted at both ends. */
static json_t *streams_json(const struct st_nb_path_result *p)
{
	json_t *a = json_array();

	for (unsigned int i = 0; i < p->nstreams; i++) {
		const struct st_nb_stream *s = &p->streams[i];

		json_array_append_new(a, json_pack("{s:I,s:I,s:I,s:o}", "stream", (json_int_t)i,
						   "bytes_sent", (json_int_t)s->bytes_sent,
						   "bytes_received", (json_int_t)s->bytes_received,
						   "throughput_gbps", real_or_null(st_nb_stream_gbps(s))));
	}
	return a;
}

static json_t *udp_json(const struct st_nb_report *r, const struct st_nb_path_result *p)
{
	const struct st_nb_udp *u = &p->udp;

	if (!r->opts->udp)
		return json_null();
	return json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:o}", "mode", "stream", "datagram_bytes",
			 (json_int_t)u->datagram, "sent_datagrams", (json_int_t)u->sent_datagrams,
			 "sent_bytes", (json_int_t)u->sent_bytes, "received_datagrams",
			 (json_int_t)u->received_datagrams, "received_bytes",
			 (json_int_t)u->received_bytes, "sent_gbps", real_or_null(st_nb_udp_sent_gbps(u)),
			 "received_gbps", real_or_null(st_nb_udp_received_gbps(u)), "loss",
			 real_or_null(st_nb_udp_loss(u)));
}

static json_t *cpu_list(uint64_t mask)
{
	json_t *a = json_array();

	for (int c = 0; c < 64; c++)
		if (mask & (1ull << c))
			json_array_append_new(a, json_integer(c));
	return a;
}

static json_t *nb_path_json(const struct st_nb_report *r, int i)
{
	const struct st_nb_path_result *p = &r->paths[i];
	json_t *o = nb_path_core_json(r, i);

	json_object_set_new(o, "retransmits_dsacked", json_integer(p->dsack_dups));
	json_object_set_new(o, "reordering_seen", json_integer(p->reord_seen));
	json_object_set_new(o, "streams", streams_json(p));
	json_object_set_new(o, "udp", udp_json(r, p));
	json_object_set_new(o, "busy_poll",
			    r->opts->rr ? json_pack("{s:b,s:b}", "spin", r->opts->busy_poll, "so_busy_poll",
						    r->opts->busy_poll && p->so_busy_poll)
					: json_null());
	json_object_set_new(o, "cpus_seen", json_pack("{s:o,s:o}", "server", cpu_list(p->server_cpus),
						      "client", cpu_list(p->client_cpus)));
	return o;
}

static json_t *nb_path_core_json(const struct st_nb_report *r, int i)
{
	const struct st_nb_path_result *p = &r->paths[i];

	return json_pack("{s:s,s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:{s:f,s:f,s:o,s:o}}", "path",
			 st_nb_path_names[i], "throughput_gbps", st_report_stats_json(&p->gbps),
			 "latency_us", latency_json(p), "transactions_per_s",
			 r->opts->rr ? json_real(st_nb_transactions_per_s(p)) : json_null(), "retransmits",
			 (json_int_t)p->retransmits, "mtu", (json_int_t)p->mtu, "bytes_sent",
			 (json_int_t)p->bytes_sent, "bytes_received", (json_int_t)p->bytes_received, "cpu",
			 "server_s", p->server_cpu_s, "client_s", p->client_cpu_s, "server_s_per_gb",
			 per_gb(p->server_cpu_s, p->stream_gb), "client_s_per_gb",
			 per_gb(p->client_cpu_s, p->stream_gb));
}

json_t *st_nb_report_json(const struct st_nb_report *r)
{
	const struct st_opts *o = r->opts;
	char notes[ST_NB_MAX_NOTES][ST_NB_NOTE_MAX];
	size_t nnotes = st_nb_report_notes(r, notes, ST_NB_MAX_NOTES);
	json_t *doc = json_object();
	json_t *names = json_array();
	json_t *paths = json_array();
	json_t *jnotes = json_array();
	json_t *config, *ratios;

	for (int i = 0; i < ST_NB_PATH_COUNT; i++) {
		if (!(o->nb_paths & (1u << i)))
			continue;
		json_array_append_new(names, json_string(st_nb_path_names[i]));
		if (r->paths[i].measured)
			json_array_append_new(paths, nb_path_json(r, i));
	}
	for (size_t i = 0; i < nnotes; i++)
		json_array_append_new(jnotes, json_string(notes[i]));
	json_object_set_new(doc, "schema", json_string(ST_NB_SCHEMA));
	json_object_set_new(doc, "tool", json_pack("{s:s,s:s}", "name", "sandboxtime", "version",
						   ST_VERSION));
	json_object_set_new(doc, "host", st_report_host_json(r->host));
	json_object_set_new(doc, "config",
			    json_pack("{s:o,s:f,s:f,s:I,s:I,s:b,s:o,s:s}", "paths", names, "duration_s",
				      o->duration_s, "warmup_s", st_nb_warmup_s(o->duration_s), "repeat",
				      (json_int_t)o->repeat, "size", (json_int_t)o->size, "rr", o->rr, "mtu",
				      o->mtu ? json_integer(o->mtu) : json_null(), "namespaces",
				      "a fresh user and network namespace, made by netbench"));
	config = json_object_get(doc, "config");
	json_object_set_new(config, "streams", json_integer(o->streams));
	json_object_set_new(config, "busy_poll", json_boolean(o->busy_poll));
	json_object_set_new(config, "udp", o->udp ? json_string("stream") : json_null());
	json_object_set_new(config, "cpu_placement",
			    json_pack("{s:b,s:o,s:o,s:o}", "cpu_pin", o->cpu_pin, "server_cpu",
				      r->server_cpu >= 0 ? json_integer(r->server_cpu) : json_null(),
				      "client_cpu",
				      r->client_cpu >= 0 ? json_integer(r->client_cpu) : json_null(),
				      "all_on_cpu",
				      r->host->pinned_cpu >= 0 ? json_integer(r->host->pinned_cpu)
							       : json_null()));
	json_object_set_new(doc, "paths", paths);
	json_object_set_new(doc, "ratios",
			    json_pack("{s:o,s:o,s:o,s:o}", "throughput_host_over_veth",
				      ratio_json(r->ratios.throughput_host_over_veth),
				      "throughput_host_over_bridge",
				      ratio_json(r->ratios.throughput_host_over_bridge),
				      "latency_veth_over_host", ratio_json(r->ratios.latency_veth_over_host),
				      "latency_bridge_over_host",
				      ratio_json(r->ratios.latency_bridge_over_host)));
	ratios = json_object_get(doc, "ratios");
	json_object_set_new(ratios, "throughput_host_over_host_to_sandbox",
			    ratio_json(r->ratios.throughput_host_over_host_to_sandbox));
	json_object_set_new(ratios, "latency_host_to_sandbox_over_host",
			    ratio_json(r->ratios.latency_host_to_sandbox_over_host));
	json_object_set_new(ratios, "throughput_host_over_macvlan",
			    ratio_json(r->ratios.throughput_host_over_macvlan));
	json_object_set_new(ratios, "latency_macvlan_over_host",
			    ratio_json(r->ratios.latency_macvlan_over_host));
	json_object_set_new(doc, "elapsed_s", json_real((double)r->elapsed_ns / 1e9));
	json_object_set_new(doc, "notes", jnotes);
	return doc;
}

int st_nb_write_json(const struct st_nb_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = st_nb_report_json(r);

	return write_doc(doc, out, err);
}
