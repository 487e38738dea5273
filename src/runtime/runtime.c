// SPDX-License-Identifier: MIT
/*
 * runc's commands (create, start, state, kill, delete, run, ps, features;
 * exec is runtime_exec.c) over the container records of runtime_state.c.
 * create builds the container with the run's own code (st_cmd_create: the
 * same namespaces, mounts, cgroup, id maps and hardening, each a timed
 * step) up to the exec, where the process waits for start; every operation
 * appends its timed steps to --report.
 */
#include <fcntl.h>
#include <limits.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/cmd.h"
#include "sandboxtime/runtime.h"
#include "sandboxtime/runtime_args.h"
#include "sandboxtime/runtime_console.h"
#include "sandboxtime/runtime_ops.h"
#include "sandboxtime/sandbox_channel.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"
#include "sandboxtime/version.h"

/* The options of create and run (run adds --detach). */
struct create_args {
	const char *bundle, *pid_file, *console_socket;
	int no_pivot, no_new_keyring, preserve_fds, detach;
};

/* What create reads of the bundle before the run's own parse: terminal, hooks, annotations. */
struct bundle_facts {
	int terminal;
	json_t *hooks;
	json_t *annotations;
};

static int read_bundle(const char *config, struct bundle_facts *b, struct st_error *err)
{
	json_auto_t *doc = NULL;
	json_error_t jerr;
	json_t *v;

	doc = json_load_file(config, 0, &jerr);
	if (!doc)
		return st_error_usage(err, "%s: %s", config, jerr.text);
	b->terminal = json_is_true(json_object_get(json_object_get(doc, "process"), "terminal"));
	if ((v = json_object_get(doc, "hooks"))) {
		int ret = st_rt_hooks_check(v, config, err);

		if (ret < 0)
			return ret;
		b->hooks = json_incref(v);
	}
	v = json_object_get(doc, "annotations");
	b->annotations = json_is_object(v) ? json_incref(v) : NULL;
	return 0;
}

/* Undoes a create that failed: the process, its cgroups, the record. */
static void undo_create(struct st_rt_state *s)
{
	struct st_error ignored = { 0 };

	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
	}
	for (size_t i = 0; i < s->ncgroup; i++)
		st_cgroup_rmdir_tree(s->cgroup_dirs[i], &ignored);
	st_rt_state_remove(s, &ignored);
}

static void keep_cgroup(struct st_rt_state *s, const struct st_created *c)
{
	if (!c->has_cgroup)
		return;
	for (size_t i = 0; i < c->cgroup.n && s->ncgroup < ST_CG_MAX_DIRS; i++)
		if (c->cgroup.dir[i].made)
			snprintf(s->cgroup_dirs[s->ncgroup++], ST_CG_PATH_MAX, "%s", c->cgroup.dir[i].path);
	closep((int *)&c->cgroup.v2_fd);
}

/* The run's options for a bundle: its config decides; nothing measured, only built. */
static void create_opts(struct st_opts *o, const char *config, int no_pivot, const char *cgroup)
{
	st_cli_defaults(o);
	o->run.container_cgroup = cgroup;
	o->run.config = config;
	o->run.oci_runtime = 1;
	o->run.no_pivot = no_pivot;
	o->run.measure.repeat = 0;
	o->run.measure.deferred_repeat = 0;
	/* The engine made the network namespace, or none: nothing is wired. */
	o->run.net.mode = ST_NET_NONE;
}

/*
 * create: the record first (so that delete --force finds what a killed
 * create left), the exec fifo, the console, then the container, waiting
 * for start; its pid into the record and --pid-file; then the hooks that
 * run before start.
 */
static int do_create(struct st_rt_global *g, const char *id, const struct create_args *a, struct st_rt_state *s,
		     struct st_steps *steps, json_t **security, struct st_error *err)
{
	struct bundle_facts b = { 0 };
	struct st_exec_hold hold = { .on = 1, .gate_fd = -1, .console_sock = -1 };
	_cleanup_close_ int gate = -1, console = -1;
	struct st_created c;
	struct st_opts o;
	char config[PATH_MAX + 16], fifo[4200], cgroup[ST_RT_ID_MAX + 2];
	int ret;

