// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/oci.h"

/* OCI's namespace types, and the layer each one is. */
static const struct {
	const char *type;
	enum st_layer layer;
} ns_types[] = {
	{ "user", ST_LAYER_USER },	 { "uts", ST_LAYER_UTS },	  { "ipc", ST_LAYER_IPC },
	{ "pid", ST_LAYER_PID },	 { "mount", ST_LAYER_MOUNT },	  { "cgroup", ST_LAYER_CGROUP },
	{ "time", ST_LAYER_TIME },	 { "network", ST_LAYER_NET },
};

/* What sandboxtime reads of each object; any other key is listed as ignored. */
static const char *const known_top[] = { "ociVersion", "process", "hostname", "linux", "root" };
static const char *const known_process[] = { "args", "env", "cwd", "terminal", "capabilities",
					     "noNewPrivileges" };
static const char *const known_linux[] = { "namespaces", "seccomp" };

static int _printf_(4, 5) bad(struct st_error *err, const char *file, const char *path, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return st_error_usage(err, "%s: %s: %s", file, path, what);
}

static void note_ignored(struct st_oci *o, const char *prefix, const char *key)
{
	size_t used = strlen(o->ignored);

	snprintf(o->ignored + used, sizeof(o->ignored) - used, "%s%s%s", used ? "," : "", prefix, key);
}

static void note_unknown_keys(struct st_oci *o, json_t *obj, const char *prefix,
			      const char *const *known, size_t nknown)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		size_t i;

		for (i = 0; i < nknown && strcmp(key, known[i]) != 0; i++)
			;
		if (i == nknown)
			note_ignored(o, prefix, key);
	}
}

/* A JSON array of strings as a NULL-terminated, owned vector. */
static int strings(json_t *a, const char *file, const char *path, int need_one, char ***out,
		   struct st_error *err)
{
	size_t i, n;
	json_t *v;

	if (!json_is_array(a))
		return bad(err, file, path, "must be an array of strings");
	n = json_array_size(a);
	if (need_one && n == 0)
		return bad(err, file, path, "is empty (a command is needed)");
	*out = calloc(n + 1, sizeof(char *));
	if (!*out)
		return st_error_set(err, ENOMEM, "%s", file);
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return bad(err, file, path, "element %zu is not a string", i);
		(*out)[i] = strdup(json_string_value(v));
		if (!(*out)[i])
			return st_error_set(err, ENOMEM, "%s", file);
	}
	return 0;
}

static int read_caps(json_t *caps, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *bounding = json_object_get(caps, "bounding"), *v;
	size_t i;

	if (!bounding)
		return 0;
	if (!json_is_array(bounding))
		return bad(err, file, ".process.capabilities.bounding", "must be an array of names");
	o->caps = 0;
	json_array_foreach(bounding, i, v) {
		char path[64];
		uint64_t one = 0;
		int ret;

		snprintf(path, sizeof(path), ".process.capabilities.bounding[%zu]", i);
		if (!json_is_string(v))
			return bad(err, file, path, "must be a capability name");
		ret = st_caps_edit(&one, NULL, json_string_value(v), err);
		if (ret < 0)
			return bad(err, file, path, "unknown capability \"%s\"", json_string_value(v));
		o->caps |= one;
	}
	o->has_caps = 1;
	/* sandboxtime sets permitted = effective = bounding; other lists are not read. */
	note_unknown_keys(o, caps, "process.capabilities.", (const char *const[]){ "bounding" }, 1);
	return 0;
}

static int read_process(json_t *p, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *v;
	int ret = 0;

	if (!json_is_object(p))
		return bad(err, file, ".process", "must be an object");
	note_unknown_keys(o, p, "process.", known_process, ARRAY_SIZE(known_process));
	if ((v = json_object_get(p, "terminal")) && json_is_true(v))
		return bad(err, file, ".process.terminal", "true is not supported (sandboxtime allocates no terminal)");
	if ((v = json_object_get(p, "args")))
		ret = strings(v, file, ".process.args", 1, &o->args, err);
	if (ret == 0 && (v = json_object_get(p, "env")))
		ret = strings(v, file, ".process.env", 0, &o->env, err);
	if (ret == 0 && (v = json_object_get(p, "cwd"))) {
		if (!json_is_string(v) || json_string_value(v)[0] != '/')
			return bad(err, file, ".process.cwd", "must be an absolute path");
		o->cwd = strdup(json_string_value(v));
	}
	if (ret == 0 && (v = json_object_get(p, "noNewPrivileges"))) {
		if (!json_is_boolean(v))
			return bad(err, file, ".process.noNewPrivileges", "must be true or false");
		o->has_nnp = 1;
		o->nnp = json_is_true(v);
	}
	if (ret == 0 && (v = json_object_get(p, "capabilities")))
		ret = read_caps(v, file, o, err);
	return ret;
}

