// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "sandboxtime/cmd.h"
#include "sandboxtime/ns_uts.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/session.h"

int st_cmd_run(const struct st_opts *o, int *exit_code, struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_sandbox_config cfg = { 0 };
	struct st_steps steps = { 0 };
	struct st_net_plan net __attribute__((cleanup(st_net_plan_release))) = { .join_fd = -1 };
	struct st_workload w;
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = st_session_prepare(&s, o, err);
	/* Names and addresses are checked before measuring, so bad input costs nothing. */
	if (ret == 0)
		ret = st_net_plan(o, s.report.host.rootless, &net, err);
	/* --repeat=0: no calibration, only the one real sandbox. */
	if (ret == 0 && o->repeat > 0)
		ret = st_session_measure(&s, err);
	if (ret < 0) {
		*exit_code = st_session_failure_code(&s);
		return ret;
	}

	cfg.rootless = s.report.host.rootless;
	cfg.hostname = o->hostname ? o->hostname : ST_DEFAULT_HOSTNAME;
	cfg.no_init = o->no_init;
	cfg.argv = o->argv;
	cfg.mask = s.report.mask;
	cfg.net = &net;
	ret = st_sandbox_run(&cfg, &steps, &w, err);
	/* Not probed yet (--repeat=0): find which layer failed, and why. */
	if (ret < 0 && w.clone_errno && o->repeat == 0) {
		struct st_error clone_err = *err;

		ret = st_session_probe_layers(&s, err);
		if (ret < 0)
			return ret;
		if (s.report.mask == cfg.mask) {
			*err = clone_err;
			return -clone_err.errnum;
		}
		cfg.mask = s.report.mask;
		memset(&steps, 0, sizeof(steps));
		ret = st_sandbox_run(&cfg, &steps, &w, err);
	}
	if (ret < 0) {
		if (w.exec_errno)
			*exit_code = w.exit_code;
		return ret;
	}
	s.report.steps = &steps;
	s.report.workload = &w;
	s.report.net = &net;
	if (w.teardown_error[0]) {
		/* Something we made may have outlived us: say so even with -q. */
		fprintf(stderr, "sandboxtime: warning: %s\n", w.teardown_error);
		st_report_add_error(&s.report, "%s", w.teardown_error);
	}
	ret = st_session_report(&s, err);
	/* The workload's status wins: a lost report must not hide its failure. */
	*exit_code = ret < 0 && w.exit_code == 0 ? ST_EXIT_FAILURE : w.exit_code;
	return ret;
}
