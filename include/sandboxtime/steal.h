/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_STEAL_H
#define SANDBOXTIME_STEAL_H

/*
 * Hypervisor steal over a run, from the aggregate "cpu" line of /proc/stat:
 * time the host gave to other guests while ours were runnable. A run with
 * steal has figures that include waits for another guest (docs/bench-notes
 * 25 threw runs away by hand for it); every report records it.
 */
#include <stddef.h>
#include <stdint.h>

struct st_steal {
	int available;           /* /proc/stat was read at both ends */
	uint64_t steal0, total0; /* ticks at the start, summed over CPUs */
	double ms;               /* CPU time stolen over the run, summed over CPUs */
	double share;            /* of all CPU time over the run, 0..1 */
};

/* Above this share a report flags the run: its figures may carry another guest's work. */
#define ST_STEAL_FLAG_SHARE 0.01

/*
 * Parses /proc/stat's text: the steal ticks and the total of the "cpu"
 * line (user nice system idle iowait irq softirq steal; guest time is
 * already inside user). -EINVAL without a cpu line of 8 fields or more.
 */
int st_steal_parse(const char *text, uint64_t *steal, uint64_t *total);

/* Reads the starting counts (available stays 0 where /proc/stat cannot be read). */
void st_steal_begin(struct st_steal *s);

/* Reads the counts again: ms and share over the run so far. */
void st_steal_end(struct st_steal *s);

/* The same from two readings of the counts and the clock tick (for tests). */
void st_steal_span(struct st_steal *s, uint64_t steal1, uint64_t total1, long ticks_per_s);

static inline int st_steal_flagged(const struct st_steal *s)
{
	return s->available && s->share > ST_STEAL_FLAG_SHARE;
}

#endif
