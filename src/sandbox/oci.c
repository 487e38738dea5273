// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
static const char *const known_top[] = { "ociVersion", "process", "hostname",
					 "linux",      "root",	  "mounts" };
static const char *const known_process[] = { "args", "env", "cwd", "terminal", "capabilities",
					     "noNewPrivileges" };
static const char *const known_linux[] = { "namespaces", "seccomp" };
static const char *const known_root[] = { "path", "readonly" };
static const char *const known_mount[] = { "destination", "type", "source", "options" };

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

/*
 * A path of the bundle: relative ones are relative to the config file's
 * directory, as the OCI runtime spec says of root.path and bind sources.
 */
static char *bundle_path(const char *file, const char *path)
{
	const char *slash = strrchr(file, '/');
	char *out;

	if (path[0] == '/' || !slash)
		return strdup(path);
	if (asprintf(&out, "%.*s/%s", (int)(slash - file), file, path) < 0)
		return NULL;
	return out;
}

static int read_root(json_t *root, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *path = json_object_get(root, "path"), *ro = json_object_get(root, "readonly");
	_cleanup_free_ char *joined = NULL;
	char real[PATH_MAX];
	struct stat st;

	if (!json_is_string(path))
		return bad(err, file, ".root.path", "missing (the OCI runtime spec requires it)");
	note_unknown_keys(o, root, "root.", known_root, ARRAY_SIZE(known_root));
	if (ro && !json_is_boolean(ro))
		return bad(err, file, ".root.readonly", "must be true or false");
	joined = bundle_path(file, json_string_value(path));
	if (!joined)
		return st_error_set(err, ENOMEM, "%s", file);
	if (!realpath(joined, real) || stat(real, &st) < 0)
		return bad(err, file, ".root.path", "\"%s\": %s", joined, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bad(err, file, ".root.path", "\"%s\" is not a directory", joined);
	o->mounts.readonly = json_is_true(ro);
	/* "/" is the host's own root: nothing to pivot into. */
	if (strcmp(real, "/") != 0 && !(o->mounts.root = strdup(real)))
		return st_error_set(err, ENOMEM, "%s", file);
	return 0;
}

/* bind, by its type or (as runc reads it) by a bind or rbind option. */
static int mount_type(json_t *m, const char *file, size_t i, enum st_mount_type *type,
		      struct st_error *err)
{
	const char *t = json_string_value(json_object_get(m, "type"));
	json_t *v;
	char where[64];
	size_t k;

	snprintf(where, sizeof(where), ".mounts[%zu].type", i);
	if (json_object_get(m, "type") && !t)
		return bad(err, file, where, "must be a string");
	json_array_foreach(json_object_get(m, "options"), k, v)
	{
		const char *opt = json_string_value(v);

		if (opt && (strcmp(opt, "bind") == 0 || strcmp(opt, "rbind") == 0) &&
		    (!t || strcmp(t, "bind") == 0 || strcmp(t, "none") == 0)) {
			*type = ST_MOUNT_BIND;
			return 0;
		}
	}
	if (!t || strcmp(t, "none") == 0 || st_mount_type_parse(t, type) < 0)
		return bad(err, file, where,
			   "type \"%s\" is not supported (sandboxtime mounts bind, tmpfs, proc, "
			   "devpts, mqueue, sysfs, cgroup and cgroup2)",
			   t ? t : "(missing)");
	return 0;
}

static int read_mount(json_t *m, const char *file, size_t i, struct st_oci *o, struct st_error *err)
{
	struct st_mount *out = &o->mounts.v[i];
	json_t *dest = json_object_get(m, "destination"), *src = json_object_get(m, "source");
	json_t *opts = json_object_get(m, "options"), *v;
	char where[64], prefix[32];
	size_t k;
	int ret;

	snprintf(where, sizeof(where), ".mounts[%zu]", i);
	if (!json_is_object(m))
		return bad(err, file, where, "must be an object");
	snprintf(prefix, sizeof(prefix), "mounts[%zu].", i);
	note_unknown_keys(o, m, prefix, known_mount, ARRAY_SIZE(known_mount));
	snprintf(where, sizeof(where), ".mounts[%zu].destination", i);
	if (!json_is_string(dest))
		return bad(err, file, where, "missing (an absolute path)");
	if (!st_mount_dest_ok(json_string_value(dest)) ||
	    strspn(json_string_value(dest), "/") == strlen(json_string_value(dest)))
		return bad(err, file, where,
			   "\"%s\" must be an absolute path below / without . or .. (it would "
			   "escape the root)",
			   json_string_value(dest));
	if (opts && !json_is_array(opts)) {
		snprintf(where, sizeof(where), ".mounts[%zu].options", i);
		return bad(err, file, where, "must be an array of strings");
	}
	ret = mount_type(m, file, i, &out->type, err);
	if (ret < 0)
		return ret;
	if (!(out->dest = strdup(json_string_value(dest))))
		return st_error_set(err, ENOMEM, "%s", file);
	if (out->type == ST_MOUNT_BIND) {
		snprintf(where, sizeof(where), ".mounts[%zu].source", i);
		if (!json_is_string(src) || !json_string_value(src)[0])
			return bad(err, file, where, "a bind mount needs a source path");
		if (!(out->source = bundle_path(file, json_string_value(src))))
			return st_error_set(err, ENOMEM, "%s", file);
	}
	json_array_foreach(opts, k, v)
	{
		snprintf(where, sizeof(where), ".mounts[%zu].options[%zu]", i, k);
		if (!json_is_string(v))
			return bad(err, file, where, "must be a string");
		ret = st_mount_option(out, json_string_value(v));
		if (ret == -E2BIG)
			return bad(err, file, where, "the options are too long together");
		if (ret < 0)
			return bad(err, file, where,
				   "option \"%s\" is not supported for a %s mount",
				   json_string_value(v), st_mount_type_name(out->type));
	}
	return 0;
}

static int read_mounts(json_t *a, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *v;
	size_t i;

	if (!json_is_array(a))
		return bad(err, file, ".mounts", "must be an array");
	/* A mount that fails in the sandbox names its entry, as a bad one does here. */
	o->mounts.file = strdup(file);
	if (!o->mounts.file)
		return st_error_set(err, ENOMEM, "%s", file);
	o->mounts.v = calloc(json_array_size(a) + 1, sizeof(*o->mounts.v));
	if (!o->mounts.v)
		return st_error_set(err, ENOMEM, "%s", file);
	json_array_foreach(a, i, v)
	{
		/* Counted first, so that st_oci_free() frees a half-read entry too. */
		int ret;

		o->mounts.n = i + 1;
		ret = read_mount(v, file, i, o, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_doc(json_t *doc, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *root = json_object_get(doc, "root"), *linux_ = json_object_get(doc, "linux"), *v;
	int ret = 0;

	if (!json_is_object(doc))
		return bad(err, file, ".", "a config.json is a JSON object");
	note_unknown_keys(o, doc, "", known_top, ARRAY_SIZE(known_top));
	if (!json_is_object(root))
		return bad(err, file, ".root.path", "missing (the OCI runtime spec requires it)");
	ret = read_root(root, file, o, err);
	if (ret == 0 && (v = json_object_get(doc, "mounts")))
		ret = read_mounts(v, file, o, err);
	if (ret < 0)
		return ret;
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
	st_mount_plan_free(&o->mounts);
	memset(o, 0, sizeof(*o));
}
