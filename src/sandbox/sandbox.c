// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/init.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/ns_mount.h"
#include "sandboxtime/ns_net.h"
#include "sandboxtime/ns_paths.h"
#include "sandboxtime/ns_user.h"
#include "sandboxtime/ns_uts.h"
#include "sandboxtime/sandbox.h"
#include "sandboxtime/sandbox_channel.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/sysctl.h"

/*
 * What the child reports once the sandbox is configured, before exec; when
 * rootless and wired, an fd to the namespace standing for the host rides
 * along (SCM_RIGHTS), so that sandboxtime holds it for the sandbox's life.
 */
struct setup_report {
	int failed;
	struct st_error err;
	struct st_steps steps;
};

/* Rootless: the outside end lives in a namespace we make to stand for the host. */
static int wire_simulated_host(const struct st_net_plan *p, struct st_steps *steps, int *outside_fd,
			       struct st_error *err)
{
	_cleanup_(st_nl_closep) struct st_nl *nl = NULL;
	_cleanup_close_ int own = -1;
	struct st_net_made made; /* dies with the outside namespace: nothing to delete */
	int ret;

	ret = ST_TIMED_STEP(steps, err, "netns_outside", st_net_make_outside_ns(outside_fd, &own, &nl, err));
	if (ret == 0)
		ret = st_net_setup_outside(nl, p, own, &made, steps, err);
	return ret;
}

/* The config's root and mounts: last, once nothing else needs the host's paths. */
static int wants_mounts(const struct st_mount_plan *p)
{
	return p && (p->root || p->n || p->readonly || p->masked || p->readonly_paths);
}

static int configure_inside(const struct st_sandbox_config *cfg, struct st_steps *steps,
			    int *outside_fd, struct st_error *err)
{
	unsigned int m = cfg->mask;
	int mount_ns = !!(m & ST_LAYER_BIT(ST_LAYER_MOUNT));
	int ret = 0;

	if ((m & ST_LAYER_BIT(ST_LAYER_UTS)) && cfg->hostname)
		ret = ST_TIMED_STEP(steps, err, "sethostname", st_ns_uts_set_hostname(cfg->hostname, err));
	if (ret == 0 && mount_ns)
		ret = ST_TIMED_STEP(steps, err, "mount_private", st_ns_mount_make_private(err));
	/*
	 * A fresh /proc only where it cannot hide the host's: own mounts and pids;
	 * not when the config mounts its own, or pivots away from this one.
	 */
	if (ret == 0 && mount_ns && (m & ST_LAYER_BIT(ST_LAYER_PID)) &&
	    !(cfg->mounts && (cfg->mounts->root || st_mount_plan_has_proc(cfg->mounts))))
		ret = ST_TIMED_STEP(steps, err, "mount_proc", st_ns_mount_proc(err));
	if (ret == 0 && (m & ST_LAYER_BIT(ST_LAYER_NET))) {
		if (st_net_wired(cfg->net->mode) && cfg->net->simulated_host)
			ret = wire_simulated_host(cfg->net, steps, outside_fd, err);
		if (ret == 0)
			ret = st_net_setup_inside(cfg->net, steps, err);
	}
	/* Checked by the caller: a plan comes only with a mount namespace. */
	if (ret == 0 && mount_ns && wants_mounts(cfg->mounts))
		ret = st_ns_mount_apply(cfg->mounts, steps, err);
	/* Before readonlyPaths, which makes /proc/sys read-only; as runc orders them. */
	if (ret == 0 && cfg->nsysctl)
		ret = ST_TIMED_STEP(steps, err, "sysctl", st_sysctl_apply(cfg->sysctl, cfg->nsysctl, err));
	if (ret == 0 && mount_ns && wants_mounts(cfg->mounts))
		ret = st_ns_paths_apply(cfg->mounts, steps, err);
	return ret;
}

