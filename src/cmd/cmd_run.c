// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/net_plan.h"
#include "sandboxtime/net_steps.h"
#include "sandboxtime/ns_uts.h"
#include "sandboxtime/oci.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/report_run.h"
#include "sandboxtime/session.h"

/*
 * The workload's capabilities and seccomp program, decided and compiled
 * before anything is measured: a bad capability name or profile costs
 * nothing, and the compile step (which can exceed all the namespaces
 * together) is timed on its own.
 *
 * Who decides: with --config, the config, as runc and crun read it (no
 * linux.seccomp: no filter; no process.capabilities: none; no
 * noNewPrivileges: off), so that a bundle runs as it would under them;
 * without one, sandboxtime's defaults (Docker's capabilities, no_new_privs,
 * the default profile). Options given on the command line edit either.
 */
static int compile_filter(const struct st_run_opts *o, const struct st_oci *oci, uint64_t caps,
			  struct st_seccomp *sc, struct st_error *err)
{
	_cleanup_free_ char *json = NULL;
	char name[300];

	if (!o->config || (o->given & ST_GIVEN_SECCOMP))
		return st_seccomp_compile(o->seccomp, caps, sc, err);
	if (!oci->seccomp)
		return st_seccomp_compile("none", caps, sc, err);
	json = json_dumps(oci->seccomp, JSON_COMPACT);
	if (!json)
		return st_error_set(err, ENOMEM, "--config: linux.seccomp");
	snprintf(name, sizeof(name), "%s: .linux.seccomp", o->config);
	return st_seccomp_compile_json(json, strlen(json), name, caps, sc, err);
}

static int prepare_hardening(const struct st_run_opts *o, const struct st_oci *oci, struct st_hardening *h,
			     struct st_seccomp *sc, struct st_steps *steps, struct st_report *r,
			     struct st_error *err)
{
	uint64_t t0;
	int ret;

	h->from_config = o->config != NULL;
	h->caps = !o->config ? st_caps_default() : oci->has_caps ? oci->caps : 0;
	h->no_new_privs = o->no_new_privs;
	ret = st_caps_edit(&h->caps, o->cap_drop, o->cap_add, err);
	if (ret < 0)
		return ret;
	t0 = st_now_ns();
	ret = st_fault("seccomp_compile", err);
	if (ret == 0)
		ret = compile_filter(o, oci, h->caps, sc, err);
	if (ret < 0)
		return ret;
	if (sc->prog)
		st_steps_add(steps, sc->origin == ST_SECCOMP_BUILTIN ? "seccomp_builtin" : "seccomp_compile",
			     st_now_ns() - t0);
	h->seccomp = sc;
	if (!o->no_new_privs && (o->given & ST_GIVEN_NNP))
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

/*
 * --config: what the file says, where the command line said nothing. The
 * result is the options the run uses; @oci owns the strings it points to.
 */
static int apply_config(const struct st_run_opts *o, struct st_oci *oci, struct st_run_opts *eff,
			struct st_report *r, struct st_error *err)
{
	int ret;