	ret = st_rt_state_new(g, id, s, err);
	if (ret < 0)
		return ret;
	if (!realpath(a->bundle ? a->bundle : ".", s->bundle))
		return st_error_set(err, errno, "--bundle: %s", a->bundle ? a->bundle : ".");
	snprintf(config, sizeof(config), "%s/config.json", s->bundle);
	ret = read_bundle(config, &b, err);
	s->hooks = b.hooks;
	s->annotations = b.annotations;
	if (ret == 0)
		ret = st_rt_state_save(s, err);
	if (ret < 0)
		return ret;
	st_rt_fifo_path(s, fifo, sizeof(fifo));
	if (mkfifo(fifo, 0622) < 0 || (gate = open(fifo, O_RDWR | O_CLOEXEC)) < 0)
		return st_error_set(err, errno, "exec fifo %s", fifo);
	if (b.terminal) {
		ret = st_rt_console_connect(a->console_socket, &console, err);
		if (ret < 0)
			return ret;
	}
	hold.gate_fd = gate;
	hold.has_console = b.terminal;
	hold.console_sock = console;
	hold.preserve_fds = a->preserve_fds;
	snprintf(cgroup, sizeof(cgroup), "/%s", id);
	create_opts(&o, config, a->no_pivot, cgroup);
	ret = st_cmd_create(&o.run, &hold, &c, err);
	if (ret < 0)
		return ret;
	s->pid = c.pid;
	s->start_ticks = st_rt_pid_start(c.pid);
	*steps = c.steps;
	*security = c.security;
	keep_cgroup(s, &c);
	ret = st_rt_state_save(s, err);
	if (ret == 0)
		ret = (a->pid_file ? st_rt_write_pid_file(a->pid_file, s->pid, err) : 0);
	if (ret == 0)
		ret = st_rt_hooks_run(s, "prestart", steps, err);
	if (ret == 0)
		ret = st_rt_hooks_run(s, "createRuntime", steps, err);
	if (ret == 0)
		ret = st_rt_hooks_run(s, "createContainer", steps, err);
	return ret;
}

static const struct st_rt_flag *create_flags(struct create_args *a, int with_detach)
{
	static struct st_rt_flag f[10];
	size_t n = 0;

	f[n++] = (struct st_rt_flag)ST_RT_FLAG_STR("bundle", 'b', &a->bundle);
	f[n++] = (struct st_rt_flag)ST_RT_FLAG_STR("pid-file", 0, &a->pid_file);
	f[n++] = (struct st_rt_flag)ST_RT_FLAG_STR("console-socket", 0, &a->console_socket);
	f[n++] = (struct st_rt_flag)ST_RT_FLAG_BOOL("no-pivot", 0, &a->no_pivot);
	f[n++] = (struct st_rt_flag)ST_RT_FLAG_BOOL("no-new-keyring", 0, &a->no_new_keyring);
	f[n++] = (struct st_rt_flag)ST_RT_FLAG_INT("preserve-fds", 0, &a->preserve_fds);
	if (with_detach)
		f[n++] = (struct st_rt_flag)ST_RT_FLAG_BOOL("detach", 'd', &a->detach);
	f[n] = (struct st_rt_flag){ .name = NULL };
	return f;
}

/* The one positional argument of most commands: the container's id. */
static int take_id(const char *cmd, int argc, char **argv, int *next, const char **id, struct st_error *err)
{
	if (*next >= argc)
		return st_error_usage(err, "%s: requires a container id (\"sandboxtime %s [flags] <container-id>\")", cmd, cmd);
	*id = argv[(*next)++];
	return st_rt_id_check(*id, err);
}