static void _noreturn_ sandbox_child(const struct st_sandbox_config *cfg, struct st_channel *ch)
{
	struct setup_report rep;
	int outside_fd = -1;
	char go = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	closep(&ch->go_wr);
	closep(&ch->report_rd);
	closep(&ch->exec_rd);
	/* A byte means go; EOF alone means the parent died before it could say so. */
	if (TEMP_FAILURE_RETRY(read(ch->go_rd, &go, 1)) != 1)
		_exit(ST_EXIT_FAILURE);
	closep(&ch->go_rd);

	memset(&rep, 0, sizeof(rep));
	if (configure_inside(cfg, &rep.steps, &outside_fd, &rep.err) < 0)
		rep.failed = 1;
	if (st_channel_send(ch->report_wr, &rep, sizeof(rep), outside_fd) < 0 || rep.failed)
		_exit(ST_EXIT_FAILURE);
	/* sandboxtime holds the outside namespace now; ours must not leak into CMD. */
	closep(&outside_fd);
	/* A container's process is its own pid 1, as runc's: the engine's init, if any, is in its args. */
	if (cfg->no_init || cfg->exec.hold.on)
		st_exec_workload(&cfg->exec, ch->exec_wr);
	st_init_run(&cfg->exec, ch->exec_wr, ch->report_wr, !!(cfg->mask & ST_LAYER_BIT(ST_LAYER_PID)));
}

/* The parent's part of the user layer: the child's id maps. */
static int configure_user(const struct st_sandbox_config *cfg, pid_t pid, struct st_steps *steps,
			  struct st_error *err)
{
	/* A config's uidMappings/gidMappings (checked: 0 -> us, one id) map exactly that. */
	int identity = !cfg->rootless && !cfg->map_single;
	int ret = 0;

	if (!(cfg->mask & ST_LAYER_BIT(ST_LAYER_USER)))
		return 0;
	/* Unprivileged, gid_map may only be written once setgroups is denied. */
	if (cfg->rootless)
		ret = ST_TIMED_STEP(steps, err, "setgroups", st_ns_user_deny_setgroups(pid, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "uid_map", st_ns_user_write_uid_map(pid, geteuid(), identity, err));
	if (ret == 0)
		ret = ST_TIMED_STEP(steps, err, "gid_map", st_ns_user_write_gid_map(pid, getegid(), identity, err));
	return ret;
}

static int collect_result(const struct st_sandbox_config *cfg, struct st_channel *ch, pid_t pid,
			  uint64_t start, struct st_workload *w, struct st_error *err)
{
	struct st_init_report rep;
	struct rusage ru;
	int status, ret;

	ret = st_sandbox_wait(pid, cfg->kill_after_ms, &status, &ru, &w->killed_after_grace, err);
	if (ret < 0)
		return ret;
	if (cfg->no_init) {
		w->status = status;
		w->ru = ru;
		w->wall_ns = st_now_ns() - start;
	} else if (TEMP_FAILURE_RETRY(read(ch->report_rd, &rep, sizeof(rep))) == (ssize_t)sizeof(rep)) {
		w->status = rep.status;
		w->ru = rep.ru;
		w->wall_ns = rep.wall_ns;
	} else {
		/* The init itself died (killed from outside): report what killed it. */
		w->status = status;
		w->ru = ru;
		w->wall_ns = st_now_ns() - start;
	}
	w->exit_code = st_status_to_exit(w->status);
	return 0;
}

/*
 * The outside end of the wiring, owned here for the sandbox's whole life and
 * released on every path, after the sandbox has ended.
 */
struct outside {
	struct st_nl *nl;          /* root: a socket in the host's namespace */
	struct st_net_made made;   /* root: what we created there */
	int held_fd;      /* rootless: the namespace that stands for the host */
};

/* Root: the outside end goes into the host's own network namespace. */
static int wire_host(const struct st_sandbox_config *cfg, pid_t pid, struct outside *o,
		     struct st_steps *steps, struct st_error *err)
{
	_cleanup_close_ int sandbox_fd = -1;
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	sandbox_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (sandbox_fd < 0)
		return st_error_set(err, errno, "net: opening %s", path);
	ret = st_nl_open(&o->nl, err);
	if (ret < 0)
		return ret;
	return st_net_setup_outside(o->nl, cfg->net, sandbox_fd, &o->made, steps, err);
}

static void unwire(const struct st_sandbox_config *cfg, struct outside *o, struct st_steps *steps,
		   struct st_workload *w)
{
	struct st_error err = { 0 };