	*eff = *o;
	if (!o->config)
		return 0;
	ret = o->oci_runtime ? st_oci_load_runtime(o->config, oci, err) : st_oci_load(o->config, oci, err);
	if (ret < 0)
		return ret;
	if (!eff->argv && !oci->args)
		return st_error_usage(err, "--config: %s has no process.args, and no '-- CMD' was given", o->config);
	if (!eff->argv)
		eff->argv = oci->args;
	if (!eff->hostname && oci->hostname) {
		ret = st_ns_uts_validate(oci->hostname, err);
		if (ret < 0)
			return st_error_wrap(err, "--config: %s: .hostname", o->config);
		eff->hostname = oci->hostname;
	}
	if (oci->has_ns && !(o->given & ST_GIVEN_NS)) {
		/* Named in the file, so each one must exist: as if given with --ns. */
		eff->measure.ns_mask = eff->measure.ns_explicit = oci->ns_mask;
		if (!(o->given & ST_GIVEN_NET))
			eff->net.mode = oci->net_path ? ST_NET_JOIN : (oci->ns_mask & ST_LAYER_BIT(ST_LAYER_NET)) ? ST_NET_NONE
														: ST_NET_HOST;
		eff->net.join = oci->net_path;
	}
	/* runc's default: without noNewPrivileges, off. */
	if (!(o->given & ST_GIVEN_NNP))
		eff->no_new_privs = oci->has_nnp && oci->nnp;
	if (eff->hostname && !(eff->measure.ns_mask & ST_LAYER_BIT(ST_LAYER_UTS)))
		return st_error_usage(err, "--config: a hostname needs the uts namespace");
	return 0;
}

/* The first key of the config that is the mount layer's work, or NULL. */
static const char *mount_key(const struct st_mount_plan *p)
{
	return p->n		   ? ".mounts"
	       : p->root	   ? ".root.path"
	       : p->readonly	   ? ".root.readonly"
	       : p->masked	   ? ".linux.maskedPaths"
	       : p->readonly_paths ? ".linux.readonlyPaths"
				   : NULL;
}

/*
 * What the config asks of the layers the run really has (--ns may have
 * replaced the config's): without its namespace, a mount, a sysctl or a
 * join would land on the host's own.
 */
static int check_config_layers(const struct st_run_opts *o, const struct st_oci *oci,
			       const struct st_session *s, struct st_error *err)
{
	unsigned int mask = s->report.mask;

	if (mount_key(&oci->mounts) && !(mask & ST_LAYER_BIT(ST_LAYER_MOUNT)))
		return st_error_usage(err,
				      "%s: %s: needs a mount namespace: add {\"type\": \"mount\"} "
				      "to .linux.namespaces (or mount to --ns)",
				      o->config, mount_key(&oci->mounts));
	for (size_t i = 0; i < oci->nsysctl; i++) {
		int layer = st_sysctl_layer(oci->sysctl[i].key);

		if (layer < 0 || !(mask & ST_LAYER_BIT(layer)))
			return st_error_usage(err, "%s: .linux.sysctl.%s: needs the %s namespace "
					      "(it would change the host's)", o->config,
					      oci->sysctl[i].key, layer < 0 ? "?" : st_layers[layer].name);
	}
	/* Stepping back out of a joined namespace needs CAP_SYS_ADMIN over our own. */
	if (oci->njoins && s->report.host.rootless && !(o->given & ST_GIVEN_NS))
		return st_error_usage(err, "%s: .linux.namespaces: joining a %s namespace by its path "
				      "needs root (sandboxtime steps into it for the clone and back out)",
				      o->config, st_layers[oci->joins[0].layer].name);
	return 0;
}

/*
 * The cgroup layer, when --cgroup or the config asks for it: planned before
 * anything is measured, so that a parent that does not exist costs nothing.
 * Rootless without a delegated cgroup it is unavailable: said once (even with
 * -q), and the run goes on without it.
 */
static int plan_cgroup(const struct st_run_opts *o, const struct st_oci *oci, struct st_session *s,
		       struct st_cgroup *cg, struct st_cgroup **out, struct st_error *err)
{
	struct st_cgroup_spec spec = oci->cgroup;
	struct st_error why = { 0 };
	char line[2 * ST_ERROR_MSG_MAX];

