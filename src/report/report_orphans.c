// SPDX-License-Identifier: MIT
/*
 * The orphans document (sandboxtime/orphans/v1): one row per network
 * namespace, described once by netns_cols[]; the summary, leftovers and
 * --cleanup's actions are sections of their own.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/orphans.h"
#include "sandboxtime/orphans_cleanup.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_orphans.h"

#define NETNS(row) ((const struct st_netns *)(row))

/* ---- the namespace columns ----------------------------------------------- */

static void get_inode(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = NETNS(row)->ino;
}

static void get_state(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->text = st_netns_state_names[NETNS(row)->state];
}

static void get_processes(const struct st_col *col, const void *row, const void *doc,
			  struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = NETNS(row)->processes;
}

static void get_nsid(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_INT;
	c->i = NETNS(row)->nsid;
	c->empty = c->null = NETNS(row)->nsid < 0;
}

/* Table: "lo,veth0", "-" for none, "?" when unknown, cut at 255 characters. */
static void interfaces_table(const struct st_netns *ns, char *buf, size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "%s", ns->interfaces ? "-" : "?");
	for (size_t k = 0; ns->interfaces && k < ns->ninterfaces && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? "," : "", ns->interfaces[k]);
}

/* @list's items joined by @sep, in memory the cell owns. */
static void joined(struct st_cell *c, const struct st_netns *ns, int holders, const char *sep)
{
	size_t len = 0, n = holders ? ns->nholders : ns->ninterfaces;
	FILE *m = open_memstream(&c->owned, &len);
	char text[PATH_MAX + 64];

	if (!m)
		return;
	for (size_t k = 0; k < n; k++) {
		if (holders)
			st_holder_text(&ns->holders[k], text, sizeof(text));
		fprintf(m, "%s%s", k ? sep : "", holders ? text : ns->interfaces[k]);
	}
	fclose(m);
	c->text = c->owned ? c->owned : "";
}

/* JSON: the names, or null when unknown (rootless, or it went away). */
static void get_interfaces(const struct st_col *col, const void *row, const void *doc,
			   struct st_cell *c)
{
	const struct st_netns *ns = NETNS(row);

	if (c->format == ST_FORMAT_TABLE) {
		interfaces_table(ns, c->buf, 256);
		c->text = c->buf;
	} else if (c->format == ST_FORMAT_CSV) {
		joined(c, ns, 0, ";");
	} else {
		c->kind = ST_CELL_JSON;
		c->json = ns->interfaces ? json_array() : json_null();
		for (size_t k = 0; ns->interfaces && k < ns->ninterfaces; k++)
			json_array_append_new(c->json, json_string(ns->interfaces[k]));
	}
}

static json_t *holder_json(const struct st_holder *h)
{
	if (h->kind == ST_HOLDER_MOUNT)
		return json_pack("{s:s,s:s,s:I}", "kind", "mount", "path", h->path ? h->path : "",
				 "mntns", (json_int_t)h->mntns);
	return json_pack("{s:s,s:I,s:i,s:s}", "kind", st_holder_kind_names[h->kind], "pid",
			 (json_int_t)h->pid, "fd", h->fd, "comm", h->comm);
}

/* "mount:/run/netns/x, fd:1234/7(bash)" in the table, ';' between them in CSV. */
static void get_holders(const struct st_col *col, const void *row, const void *doc,
			struct st_cell *c)
{
	const struct st_netns *ns = NETNS(row);

	if (c->format == ST_FORMAT_JSON) {
		c->kind = ST_CELL_JSON;
		c->json = json_array();
		for (size_t k = 0; k < ns->nholders; k++)
			json_array_append_new(c->json, holder_json(&ns->holders[k]));
		return;
	}
	joined(c, ns, 1, c->format == ST_FORMAT_CSV ? ";" : ", ");
	if (c->format == ST_FORMAT_TABLE && !ns->nholders)
		c->text = "-";
}

static void get_age(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_INT;
	c->i = (int64_t)NETNS(row)->age_s;
	c->null = NETNS(row)->age_s < 0;
}

#define T ST_COL_TABLE
#define C ST_COL_CSV
#define J ST_COL_JSON

/*
 * One row per namespace. nsid and holders stand twice: the JSON schema has
 * its own key order (holders right after processes), the table and CSV
 * another; each row says where it shows.
 */