	if (o->nl && st_net_teardown_outside(o->nl, cfg->net, &o->made, steps, &err) < 0)
		st_error_format(&err, w->teardown_error, sizeof(w->teardown_error));
	if (o->nl)
		st_nl_close(o->nl);
	/* Rootless: the last reference; the simulated host and its links go with it. */
	closep(&o->held_fd);
}

/* A cgroup that could not be removed is a warning, as a link that could not be deleted. */
static void remove_cgroup(struct st_cgroup *cg, struct st_steps *steps, struct st_workload *w)
{
	struct st_error err = { 0 };

	if (st_cgroup_remove(cg, steps, &err) < 0 && !w->teardown_error[0]) {
		st_error_hint(&err, "sandboxtime cleanup removes it");
		st_error_format(&err, w->teardown_error, sizeof(w->teardown_error));
	}
}

/*
 * A container (exec.hold): configured, hardened, its command found, and now
 * waiting for start. EOF on the exec pipe says so; the process is then the
 * caller's to keep (w->held_pid), not waited for here.
 */
static int hold_container(struct st_channel *ch, pid_t *pid, struct st_workload *w, const char *cmd,
			  struct st_steps *steps, struct st_error *err)
{
	int ret = st_channel_check_exec(ch, w, cmd, steps, err);

	if (ret < 0)
		return ret;
	if (waitpid(*pid, NULL, WNOHANG) != 0)
		return st_error_set(err, ESRCH, "sandbox: the container's process died before start");
	w->held_pid = take_pid(pid);
	return 0;
}

/*
 * The clone, from inside the namespaces to join; *@pid is the child as soon
 * as it exists, so that the caller's cleanup ends it on any error after.
 */
static int clone_joined(const struct st_sandbox_config *cfg, struct st_channel *ch, pid_t *pid,
			struct st_steps *steps, struct st_workload *w, struct st_error *err)
{
	_cleanup_close_ int restore_net = -1;
	int restore_joined[ST_LAYER_COUNT];
	uint64_t t0;
	int ret;

	/*
	 * join: entering needs CAP_SYS_ADMIN over the target, which a child in
	 * a new user namespace no longer has; so we step in for the clone
	 * only, the child inherits it, and we step back out.
	 */
	if (cfg->net->mode == ST_NET_JOIN) {
		ret = st_net_enter_joined(cfg->net, &restore_net, steps, err);
		if (ret < 0)
			return ret;
	}
	ret = st_ns_join_enter(cfg->joins, cfg->njoins, restore_joined, steps, err);
	if (ret < 0) {
		st_ns_join_leave(cfg->joins, cfg->njoins, restore_joined, &(struct st_error){ 0 });
		st_net_leave_joined(&restore_net, &(struct st_error){ 0 });
		return ret;
	}
	t0 = st_now_ns();
	*pid = st_fault("clone", err);
	if (*pid == 0)
		*pid = st_clone3_cgroup(st_layer_flags(cfg->mask),
					cfg->cgroup && cfg->cgroup->into_clone ? cfg->cgroup->v2_fd : -1,
					err);
	if (*pid == 0)
		sandbox_child(cfg, ch);
	if (*pid > 0)
		st_steps_add(steps, "clone", st_now_ns() - t0);
	else
		w->clone_errno = err->errnum;
	ret = st_ns_join_leave(cfg->joins, cfg->njoins, restore_joined,
			       *pid < 0 ? &(struct st_error){ 0 } : err);
	if (st_net_leave_joined(&restore_net, *pid < 0 || ret < 0 ? &(struct st_error){ 0 } : err) < 0)
		ret = -err->errnum;
	if (*pid < 0)
		return st_error_wrap(err, "sandbox");
	return ret;
}

/* Before the child is released: nothing it does escapes the limits. */
static int configure_and_release(const struct st_sandbox_config *cfg, pid_t pid,
				 struct outside *o, struct st_channel *ch, struct st_steps *steps,
				 struct st_error *err)
{
	int ret = 0;

