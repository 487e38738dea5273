// SPDX-License-Identifier: MIT
/*
 * config.json's linux object: namespaces, id mappings, sysctl, masked and
 * read-only paths, resources (memory, pids and cpu limits, the device rule),
 * cgroupsPath and seccomp.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandboxtime/cgroup.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/oci_parse.h"

#define bad st_oci_bad

static const char *const known_linux[] = { "namespaces",  "seccomp",	   "maskedPaths",
					   "readonlyPaths", "sysctl",	   "resources",
					   "uidMappings", "gidMappings", "cgroupsPath" };

/* OCI's namespace types, and the layer each one is. */
static const struct {
	const char *type;
	enum st_layer layer;
} ns_types[] = {
	{ "user", ST_LAYER_USER },	 { "uts", ST_LAYER_UTS },	  { "ipc", ST_LAYER_IPC },
	{ "pid", ST_LAYER_PID },	 { "mount", ST_LAYER_MOUNT },	  { "cgroup", ST_LAYER_CGROUP },
	{ "time", ST_LAYER_TIME },	 { "network", ST_LAYER_NET },
};

static int read_ns_entry(json_t *v, const char *file, size_t i, unsigned int *seen,
			 struct st_oci *o, struct st_error *err)
{
	static const char *const known[] = { "type", "path" };
	const char *type = json_string_value(json_object_get(v, "type"));
	json_t *path = json_object_get(v, "path");
	const char *why = "";
	char where[64];
	size_t k;

	snprintf(where, sizeof(where), ".linux.namespaces[%zu]", i);
	if (!json_is_object(v))
		return bad(err, file, where, "must be an object");
	if (st_oci_check_keys(v, file, where, known, ARRAY_SIZE(known), err) < 0)
		return -EINVAL;
	snprintf(where, sizeof(where), ".linux.namespaces[%zu].type", i);
	for (k = 0; type && k < ARRAY_SIZE(ns_types) && strcmp(type, ns_types[k].type) != 0; k++)
		;
	if (!type || k == ARRAY_SIZE(ns_types))
		return bad(err, file, where, "unknown namespace type \"%s\"", type ? type : "(missing)");
	/* As runc: a type once (a second network path would also replace the first). */
	if (*seen & (1u << k))
		return bad(err, file, where, "namespace type \"%s\" given twice", type);
	*seen |= 1u << k;
	if (!path) {
		o->ns_mask |= ST_LAYER_BIT(ns_types[k].layer);
		return 0;
	}
	snprintf(where, sizeof(where), ".linux.namespaces[%zu].path", i);
	if (!json_is_string(path) || json_string_value(path)[0] != '/')
		return bad(err, file, where, "must be an absolute path");
	if (ns_types[k].layer == ST_LAYER_NET) {
		o->net_path = strdup(json_string_value(path));
		return o->net_path ? 0 : st_error_set(err, ENOMEM, "%s", file);
	}
	if (st_ns_join_ok(ns_types[k].layer, &why) < 0)
		return bad(err, file, where, "joining a %s namespace is not supported (%s)", type, why);
	o->joins[o->njoins].layer = ns_types[k].layer;
	o->joins[o->njoins].path = strdup(json_string_value(path));
	return o->joins[o->njoins++].path ? 0 : st_error_set(err, ENOMEM, "%s", file);
}

static int read_namespaces(json_t *a, const char *file, struct st_oci *o, struct st_error *err)
{
	unsigned int seen = 0;
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return bad(err, file, ".linux.namespaces", "must be an array");
	o->has_ns = 1;
	o->ns_mask = 0;
	json_array_foreach(a, i, v)
		if (read_ns_entry(v, file, i, &seen, o, err) < 0)
			return -EINVAL;
	return 0;
}

/* maskedPaths, readonlyPaths: absolute, without "." or "..", so that none leaves the root. */
static int read_paths(json_t *a, const char *file, const char *path, char ***out,
		      struct st_error *err)
{
	char where[64];
	int ret = st_oci_strings(a, file, path, 0, out, err);

