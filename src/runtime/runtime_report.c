// SPDX-License-Identifier: MIT
/*
 * The product of the runtime: one JSON line per container operation
 * (create, start, delete; run is all three) appended to --report's file,
 * each with every timed step, so that `sandboxtime report FILE` can give
 * per-step medians across many real containers. One write(2) per line on
 * an O_APPEND file: the lines of concurrent calls do not interleave.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/runtime.h"
#include "sandboxtime/util.h"

static json_t *steps_json(const struct st_steps *steps, double *total)
{
	json_t *a = json_array();

	*total = 0;
	for (size_t i = 0; i < steps->n; i++) {
		json_array_append_new(a, json_pack("{s:s,s:f}", "step", steps->v[i].name, "us", steps->v[i].us));
		*total += steps->v[i].us;
	}
	return a;
}

int st_rt_report(const struct st_rt_global *g, const struct st_rt_state *s, const char *op,
		 const struct st_steps *steps, json_t *extra, struct st_error *err)
{
	_cleanup_free_ char *line = NULL;
	_cleanup_close_ int fd = -1;
	json_auto_t *doc = NULL;
	struct timespec now;
	double total;
	size_t len;

	if (!g->report) {
		json_decref(extra);
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	doc = json_pack("{s:s,s:s,s:s,s:s,s:f,s:o}", "schema", "sandboxtime/runtime/v1", "op", op, "id", s->id,
			"bundle", s->bundle, "time", (double)now.tv_sec + now.tv_nsec / 1e9, "steps",
			steps_json(steps, &total));
	json_object_set_new(doc, "total_us", json_real(total));
	if (extra)
		json_object_update_new(doc, extra);
	line = json_dumps(doc, JSON_COMPACT);
	if (!line)
		return st_error_set(err, ENOMEM, "--report");
	len = strlen(line);
	line[len++] = '\n'; /* over the NUL: the line is written whole, without it */
	fd = open(g->report, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return st_error_set(err, errno, "--report: cannot open %s", g->report);
	if (write(fd, line, len) != (ssize_t)len)
		return st_error_set(err, errno ? errno : EIO, "--report: writing %s", g->report);
	return 0;
}
