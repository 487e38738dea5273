// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sandboxtime/oci.h"
#include "sandboxtime/oci_parse.h"
#include "sandboxtime/util.h"

/*
 * What sandboxtime reads of each object: any other key is refused, naming
 * it, so that nothing a config asks for is silently dropped. annotations
 * are metadata for tools, which the runtime spec lets a runtime ignore.
 */
static const char *const known_top[] = { "ociVersion", "process", "hostname", "linux",
					 "root",       "mounts",  "annotations" };
static const char *const known_root[] = { "path", "readonly" };
static const char *const known_mount[] = { "destination", "type", "source", "options" };

int st_oci_bad(struct st_error *err, const char *file, const char *path, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return st_error_usage(err, "%s: %s: %s", file, path, what);
}

#define bad st_oci_bad

/*
 * Set by st_oci_load_runtime() for its parse: an engine's bundle is read as
 * runc reads it, which ignores what it does not apply (runtime-spec: a
 * runtime MAY ignore a field it does not support, except where the spec
 * says otherwise) -- but never a security feature this host enforces.
 */
static _Thread_local int as_runtime;

/* A key an engine's bundle may carry that sandboxtime cannot honour where the host enforces it. */
static int host_enforces(const char *key)
{
	char buf[8] = "";

	if (strcmp(key, "apparmorProfile") == 0)
		return st_read_file("/sys/module/apparmor/parameters/enabled", buf, sizeof(buf)) > 0 && buf[0] == 'Y';
	if (strcmp(key, "selinuxLabel") == 0 || strcmp(key, "mountLabel") == 0)
		return st_read_file("/sys/fs/selinux/enforce", buf, sizeof(buf)) > 0 && buf[0] == '1';
	return 0;
}

int st_oci_check_keys(json_t *obj, const char *file, const char *path,
		      const char *const *known, size_t nknown, struct st_error *err)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		size_t i;

		for (i = 0; i < nknown && strcmp(key, known[i]) != 0; i++)
			;
		if (i < nknown)
			continue;
		if (as_runtime && !host_enforces(key))
			continue;
		if (as_runtime)
			return bad(err, file, path, "\"%s\": this host enforces it and sandboxtime cannot apply it", key);
		return bad(err, file, path, "\"%s\" is not supported (see --config in "
			   "sandboxtime(1) for what is)", key);
	}
	return 0;
}

int st_oci_runtime_mode(void)
{
	return as_runtime;
}

int st_oci_strings(json_t *a, const char *file, const char *path, int need_one, char ***out,
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

int st_oci_int(json_t *v, const char *file, const char *path, long long min, long long max,
	       long long *out, struct st_error *err)
{
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return bad(err, file, path, "must be an integer from %lld to %lld", min, max);
	*out = json_integer_value(v);
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
	if (st_oci_check_keys(root, file, ".root", known_root, ARRAY_SIZE(known_root), err) < 0)
		return -EINVAL;
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
	char where[64];
	size_t k;
	int ret;

	snprintf(where, sizeof(where), ".mounts[%zu]", i);
	if (!json_is_object(m))
		return bad(err, file, where, "must be an object");
	ret = st_oci_check_keys(m, file, where, known_mount, ARRAY_SIZE(known_mount), err);
	if (ret < 0)
		return ret;
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
	} else if (json_is_string(src) && !(out->source = strdup(json_string_value(src)))) {
		/* A filesystem's source is its label in mountinfo ("shm"), as runc passes it. */
		return st_error_set(err, ENOMEM, "%s", file);
	} else if (src && !json_is_string(src)) {
		snprintf(where, sizeof(where), ".mounts[%zu].source", i);
		return bad(err, file, where, "must be a string");
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
	json_t *root = json_object_get(doc, "root"), *v;
	int ret = 0;

	if (!json_is_object(doc))
		return bad(err, file, ".", "a config.json is a JSON object");
	ret = st_oci_check_keys(doc, file, ".", known_top, ARRAY_SIZE(known_top), err);
	if (ret < 0)
		return ret;
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
		ret = st_oci_read_process(v, file, o, err);
	if (ret == 0 && (v = json_object_get(doc, "linux")))
		ret = st_oci_read_linux(v, file, o, err);
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

int st_oci_load_runtime(const char *path, struct st_oci *out, struct st_error *err)
{
	int ret;

	as_runtime = 1;
	ret = st_oci_load(path, out, err);
	as_runtime = 0;
	return ret;
}

int st_oci_read_process_runtime(json_t *p, const char *file, struct st_oci *o, struct st_error *err)
{
	int ret;

	as_runtime = 1;
	ret = st_oci_read_process(p, file, o, err);
	as_runtime = 0;
	return ret;
}

void st_oci_free(struct st_oci *o)
{
	st_strv_free(o->args);
	st_strv_free(o->env);
	free(o->cwd);
	free(o->hostname);
	free(o->net_path);
	free(o->cgroups_path);
	for (size_t i = 0; i < o->njoins; i++)
		free(o->joins[i].path);
	json_decref(o->seccomp);
	st_sysctl_free(o->sysctl, o->nsysctl);
	st_mount_plan_free(&o->mounts);
	memset(o, 0, sizeof(*o));
}