	for (size_t i = 0; ret == 0 && (*out)[i]; i++) {
		snprintf(where, sizeof(where), "%s[%zu]", path, i);
		if (!st_mount_dest_ok((*out)[i]))
			return bad(err, file, where,
				   "\"%s\" must be an absolute path without . or .. (it would "
				   "escape the root)", (*out)[i]);
	}
	return ret;
}

/*
 * One mapping, 0 -> the caller's own id, size 1: what `runc spec --rootless`
 * writes and what sandboxtime's user layer makes; any other is refused.
 */
static int read_map(json_t *a, const char *file, const char *path, unsigned int own,
		    struct st_error *err)
{
	static const char *const known[] = { "containerID", "hostID", "size" };
	json_t *m = json_array_get(a, 0);
	char where[64];

	if (!json_is_array(a) || json_array_size(a) != 1 || !json_is_object(m))
		return bad(err, file, path, "must be one mapping (sandboxtime maps 0 to your "
			   "own id, one id)");
	snprintf(where, sizeof(where), "%s[0]", path);
	if (st_oci_check_keys(m, file, where, known, ARRAY_SIZE(known), err) < 0)
		return -EINVAL;
	if (json_integer_value(json_object_get(m, "containerID")) != 0 ||
	    json_integer_value(json_object_get(m, "size")) != 1 ||
	    !json_is_integer(json_object_get(m, "hostID")) ||
	    json_integer_value(json_object_get(m, "hostID")) != (json_int_t)own)
		return bad(err, file, where, "must be {\"containerID\": 0, \"hostID\": %u, \"size\": 1} "
			   "(0 -> your own id, one id)", own);
	return 0;
}

static int read_sysctl(json_t *obj, const char *file, struct st_oci *o, struct st_error *err)
{
	const char *key;
	char where[160];
	json_t *v;

	if (!json_is_object(obj))
		return bad(err, file, ".linux.sysctl", "must be an object of strings");
	o->sysctl = calloc(json_object_size(obj) + 1, sizeof(*o->sysctl));
	if (!o->sysctl)
		return st_error_set(err, ENOMEM, "%s", file);
	json_object_foreach(obj, key, v) {
		int layer = st_sysctl_layer(key);

		snprintf(where, sizeof(where), ".linux.sysctl.%.100s", key);
		if (!json_is_string(v))
			return bad(err, file, where, "must be a string");
		if (layer < 0)
			return bad(err, file, where, "not a namespaced key (it would change the host)");
		if (!(o->ns_mask & ST_LAYER_BIT(layer)))
			return bad(err, file, where, "needs the %s namespace in .linux.namespaces",
				   st_layers[layer].name);
		o->sysctl[o->nsysctl].key = strdup(key);
		o->sysctl[o->nsysctl].value = strdup(json_string_value(v));
		if (!o->sysctl[o->nsysctl++].value || !o->sysctl[o->nsysctl - 1].key)
			return st_error_set(err, ENOMEM, "%s", file);
	}
	return 0;
}

/* One device rule: {allow, type, major, minor, access}, as the runtime-spec gives it. */
static int read_device(json_t *v, const char *file, const char *where, struct st_cg_device *d,
		       struct st_error *err)
{
	static const char *const rule[] = { "allow", "type", "major", "minor", "access" };
	const char *type = json_string_value(json_object_get(v, "type")) ?: "a";
	const char *access = json_string_value(json_object_get(v, "access")) ?: "rwm";
	long long n;

	if (!json_is_object(v) || st_oci_check_keys(v, file, where, rule, ARRAY_SIZE(rule), err) < 0)
		return json_is_object(v) ? -EINVAL : bad(err, file, where, "must be an object");
	if (!json_is_boolean(json_object_get(v, "allow")))
		return bad(err, file, where, ".allow: must be true or false");
	if (strlen(type) != 1 || !strchr("acbu", type[0]))
		return bad(err, file, where, ".type: \"%s\" (a, c, b or u)", type);
	if (!*access || strlen(access) > 3 || strspn(access, "rwm") != strlen(access))
		return bad(err, file, where, ".access: \"%s\" (of r, w, m)", access);
	d->allow = json_is_true(json_object_get(v, "allow"));
	d->type = type[0] == 'u' ? 'c' : type[0];
	d->major = d->minor = -1;
	snprintf(d->access, sizeof(d->access), "%s", access);
	if (json_object_get(v, "major")) {
		if (st_oci_int(json_object_get(v, "major"), file, where, -1, 1ll << 32, &n, err) < 0)
			return -EINVAL;
		d->major = n;
	}
	if (json_object_get(v, "minor")) {
		if (st_oci_int(json_object_get(v, "minor"), file, where, -1, 1ll << 32, &n, err) < 0)
			return -EINVAL;
		d->minor = n;
	}
	return 0;
}

