/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_STEPS_H
#define SANDBOXTIME_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/clock.h"

#define ST_MAX_STEPS 32

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

/* Runs one step, and records its duration if it worked. */
#define ST_TIMED_STEP(steps, name, call)                              \
	({                                                            \
		uint64_t _t0 = st_now_ns();                           \
		int _r = (call);                                      \
		if (_r == 0)                                          \
			st_steps_add(steps, name, st_now_ns() - _t0); \
		_r;                                                   \
	})

#endif
