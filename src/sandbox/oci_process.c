// SPDX-License-Identifier: MIT
/* config.json's process: args, env, cwd, capabilities, user, rlimits, oomScoreAdj. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/oci_parse.h"

#define bad st_oci_bad

static const char *const known_process[] = { "args",	     "env",	  "cwd",
					     "terminal",     "capabilities", "noNewPrivileges",
					     "user",	     "rlimits",	  "oomScoreAdj" };
static const char *const known_caps[] = { "bounding", "effective", "permitted", "inheritable",
					  "ambient" };

static int cap_list(json_t *a, const char *file, const char *path, uint64_t *mask,
		    struct st_error *err)
{
	char where[80];
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return bad(err, file, path, "must be an array of names");
	*mask = 0;
	json_array_foreach(a, i, v) {
		uint64_t one = 0;

		snprintf(where, sizeof(where), "%s[%zu]", path, i);
		if (!json_is_string(v))
			return bad(err, file, where, "must be a capability name");
		if (st_caps_edit(&one, NULL, json_string_value(v), err) < 0)
			return bad(err, file, where, "unknown capability \"%s\"", json_string_value(v));
		*mask |= one;
	}
	return 0;
}

/*
 * sandboxtime makes permitted = effective = bounding and clears inheritable
 * and ambient: a config that says the same is applied; one that asks for
 * other sets is refused rather than run differently. ambient as bounding
 * (runc spec's) is the same thing for uid 0, whose exec gets the bounding
 * set anyway; for another uid it would mean capabilities we do not give.
 */
static int read_caps(json_t *caps, const char *file, struct st_oci *o, struct st_error *err)
{
	static const char *const same[] = { "effective", "permitted", "ambient" };
	json_t *inh = json_object_get(caps, "inheritable");
	uint64_t mask;
	char where[64];
	int ret;

	if (!json_is_object(caps))
		return bad(err, file, ".process.capabilities", "must be an object");
	ret = st_oci_check_keys(caps, file, ".process.capabilities", known_caps,
				ARRAY_SIZE(known_caps), err);
	if (ret == 0 && json_object_get(caps, "bounding")) {
		ret = cap_list(json_object_get(caps, "bounding"), file,
			       ".process.capabilities.bounding", &o->caps, err);
		o->has_caps = 1;
	}
	if (ret == 0 && inh && (!json_is_array(inh) || json_array_size(inh)))
		return bad(err, file, ".process.capabilities.inheritable",
			   "must be empty (sandboxtime clears the inheritable set)");
	for (size_t i = 0; ret == 0 && i < ARRAY_SIZE(same); i++) {
		json_t *v = json_object_get(caps, same[i]);

		if (!v)
			continue;
		snprintf(where, sizeof(where), ".process.capabilities.%s", same[i]);
		ret = cap_list(v, file, where, &mask, err);
		if (ret == 0 && mask && mask != (o->has_caps ? o->caps : st_caps_default()))
			return bad(err, file, where, "must be empty or the bounding set (sandboxtime "
				   "makes permitted = effective = bounding)");
		if (ret == 0 && mask && i == 2 && o->process.has_user && o->process.uid != 0)
			return bad(err, file, where, "must be empty for a uid other than 0 "
				   "(sandboxtime raises no ambient capabilities)");
	}
	return ret;
}

static int read_user(json_t *u, const char *file, struct st_process *p, struct st_error *err)
{
	static const char *const known[] = { "uid", "gid", "additionalGids" };
	json_t *groups = json_object_get(u, "additionalGids"), *v;
	long long n = 0;
	char where[64];
	size_t i;

	if (!json_is_object(u))
		return bad(err, file, ".process.user", "must be an object");
	if (st_oci_check_keys(u, file, ".process.user", known, ARRAY_SIZE(known), err) < 0)
		return -EINVAL;
	if (st_oci_int(json_object_get(u, "uid"), file, ".process.user.uid", 0, 4294967294LL, &n, err) < 0)
		return -EINVAL;
	p->uid = (uid_t)n;
	if (st_oci_int(json_object_get(u, "gid"), file, ".process.user.gid", 0, 4294967294LL, &n, err) < 0)
		return -EINVAL;
	p->gid = (gid_t)n;
	if (groups && (!json_is_array(groups) || json_array_size(groups) > ST_PROCESS_MAX_GROUPS))
		return bad(err, file, ".process.user.additionalGids",
			   "must be an array of at most %d gids", ST_PROCESS_MAX_GROUPS);
	json_array_foreach(groups, i, v) {
		snprintf(where, sizeof(where), ".process.user.additionalGids[%zu]", i);
		if (st_oci_int(v, file, where, 0, 4294967294LL, &n, err) < 0)
			return -EINVAL;
		p->groups[p->ngroups++] = (gid_t)n;
	}
	p->has_user = 1;
	return 0;
}