static int cmd_create(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	struct create_args a = { 0 };
	struct st_rt_state s = { .dir_fd = -1 };
	struct st_steps steps = { 0 };
	json_t *security = NULL;
	const char *id = NULL;
	int next = 1, ret;

	ret = st_rt_parse_flags("create", create_flags(&a, 0), argc, argv, &next, err);
	if (ret == 0)
		ret = take_id("create", argc, argv, &next, &id, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret < 0)
		return ret;
	ret = do_create(g, id, &a, &s, &steps, &security, err);
	if (ret < 0 && err->errnum != EEXIST)
		undo_create(&s);
	if (ret == 0)
		ret = st_rt_report(g, &s, "create", &steps, json_pack("{s:o?}", "security", security), err);
	else
		json_decref(security);
	st_rt_state_close(&s);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}

/* start's work on an open record: release the process at the exec fifo. */
static int do_start(struct st_rt_state *s, struct st_steps *steps, struct st_error *err)
{
	enum st_rt_status st = st_rt_status(s);
	char fifo[4200];
	uint64_t t0;
	int fd, ret;

	if (st != ST_RT_CREATED)
		return st_error_set(err, EINVAL, "cannot start a container that is %s: %s",
				    st_rt_status_names[st], s->id);
	ret = st_rt_hooks_run(s, "startContainer", steps, err);
	if (ret < 0)
		return ret;
	st_rt_fifo_path(s, fifo, sizeof(fifo));
	t0 = st_now_ns();
	/* Non-blocking: the process holds the fifo's reading end; ENXIO means it is gone. */
	fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return st_error_set(err, errno == ENXIO ? ESRCH : errno, "cannot start container %s: its process is gone", s->id);
	ret = write(fd, "0", 1) == 1 ? 0 : st_error_set(err, errno, "container %s: exec fifo", s->id);
	close(fd);
	unlink(fifo);
	if (ret < 0)
		return ret;
	st_steps_add(steps, "exec_release", st_now_ns() - t0);
	/* poststart: a failure is a warning, the container runs (runtime-spec). */
	if (st_rt_hooks_run(s, "poststart", steps, err) < 0) {
		fprintf(stderr, "sandboxtime: warning: %s\n", err->msg);
		st_error_clear(err);
	}
	return 0;
}

static int cmd_start(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	static const struct st_rt_flag none[] = { { .name = NULL } };
	struct st_rt_state s = { .dir_fd = -1 };
	struct st_steps steps = { 0 };
	const char *id = NULL;
	int next = 1, ret;

	ret = st_rt_parse_flags("start", none, argc, argv, &next, err);
	if (ret == 0)
		ret = take_id("start", argc, argv, &next, &id, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret == 0)
		ret = st_rt_state_open(g, id, &s, err);
	if (ret == 0)
		ret = do_start(&s, &steps, err);
	if (ret == 0)
		ret = st_rt_report(g, &s, "start", &steps, NULL, err);
	st_rt_state_close(&s);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}

static int cmd_state(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	static const struct st_rt_flag none[] = { { .name = NULL } };
	struct st_rt_state s = { .dir_fd = -1 };
	const char *id = NULL;
	int next = 1, ret;

	ret = st_rt_parse_flags("state", none, argc, argv, &next, err);
	if (ret == 0)
		ret = take_id("state", argc, argv, &next, &id, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret == 0)
		ret = st_rt_state_open(g, id, &s, err);
	if (ret == 0) {
		json_auto_t *doc = st_rt_state_json(&s);

		ret = json_dumpf(doc, stdout, JSON_INDENT(2)) == 0 ? 0 : st_error_set(err, EIO, "state: stdout");
		putchar('\n');
	}
	st_rt_state_close(&s);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}

