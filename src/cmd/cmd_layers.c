// SPDX-License-Identifier: MIT
#include "sandboxtime/cmd.h"
#include "sandboxtime/session.h"

int st_cmd_layers(const struct st_run_opts *o, const struct st_output *out, int *exit_code,
		  struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = st_session_prepare(&s, out, &o->measure, err);
	st_session_describe_run(&s, o, 0);
	if (ret == 0)
		ret = st_session_measure(&s, err);
	if (ret == 0)
		ret = st_session_report(&s, err);
	if (ret < 0) {
		*exit_code = st_session_failure_code(&s);
		return ret;
	}
	*exit_code = ST_EXIT_OK;
	return 0;
}
