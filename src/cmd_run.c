// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/ns_uts.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/session.h"

/*
 * The workload's capabilities and seccomp program, decided and compiled
 * before anything is measured: a bad capability name or profile costs
 * nothing, and the compile step (which can exceed all the namespaces
 * together) is timed on its own.
 */
static int prepare_hardening(const struct st_opts *o, struct st_hardening *h, struct st_seccomp *sc,
			     struct st_steps *steps, struct st_report *r, struct st_error *err)
{
	uint64_t t0;
	int ret;

	h->caps = st_caps_default();
	h->no_new_privs = o->no_new_privs;
	ret = st_caps_edit(&h->caps, o->cap_drop, o->cap_add, err);
	if (ret < 0)
		return ret;
	t0 = st_now_ns();
	ret = st_seccomp_compile(o->seccomp, sc, err);
	if (ret < 0)
		return ret;
	if (sc->prog)
		st_steps_add(steps, sc->cache == ST_SECCOMP_CACHE_HIT ? "seccomp_cache_read" : "seccomp_compile",
			     st_now_ns() - t0);
	h->seccomp = sc;
	if (!o->no_new_privs)
		fprintf(stderr, "sandboxtime: warning: --no-new-privileges=false: setuid and file-capability programs in the sandbox can gain privileges\n");
	/* Like runc: names this libseccomp or arch does not know are skipped, and said once. */
	if (sc->unknown) {
		if (strcmp(o->seccomp, "default") != 0)
			fprintf(stderr, "sandboxtime: warning: --seccomp: %zu syscall name(s) unknown here, skipped: %s\n",
				sc->unknown, sc->unknown_names);
		st_report_add_error(r, "seccomp: %zu syscall name(s) unknown to this libseccomp, skipped: %s",
				    sc->unknown, sc->unknown_names);
	}
	return 0;
}

int st_cmd_run(const struct st_opts *o, int *exit_code, struct st_error *err)
{
	struct st_session s __attribute__((cleanup(st_session_end)));
	struct st_sandbox_config cfg = { 0 };
	struct st_steps steps = { 0 };
	struct st_net_plan net __attribute__((cleanup(st_net_plan_release))) = { .join_fd = -1 };
	struct st_seccomp sc __attribute__((cleanup(st_seccomp_free))) = { .prog = NULL };
	struct st_workload w;
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = st_session_prepare(&s, o, err);
	/* Names and addresses are checked before measuring, so bad input costs nothing. */
	if (ret == 0)
		ret = st_net_plan(o, s.report.host.rootless, &net, err);
	if (ret == 0)
		ret = prepare_hardening(o, &cfg.harden, &sc, &steps, &s.report, err);
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
		steps.n = sc.prog ? 1 : 0; /* keep seccomp_compile, drop the failed attempt's */
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
	s.report.harden = &cfg.harden;
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