/*
 * linux.resources.devices, in order. Deny-all alone (runc spec's) needs no
 * cgroup: the /dev sandboxtime makes holds only the default devices. A rule
 * that allows something is kept, for the v1 devices controller.
 */
static int read_devices(json_t *devs, const char *file, struct st_cgroup_limits *l, struct st_error *err)
{
	char where[64];
	int allows = 0;
	size_t i;
	json_t *v;

	if (!json_is_array(devs))
		return bad(err, file, ".linux.resources.devices", "must be an array");
	if (json_array_size(devs) > ST_CG_MAX_DEVICES)
		return bad(err, file, ".linux.resources.devices", "at most %d rules", ST_CG_MAX_DEVICES);
	json_array_foreach(devs, i, v) {
		snprintf(where, sizeof(where), ".linux.resources.devices[%zu]", i);
		if (read_device(v, file, where, &l->devices[i], err) < 0)
			return -EINVAL;
		allows |= l->devices[i].allow;
	}
	l->ndevices = allows ? json_array_size(devs) : 0;
	return 0;
}

/* An int64 limit: -1 is unlimited, else in [min, max]. */
static int read_limit(json_t *v, const char *file, const char *where, long long min, long long max,
		      int64_t *out, struct st_error *err)
{
	long long x;

	if (json_is_integer(v) && json_integer_value(v) == -1) {
		*out = -1;
		return 0;
	}
	if (st_oci_int(v, file, where, min, max, &x, err) < 0)
		return -EINVAL;
	*out = x;
	return 0;
}

/* One of memory, pids, cpu: an object of the keys @known only; each read as a limit. */
static int read_group(json_t *r, const char *file, const char *name, const char *const *known,
		      size_t nknown, json_t **vals, struct st_error *err)
{
	json_t *g = json_object_get(r, name);
	char where[64];

	snprintf(where, sizeof(where), ".linux.resources.%s", name);
	for (size_t i = 0; i < nknown; i++)
		vals[i] = NULL;
	if (!g)
		return 0;
	if (!json_is_object(g))
		return bad(err, file, where, "must be an object");
	if (st_oci_check_keys(g, file, where, known, nknown, err) < 0)
		return -EINVAL;
	for (size_t i = 0; i < nknown; i++)
		vals[i] = json_object_get(g, known[i]);
	return 0;
}

static int read_cpu(json_t *r, const char *file, struct st_cgroup_limits *l, struct st_error *err)
{
	static const char *const known[] = { "shares", "quota", "period" };
	json_t *v[3];
	int64_t x = 0;

	if (read_group(r, file, "cpu", known, 3, v, err) < 0)
		return -EINVAL;
	if (v[0] && read_limit(v[0], file, ".linux.resources.cpu.shares", 2, 262144, &x, err) < 0)
		return -EINVAL;
	l->cpu_shares = x > 0 ? (uint64_t)x : 0;
	/* The kernel's bounds: a quota of at least 1 ms, a period of 1 ms to 1 s. */
	if (v[1] && read_limit(v[1], file, ".linux.resources.cpu.quota", 1000, INT64_MAX / 1000,
			       &l->cpu_quota, err) < 0)
		return -EINVAL;
	x = 0;
	if (v[2] && read_limit(v[2], file, ".linux.resources.cpu.period", 1000, 1000000, &x, err) < 0)
		return -EINVAL;
	if (x < 0)
		return bad(err, file, ".linux.resources.cpu.period", "must be 1000 to 1000000 (us)");
	l->cpu_period = (uint64_t)x;
	return 0;
}

/*
 * The limits the cgroup layer writes (memory.limit, pids.limit, cpu.shares,
 * quota, period), and the device rule. Any other key is refused by name: a
 * limit silently not applied would be a sandbox weaker than its file says.
 */