static const struct st_col netns_cols[] = {
	{ .name = "inode", .key = "inode", .heading = "NS", .width = 12, .in = T | C | J,
	  .get = get_inode, .help = "the namespace's inode number (ls -i /proc/PID/ns/net)" },
	{ .name = "state", .key = "state", .heading = "STATE", .width = 7, .align = ST_ALIGN_LEFT,
	  .in = T | C | J, .get = get_state, .help = "active, orphan or hidden" },
	{ .name = "processes", .key = "processes", .heading = "PROCS", .width = 5, .in = T | C | J,
	  .get = get_processes, .help = "processes with a thread in it" },
	{ .name = "nsid", .heading = "NSID", .width = 5, .in = T | C, .get = get_nsid,
	  .help = "its id in our network namespace, if one is assigned" },
	{ .key = "holders", .in = J, .get = get_holders },
	{ .name = "interfaces", .key = "interfaces", .heading = "INTERFACES", .width = 24,
	  .align = ST_ALIGN_LEFT, .in = T | C | J, .get = get_interfaces,
	  .help = "its network interfaces (unknown rootless)" },
	{ .key = "nsid", .in = J, .get = get_nsid },
	{ .key = "age_s", .in = J, .get = get_age,
	  .help = "seconds since its youngest mount point file changed" },
	{ .name = "holders", .heading = "HOLDERS", .align = ST_ALIGN_LEFT, .in = T | C,
	  .get = get_holders, .help = "what keeps it alive: mounts, fds, sockets" },
};

/* ---- the summary: one row, the scan ------------------------------------- */

#define SCAN(row) ((const struct st_orphans *)(row))

static void get_total(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = SCAN(row)->active + SCAN(row)->orphans;
}

/* The size_t count of struct st_orphans at offset col->arg. */
static void get_count(const struct st_col *col, const void *row, const void *doc, struct st_cell *c)
{
	c->kind = ST_CELL_UINT;
	c->u = *(const size_t *)((const char *)row + col->arg);
}

/* Hidden namespaces need listns(2): not counted yet (hidden_check says why). */
static void get_hidden(const struct st_col *col, const void *row, const void *doc,
		       struct st_cell *c)
{
	c->null = 1;
}

#define P ST_COL_PROM
#define AT(f) ((int)offsetof(struct st_orphans, f))

static const struct st_col summary_cols[] = {
	{ .key = "total", .in = J | P, .get = get_total, .prom = "sandboxtime_netns",
	  .help = "Network namespaces found (active and orphaned)." },
	{ .key = "active", .in = J, .get = get_count, .arg = AT(active) },
	{ .key = "orphans", .in = J | P, .get = get_count, .arg = AT(orphans),
	  .prom = "sandboxtime_netns_orphans",
	  .help = "Network namespaces no process lives in, held by a mount, an fd or a socket." },
	{ .key = "unreadable_processes", .in = J | P, .get = get_count, .arg = AT(unreadable_processes),
	  .prom = "sandboxtime_netns_unreadable_processes",
	  .help = "Processes the scan could not read (not the caller's, without root)." },
	{ .key = "unverified", .in = J, .get = get_count, .arg = AT(unverified) },
	{ .key = "sockets_unchecked", .in = J, .get = get_count, .arg = AT(sockets_unchecked) },
	{ .key = "hidden", .in = J, .get = get_hidden },
	{ .in = P, .get = get_count, .arg = AT(nleftovers), .prom = "sandboxtime_leftover_links",
	  .help = "stv/stbr links of a sandboxtime that is gone." },
};

#undef AT
#undef T
#undef C
#undef J
#undef P

/* ---- table --------------------------------------------------------------- */

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

static void print_leftovers(const struct st_orphans *s, FILE *out)
{
	for (size_t i = 0; i < s->nleftovers; i++)
		fprintf(out, "leftover %s %s: pid %d is no sandboxtime any more (sandboxtime cleanup removes it)\n",
			s->leftovers[i].kind == ST_LEFTOVER_BRIDGE ? "bridge" : "veth", s->leftovers[i].name,
			s->leftovers[i].pid);
}

/* One row per namespace, orphans first; the holders last, as they are long. */
int st_orphans_write_table(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	unsigned int style = st_text_style(r->out, out);
	const struct st_orphans *s = r->scan;
	size_t shown = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct st_netns *ns = &s->v[i];

		if (ns->state == ST_NETNS_UNVERIFIED || (ns->state == ST_NETNS_ACTIVE && !r->all))
			continue;
		if (!shown++)
			st_text_header(out, style, ST_COLS(netns_cols), r);
		st_text_row(out, style, ST_COLS(netns_cols), ns, r);
		fputc('\n', out);
	}
	if (!shown)
		fputs("no orphaned network namespace\n", out);
	if (shown && (style & ST_TEXT_MD))
		fputc('\n', out); /* or the next line would be a row */
	print_leftovers(s, out);
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

/* ---- JSON ---------------------------------------------------------------- */

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

static json_t *notes_json(const struct st_orphans *s)
{
	json_t *notes = json_array();

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
	return notes;
}