	*out = NULL;
	spec.enabled |= o->cgroup;
	spec.parent = o->cgroup_parent;
	/*
	 * A container outlives create: its cgroup is named for it, as runc's,
	 * never sandboxtime-<pid> (whose pid, create's, is soon dead, which
	 * would let `cleanup` take a live container's cgroup).
	 */
	if (!spec.path && o->container_cgroup)
		spec.path = o->container_cgroup;
	if (!spec.enabled)
		return 0;
	if (st_cgroup_plan(&spec, cg, &why) == 0) {
		*out = cg;
		return 0;
	}
	if (!s->report.host.rootless) {
		*err = why;
		return -why.errnum;
	}
	st_error_format(&why, line, sizeof(line));
	/* Even with -q: the limits the config asked for are not there. */
	fprintf(stderr, "sandboxtime: warning: cgroup layer unavailable: %s\n", line);
	st_report_add_error(&s->report, "cgroup layer unavailable: %s", line);
	return 0;
}

/* The sandbox to build: the options, the config file's process, the decided layers and wiring. */
static void sandbox_config(const struct st_run_opts *o, const struct st_oci *oci,
			   const struct st_session *s, const struct st_net_plan *net,
			   struct st_sandbox_config *cfg)
{
	cfg->rootless = s->report.host.rootless;
	/* An engine's bundle without a hostname keeps the one the uts namespace copied, as with runc. */
	cfg->hostname = o->hostname ? o->hostname : o->oci_runtime ? NULL : ST_DEFAULT_HOSTNAME;
	cfg->no_init = o->no_init;
	cfg->kill_after_ms = o->kill_after_s * 1000u;
	cfg->exec.argv = o->argv;
	cfg->exec.envp = oci->env;
	cfg->exec.cwd = oci->cwd;
	cfg->exec.process = oci->process;
	cfg->sysctl = oci->sysctl;
	cfg->nsysctl = oci->nsysctl;
	cfg->map_single = oci->has_maps;
	/* The config's namespaces, joined ones included, unless --ns said which. */
	if (!(o->given & ST_GIVEN_NS)) {
		cfg->joins = oci->joins;
		cfg->njoins = oci->njoins;
	}
	cfg->mask = s->report.mask;
	cfg->net = net;
	cfg->mounts = &oci->mounts;
}

/* What the run did goes into the report, and what it may have left behind to stderr too. */
static void record_run(struct st_session *s, const struct st_run_opts *o, const struct st_steps *steps,
		       const struct st_workload *w, const struct st_net_plan *net,
		       const struct st_hardening *harden, const struct st_cgroup *cgroup)
{
	s->report.steps = steps;
	s->report.workload = w;
	s->report.net = net;
	s->report.harden = harden;
	s->report.cgroup_run = cgroup;
	if (w->killed_after_grace)
		st_report_add_error(&s->report, "the sandbox outlived --kill-after=%u s after a terminating signal and was killed",
				    o->kill_after_s);
	if (w->teardown_error[0]) {
		/* Something we made may have outlived us: say so even with -q. */
		fprintf(stderr, "sandboxtime: warning: %s\n", w->teardown_error);
		st_report_add_error(&s->report, "%s", w->teardown_error);
	}
}

/*
 * create's sandbox is made: the container waits for start. What the runtime
 * keeps of it: its pid, the steps, its cgroup (which delete removes), and the
 * report's security section. The cgroup marker goes: the runtime's state
 * directory records the cgroup now, and the marker, named for this process,
 * would let `cleanup` remove a live container's cgroup once create has exited.
 */
static void hand_over(struct st_session *s, const struct st_steps *steps, const struct st_workload *w,
		      const struct st_sandbox_config *cfg, struct st_created *out)
{
	out->pid = w->held_pid;
	out->steps = *steps;
	if (cfg->cgroup) {
		out->cgroup = *cfg->cgroup;
		out->has_cgroup = 1;
		st_cgroup_marker_remove();
	}
	out->security = st_run_security_json(&cfg->exec.harden,
					     !!(s->report.mask & ST_LAYER_BIT(ST_LAYER_USER)));
}

/*
 * Builds and runs the one real sandbox. Not probed yet (--repeat=0): when the
 * clone fails, find which layer failed, and why, and try again without the
 * ones that came from "all" and are unavailable; the first @keep_steps steps
 * (seccomp_compile) stay, the failed attempt's go.
 */
static int run_sandbox(struct st_session *s, struct st_sandbox_config *cfg, int probed,
		       size_t keep_steps, struct st_steps *steps, struct st_workload *w,
		       struct st_error *err)
{
	struct st_error clone_err;
	int ret = st_sandbox_run(cfg, steps, w, err);

