// SPDX-License-Identifier: MIT
/*
 * Reading documents back for compare: jansson parses, this file checks the
 * schema and flattens the tree into named figures (see compare_doc.h for the
 * naming). Only the figures' medians and raw samples are taken; everything
 * else (config, notes, ratios) is the documents' own business.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/compare_doc.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/report_bench.h"
#include "sandboxtime/report_layers.h"
#include "sandboxtime/report_netbench.h"
#include "sandboxtime/report_orphans.h"

#define NAME_MAX_LEN 256

static const struct {
	const char *schema;
	const char *kind;
} kinds[] = {
	{ ST_SCHEMA, "layers" },
	{ ST_NB_SCHEMA, "netbench" },
	{ ST_SCHEMA_BENCH, "bench" },
};

/* The keys that name an array element, joined by '/' in this order. */
static const char *const id_keys[] = { "layer", "set", "path", "op", "where", "name", "step" };

/* Top-level objects that describe the run rather than measure it. */
static const char *const skipped_keys[] = { "schema", "tool", "host", "config" };

static int is_skipped(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(skipped_keys); i++)
		if (strcmp(key, skipped_keys[i]) == 0)
			return 1;
	return 0;
}

/* A figure: an object with a numeric median (or p50, for latency summaries). */
static json_t *median_of(json_t *obj)
{
	json_t *m = json_object_get(obj, "median");

	if (!m)
		m = json_object_get(obj, "p50");
	return json_is_number(m) ? m : NULL;
}

/*
 * Figures that are shown but never gate: what they time is not a cost of the
 * layers, so a change in them is no regression. Matched on the last key.
 */
static const struct {
	const char *key;
	const char *why;
} not_costs[] = {
	{ "deferred_drain_us", "an untimed wait for earlier samples' frees, not a cost" },
};

static const char *no_gate_reason(const char *name)
{
	const char *dot = strrchr(name, '.'), *key = dot ? dot + 1 : name;

	for (size_t i = 0; i < ARRAY_SIZE(not_costs); i++)
		if (strcmp(key, not_costs[i].key) == 0)
			return not_costs[i].why;
	return NULL;
}

/* Throughput and rates: a larger value is better. */
static int is_higher_better(const char *name)
{
	size_t n = strlen(name);

	return (n >= 5 && strcmp(name + n - 5, "_gbps") == 0) ||
	       (n >= 6 && strcmp(name + n - 6, "_per_s") == 0);
}

static int add_figure(struct st_cmp_doc *d, const char *name, json_t *obj)
{
	json_t *samples = json_object_get(obj, "samples"), *v;
	struct st_cmp_figure *f;
	size_t i;

	if (d->nfig == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		struct st_cmp_figure *nf = realloc(d->fig, cap * sizeof(*nf));

		if (!nf)
			return -ENOMEM;
		d->fig = nf;
		d->cap = cap;
	}
	f = &d->fig[d->nfig];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	if (!f->name)
		return -ENOMEM;
	d->nfig++;
	f->median = json_number_value(median_of(obj));
	f->higher_better = is_higher_better(name);
	f->no_gate = no_gate_reason(name);
	f->paired = strstr(name, ".increments.") != NULL;
	if (!json_is_array(samples))
		return 0;
	if (st_samples_reserve(&f->samples, json_array_size(samples) + 1) < 0)
		return -ENOMEM;
	json_array_foreach(samples, i, v)
		if (json_is_number(v))
			st_samples_add(&f->samples, json_number_value(v));
	return 0;
}

/* "user", "getppid/sandbox": the element's identity, or its index. */
static void element_id(json_t *el, size_t index, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(id_keys) && n < len; i++) {
		json_t *v = json_object_get(el, id_keys[i]);

		if (json_is_string(v))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "/" : "", json_string_value(v));
	}
	if (n == 0)
		snprintf(buf, len, "%zu", index);
}

static int walk(struct st_cmp_doc *d, json_t *node, const char *prefix, int top);