static int read_namespaces(json_t *a, const char *file, struct st_oci *o, struct st_error *err)
{
	unsigned int seen = 0;
	size_t i, k;
	json_t *v;

	if (!json_is_array(a))
		return bad(err, file, ".linux.namespaces", "must be an array");
	o->has_ns = 1;
	o->ns_mask = 0;
	json_array_foreach(a, i, v) {
		const char *type = json_string_value(json_object_get(v, "type"));
		json_t *path = json_object_get(v, "path");
		char where[64];

		snprintf(where, sizeof(where), ".linux.namespaces[%zu].type", i);
		for (k = 0; type && k < ARRAY_SIZE(ns_types) && strcmp(type, ns_types[k].type) != 0; k++)
			;
		if (!type || k == ARRAY_SIZE(ns_types))
			return bad(err, file, where, "unknown namespace type \"%s\"", type ? type : "(missing)");
		/* As runc: a type once (a second network path would also replace the first). */
		if (seen & (1u << k))
			return bad(err, file, where, "namespace type \"%s\" given twice", type);
		seen |= 1u << k;
		if (path && ns_types[k].layer != ST_LAYER_NET) {
			snprintf(where, sizeof(where), ".linux.namespaces[%zu].path", i);
			return bad(err, file, where, "joining an existing %s namespace is not supported (only network)",
				   type);
		}
		if (path) {
			if (!json_is_string(path))
				return bad(err, file, where, "must be a path");
			o->net_path = strdup(json_string_value(path));
			continue;
		}
		o->ns_mask |= ST_LAYER_BIT(ns_types[k].layer);
	}
	return 0;
}

static int read_doc(json_t *doc, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *root = json_object_get(doc, "root"), *linux_ = json_object_get(doc, "linux"), *v;
	int ret = 0;

	if (!json_is_object(doc))
		return bad(err, file, ".", "a config.json is a JSON object");
	/* Required by the spec; sandboxtime runs in the host's root and says so. */
	if (!json_is_string(json_object_get(root, "path")))
		return bad(err, file, ".root.path", "missing (the OCI runtime spec requires it)");
	note_ignored(o, "", "root.path");
	note_unknown_keys(o, doc, "", known_top, ARRAY_SIZE(known_top));
	if ((v = json_object_get(doc, "hostname"))) {
		if (!json_is_string(v))
			return bad(err, file, ".hostname", "must be a string");
		o->hostname = strdup(json_string_value(v));
	}
	if ((v = json_object_get(doc, "process")))
		ret = read_process(v, file, o, err);
	if (ret == 0 && linux_) {
		note_unknown_keys(o, linux_, "linux.", known_linux, ARRAY_SIZE(known_linux));
		if ((v = json_object_get(linux_, "namespaces")))
			ret = read_namespaces(v, file, o, err);
		if (ret == 0 && (v = json_object_get(linux_, "seccomp"))) {
			if (!json_is_object(v))
				return bad(err, file, ".linux.seccomp", "must be a profile object");
			o->seccomp = json_incref(v);
		}
	}
	return ret;
}

int st_oci_load(const char *path, struct st_oci *out, struct st_error *err)
{
	json_auto_t *doc = NULL;
	json_error_t jerr;
	int ret;

	memset(out, 0, sizeof(*out));
	doc = json_load_file(path, 0, &jerr);
	if (!doc && jerr.line < 1)
		return st_error_usage(err, "--config: %s", jerr.text);
	if (!doc)
		return st_error_usage(err, "--config: %s:%d: %s", path, jerr.line, jerr.text);
	ret = read_doc(doc, path, out, err);
	if (ret < 0)
		st_oci_free(out);
	return ret;
}

static void free_strings(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void st_oci_free(struct st_oci *o)
{
	free_strings(o->args);
	free_strings(o->env);
	free(o->cwd);
	free(o->hostname);
	free(o->net_path);
	json_decref(o->seccomp);
	memset(o, 0, sizeof(*o));
}
