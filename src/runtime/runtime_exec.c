// SPDX-License-Identifier: MIT
/*
 * exec: a new process in a running container, as `podman exec` and
 * `kubectl exec` ask for it (conmon and the shim: --process FILE --detach
 * --pid-file P [--tty --console-socket S]). A child enters the container's
 * cgroups and namespaces (its user namespace first), then forks the
 * process, which is in the container's pid namespace; that one takes the
 * process.json's user, cwd, rlimits and capabilities and the container's
 * seccomp profile, as runc gives them, and execs. The runtime is a
 * subreaper, so the process comes back to it when the child that forked
 * it exits: waited for, or (--detach) left to the engine, whose subreaper
 * takes it when the runtime exits.
 */
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/init.h"
#include "sandboxtime/oci.h"
#include "sandboxtime/runtime_args.h"
#include "sandboxtime/runtime_console.h"
#include "sandboxtime/runtime_ops.h"
#include "sandboxtime/sandbox_channel.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

struct exec_args {
	const char *process, *console_socket, *pid_file, *cwd, *user;
	int tty, detach, no_new_privs, preserve_fds;
	struct st_rt_list env, caps;
	const char *ignored;
};

/* The namespaces to enter, user first (it gives the rights to enter the others), mount last. */
static const struct {
	const char *file;
	int flag;
} joined[] = {
	{ "user", CLONE_NEWUSER }, { "ipc", CLONE_NEWIPC },	  { "uts", CLONE_NEWUTS }, { "net", CLONE_NEWNET },
	{ "pid", CLONE_NEWPID },   { "cgroup", CLONE_NEWCGROUP }, { "time", CLONE_NEWTIME }, { "mnt", CLONE_NEWNS },
};

/* Opens the container's namespaces that are not ours (same inode: nothing to enter). */
static int open_namespaces(pid_t pid, int fds[], struct st_error *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(joined); i++) {
		char path[64], own[64];
		struct stat a, b;

		fds[i] = -1;
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid, joined[i].file);
		snprintf(own, sizeof(own), "/proc/self/ns/%s", joined[i].file);
		if (stat(path, &a) < 0) {
			if (errno == ENOENT)
				continue; /* a kernel without this namespace type */
			return st_error_set(err, errno, "exec: %s", path);
		}
		if (stat(own, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			continue;
		fds[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0)
			return st_error_set(err, errno, "exec: %s", path);
	}
	return 0;
}