static int cmd_kill(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	struct st_rt_state s = { .dir_fd = -1 };
	int all = 0, next = 1, sig = SIGTERM, ret;
	const struct st_rt_flag flags[] = { ST_RT_FLAG_BOOL("all", 'a', &all), { .name = NULL } };
	const char *id = NULL;

	ret = st_rt_parse_flags("kill", flags, argc, argv, &next, err);
	if (ret == 0)
		ret = take_id("kill", argc, argv, &next, &id, err);
	if (ret == 0 && next < argc)
		ret = st_rt_signal_parse(argv[next], &sig, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret == 0)
		ret = st_rt_state_open(g, id, &s, err);
	if (ret == 0)
		ret = st_rt_kill(&s, sig, all, err);
	st_rt_state_close(&s);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}

/* delete's work on an open record: the process (forced), the cgroups, poststop, the record. */
static int do_delete(struct st_rt_state *s, int force, struct st_steps *steps, struct st_error *err)
{
	enum st_rt_status st = st_rt_status(s);
	uint64_t t0;
	int ret;

	if (st == ST_RT_RUNNING && !force)
		return st_error_set(err, EBUSY, "cannot delete container %s that is not stopped: running", s->id);
	if (st == ST_RT_RUNNING || st == ST_RT_CREATED) {
		t0 = st_now_ns();
		ret = st_rt_kill(s, SIGKILL, 1, err);
		if (ret == 0)
			ret = st_rt_wait_gone(s, 10000, err);
		if (ret < 0)
			return ret;
		st_steps_add(steps, "kill_wait", st_now_ns() - t0);
	}
	t0 = st_now_ns();
	for (size_t i = 0; i < s->ncgroup; i++) {
		ret = st_cgroup_rmdir_tree(s->cgroup_dirs[i], err);
		if (ret < 0)
			return ret;
	}
	if (s->ncgroup)
		st_steps_add(steps, "cgroup_rmdir", st_now_ns() - t0);
	/* poststop: a failure is a warning, the container is gone all the same. */
	if (st_rt_hooks_run(s, "poststop", steps, err) < 0) {
		fprintf(stderr, "sandboxtime: warning: %s\n", err->msg);
		st_error_clear(err);
	}
	t0 = st_now_ns();
	ret = st_rt_state_remove(s, err);
	if (ret == 0)
		st_steps_add(steps, "state_remove", st_now_ns() - t0);
	return ret;
}

static int cmd_delete(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	struct st_rt_state s = { .dir_fd = -1 };
	struct st_steps steps = { 0 };
	int force = 0, next = 1, ret;
	const struct st_rt_flag flags[] = { ST_RT_FLAG_BOOL("force", 'f', &force), { .name = NULL } };
	const char *id = NULL;

	ret = st_rt_parse_flags("delete", flags, argc, argv, &next, err);
	if (ret == 0)
		ret = take_id("delete", argc, argv, &next, &id, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret == 0)
		ret = st_rt_state_open(g, id, &s, err);
	/* As runc: forcing the delete of a container that is not there is no error. */
	if (ret < 0 && force && err->errnum == ENOENT) {
		st_error_clear(err);
		*code = ST_EXIT_OK;
		return 0;
	}
	if (ret == 0)
		ret = do_delete(&s, force, &steps, err);
	if (ret == 0)
		ret = st_rt_report(g, &s, "delete", &steps, NULL, err);
	st_rt_state_close(&s);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}

/*
 * run: create and start; without --detach it waits for the container (our
 * child: create cloned it), passes signals on, takes its exit status as
 * its own, and deletes it.
 */