static int walk_array(struct st_cmp_doc *d, json_t *arr, const char *prefix)
{
	char name[NAME_MAX_LEN], id[128];
	json_t *el;
	size_t i;

	json_array_foreach(arr, i, el) {
		size_t same = 0;
		int ret;

		if (!json_is_object(el))
			continue;
		element_id(el, i, id, sizeof(id));
		/* A name that an earlier element has too gets "#2", "#3": every figure is one. */
		for (size_t j = 0; j < i; j++) {
			char other[sizeof(id)];

			element_id(json_array_get(arr, j), j, other, sizeof(other));
			same += strcmp(other, id) == 0;
		}
		if (same)
			snprintf(name, sizeof(name), "%s[%s#%zu]", prefix, id, same + 1);
		else
			snprintf(name, sizeof(name), "%s[%s]", prefix, id);
		ret = walk(d, el, name, 0);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int walk(struct st_cmp_doc *d, json_t *node, const char *prefix, int top)
{
	char name[NAME_MAX_LEN];
	const char *key;
	json_t *v;

	json_object_foreach(node, key, v) {
		int ret = 0;

		if (top && is_skipped(key))
			continue;
		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (json_is_object(v) && median_of(v))
			ret = add_figure(d, name, v);
		else if (json_is_object(v))
			ret = walk(d, v, name, 0);
		else if (json_is_array(v))
			ret = walk_array(d, v, name);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The document's kind from its schema, or -EINVAL naming what it is instead. */
static int check_schema(struct st_cmp_doc *d, struct st_error *err)
{
	const char *schema = json_string_value(json_object_get(d->root, "schema"));

	if (!json_is_object(d->root) || !schema)
		return st_error_set(err, 0, "compare: %s: not a sandboxtime report (no \"schema\")",
				    d->path);
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (strcmp(schema, kinds[i].schema) == 0) {
			d->kind = kinds[i].kind;
			return 0;
		}
	if (strcmp(schema, ST_SCHEMA_ORPHANS) == 0)
		return st_error_set(err, 0, "compare: %s: an orphans report holds no measured figures",
				    d->path);
	return st_error_set(err, 0, "compare: %s: unknown schema '%s' (known: %s, %s, %s)", d->path,
			    schema, ST_SCHEMA, ST_NB_SCHEMA, ST_SCHEMA_BENCH);
}

/* The whole file in memory: its bytes make the default seed, then jansson parses them. */
static int slurp(FILE *f, char **buf, size_t *len)
{
	_cleanup_fclose_ FILE *m = NULL;
	char chunk[65536];
	size_t n;

	*buf = NULL;
	*len = 0;
	m = open_memstream(buf, len);
	if (!m)
		return -errno;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (fwrite(chunk, 1, n, m) != n)
			return -ENOMEM;
	if (ferror(f))
		return -EIO;
	return fclose(steal_pointer(&m)) == 0 ? 0 : -ENOMEM;
}

int st_cmp_doc_load(struct st_cmp_doc *d, const char *path, struct st_error *err)
{
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_free_ char *bytes = NULL;
	json_error_t jerr;
	size_t len;
	int ret;

	memset(d, 0, sizeof(*d));
	d->path = path;
	/* Opened here, so that the message has errno's own words. */
	f = fopen(path, "re");
	if (!f)
		return st_error_set(err, errno, "compare: cannot read '%s'", path);
	ret = slurp(f, &bytes, &len);
	if (ret < 0)
		return st_error_set(err, -ret, "compare: cannot read '%s'", path);
	d->digest = st_seed_fold(ST_SEED_BASIS, bytes, len);
	d->root = json_loadb(bytes, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!d->root)
		return st_error_set(err, 0, "compare: %s: not JSON (line %d: %s)", path, jerr.line,
				    jerr.text);
	ret = check_schema(d, err);
	if (ret == 0 && walk(d, d->root, "", 1) < 0)
		ret = st_error_set(err, ENOMEM, "compare: %s: reading figures", path);
	if (ret == 0 && d->nfig == 0)
		ret = st_error_set(err, 0, "compare: %s: a %s report without any figure", path,
				   d->kind);
	return ret;
}

void st_cmp_doc_free(struct st_cmp_doc *d)
{
	for (size_t i = 0; i < d->nfig; i++) {
		free(d->fig[i].name);
		st_samples_free(&d->fig[i].samples);
	}
	free(d->fig);
	json_decref(d->root);
	memset(d, 0, sizeof(*d));
}

const struct st_cmp_figure *st_cmp_doc_find(const struct st_cmp_doc *d, const char *name,
					    size_t hint)
{
	for (size_t k = 0; k < d->nfig; k++) {
		const struct st_cmp_figure *f = &d->fig[(hint + k) % d->nfig];

		if (strcmp(f->name, name) == 0)
			return f;
	}
	return NULL;
}

void st_cmp_doc_host_fact(const struct st_cmp_doc *d, const char *key, char *buf, size_t len)
{
	json_t *v;

	/* "version" is the tool's; every other fact is the host's. */
	if (strcmp(key, "version") == 0)
		v = json_object_get(json_object_get(d->root, "tool"), "version");
	else
		v = json_object_get(json_object_get(d->root, "host"), key);
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		snprintf(buf, len, "-");
}