json_t *st_orphans_json(const struct st_orphans_report *r)
{
	const struct st_orphans *s = r->scan;
	json_t *doc = json_object(), *netns = json_array(), *left = json_array();

	json_object_set_new(doc, "schema", json_string(ST_SCHEMA_ORPHANS));
	json_object_set_new(doc, "tool", st_report_tool_json());
	json_object_set_new(doc, "host", st_report_host_json(&r->host));
	/* Unverified namespaces are no finding: only counted (summary.unverified). */
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].state != ST_NETNS_UNVERIFIED)
			json_array_append_new(netns, st_json_row(ST_COLS(netns_cols), &s->v[i], r));
	json_object_set_new(doc, "netns", netns);
	for (size_t i = 0; i < s->nleftovers; i++)
		json_array_append_new(left, json_pack("{s:s,s:s,s:I}", "name", s->leftovers[i].name, "kind",
						      s->leftovers[i].kind == ST_LEFTOVER_BRIDGE ? "bridge" : "veth",
						      "pid", (json_int_t)s->leftovers[i].pid));
	json_object_set_new(doc, "leftovers", left);
	json_object_set_new(doc, "summary", st_json_row(ST_COLS(summary_cols), s, r));
	json_object_set_new(doc, "hidden_check", hidden_check_json(s));
	json_object_set_new(doc, "cleanup", cleanup_json(r->cleanup));
	json_object_set_new(doc, "notes", notes_json(s));
	return doc;
}

int st_orphans_write_json(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	json_auto_t *doc = st_orphans_json(r);

	return st_json_write(doc, out, err);
}

/* ---- CSV and Prometheus -------------------------------------------------- */

/* One row per namespace; nothing here has a unit, so no header carries one. */
int st_orphans_write_csv(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	const struct st_orphans *s = r->scan;

	st_csv_header(out, ST_COLS(netns_cols), r);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].state != ST_NETNS_UNVERIFIED)
			st_csv_row(out, ST_COLS(netns_cols), &s->v[i], r);
	return ferror(out) ? st_error_set(err, EIO, "report: writing CSV") : 0;
}

int st_orphans_write_prom(const struct st_orphans_report *r, FILE *out, struct st_error *err)
{
	const struct st_orphans *s = r->scan;
	const void *rows[] = { s };

	st_prom_rows(out, ST_COLS(summary_cols), NULL, rows, 1, r);
	/* One sample per holder: labels no column has. */
	st_prom_family(out, "sandboxtime_netns_orphan_info",
		       "An orphaned network namespace and one of its holders.");
	for (size_t i = 0; i < s->n; i++) {
		const struct st_netns *ns = &s->v[i];

		if (ns->state != ST_NETNS_ORPHAN)
			continue;
		for (size_t k = 0; k < ns->nholders; k++) {
			char text[PATH_MAX + 64], label[2 * (PATH_MAX + 64)];

			st_holder_text(&ns->holders[k], text, sizeof(text));
			st_prom_escape_label(text, label, sizeof(label));
			fprintf(out, "sandboxtime_netns_orphan_info{inode=\"%llu\",holder=\"%s\"} 1\n",
				(unsigned long long)ns->ino, label);
		}
	}
	return ferror(out) ? st_error_set(err, EIO, "report: writing Prometheus text") : 0;
}

int st_orphans_write_textfile(const struct st_orphans_report *r, double scan_time_s,
			      double scan_duration_s, FILE *out, struct st_error *err)
{
	int ret = st_orphans_write_prom(r, out, err);

	if (ret < 0)
		return ret;
	st_prom_family(out, "sandboxtime_orphans_last_scan_timestamp_seconds",
		       "When the scan of this file ended, in seconds since the Epoch.");
	fprintf(out, "sandboxtime_orphans_last_scan_timestamp_seconds %.3f\n", scan_time_s);
	st_prom_family(out, "sandboxtime_orphans_scan_duration_seconds",
		       "How long the scan of this file took.");
	fprintf(out, "sandboxtime_orphans_scan_duration_seconds %.6f\n", scan_duration_s);
	return ferror(out) ? st_error_set(err, EIO, "report: writing Prometheus text") : 0;
}

static json_t *orphans_json(const void *doc)
{
	return st_orphans_json(doc);
}

static int orphans_csv(const void *doc, FILE *out, struct st_error *err)
{
	return st_orphans_write_csv(doc, out, err);
}

static int orphans_prom(const void *doc, FILE *out, struct st_error *err)
{
	return st_orphans_write_prom(doc, out, err);
}

/* The table decides markdown and colour itself (st_text_style of r->out). */
static int orphans_text(const void *doc, FILE *out, unsigned int style, struct st_error *err)
{
	return st_orphans_write_table(doc, out, err);
}

const struct st_doc_format st_orphans_format = {
	.json = orphans_json, .csv = orphans_csv, .prom = orphans_prom, .text = orphans_text,
};
