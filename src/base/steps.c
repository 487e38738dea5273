// SPDX-License-Identifier: MIT
/*
 * The timed steps of one run (uid_map, veth_create, lo_up, ...), as the
 * report lists them, and fault injection by step name for the tests. Not
 * net_steps.c, which repeats the network wiring's steps to measure their
 * spread (--net-steps-repeat).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/steps.h"

void st_steps_add_flagged(struct st_steps *steps, const char *name, uint64_t ns, int already_gone)
{
	struct st_step *s;

	if (steps->n >= ST_MAX_STEPS)
		return;
	s = &steps->v[steps->n++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->us = st_ns_to_us(ns);
	s->already_gone = already_gone;
}

void st_steps_add(struct st_steps *steps, const char *name, uint64_t ns)
{
	st_steps_add_flagged(steps, name, ns, 0);
}

void st_steps_append(struct st_steps *steps, const struct st_steps *from)
{
	for (size_t i = 0; i < from->n && steps->n < ST_MAX_STEPS; i++)
		steps->v[steps->n++] = from->v[i];
}

#ifdef SANDBOXTIME_FAULTS
int st_fault(const char *step, struct st_error *err)
{
	const char *spec = getenv("SANDBOXTIME_FAULT");
	size_t len = strlen(step);
	int e = EIO;

	if (!spec || strncmp(spec, step, len) != 0 || (spec[len] && spec[len] != ':'))
		return 0;
	if (spec[len] == ':')
		e = atoi(spec + len + 1);
	return st_error_set(err, e > 0 ? e : EIO, "%s: injected fault", step);
}
#endif
