// SPDX-License-Identifier: MIT
/*
 * The defaults of every command (docs/DESIGN.md), in one place: the option
 * table's help text prints the same ST_CLI_* constants (cli.h).
 */
#include <limits.h>
#include <string.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/layer.h"

void st_cli_defaults(struct st_opts *o)
{
	static const struct st_measure_opts measure = {
		.ns_mask = ST_LAYERS_ALL,
		.repeat = ST_CLI_REPEAT,
		.warmup = ST_CLI_WARMUP,
		.deferred_repeat = UINT_MAX, /* resolved after parsing */
	};

	memset(o, 0, sizeof(*o));
	o->command = ST_CMD_RUN;
	o->out.format = ST_FORMAT_TABLE;
	o->compare.resamples = ST_CLI_RESAMPLES;
	o->compare.fail_pct = -1;
	o->out.cpu = -1;
	o->run.measure = measure;
	o->run.net.mode = ST_NET_NONE;
	o->run.no_new_privs = 1;
	o->run.seccomp = "default";
	o->run.kill_after_s = ST_CLI_KILL_AFTER_S;
	o->netbench.rr = -1;
	o->orphans.min_age_s = ST_CLI_MIN_AGE_S;
	o->bench.measure = measure;
	o->bench.count = ST_CLI_CHURN_COUNT;
	o->bench.launches = ST_CLI_LAUNCHES;
	o->bench.max_alive = ST_CLI_CHURN_MAX_ALIVE;
	o->bench.net = ST_NET_NONE;
}
