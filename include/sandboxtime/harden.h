/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_HARDEN_H
#define SANDBOXTIME_HARDEN_H

#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/steps.h"

struct st_seccomp;

/* What the workload's process gives up, last thing before exec. */
struct st_hardening {
	uint64_t caps;                    /* capability mask (caps.h) */
	int no_new_privs;                 /* PR_SET_NO_NEW_PRIVS */
	const struct st_seccomp *seccomp; /* NULL or empty: no filter */
	int from_config;                  /* decided by a --config bundle (else sandboxtime's defaults) */
};

/*
 * Applies @h to the calling process, each part timed into @steps:
 * no_new_privs, then capabilities, then the seccomp filter, loaded last so
 * that it does not have to allow what the setup itself needs. Without
 * no_new_privs the kernel only lets a process holding CAP_SYS_ADMIN load a
 * filter, so then the filter goes first, before the capabilities are dropped.
 */
int st_harden_apply(const struct st_hardening *h, struct st_steps *steps, struct st_error *err);

/*
 * The same in two parts, for the process that execs: st_harden_apply_first()
 * does all but a filter that goes last, and says in *@filter_left whether
 * st_harden_load_filter() must follow, as the very last step before exec,
 * after everything the process still has to say (a filter may deny write).
 */
int st_harden_apply_first(const struct st_hardening *h, int *filter_left, struct st_steps *steps,
			  struct st_error *err);
int st_harden_load_filter(const struct st_hardening *h, struct st_error *err);

#endif
