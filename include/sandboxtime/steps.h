/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_STEPS_H
#define SANDBOXTIME_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/error.h"

/*
 * Enough for every step of one run: a --config bundle with joined
 * namespaces, rootless wiring and its process steps makes about 40. Bounded
 * by the exec report, which must stay below PIPE_BUF (init.h).
 */
#define ST_MAX_STEPS 48

/* One timed configuration step of the real sandbox ("uid_map", "lo_up"). */
struct st_step {
	char name[24];
	double us;
	int already_gone; /* a delete that found the kernel had removed it first */
};

/* Fixed size, so that a child can send the whole list through a pipe. */
struct st_steps {
	size_t n;
	struct st_step v[ST_MAX_STEPS];
};

void st_steps_add(struct st_steps *steps, const char *name, uint64_t ns);
void st_steps_add_flagged(struct st_steps *steps, const char *name, uint64_t ns, int already_gone);

/* Appends every step of @from. */
void st_steps_append(struct st_steps *steps, const struct st_steps *from);

/*
 * Fault injection, compiled in only for tests (-DSANDBOXTIME_FAULTS, the
 * sandboxtime-faults binary of make check): SANDBOXTIME_FAULT=STEP[:ERRNO]
 * makes the step of that name fail with ERRNO (default EIO) before it runs,
 * so that every error path, and what it leaves behind, is exercised.
 * Returns 0 (no fault) or -errno with @err set. A no-op in the real binary.
 */
#ifdef SANDBOXTIME_FAULTS
int st_fault(const char *step, struct st_error *err);
#else
static inline int st_fault(const char *step _unused_, struct st_error *err _unused_)
{
	return 0;
}
#endif

/* Runs one step, and records its duration if it worked. */
#define ST_TIMED_STEP(steps, err, name, call)                         \
	({                                                            \
		uint64_t _t0 = st_now_ns();                           \
		int _r = st_fault(name, err);                         \
		if (_r == 0)                                          \
			_r = (call);                                  \
		if (_r == 0)                                          \
			st_steps_add(steps, name, st_now_ns() - _t0); \
		_r;                                                   \
	})

#endif