	if (ret == 0 || !w->clone_errno || probed)
		return ret;
	clone_err = *err;
	ret = st_session_probe_layers(s, err);
	if (ret < 0)
		return ret;
	if (s->report.mask == cfg->mask) {
		*err = clone_err;
		return -clone_err.errnum;
	}
	cfg->mask = s->report.mask;
	steps->n = keep_steps;
	return st_sandbox_run(cfg, steps, w, err);
}

/*
 * The run, and the OCI runtime's create (@hold, @created: then the sandbox is
 * built the same way, but its process waits at the gate for start, and what
 * create must keep is handed to @created instead of a report).
 */
static int build_and_run(const struct st_run_opts *cli, const struct st_output *output,
			 const struct st_exec_hold *hold, struct st_created *created, int *exit_code,
			 struct st_error *err)
{
	struct st_oci oci __attribute__((cleanup(st_oci_free))) = { .args = NULL };
	struct st_report notes = { .nerrors = 0 };
	struct st_run_opts eff;
	const struct st_run_opts *o = &eff;
	struct st_session s __attribute__((cleanup(st_session_end))) = { .output = NULL };
	struct st_sandbox_config cfg = { 0 };
	struct st_steps steps = { 0 };
	struct st_net_plan net __attribute__((cleanup(st_net_plan_release))) = { .join_fd = -1 };
	struct st_seccomp sc __attribute__((cleanup(st_seccomp_free))) = { .prog = NULL };
	struct st_net_steps net_steps __attribute__((cleanup(st_net_steps_free))) = { .n = 0 };
	struct st_cgroup cgroup = { .v2_fd = -1 };
	struct st_workload w;
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	ret = apply_config(cli, &oci, &eff, &notes, err);
	if (ret < 0)
		return ret;
	ret = st_session_prepare(&s, output, &o->measure, err);
	st_session_describe_run(&s, o, 1);
	if (ret == 0)
		ret = check_config_layers(o, &oci, &s, err);
	for (size_t i = 0; i < notes.nerrors; i++)
		st_report_add_error(&s.report, "%s", notes.errors[i]);
	/* Names and addresses are checked before measuring, so bad input costs nothing. */
	if (ret == 0)
		ret = st_net_plan(&o->net, s.report.host.rootless, &net, err);
	if (ret == 0)
		ret = plan_cgroup(o, &oci, &s, &cgroup, &cfg.cgroup, err);
	if (ret == 0)
		ret = prepare_hardening(o, &oci, &cfg.exec.harden, &sc, &steps, &s.report, err);
	/*
	 * Rootless without a user namespace the workload has no capability to
	 * keep; and without no_new_privs the kernel would refuse its filter
	 * (that takes CAP_SYS_ADMIN): say so now, not after measuring.
	 */
	if (ret == 0 && s.report.host.rootless && !(s.report.mask & ST_LAYER_BIT(ST_LAYER_USER))) {
		cfg.exec.harden.caps = 0;
		if (!o->no_new_privs && sc.prog)
			ret = st_error_usage(err, "--no-new-privileges=false with a seccomp filter needs CAP_SYS_ADMIN, which a rootless run has only in a user namespace: add user to --ns, or --seccomp=none");
	}
	/* --repeat=0: no calibration, only the one real sandbox. */
	if (ret == 0 && o->measure.repeat > 0)
		ret = st_session_measure(&s, err);
	if (ret == 0 && o->net_steps_repeat) {
		ret = st_net_steps_measure(net.mode, net.mtu, net.ipv6, net.batch, o->net_steps_repeat, s.report.host.rootless,
					   &net_steps, err);
		s.report.net_steps = &net_steps;
	}
	if (ret < 0) {
		*exit_code = st_session_failure_code(&s);
		return ret;
	}

	sandbox_config(o, &oci, &s, &net, &cfg);
	if (hold)
		cfg.exec.hold = *hold;
	ret = run_sandbox(&s, &cfg, o->measure.repeat > 0, sc.prog ? 1 : 0, &steps, &w, err);
	if (ret < 0) {
		if (w.exec_errno)
			*exit_code = w.exit_code;
		return ret;
	}
	if (hold) {
		hand_over(&s, &steps, &w, &cfg, created);
		*exit_code = ST_EXIT_OK;
		return 0;
	}
	record_run(&s, o, &steps, &w, &net, &cfg.exec.harden, cfg.cgroup);
	ret = st_session_report(&s, err);
	/* The workload's status wins: a lost report must not hide its failure. */
	*exit_code = ret < 0 && w.exit_code == 0 ? ST_EXIT_FAILURE : w.exit_code;
	return ret;
}

int st_cmd_run(const struct st_run_opts *cli, const struct st_output *output, int *exit_code,
	       struct st_error *err)
{
	return build_and_run(cli, output, NULL, NULL, exit_code, err);
}

int st_cmd_create(const struct st_run_opts *cli, const struct st_exec_hold *hold, struct st_created *out,
		  struct st_error *err)
{
	struct st_output quiet = { .quiet = 1, .format = ST_FORMAT_TABLE, .cpu = -1 };
	int code;

	memset(out, 0, sizeof(*out));
	return build_and_run(cli, &quiet, hold, out, &code, err);
}
