// SPDX-License-Identifier: MIT
/*
 * Steal over a run (steal.h). The cpu line counts in USER_HZ ticks summed
 * over every CPU, so the share is of all CPUs' time, and ms is CPU time, not
 * wall time: 2 CPUs fully stolen for 1 s give 2000 ms.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandboxtime/steal.h"
#include "sandboxtime/util.h"

int st_steal_parse(const char *text, uint64_t *steal, uint64_t *total)
{
	uint64_t v[8] = { 0 };

	/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice" */
	if (strncmp(text, "cpu ", 4) != 0 ||
	    sscanf(text + 4, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			     " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -EINVAL;
	*steal = v[7];
	*total = 0;
	for (size_t i = 0; i < 8; i++)
		*total += v[i];
	return 0;
}

static int read_counts(uint64_t *steal, uint64_t *total)
{
	/* The cpu line comes first and is short: 256 bytes hold it. */
	char buf[256];

	if (st_read_file("/proc/stat", buf, sizeof(buf)) < 0)
		return -EIO;
	return st_steal_parse(buf, steal, total);
}

void st_steal_begin(struct st_steal *s)
{
	memset(s, 0, sizeof(*s));
	s->available = read_counts(&s->steal0, &s->total0) == 0;
}

void st_steal_span(struct st_steal *s, uint64_t steal1, uint64_t total1, long ticks_per_s)
{
	uint64_t ds = steal1 >= s->steal0 ? steal1 - s->steal0 : 0;
	uint64_t dt = total1 >= s->total0 ? total1 - s->total0 : 0;

	s->ms = ticks_per_s > 0 ? (double)ds * 1000.0 / (double)ticks_per_s : 0;
	s->share = dt ? (double)ds / (double)dt : 0;
}

void st_steal_end(struct st_steal *s)
{
	uint64_t steal1, total1;

	if (!s->available)
		return;
	if (read_counts(&steal1, &total1) < 0) {
		s->available = 0;
		return;
	}
	st_steal_span(s, steal1, total1, sysconf(_SC_CLK_TCK));
}