static int cmd_run(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	struct create_args a = { 0 };
	struct st_rt_state s = { .dir_fd = -1 };
	struct st_steps steps = { 0 }, more = { 0 };
	json_t *security = NULL;
	struct rusage ru;
	const char *id = NULL;
	int next = 1, status = 0, killed = 0, ret;

	*code = ST_EXIT_FAILURE;
	ret = st_rt_parse_flags("run", create_flags(&a, 1), argc, argv, &next, err);
	if (ret == 0)
		ret = take_id("run", argc, argv, &next, &id, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret < 0)
		return ret;
	ret = do_create(g, id, &a, &s, &steps, &security, err);
	if (ret == 0)
		ret = do_start(&s, &steps, err);
	if (ret < 0) {
		if (err->errnum != EEXIST)
			undo_create(&s);
		json_decref(security);
		st_rt_state_close(&s);
		return ret;
	}
	if (a.detach) {
		ret = st_rt_report(g, &s, "run", &steps, json_pack("{s:o?}", "security", security), err);
		st_rt_state_close(&s);
		*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
		return ret;
	}
	/* Others may kill or exec meanwhile: the lock goes while we wait, and comes back for the delete. */
	closep(&s.dir_fd);
	ret = st_sandbox_wait(s.pid, 0, &status, &ru, &killed, err);
	if (ret == 0)
		*code = st_status_to_exit(status);
	if (ret == 0)
		ret = st_rt_state_lock(&s, err);
	if (ret == 0)
		ret = do_delete(&s, 1, &more, err);
	st_steps_append(&steps, &more);
	if (ret == 0)
		ret = st_rt_report(g, &s, "run", &steps,
				   json_pack("{s:o?,s:i}", "security", security, "exit_code", *code), err);
	else
		json_decref(security);
	st_rt_state_close(&s);
	return ret;
}

static int cmd_ps(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	struct st_rt_state s = { .dir_fd = -1 };
	const char *format = "table", *id = NULL;
	const struct st_rt_flag flags[] = { ST_RT_FLAG_STR("format", 'f', &format), { .name = NULL } };
	int next = 1, ret;

	ret = st_rt_parse_flags("ps", flags, argc, argv, &next, err);
	if (ret == 0 && strcmp(format, "table") && strcmp(format, "json"))
		ret = st_error_usage(err, "ps: --format: '%s' (table or json)", format);
	if (ret == 0)
		ret = take_id("ps", argc, argv, &next, &id, err);
	if (ret == 0)
		ret = st_rt_root(g, err);
	if (ret == 0)
		ret = st_rt_state_open(g, id, &s, err);
	if (ret == 0)
		ret = st_rt_ps(&s, strcmp(format, "json") == 0, stdout, err);
	st_rt_state_close(&s);
	*code = ret < 0 ? ST_EXIT_FAILURE : ST_EXIT_OK;
	return ret;
}

static int cmd_features(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err)
{
	json_auto_t *doc = st_rt_features();

	*code = ST_EXIT_OK;
	if (json_dumpf(doc, stdout, JSON_INDENT(2)) < 0)
		return st_error_set(err, EIO, "features: stdout");
	putchar('\n');
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct st_rt_global *g, int argc, char **argv, int *code, struct st_error *err);
} commands[] = {
	{ "create", cmd_create }, { "start", cmd_start }, { "state", cmd_state },	{ "kill", cmd_kill },
	{ "delete", cmd_delete }, { "run", cmd_run },	  { "exec", st_rt_cmd_exec }, { "ps", cmd_ps },
	{ "features", cmd_features }, { "report", st_rt_cmd_report },
};

/*
 * The runtime's own config file, for what an engine cannot pass on every
 * call: podman deletes a --rm container from a cleanup process that does
 * not get --runtime-flag, and containerd's shim passes no extra flag at
 * all. /etc/sandboxtime/runtime.conf as root, else
 * $XDG_CONFIG_HOME/sandboxtime/runtime.conf (~/.config): "report = FILE"
 * lines ("#" comments); --report on the command line wins.
 */
static void read_config(struct st_rt_global *g)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char path[512], line[512];
	FILE *f;

	if (st_rt_host_root())
		snprintf(path, sizeof(path), "/etc/sandboxtime/runtime.conf");
	else if (xdg && xdg[0] == '/')
		snprintf(path, sizeof(path), "%s/sandboxtime/runtime.conf", xdg);
	else if (home && home[0] == '/')
		snprintf(path, sizeof(path), "%s/.config/sandboxtime/runtime.conf", home);
	else
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char value[sizeof(line)];

		if (sscanf(line, " report = %511[^\n#]", value) == 1) {
			value[strcspn(value, " \t")] = '\0';
			snprintf(g->report_buf, sizeof(g->report_buf), "%s", value);
			g->report = g->report_buf;
		}
	}
	fclose(f);
}