/* The first child: into the cgroups and namespaces, then fork the process; its pid to @pid_wr. */
static void _noreturn_ enter_child(const struct st_rt_state *s, const int fds[], const struct st_exec_spec *spec,
				   int pid_wr, int exec_wr)
{
	struct st_exec_report rep;
	char self[16];
	pid_t pid;

	memset(&rep, 0, sizeof(rep));
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(self, sizeof(self), "%d", getpid());
	for (size_t i = 0; i < s->ncgroup && !rep.failed; i++) {
		char procs[ST_CG_PATH_MAX + 16];

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", s->cgroup_dirs[i]);
		if (st_write_file(procs, self) < 0)
			rep.failed = st_error_set(&rep.err, errno, "exec: joining %s", s->cgroup_dirs[i]) < 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(joined) && !rep.failed; i++)
		if (fds[i] >= 0 && setns(fds[i], joined[i].flag) < 0)
			rep.failed = st_error_set(&rep.err, errno, "exec: entering the container's %s namespace",
						  joined[i].file) < 0;
	if (rep.failed) {
		if (write(exec_wr, &rep, sizeof(rep)) < 0)
			_exit(ST_EXIT_FAILURE);
		_exit(ST_EXIT_FAILURE);
	}
	pid = fork();
	if (pid == 0) {
		closep(&pid_wr);
		st_exec_workload(spec, exec_wr);
	}
	if (write(pid_wr, &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
		_exit(ST_EXIT_FAILURE);
	_exit(pid > 0 ? 0 : ST_EXIT_FAILURE);
}

/* What the process is: process.json, or the command line's args over the container's own process. */
static int exec_process(const struct exec_args *a, int argc, char **argv, const struct st_oci *container,
			struct st_oci *p, struct st_error *err)
{
	json_auto_t *doc = NULL;
	json_error_t jerr;

	memset(p, 0, sizeof(*p));
	if (a->process) {
		doc = json_load_file(a->process, 0, &jerr);
		if (!doc)
			return st_error_usage(err, "exec: --process: %s: %s", a->process, jerr.text);
		return st_oci_read_process_runtime(doc, a->process, p, err);
	}
	if (argc < 1)
		return st_error_usage(err, "exec: a command, or --process FILE");
	p->args = calloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; p->args && i < argc; i++)
		p->args[i] = strdup(argv[i]);
	p->env = calloc((size_t)a->env.n + 64, sizeof(char *));
	if (!p->args || !p->env)
		return st_error_set(err, ENOMEM, "exec");
	for (size_t i = 0, n = 0; container->env && container->env[i] && n < 63; i++)
		p->env[n++] = strdup(container->env[i]);
	for (int i = 0, n = 0; i < a->env.n; i++) {
		while (p->env[n])
			n++;
		p->env[n] = strdup(a->env.v[i]);
	}
	p->cwd = strdup(a->cwd ? a->cwd : container->cwd ? container->cwd : "/");
	p->has_caps = container->has_caps;
	p->caps = container->caps;
	p->has_nnp = 1;
	p->nnp = a->no_new_privs || (container->has_nnp && container->nnp);
	p->process = container->process;
	if (a->user) {
		unsigned int uid, gid;
		int n = sscanf(a->user, "%u:%u", &uid, &gid);

		if (n < 1)
			return st_error_usage(err, "exec: --user: '%s' (UID[:GID])", a->user);
		p->process.has_user = 1;
		p->process.uid = uid;
		p->process.gid = n == 2 ? gid : 0;
		p->process.ngroups = 0;
	}
	return 0;
}

/* The container's config, for its seccomp profile and, with no --process, its process. */
static int load_container(const struct st_rt_state *s, struct st_oci *c, struct st_error *err)
{
	char config[PATH_MAX + 16];

	snprintf(config, sizeof(config), "%s/config.json", s->bundle);
	return st_oci_load_runtime(config, c, err);
}

static int compile_seccomp(const struct st_oci *c, uint64_t caps, struct st_seccomp *sc, struct st_error *err)
{
	_cleanup_free_ char *json = NULL;

	memset(sc, 0, sizeof(*sc));
	if (!c->seccomp)
		return 0;
	json = json_dumps(c->seccomp, JSON_COMPACT);
	if (!json)
		return st_error_set(err, ENOMEM, "exec: linux.seccomp");
	return st_seccomp_compile_json(json, strlen(json), "linux.seccomp", caps, sc, err);
}

/* The container to exec in (running or created), the process to start there and its filter. */
static int load_exec(struct st_rt_global *g, const struct exec_args *a, const char *id, int argc,
		     char **argv, struct st_rt_state *s, struct st_oci *c, struct st_oci *p,
		     struct st_seccomp *sc, struct st_steps *steps, struct st_error *err)
{
	int ret = st_rt_state_open(g, id, s, err);
	uint64_t t0;

	if (ret == 0 && st_rt_status(s) != ST_RT_RUNNING && st_rt_status(s) != ST_RT_CREATED)
		ret = st_error_set(err, ESRCH, "cannot exec in a stopped container: %s", id);
	if (ret == 0)
		ret = load_container(s, c, err);
	if (ret == 0)
		ret = exec_process(a, argc, argv, c, p, err);
	if (ret == 0 && !p->args)
		ret = st_error_usage(err, "exec: %s: no args", a->process);
	t0 = st_now_ns();
	if (ret == 0)
		ret = compile_seccomp(c, p->has_caps ? p->caps : 0, sc, err);
	if (ret == 0 && sc->prog)
		st_steps_add(steps, "seccomp_compile", st_now_ns() - t0);
	return ret;
}

static void spec_of(struct st_oci *p, struct st_seccomp *sc, int console, struct st_exec_spec *spec)
{
	spec->argv = p->args;
	spec->envp = p->env ? p->env : (char *[]){ NULL };
	spec->cwd = p->cwd ? p->cwd : "/";
	spec->process = p->process;
	spec->harden.caps = p->has_caps ? p->caps : 0;
	spec->harden.no_new_privs = p->has_nnp && p->nnp;
	spec->harden.seccomp = sc;
	spec->hold.has_console = console >= 0;
	spec->hold.console_sock = console;
}

/* Process @pid runs: its pid file, then its end unless --detach, and the report. */
static int wait_or_detach(struct st_rt_global *g, const struct exec_args *a, struct st_rt_state *s,
			  pid_t pid, struct st_steps *steps, int *code, struct st_error *err)
{
	int ret = a->pid_file ? st_rt_write_pid_file(a->pid_file, pid, err) : 0;

	/* Other commands on this container (kill) must not wait for the process to end. */
	st_rt_state_close(s);
	if (ret == 0 && !a->detach) {
		struct rusage ru;
		int status = 0, killed = 0;

		ret = st_sandbox_wait(pid, 0, &status, &ru, &killed, err);
		*code = ret == 0 ? st_status_to_exit(status) : ST_EXIT_FAILURE;
	} else {
		*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	}
	if (ret == 0)
		ret = st_rt_report(g, s, "exec", steps, json_pack("{s:i}", "pid", pid), err);
	return ret;
}

static int run_exec(struct st_rt_global *g, const struct exec_args *a, const char *id, int argc, char **argv,
		    int *code, struct st_error *err)
{
	struct st_rt_state s = { .dir_fd = -1 };
	struct st_oci c __attribute__((cleanup(st_oci_free))) = { .args = NULL };
	struct st_oci p __attribute__((cleanup(st_oci_free))) = { .args = NULL };
	struct st_seccomp sc __attribute__((cleanup(st_seccomp_free))) = { .prog = NULL };
	struct st_channel ch = { .go_rd = -1, .go_wr = -1, .report_rd = -1, .report_wr = -1, .exec_rd = -1, .exec_wr = -1 };
	struct st_exec_spec spec = { 0 };
	struct st_workload w = { 0 };
	struct st_steps steps = { 0 };
	_cleanup_close_ int pid_rd = -1, pid_wr = -1, console = -1;
	_cleanup_pid_ pid_t child = -1;
	int fds[ARRAY_SIZE(joined)], ret;
	pid_t pid = -1;
	uint64_t t0;

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		fds[i] = -1;
	ret = load_exec(g, a, id, argc, argv, &s, &c, &p, &sc, &steps, err);
	if (ret == 0 && (a->tty || p.terminal))
		ret = st_rt_console_connect(a->console_socket, &console, err);
	if (ret == 0)
		ret = open_namespaces(s.pid, fds, err);
	if (ret == 0)
		ret = st_pipe(&pid_rd, &pid_wr, "exec: pipe", err);
	if (ret == 0)
		ret = st_pipe(&ch.exec_rd, &ch.exec_wr, "exec: pipe", err);
	if (ret == 0 && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		ret = st_error_set(err, errno, "exec: becoming a subreaper");
	if (ret < 0)
		goto out;
	spec_of(&p, &sc, console, &spec);
	t0 = st_now_ns();
	child = fork();
	if (child < 0) {
		ret = st_error_set(err, errno, "exec: fork");
		goto out;
	}
	if (child == 0)
		enter_child(&s, fds, &spec, pid_wr, ch.exec_wr);
	closep(&pid_wr);
	closep(&ch.exec_wr);
	if (TEMP_FAILURE_RETRY(read(pid_rd, &pid, sizeof(pid))) != (ssize_t)sizeof(pid))
		pid = -1;
	waitpid(take_pid(&child), NULL, 0);
	ret = st_channel_check_exec(&ch, &w, p.args[0], &steps, err);
	if (ret == 0 && pid <= 0)
		ret = st_error_set(err, EPROTO, "exec: the process was not made");
	if (ret < 0) {
		*code = w.exit_code ? w.exit_code : ST_EXIT_FAILURE;
		if (pid > 0)
			waitpid(pid, NULL, 0);
		goto out;
	}
	st_steps_add(&steps, "exec", st_now_ns() - t0);
	ret = wait_or_detach(g, a, &s, pid, &steps, code, err);
out:
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		closep(&fds[i]);
	closep(&ch.exec_rd);
	closep(&ch.exec_wr);
	st_rt_state_close(&s);
	return ret;
}

int st_rt_cmd_exec(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	struct exec_args a = { 0 };
	const struct st_rt_flag flags[] = {
		ST_RT_FLAG_STR("process", 'p', &a.process),
		ST_RT_FLAG_BOOL("tty", 't', &a.tty),
		ST_RT_FLAG_STR("console-socket", 0, &a.console_socket),
		ST_RT_FLAG_BOOL("detach", 'd', &a.detach),
		ST_RT_FLAG_STR("pid-file", 0, &a.pid_file),
		ST_RT_FLAG_STR("cwd", 0, &a.cwd),
		ST_RT_FLAG_LIST("env", 'e', &a.env),
		ST_RT_FLAG_STR("user", 'u', &a.user),
		ST_RT_FLAG_LIST("cap", 'c', &a.caps),
		ST_RT_FLAG_BOOL("no-new-privs", 0, &a.no_new_privs),
		ST_RT_FLAG_INT("preserve-fds", 0, &a.preserve_fds),
		ST_RT_FLAG_STR("process-label", 0, &a.ignored),
		ST_RT_FLAG_STR("apparmor", 0, &a.ignored),
		ST_RT_FLAG_STR("cgroup", 0, &a.ignored),
		{ .name = NULL },
	};
	const char *id = NULL;
	int next = 1, ret;

	*code = ST_EXIT_FAILURE;
	ret = st_rt_parse_flags("exec", flags, argc, argv, &next, err);
	if (ret < 0)
		return ret;
	if (next >= argc)
		return st_error_usage(err, "exec: requires a container id (\"sandboxtime exec [flags] <container-id> [command]\")");
	id = argv[next++];
	ret = st_rt_id_check(id, err);
	if (ret == 0 && a.caps.n)
		ret = st_error_usage(err, "exec: --cap is not supported: give the capabilities in --process");
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret == 0)
		ret = run_exec(g, &a, id, argc - next, argv + next, code, err);
	return ret;
}
