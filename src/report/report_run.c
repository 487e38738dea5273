// SPDX-License-Identifier: MIT
/*
 * The run's own sections of the sandboxtime/v1 document: the sandbox's
 * steps, its network, its cgroup, the net steps lab, the workload's
 * security and the workload. Each is a column table (struct st_doc_table)
 * that JSON and CSV write alike; the table keeps its sentences for the
 * sections that are one row (network, cgroup, security, workload).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/cgroup.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/harden.h"
#include "sandboxtime/net_steps.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_run.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/seccomp_filter.h"

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON
#define REPORT(doc) ((const struct st_report *)(doc))

static void set_real(struct st_cell *c, double d)
{
	c->kind = ST_CELL_REAL;
	c->d = d;
}

static void set_int(struct st_cell *c, int64_t i)
{
	c->kind = ST_CELL_INT;
	c->i = i;
}

static void set_bool(struct st_cell *c, int b)
{
	c->kind = ST_CELL_BOOL;
	c->i = !!b;
}

/* A list: a JSON array of strings, ';' between them elsewhere (as orphans' CSV). */
static void set_words(struct st_cell *c, const char *commas)
{
	char *save = NULL;

	c->owned = strdup(commas);
	if (!c->owned)
		return;
	if (c->format != ST_FORMAT_JSON) {
		for (char *p = c->owned; *p; p++)
			*p = *p == ',' ? ';' : *p;
		c->text = c->owned;
		return;
	}
	c->kind = ST_CELL_JSON;
	c->json = json_array();
	for (char *tok = strtok_r(c->owned, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		json_array_append_new(c->json, json_string(tok));
}

/* ---- steps: one row per step of the sandbox ------------------------------ */

#define STEP(row) ((const struct st_step *)(row))

static void get_step(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = STEP(row)->name;
}

static void get_step_us(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	set_real(c, STEP(row)->us);
}

/* The kernel deleted it with the sandbox's namespace before we asked. */
static void get_already_gone(const struct st_col *col, const void *row, const void *doc,
			     struct st_cell *c)
{
	set_bool(c, STEP(row)->already_gone);
	c->absent = !STEP(row)->already_gone;
}

static const struct st_col step_cols[] = {
	{ .name = "step", .key = "step", .heading = "STEP", .width = 16, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_step, .help = "what the sandbox did" },
	{ .name = "time", .unit = "us", .key = "us", .heading = "us", .width = 10, .prec = 1,
	  .csv_prec = 3, .in = T | C | J, .get = get_step_us, .help = "how long it took" },
	{ .name = "already_gone", .key = "already_gone", .in = C | J, .get = get_already_gone,
	  .help = "a delete that found the kernel had removed it first" },
};

static size_t step_rows(const void *doc)
{
	return REPORT(doc)->steps ? REPORT(doc)->steps->n : 0;
}

static const void *step_row(const void *doc, size_t i)
{
	return &REPORT(doc)->steps->v[i];
}

static void step_note(FILE *out, const void *row)
{
	if (STEP(row)->already_gone)
		fputs("  (already gone with the sandbox's namespace)", out);
}

static const struct st_doc_table steps_doc = {
	.name = "steps", .cols = ST_COLS(step_cols), .rows = step_rows, .row = step_row,
	.note = step_note,
};

/* ---- network: how the sandbox was wired, what a script needs to reach it - */

#define PLAN(row) ((const struct st_net_plan *)(row))

enum net_field {
	NET_MODE,
	NET_TARGET,
	NET_INTERFACE,
	NET_ADDRESS,
	NET_GATEWAY,
	NET_HOST_INTERFACE,
	NET_BRIDGE,
	NET_BRIDGE_JOINED,
	NET_SIMULATED_HOST,
	NET_MTU,
	NET_ADDRESS6,
	NET_GATEWAY6,
	NET_BATCH,
};

static void net_address(const struct st_net_plan *p, int field, struct st_cell *c)
{
	if (field == NET_ADDRESS || field == NET_GATEWAY)
		st_ip4_format(field == NET_ADDRESS ? &p->inside : &p->outside, c->buf, sizeof(c->buf));
	else
		st_ip6_format(field == NET_ADDRESS6 ? &p->inside6 : &p->outside6, c->buf, sizeof(c->buf));
	c->text = c->buf;
	/* --ipv6: null without it, so that a reader need not test for the key. */
	c->null = c->empty = (field == NET_ADDRESS6 || field == NET_GATEWAY6) && !p->ipv6;
}

/* A joined network has a target only, an unwired one its mode only. */
static void get_net(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_net_plan *p = PLAN(row);
	int wired = st_net_wired(p->mode);

	if (col->arg == NET_TARGET)
		c->absent = c->empty = p->mode != ST_NET_JOIN;
	else
		c->absent = c->empty = col->arg != NET_MODE && !wired;
	switch (col->arg) {
	case NET_MODE:
		c->text = st_net_mode_names[p->mode];
		break;
	case NET_TARGET:
		c->text = p->join_target;
		break;
	case NET_INTERFACE:
		c->text = ST_NET_INSIDE_IF;
		break;
	case NET_HOST_INTERFACE:
		c->text = p->host_if;
		break;
	case NET_BRIDGE:
		c->text = p->bridge;
		c->null = c->empty |= p->mode != ST_NET_BRIDGE;
		break;
	case NET_BRIDGE_JOINED:
		set_bool(c, p->bridge_joined);
		break;
	case NET_SIMULATED_HOST:
		set_bool(c, p->simulated_host);
		break;
	case NET_MTU:
		set_int(c, p->mtu);
		c->null = c->empty |= !p->mtu;
		break;
	case NET_BATCH:
		set_bool(c, p->batch);
		break;
	default:
		if (wired)
			net_address(p, col->arg, c);
		break;
	}
}

#define NET_COL(n, k, f) { .name = (n), .key = (n), .in = C | J, .get = get_net, .arg = (f), .help = (k) }
static const struct st_col network_cols[] = {
	NET_COL("mode", "--net: none, loopback, veth, bridge, or join", NET_MODE),
	NET_COL("target", "--net=join: the namespace joined", NET_TARGET),
	NET_COL("interface", "the sandbox's end of the veth", NET_INTERFACE),
	NET_COL("address", "its IPv4 address", NET_ADDRESS),
	NET_COL("gateway", "the host end's IPv4 address", NET_GATEWAY),
	NET_COL("host_interface", "the host end of the veth", NET_HOST_INTERFACE),
	NET_COL("bridge", "the bridge it hangs on (--net=bridge)", NET_BRIDGE),
	NET_COL("bridge_joined", "an existing bridge was joined", NET_BRIDGE_JOINED),
	NET_COL("simulated_host", "rootless: the host side is a namespace sandboxtime made", NET_SIMULATED_HOST),
	NET_COL("mtu", "--mtu, when given", NET_MTU),
	NET_COL("address6", "its IPv6 address (--ipv6)", NET_ADDRESS6),
	NET_COL("gateway6", "the host end's IPv6 address (--ipv6)", NET_GATEWAY6),
	NET_COL("batch", "the links were made in one netlink batch", NET_BATCH),
};

static const void *network_row(const void *doc, size_t i)
{
	return REPORT(doc)->net;
}

static const struct st_doc_table network_doc = {
	.name = "network", .cols = ST_COLS(network_cols), .row = network_row, .one = 1,
};

/* ---- cgroup: the run's own cgroup ---------------------------------------- */

#define CGROUP(row) ((const struct st_cgroup *)(row))

static void get_cg_mode(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = CGROUP(row)->mode;
}

static void get_cg_paths(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_cgroup *cg = CGROUP(row);
	size_t len = 0;
	FILE *m;

	if (c->format == ST_FORMAT_JSON) {
		c->kind = ST_CELL_JSON;
		c->json = json_array();
		for (size_t i = 0; i < cg->n; i++)
			json_array_append_new(c->json, json_string(cg->dir[i].path));
		return;
	}
	m = open_memstream(&c->owned, &len);
	if (!m)
		return;
	for (size_t i = 0; i < cg->n; i++)
		fprintf(m, "%s%s", i ? ";" : "", cg->dir[i].path);
	fclose(m);
	c->text = c->owned ? c->owned : "";
}

/* The v2 directory the sandbox was born into by clone3, or null. */
static void get_cg_born(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_cgroup *cg = CGROUP(row);

	c->null = c->empty = 1;
	for (size_t i = 0; i < cg->n; i++) {
		if (cg->dir[i].v2 && cg->into_clone) {
			c->text = cg->dir[i].path;
			c->null = c->empty = 0;
		}
	}
}

static const struct st_col cgroup_cols[] = {
	{ .name = "mode", .key = "mode", .in = C | J, .get = get_cg_mode, .help = "v2, v1 or hybrid" },
	{ .name = "paths", .key = "paths", .in = C | J, .get = get_cg_paths,
	  .help = "the directories made for the sandbox" },
	{ .name = "born_into", .key = "born_into", .in = C | J, .get = get_cg_born,
	  .help = "the v2 directory clone3 started the sandbox in" },
};

static const void *cgroup_row(const void *doc, size_t i)
{
	return REPORT(doc)->cgroup_run;
}

static const struct st_doc_table cgroup_doc = {
	.name = "cgroup", .cols = ST_COLS(cgroup_cols), .row = cgroup_row, .one = 1,
};

/* ---- net steps: each wiring step's figures over the lab's rounds --------- */

#define NSTEP(row) ((const struct st_net_step *)(row))

enum nstep_stat { NSTEP_MEDIAN, NSTEP_P95, NSTEP_MIN };

static void get_nstep(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = NSTEP(row)->name;
}

static void get_nstep_rounds(const struct st_col *col, const void *row, const void *doc,
			     struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = REPORT(doc)->net_steps->repeat;
}

static void get_nstep_us(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_STATS;
	c->stats = &NSTEP(row)->us;
}

static void get_nstep_stat(const struct st_col *col, const void *row, const void *doc,
			   struct st_cell *c)
{
	struct st_stats st = { 0 };

	st_stats_compute(NSTEP(row)->us.v, NSTEP(row)->us.n, &st);
	set_real(c, col->arg == NSTEP_MEDIAN ? st.median : col->arg == NSTEP_P95 ? st.p95 : st.min);
}

static const struct st_col nstep_cols[] = {
	{ .name = "step", .key = "step", .heading = "NET STEP", .width = 16, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_nstep, .help = "the wiring step" },
	{ .name = "rounds", .in = C, .get = get_nstep_rounds, .help = "--net-steps-repeat" },
	{ .name = "time", .unit = "us", .key = "us", .stats = 1, .csv_prec = 3, .in = C | J,
	  .get = get_nstep_us, .help = "its time over the rounds" },
	{ .key = "median_us", .in = J, .get = get_nstep_stat, .arg = NSTEP_MEDIAN },
	{ .heading = "median", .width = 10, .prec = 1, .in = T, .get = get_nstep_stat, .arg = NSTEP_MEDIAN },
	{ .heading = "p95", .width = 10, .prec = 1, .in = T, .get = get_nstep_stat, .arg = NSTEP_P95 },
	{ .heading = "min", .width = 10, .prec = 1, .in = T, .get = get_nstep_stat, .arg = NSTEP_MIN },
};

static size_t nstep_rows(const void *doc)
{
	return REPORT(doc)->net_steps ? REPORT(doc)->net_steps->n : 0;
}

static const void *nstep_row(const void *doc, size_t i)
{
	return &REPORT(doc)->net_steps->step[i];
}

static json_t *net_steps_json(const struct st_doc_table *t, const void *doc)
{
	const struct st_net_steps *ns = REPORT(doc)->net_steps;

	if (!ns)
		return NULL;
	return json_pack("{s:I,s:s,s:o}", "repeat", (json_int_t)ns->repeat, "where",
			 "a fresh network namespace wired from a worker in a network namespace of its own, N times",
			 "steps", st_doc_rows_json(t, doc));
}

/* The heading as it always was: not the columns' own (their widths would move it). */
static void net_steps_header(FILE *out, const void *doc)
{
	fprintf(out, "\nNET STEP           median        p95        min  (%u rounds in a private namespace)\n",
		REPORT(doc)->net_steps->repeat);
}

static const struct st_doc_table net_steps_doc = {
	.name = "net_steps", .cols = ST_COLS(nstep_cols), .rows = nstep_rows, .row = nstep_row,
	.json = net_steps_json, .header = net_steps_header,
};

/* ---- security: what the workload gave up ---------------------------------- */

#define HARDEN(row) ((const struct st_hardening *)(row))

enum sec_field {
	SEC_FROM,
	SEC_CAPS,
	SEC_SCOPE,
	SEC_NO_NEW_PRIVS,
	SEC_SECCOMP,
	SEC_PROFILE,
	SEC_RULES,
	SEC_INSTRUCTIONS,
	SEC_DIGEST,
	SEC_UNKNOWN,
	SEC_PROGRAM,
};

/* The filter: counted and digested from the program handed to seccomp(2), never from where it came from. */
static void seccomp_field(const struct st_seccomp *sc, int field, struct st_cell *c)
{
	switch (field) {
	case SEC_SECCOMP:
		c->kind = ST_CELL_GROUP;
		break;
	case SEC_PROFILE:
		c->text = sc->source;
		break;
	case SEC_RULES:
		set_int(c, (int64_t)sc->rules);
		break;
	case SEC_INSTRUCTIONS:
		set_int(c, (int64_t)sc->len);
		break;
	case SEC_DIGEST:
		st_seccomp_digest(sc, c->buf, sizeof(c->buf));
		c->text = c->buf;
		break;
	case SEC_UNKNOWN:
		set_words(c, sc->unknown_names);
		break;
	default:
		c->text = st_seccomp_origin_names[sc->origin];
		break;
	}
}

static void get_security(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_hardening *h = HARDEN(row);
	char caps[1024];

	switch (col->arg) {
	case SEC_FROM:
		c->text = h->from_config ? "config" : "defaults";
		return;
	case SEC_CAPS:
		st_caps_format(h->caps, caps, sizeof(caps));
		set_words(c, caps);
		return;
	case SEC_SCOPE:
		c->text = REPORT(doc)->mask & ST_LAYER_BIT(ST_LAYER_USER) ? "user namespace" : "host";
		return;
	case SEC_NO_NEW_PRIVS:
		set_bool(c, h->no_new_privs);
		return;
	}
	if (!h->seccomp || !h->seccomp->prog)
		c->null = c->empty = 1;
	else
		seccomp_field(h->seccomp, col->arg, c);
}

#define SEC_COL(n, k, f, h) { .name = (n), .key = (k), .in = C | J, .get = get_security, .arg = (f), .help = (h) }
static const struct st_col security_cols[] = {
	SEC_COL("from", "from", SEC_FROM, "config: config.json's process; defaults: sandboxtime's"),
	SEC_COL("capabilities", "capabilities", SEC_CAPS, "the capabilities it kept"),
	SEC_COL("capabilities_scope", "capabilities_scope", SEC_SCOPE, "where they count"),
	SEC_COL("no_new_privs", "no_new_privs", SEC_NO_NEW_PRIVS, "PR_SET_NO_NEW_PRIVS was set"),
	{ .key = "seccomp", .in = J, .get = get_security, .arg = SEC_SECCOMP },
	SEC_COL("seccomp_profile", "seccomp.profile", SEC_PROFILE, "the filter's profile, or null"),
	SEC_COL("seccomp_rules", "seccomp.rules", SEC_RULES, "its syscall rules"),
	SEC_COL("seccomp_instructions", "seccomp.instructions", SEC_INSTRUCTIONS, "its BPF instructions"),
	SEC_COL("seccomp_digest", "seccomp.digest", SEC_DIGEST, "the digest of the program loaded"),
	SEC_COL("seccomp_unknown_syscalls", "seccomp.unknown_syscalls", SEC_UNKNOWN,
		"syscalls of the profile this kernel does not know"),
	SEC_COL("seccomp_program", "seccomp.program", SEC_PROGRAM, "where the program came from"),
};

static const void *security_row(const void *doc, size_t i)
{
	return REPORT(doc)->harden;
}

static const struct st_doc_table security_doc = {
	.name = "security", .cols = ST_COLS(security_cols), .row = security_row,
	.one = 1,
};

json_t *st_run_security_json(const struct st_hardening *h, int in_userns)
{
	const struct st_report r = { .harden = h, .mask = in_userns ? ST_LAYER_BIT(ST_LAYER_USER) : 0 };

	return st_doc_rows_json(&security_doc, &r);
}

/* ---- workload: how CMD ended and what it cost ----------------------------- */

#define WORKLOAD(row) ((const struct st_workload *)(row))

enum work_field { WORK_EXIT, WORK_SIGNAL, WORK_WALL, WORK_USER, WORK_SYS, WORK_RSS };

static double tv_us(struct timeval tv)
{
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

/* CMD's words: a JSON array, and in CSV that array's text (a word may hold any character). */
static void get_argv(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	json_t *argv = json_array();

	for (char **a = REPORT(doc)->config->argv; a && *a; a++)
		json_array_append_new(argv, json_string(*a));
	if (c->format == ST_FORMAT_JSON) {
		c->kind = ST_CELL_JSON;
		c->json = argv;
		return;
	}
	c->owned = json_dumps(argv, JSON_COMPACT);
	c->text = c->owned ? c->owned : "";
	json_decref(argv);
}

static void get_workload(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	const struct st_workload *w = WORKLOAD(row);

	switch (col->arg) {
	case WORK_EXIT:
		set_int(c, w->exit_code);
		break;
	case WORK_SIGNAL:
		set_int(c, WIFSIGNALED(w->status) ? WTERMSIG(w->status) : 0);
		c->null = c->empty = !WIFSIGNALED(w->status);
		break;
	case WORK_WALL:
		set_real(c, st_ns_to_us(w->wall_ns));
		break;
	case WORK_USER:
		set_real(c, tv_us(w->ru.ru_utime));
		break;
	case WORK_SYS:
		set_real(c, tv_us(w->ru.ru_stime));
		break;
	default:
		set_int(c, w->ru.ru_maxrss);
		break;
	}
}

#define WORK_COL(n, u, k, f, h)                                                               \
	{ .name = (n), .unit = (u), .key = (k), .csv_prec = 1, .in = C | J, .get = get_workload, \
	  .arg = (f), .help = (h) }
static const struct st_col workload_cols[] = {
	{ .name = "argv", .key = "argv", .in = C | J, .get = get_argv, .help = "CMD" },
	WORK_COL("exit_code", NULL, "exit_code", WORK_EXIT, "as sandboxtime passes it on"),
	WORK_COL("signal", NULL, "signal", WORK_SIGNAL, "the signal that killed it, or null"),
	WORK_COL("wall", "us", "wall_us", WORK_WALL, "from the clone to its end"),
	WORK_COL("user", "us", "user_us", WORK_USER, "its user CPU time"),
	WORK_COL("sys", "us", "sys_us", WORK_SYS, "its system CPU time"),
	WORK_COL("max_rss", "kb", "max_rss_kb", WORK_RSS, "its peak resident set, KiB"),
};

static const void *workload_row(const void *doc, size_t i)
{
	return REPORT(doc)->workload;
}

static const struct st_doc_table workload_doc = {
	.name = "workload", .cols = ST_COLS(workload_cols), .row = workload_row,
	.one = 1, .none_null = 1,
};

/* ---- the sections, in the document's order -------------------------------- */

static const struct st_doc_table *const run_sections[] = {
	&steps_doc, &network_doc, &net_steps_doc, &security_doc, &cgroup_doc, &workload_doc,
};

void st_run_json(json_t *doc, const struct st_report *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_sections); i++)
		st_doc_json_into(doc, run_sections[i], r);
}

void st_run_write_csv(const struct st_report *r, FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_sections); i++)
		st_doc_csv(out, run_sections[i], r);
}

/* ---- table: the sentences of the one-row sections -------------------------- */

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

static void print_cgroup(const struct st_cgroup *cg, FILE *out)
{
	fprintf(out, "\ncgroup: %s", cg->mode);
	for (size_t i = 0; i < cg->n; i++)
		fprintf(out, "%s%s", i ? ", " : " ", cg->dir[i].path);
	fputc('\n', out);
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
	st_doc_table(out, &steps_doc, r);
	if (r->net)
		print_network(r->net, out);
	if (r->cgroup_run)
		print_cgroup(r->cgroup_run, out);
	st_doc_table(out, &net_steps_doc, r);
	if (r->harden)
		print_security(r->harden, !!(r->mask & ST_LAYER_BIT(ST_LAYER_USER)), out);
	if (r->workload)
		print_workload(r->workload, out);
}