static int read_resources(json_t *r, const char *file, struct st_oci *o, struct st_error *err)
{
	static const char *const known[] = { "devices", "memory", "pids", "cpu" };
	static const char *const mem[] = { "limit" }, *const pids[] = { "limit" };
	struct st_cgroup_limits *l = &o->cgroup.lim;
	json_t *v;

	if (!json_is_object(r))
		return bad(err, file, ".linux.resources", "must be an object");
	if (st_oci_check_keys(r, file, ".linux.resources", known, ARRAY_SIZE(known), err) < 0)
		return -EINVAL;
	if ((v = json_object_get(r, "devices")) && read_devices(v, file, l, err) < 0)
		return -EINVAL;
	if (read_group(r, file, "memory", mem, 1, &v, err) < 0 ||
	    (v && read_limit(v, file, ".linux.resources.memory.limit", 4096, INT64_MAX, &l->memory, err) < 0))
		return -EINVAL;
	if (read_group(r, file, "pids", pids, 1, &v, err) < 0 ||
	    (v && read_limit(v, file, ".linux.resources.pids.limit", 1, 4194304, &l->pids, err) < 0))
		return -EINVAL;
	if (read_cpu(r, file, l, err) < 0)
		return -EINVAL;
	o->cgroup.enabled |= l->memory || l->pids || l->cpu_quota || l->cpu_period || l->cpu_shares || l->ndevices;
	return 0;
}

/* linux.cgroupsPath: absolute (from the hierarchy's root) or relative (to PARENT). */
static int read_cgroups_path(json_t *v, const char *file, struct st_oci *o, struct st_error *err)
{
	const char *p = json_string_value(v);

	if (!p)
		return bad(err, file, ".linux.cgroupsPath", "must be a string");
	if (st_cgroup_path_check(".linux.cgroupsPath", p, 0, err) < 0)
		return st_error_wrap(err, "%s", file);
	o->cgroups_path = strdup(p);
	if (!o->cgroups_path)
		return st_error_set(err, ENOMEM, "%s", file);
	o->cgroup.path = o->cgroups_path;
	o->cgroup.enabled = 1;
	return 0;
}

static int read_more(json_t *l, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *v;

	if ((v = json_object_get(l, "sysctl")) && read_sysctl(v, file, o, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(l, "resources")) && read_resources(v, file, o, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(l, "cgroupsPath")) && read_cgroups_path(v, file, o, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(l, "maskedPaths")) &&
	    read_paths(v, file, ".linux.maskedPaths", &o->mounts.masked, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(l, "readonlyPaths")) &&
	    read_paths(v, file, ".linux.readonlyPaths", &o->mounts.readonly_paths, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(l, "seccomp"))) {
		if (!json_is_object(v))
			return bad(err, file, ".linux.seccomp", "must be a profile object");
		o->seccomp = json_incref(v);
	}
	return 0;
}

int st_oci_read_linux(json_t *l, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *u = json_object_get(l, "uidMappings"), *g = json_object_get(l, "gidMappings"), *v;

	if (!json_is_object(l))
		return bad(err, file, ".linux", "must be an object");
	if (st_oci_check_keys(l, file, ".linux", known_linux, ARRAY_SIZE(known_linux), err) < 0)
		return -EINVAL;
	/* First: sysctl keys and id maps need to know the namespaces. */
	if ((v = json_object_get(l, "namespaces")) && read_namespaces(v, file, o, err) < 0)
		return -EINVAL;
	if ((u || g) && !(o->ns_mask & ST_LAYER_BIT(ST_LAYER_USER)))
		return bad(err, file, u ? ".linux.uidMappings" : ".linux.gidMappings",
			   "needs {\"type\": \"user\"} in .linux.namespaces");
	if (u && read_map(u, file, ".linux.uidMappings", (unsigned int)geteuid(), err) < 0)
		return -EINVAL;
	if (g && read_map(g, file, ".linux.gidMappings", (unsigned int)getegid(), err) < 0)
		return -EINVAL;
	o->has_maps = u || g;
	return read_more(l, file, o, err);
}
