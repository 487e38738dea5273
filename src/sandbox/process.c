// SPDX-License-Identifier: MIT
/*
 * config.json's process.rlimits, process.oomScoreAdj and process.user,
 * applied in the workload's process just before it hardens and execs.
 */
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sandboxtime/process.h"
#include "sandboxtime/util.h"

static const struct {
	const char *name;
	int resource;
} rlimit_names[] = {
	{ "RLIMIT_AS", RLIMIT_AS },
	{ "RLIMIT_CORE", RLIMIT_CORE },
	{ "RLIMIT_CPU", RLIMIT_CPU },
	{ "RLIMIT_DATA", RLIMIT_DATA },
	{ "RLIMIT_FSIZE", RLIMIT_FSIZE },
	{ "RLIMIT_LOCKS", RLIMIT_LOCKS },
	{ "RLIMIT_MEMLOCK", RLIMIT_MEMLOCK },
	{ "RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE },
	{ "RLIMIT_NICE", RLIMIT_NICE },
	{ "RLIMIT_NOFILE", RLIMIT_NOFILE },
	{ "RLIMIT_NPROC", RLIMIT_NPROC },
	{ "RLIMIT_RSS", RLIMIT_RSS },
	{ "RLIMIT_RTPRIO", RLIMIT_RTPRIO },
	{ "RLIMIT_RTTIME", RLIMIT_RTTIME },
	{ "RLIMIT_SIGPENDING", RLIMIT_SIGPENDING },
	{ "RLIMIT_STACK", RLIMIT_STACK },
};

int st_process_rlimit_parse(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(rlimit_names); i++)
		if (strcmp(name, rlimit_names[i].name) == 0)
			return rlimit_names[i].resource;
	return -1;
}

static const char *rlimit_name(int resource)
{
	for (size_t i = 0; i < ARRAY_SIZE(rlimit_names); i++)
		if (rlimit_names[i].resource == resource)
			return rlimit_names[i].name;
	return "?";
}

static int set_rlimits(const struct st_process *p, struct st_error *err)
{
	for (size_t i = 0; i < p->nrlimits; i++)
		if (setrlimit(p->rlimits[i].resource, &p->rlimits[i].lim) < 0)
			return st_error_set(err, errno, "process.rlimits: %s",
					    rlimit_name(p->rlimits[i].resource));
	return 0;
}

static int set_oom_score_adj(int adj, struct st_error *err)
{
	char value[16];
	int ret;

	snprintf(value, sizeof(value), "%d", adj);
	ret = st_write_file("/proc/self/oom_score_adj", value);
	/* Lowering it takes CAP_SYS_RESOURCE: say that rather than EACCES alone. */
	if (ret < 0)
		return st_error_set(err, -ret, "process.oomScoreAdj %d%s", adj,
				    ret == -EACCES ? " (lowering it needs CAP_SYS_RESOURCE)" : "");
	return 0;
}

/* setresuid() cleared the effective set (not the permitted one, thanks to KEEPCAPS): raise it. */
static int raise_effective(struct st_error *err)
{
	cap_t caps = cap_get_proc();
	cap_value_t v;
	int ret = 0;

	if (!caps)
		return st_error_set(err, errno, "process.user: reading capabilities");
	for (v = 0; v <= CAP_LAST_CAP; v++) {
		cap_flag_value_t on = CAP_CLEAR;

		if (cap_get_flag(caps, v, CAP_PERMITTED, &on) == 0 && on == CAP_SET)
			cap_set_flag(caps, CAP_EFFECTIVE, 1, &v, CAP_SET);
	}
	if (cap_set_proc(caps) < 0)
		ret = st_error_set(err, errno, "process.user: raising the effective capabilities");
	cap_free(caps);
	return ret;
}

static int set_user(const struct st_process *p, struct st_error *err)
{
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return st_error_set(err, errno, "process.user: PR_SET_KEEPCAPS");
	/*
	 * A rootless sandbox denied setgroups (to write gid_map): then there
	 * is nothing to clear, as with runc, but groups asked for are refused.
	 */
	if (setgroups(p->ngroups, p->groups) < 0 && (errno != EPERM || p->ngroups))
		return st_error_set(err, errno, "process.user: setgroups%s",
				    errno == EPERM ? " (denied in a rootless user namespace: leave "
						     "additionalGids out)"
						   : "");
	if (setresgid(p->gid, p->gid, p->gid) < 0)
		return st_error_set(err, errno, "process.user: gid %u%s", (unsigned int)p->gid,
				    errno == EINVAL ? " is not mapped in the sandbox" : "");
	if (setresuid(p->uid, p->uid, p->uid) < 0)
		return st_error_set(err, errno, "process.user: uid %u%s", (unsigned int)p->uid,
				    errno == EINVAL ? " is not mapped in the sandbox" : "");
	return raise_effective(err);
}

int st_process_apply(const struct st_process *p, struct st_steps *steps, struct st_error *err)
{
	int ret = 0;

	if (p->nrlimits)
		ret = ST_TIMED_STEP(steps, err, "rlimits", set_rlimits(p, err));
	if (ret == 0 && p->has_oom)
		ret = ST_TIMED_STEP(steps, err, "oom_score_adj", set_oom_score_adj(p->oom_score_adj, err));
	if (ret == 0 && p->has_user)
		ret = ST_TIMED_STEP(steps, err, "user_ids", set_user(p, err));
	return ret;
}