static int read_rlimit(json_t *r, const char *file, size_t i, struct st_process *p,
		       struct st_error *err)
{
	static const char *const known[] = { "type", "soft", "hard" };
	const char *type = json_string_value(json_object_get(r, "type"));
	char where[64];
	long long soft, hard;
	int res;

	snprintf(where, sizeof(where), ".process.rlimits[%zu]", i);
	if (!json_is_object(r))
		return bad(err, file, where, "must be an object");
	if (st_oci_check_keys(r, file, where, known, ARRAY_SIZE(known), err) < 0)
		return -EINVAL;
	snprintf(where, sizeof(where), ".process.rlimits[%zu].type", i);
	res = type ? st_process_rlimit_parse(type) : -1;
	if (res < 0)
		return bad(err, file, where, "unknown limit \"%s\" (RLIMIT_NOFILE, RLIMIT_NPROC, ...)",
			   type ? type : "(missing)");
	for (size_t k = 0; k < p->nrlimits; k++)
		if (p->rlimits[k].resource == res)
			return bad(err, file, where, "\"%s\" given twice", type);
	snprintf(where, sizeof(where), ".process.rlimits[%zu].soft", i);
	if (st_oci_int(json_object_get(r, "soft"), file, where, 0, LLONG_MAX, &soft, err) < 0)
		return -EINVAL;
	snprintf(where, sizeof(where), ".process.rlimits[%zu].hard", i);
	if (st_oci_int(json_object_get(r, "hard"), file, where, 0, LLONG_MAX, &hard, err) < 0)
		return -EINVAL;
	if (soft > hard)
		return bad(err, file, where, "is below soft (%lld < %lld)", hard, soft);
	p->rlimits[p->nrlimits].resource = res;
	p->rlimits[p->nrlimits].lim.rlim_cur = (rlim_t)soft;
	p->rlimits[p->nrlimits].lim.rlim_max = (rlim_t)hard;
	p->nrlimits++;
	return 0;
}

static int read_rlimits(json_t *a, const char *file, struct st_process *p, struct st_error *err)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a) || json_array_size(a) > ST_PROCESS_MAX_RLIMITS)
		return bad(err, file, ".process.rlimits", "must be an array of at most %d limits",
			   ST_PROCESS_MAX_RLIMITS);
	json_array_foreach(a, i, v)
		if (read_rlimit(v, file, i, p, err) < 0)
			return -EINVAL;
	return 0;
}

static int read_more(json_t *p, const char *file, struct st_oci *o, struct st_error *err)
{
	long long adj;
	json_t *v;

	if ((v = json_object_get(p, "user")) && read_user(v, file, &o->process, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(p, "rlimits")) && read_rlimits(v, file, &o->process, err) < 0)
		return -EINVAL;
	if ((v = json_object_get(p, "oomScoreAdj"))) {
		if (st_oci_int(v, file, ".process.oomScoreAdj", -1000, 1000, &adj, err) < 0)
			return -EINVAL;
		o->process.has_oom = 1;
		o->process.oom_score_adj = (int)adj;
	}
	/* After user: whether ambient may be given depends on the uid. */
	if ((v = json_object_get(p, "capabilities")))
		return read_caps(v, file, o, err);
	return 0;
}

int st_oci_read_process(json_t *p, const char *file, struct st_oci *o, struct st_error *err)
{
	json_t *v;
	int ret = 0;

	if (!json_is_object(p))
		return bad(err, file, ".process", "must be an object");
	ret = st_oci_check_keys(p, file, ".process", known_process, ARRAY_SIZE(known_process), err);
	if (ret < 0)
		return ret;
	if ((v = json_object_get(p, "terminal")) && json_is_true(v)) {
		if (!st_oci_runtime_mode())
			return bad(err, file, ".process.terminal",
				   "true is not supported (sandboxtime allocates no terminal; as an OCI runtime it does)");
		o->terminal = 1;
	}
	if ((v = json_object_get(p, "args")))
		ret = st_oci_strings(v, file, ".process.args", 1, &o->args, err);
	if (ret == 0 && (v = json_object_get(p, "env")))
		ret = st_oci_strings(v, file, ".process.env", 0, &o->env, err);
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
	return ret == 0 ? read_more(p, file, o, err) : ret;
}
