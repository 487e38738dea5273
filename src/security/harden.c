// SPDX-License-Identifier: MIT
/*
 * The security layer's one entry: what the workload's process gives up, and
 * in which order (no_new_privs, the seccomp filter, capabilities). The parts
 * are caps.c (capability sets, libcap), seccomp_filter.c (the filter:
 * built in or compiled by seccomp_profile.c, loaded there).
 */
#include <sys/prctl.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/harden.h"
#include "sandboxtime/seccomp_filter.h"

static int set_no_new_privs(struct st_error *err)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return st_error_set(err, errno, "no_new_privs");
	return 0;
}

int st_harden_apply_first(const struct st_hardening *h, int *filter_left, struct st_steps *steps,
			  struct st_error *err)
{
	int filter = h->seccomp && h->seccomp->prog;
	int ret = 0;

	*filter_left = 0;
	if (h->no_new_privs)
		ret = ST_TIMED_STEP(steps, err, "no_new_privs", set_no_new_privs(err));
	if (ret == 0 && filter && !h->no_new_privs)
		ret = ST_TIMED_STEP(steps, err, "seccomp_load", st_seccomp_load(h->seccomp, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "caps_drop", st_caps_apply(h->caps, err));
	if (ret == 0 && filter && h->no_new_privs)
		*filter_left = 1;
	return ret;
}

int st_harden_load_filter(const struct st_hardening *h, struct st_error *err)
{
	return st_seccomp_load(h->seccomp, err);
}

int st_harden_apply(const struct st_hardening *h, struct st_steps *steps, struct st_error *err)
{
	int left, ret = st_harden_apply_first(h, &left, steps, err);

	if (ret == 0 && left)
		ret = ST_TIMED_STEP(steps, err, "seccomp_load", st_harden_load_filter(h, err));
	return ret;
}