/* The global flags: runc's (--root, --log, --log-format, --debug, --systemd-cgroup), and --report. */
static int global_flags(struct st_rt_global *g, int argc, char **argv, int *next, struct st_error *err)
{
	const char *log_format = "text";
	int rootless_ignored = 0;
	const char *criu_ignored = NULL, *rootless_value = NULL;
	const struct st_rt_flag flags[] = {
		ST_RT_FLAG_STR("root", 0, &g->root),
		ST_RT_FLAG_STR("log", 0, &g->log),
		ST_RT_FLAG_STR("log-format", 0, &log_format),
		ST_RT_FLAG_BOOL("debug", 0, &g->debug),
		ST_RT_FLAG_BOOL("systemd-cgroup", 0, &g->systemd_cgroup),
		ST_RT_FLAG_STR("report", 0, &g->report),
		ST_RT_FLAG_STR("criu", 0, &criu_ignored),
		ST_RT_FLAG_STR("rootless", 0, &rootless_value),
		ST_RT_FLAG_BOOL("no-subreaper", 0, &rootless_ignored),
		{ .name = NULL },
	};
	int ret = st_rt_parse_flags("sandboxtime", flags, argc, argv, next, err);

	if (ret < 0)
		return ret;
	if (strcmp(log_format, "text") && strcmp(log_format, "json"))
		return st_error_usage(err, "--log-format: '%s' (text or json)", log_format);
	g->log_json = strcmp(log_format, "json") == 0;
	if (!g->report)
		read_config(g);
	if (g->systemd_cgroup)
		return st_error_usage(err, "--systemd-cgroup: sandboxtime manages cgroups itself (cgroupfs): "
				      "configure the engine with cgroup_manager = \"cgroupfs\" (podman) or SystemdCgroup = false (containerd)");
	return 0;
}

int st_runtime_argv(int argc, char **argv)
{
	struct st_rt_global g = { 0 };
	struct st_error err = { 0 };
	int next = 1;

	if (global_flags(&g, argc, argv, &next, &err) < 0 && !g.systemd_cgroup)
		return 0;
	for (size_t i = 0; next < argc && i < ARRAY_SIZE(commands); i++)
		if (strcmp(argv[next], commands[i].name) == 0)
			return 1;
	return 0;
}

int st_runtime_main(int argc, char **argv, struct st_rt_global *g, int *code, struct st_error *err)
{
	int next = 1, ret;

	*code = ST_RT_EXIT_ERROR;
	ret = global_flags(g, argc, argv, &next, err);
	for (size_t i = 0; ret == 0 && i < ARRAY_SIZE(commands); i++)
		if (next < argc && strcmp(argv[next], commands[i].name) == 0) {
			ret = commands[i].run(g, argc - next, argv + next, code, err);
			break;
		}
	/* runc's status for every error of the runtime itself: 1 (a container's own status passes through run and exec). */
	if (ret < 0 && *code == ST_EXIT_FAILURE)
		*code = ST_RT_EXIT_ERROR;
	return ret;
}

void st_runtime_log_error(const struct st_rt_global *g, const char *line)
{
	_cleanup_close_ int fd = -1;
	char stamp[40];
	struct timespec now;
	struct tm tm;

	fprintf(stderr, "sandboxtime: %s\n", line);
	if (!g->log)
		return;
	fd = open(g->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (g->log_json) {
		json_auto_t *doc = json_pack("{s:s,s:s,s:s}", "level", "error", "msg", line, "time", stamp);
		_cleanup_free_ char *text = json_dumps(doc, JSON_COMPACT);

		if (text)
			dprintf(fd, "%s\n", text);
	} else {
		dprintf(fd, "time=\"%s\" level=error msg=\"%s\"\n", stamp, line);
	}
}
