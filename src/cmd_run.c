// SPDX-License-Identifier: MIT
#include "sandboxtime/cmd.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/session.h"

int st_cmd_run(const struct st_opts *o, int *exit_code, struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_sandbox_config cfg = { 0 };
	struct st_steps steps = { 0 };
	struct st_workload w;
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = st_session_prepare(&s, o, err);
	/* --repeat=0: no calibration, only the one real sandbox. */
	if (ret == 0 && o->repeat > 0)
		ret = st_session_measure(&s, err);
	if (ret < 0) {
		*exit_code = st_session_failure_code(&s);
		return ret;
	}

	cfg.mask = s.report.mask;
	cfg.rootless = s.report.host.rootless;
	cfg.hostname = o->hostname;
	cfg.no_init = o->no_init;
	cfg.argv = o->argv;
	ret = st_sandbox_run(&cfg, &steps, &w, err);
	if (ret < 0) {
		if (w.exec_errno)
			*exit_code = w.exit_code;
		return ret;
	}
	s.report.steps = &steps;
	s.report.workload = &w;
	ret = st_session_report(&s, err);
	/* The workload's status wins: a lost report must not hide its failure. */
	*exit_code = ret < 0 && w.exit_code == 0 ? ST_EXIT_FAILURE : w.exit_code;
	return ret;
}