	if (cfg->cgroup)
		ret = st_cgroup_attach(cfg->cgroup, pid, steps, err);
	if (ret == 0)
		ret = configure_user(cfg, pid, steps, err);
	if (ret == 0 && (cfg->mask & ST_LAYER_BIT(ST_LAYER_NET)) && st_net_wired(cfg->net->mode) &&
	    !cfg->net->simulated_host)
		ret = wire_host(cfg, pid, o, steps, err);
	if (ret < 0)
		return ret;
	if (write(ch->go_wr, "g", 1) != 1)
		return st_error_set(err, errno, "sandbox: releasing the child");
	closep(&ch->go_wr);
	return 0;
}

static int run(const struct st_sandbox_config *cfg, int own_pid_ns, struct outside *o,
	       struct st_steps *steps,
	       struct st_workload *w, struct st_error *err)
{
	struct st_channel ch __attribute__((cleanup(st_channel_close)));
	_cleanup_pid_ pid_t pid = -1;
	struct setup_report rep;
	uint64_t start;
	int ret;

	ret = st_channel_open(&ch, err);
	if (ret < 0)
		return ret;
	/*
	 * Without a pid namespace nothing kills what the workload leaves
	 * behind when it or the init dies: as subreaper we inherit it, and end
	 * it below, on every path.
	 */
	if (!own_pid_ns && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return st_error_set(err, errno, "sandbox: becoming a subreaper");
	ret = clone_joined(cfg, &ch, &pid, steps, w, err);
	if (ret < 0)
		return ret;
	closep(&ch.go_rd);
	closep(&ch.report_wr);
	closep(&ch.exec_wr);
	ret = configure_and_release(cfg, pid, o, &ch, steps, err);
	if (ret < 0)
		return ret;
	start = st_now_ns();

	if (st_channel_recv(ch.report_rd, &rep, sizeof(rep), &o->held_fd) < 0)
		return st_error_set(err, EPROTO, "sandbox: the child died while configuring it");
	if (rep.failed) {
		*err = rep.err;
		return st_error_wrap(err, "sandbox");
	}
	st_steps_append(steps, &rep.steps);
	if (cfg->exec.hold.on)
		return hold_container(&ch, &pid, w, cfg->exec.argv[0], steps, err);

	/*
	 * With an init, the exec pipe is read once the sandbox has ended. The
	 * workload's process writes its hardening report, the filter's step
	 * and its exec status (EOF) into the pipe's buffer (3 kB of 64) without
	 * waiting for us; read as they came, they woke sandboxtime three times
	 * between the hardening and the exec, each wake-up paid by the
	 * workload's process on the launch's critical path (an IPI here: the
	 * report's write took 40 us traced, docs/bench-notes/24). Nothing is
	 * lost meanwhile: a signal for the sandbox waits in the init's
	 * signalfd until its vfork() returns at the exec, and a failure ends
	 * the workload's process, then the init, with the error in the pipe.
	 * Without an init the workload is our child and would take a forwarded
	 * signal before its exec: there the pipe is read first.
	 */
	if (cfg->no_init) {
		ret = st_channel_check_exec(&ch, w, cfg->exec.argv[0], steps, err);
		if (ret < 0)
			return ret;
	}
	ret = collect_result(cfg, &ch, pid, start, w, err);
	if (ret < 0)
		return ret;
	take_pid(&pid); /* reaped */
	if (!cfg->no_init)
		ret = st_channel_check_exec(&ch, w, cfg->exec.argv[0], steps, err);
	return ret;
}

int st_sandbox_run(const struct st_sandbox_config *cfg, struct st_steps *steps,
		   struct st_workload *w, struct st_error *err)
{
	struct outside o = { .nl = NULL, .made = { 0, 0 }, .held_fd = -1 };
	int own_pid_ns = !!(cfg->mask & ST_LAYER_BIT(ST_LAYER_PID));
	int ret;

	memset(w, 0, sizeof(*w));
	ret = cfg->cgroup ? st_cgroup_create(cfg->cgroup, steps, err) : 0;
	if (ret == 0)
		ret = run(cfg, own_pid_ns, &o, steps, w, err);
	unwire(cfg, &o, steps, w);
	/* A held container lives on, in its cgroup: delete ends both. */
	if (w->held_pid > 0)
		return ret;
	if (!own_pid_ns) {
		st_kill_children();
		prctl(PR_SET_CHILD_SUBREAPER, 0);
	}
	/* Last: a cgroup can go only once nothing lives in it. */
	if (cfg->cgroup)
		remove_cgroup(cfg->cgroup, steps, w);
	return ret;
}
