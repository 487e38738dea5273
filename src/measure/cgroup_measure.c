// SPDX-License-Identifier: MIT
/*
 * The cgroup layer measured (issue 13.3): mkdir, limits, attach and rmdir,
 * each timed on its own, and the part the kernel finishes after rmdir.
 *
 * rmdir only kills the cgroup: its css is released after its percpu
 * reference drops (an RCU grace period later, css_release_work_fn) and freed
 * after another one (css_free_rwork_fn). Two counters make that visible
 * from user space: on v2, the parent's cgroup.stat nr_dying_descendants
 * counts the descendants removed but not yet released; on v1, /proc/cgroups
 * num_cgroups counts the hierarchy's cgroups until they are freed. The
 * samples live under a parent of our own (sandboxtime-PID), so the v2
 * counter sees only ours; num_cgroups is the whole hierarchy's, so another
 * job's mkdir or rmdir meanwhile can blur a v1 sample (the quietest
 * hierarchy is watched: pids, then cpu, then memory).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/cgroup_measure.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/signals.h"
#include "sandboxtime/util.h"

#define FREED_TIMEOUT_NS 1000000000ull

const struct st_cgm_info st_cgm_figures[ST_CGM_COUNT] = {
	[ST_CGM_MKDIR] = { "mkdir_us", "mkdir" },
	[ST_CGM_LIMITS] = { "limits_us", "limits" },
	[ST_CGM_ATTACH] = { "attach_us", "attach" },
	[ST_CGM_RMDIR] = { "rmdir_us", "rmdir" },
	[ST_CGM_FREED_V2] = { "released_v2_us", "released (v2)" },
	[ST_CGM_FREED_V1] = { "freed_v1_us", "freed (v1)" },
};

struct lab {
	struct st_cgroup parent; /* sandboxtime-PID in every hierarchy */
	const char *v2_dir;      /* the parent's unified directory, or NULL */
	const char *v1_ctrl;     /* the watched v1 controller, or NULL */
};

/* A plan with the limits this host has controllers for: memory and pids, else fewer. */
static int plan_lab(struct lab *lab, const char *parent, struct st_error *err)
{
	static const struct st_cgroup_limits tries[] = {
		{ .memory = 256ll << 20, .pids = 1024 }, { .pids = 1024 }, { .memory = 256ll << 20 }, { 0 },
	};
	struct st_cgroup_spec spec = { .enabled = 1, .parent = parent };
	int ret = -EOPNOTSUPP;

	for (size_t i = 0; i < ARRAY_SIZE(tries) && ret == -EOPNOTSUPP; i++) {
		spec.lim = tries[i];
		ret = st_cgroup_plan(&spec, &lab->parent, err);
	}
	return ret;
}

/*
 * The parent itself holds no limit: the samples do. On v2 a child can
 * have a controller only if its parent enables it, and this parent is ours.
 */
static int open_lab(struct lab *lab, struct st_error *err)
{
	static const int v1_order[] = { ST_CG_PIDS, ST_CG_CPU, ST_CG_MEMORY };
	static const char *const v1_names[ST_CG_NCTRL] = { "memory", "pids", "cpu" };
	static const char *const names[ST_CG_NCTRL] = { "+memory", "+pids", "+cpu" };
	struct st_cgroup_dir *v2 = NULL;
	char path[ST_CG_PATH_MAX + 32];
	int ret;

	ret = st_cgroup_mkdirs(&lab->parent, err);
	closep(&lab->parent.v2_fd);
	for (size_t i = 0; i < lab->parent.n; i++)
		if (lab->parent.dir[i].v2)
			v2 = &lab->parent.dir[i];
	lab->v2_dir = v2 ? v2->path : NULL;
	for (int c = 0; ret == 0 && v2 && c < ST_CG_NCTRL; c++) {
		if (!(v2->ctrls & (1u << c)))
			continue;
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", v2->path);
		ret = st_write_file(path, names[c]);
		if (ret < 0)
			ret = st_error_set(err, -ret, "cgroup: enabling %s in %s", names[c] + 1, path);
	}
	for (size_t k = 0; k < ARRAY_SIZE(v1_order) && !lab->v1_ctrl; k++)
		for (size_t i = 0; i < lab->parent.n; i++)
			if (!lab->parent.dir[i].v2 && (lab->parent.dir[i].ctrls & (1u << v1_order[k])))
				lab->v1_ctrl = v1_names[v1_order[k]];
	return ret;
}

/* nr_dying_descendants of the lab's unified directory, or -1. */
static long dying(const struct lab *lab)
{
	char path[ST_CG_PATH_MAX + 16], buf[512];
	const char *p;

	snprintf(path, sizeof(path), "%s/cgroup.stat", lab->v2_dir);
	if (st_read_file(path, buf, sizeof(buf)) < 0 || !(p = strstr(buf, "nr_dying_descendants ")))
		return -1;
	return strtol(p + strlen("nr_dying_descendants "), NULL, 10);
}

/* num_cgroups of the watched v1 controller's hierarchy in /proc/cgroups, or -1. */
static long num_cgroups(const struct lab *lab)
{
	char buf[2048], name[32], *line, *save = NULL;
	long hier, num;

	if (st_read_file("/proc/cgroups", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%31s %ld %ld", name, &hier, &num) == 3 && strcmp(name, lab->v1_ctrl) == 0)
			return num;
	return -1;
}

/* The sample's cgroups: the lab's directories plus /sN. */
static int sample_dirs(const struct lab *lab, unsigned int n, struct st_cgroup *s, struct st_error *err)
{
	*s = lab->parent;
	s->v2_fd = -1;
	for (size_t i = 0; i < s->n; i++) {
		size_t len = strlen(s->dir[i].path);

		s->dir[i].made = 0;
		if ((size_t)snprintf(s->dir[i].path + len, sizeof(s->dir[i].path) - len, "/s%u", n) >=
		    sizeof(s->dir[i].path) - len)
			return st_error_set(err, ENAMETOOLONG, "cgroup: %s", lab->parent.dir[i].path);
	}
	return 0;
}

/* A child that waits for EOF on @rd, then exits: what the sample attaches. */
static pid_t waiting_child(int *wr, struct st_error *err)
{
	int rd;
	pid_t pid;
	char c;

	if (st_pipe(&rd, wr, "cgroup: pipe", err) < 0)
		return -err->errnum;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(*wr);
		while (read(rd, &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(rd);
	if (pid < 0) {
		closep(wr);
		return st_error_set(err, errno, "cgroup: fork");
	}
	return pid;
}

/* Polls @count until it is at most @target: microseconds after @from, or -1 after a second. */
static double wait_drop(long (*count)(const struct lab *), const struct lab *lab, long target,
			uint64_t from)
{
	struct timespec pause = { 0, 20000 };

	for (;;) {
		uint64_t now = st_now_ns();
		long v = count(lab);

		if (v >= 0 && v <= target)
			return st_ns_to_us(now - from);
		if (v < 0 || now - from > FREED_TIMEOUT_NS)
			return -1;
		nanosleep(&pause, NULL);
	}
}

static void record(struct st_cgroup_measurement *cm, int fig, double us, int keep)
{
	if (!keep)
		return;
	if (us < 0)
		cm->unobserved[fig]++;
	else
		st_samples_add(&cm->fig[fig], us);
}

/* One sample, recorded when @keep; its cgroups are removed on every path. */
static int sample(struct st_cgroup_measurement *cm, const struct lab *lab, unsigned int n, int keep,
		  struct st_error *err)
{
	struct st_cgroup s;
	_cleanup_close_ int wr = -1;
	long v1_before = lab->v1_ctrl ? num_cgroups(lab) : -1, v2_before;
	uint64_t t0, t1, t2, t3, t4, t5;
	pid_t pid;
	int ret;

	ret = sample_dirs(lab, n, &s, err);
	pid = ret == 0 ? waiting_child(&wr, err) : -1;
	if (pid < 0)
		return -err->errnum;
	t0 = st_now_ns();
	ret = st_cgroup_mkdirs(&s, err);
	t1 = st_now_ns();
	if (ret == 0)
		ret = st_cgroup_write_limits(&s, err);
	t2 = st_now_ns();
	if (ret == 0)
		ret = st_cgroup_move(&s, pid, 1, err);
	t3 = st_now_ns();
	closep(&wr);
	waitpid(pid, NULL, 0);
	if (ret < 0) {
		st_cgroup_rmdirs(&s, &(struct st_error){ 0 });
		return ret;
	}
	v2_before = lab->v2_dir ? dying(lab) : -1;
	t4 = st_now_ns();
	ret = st_cgroup_rmdirs(&s, err);
	t5 = st_now_ns();
	if (ret < 0)
		return ret;
	record(cm, ST_CGM_MKDIR, st_ns_to_us(t1 - t0), keep);
	if (s.lim.memory || s.lim.pids)
		record(cm, ST_CGM_LIMITS, st_ns_to_us(t2 - t1), keep);
	record(cm, ST_CGM_ATTACH, st_ns_to_us(t3 - t2), keep);
	record(cm, ST_CGM_RMDIR, st_ns_to_us(t5 - t4), keep);
	if (v2_before >= 0)
		record(cm, ST_CGM_FREED_V2, wait_drop(dying, lab, v2_before, t5), keep);
	if (v1_before >= 0)
		record(cm, ST_CGM_FREED_V1, wait_drop(num_cgroups, lab, v1_before, t5), keep);
	return 0;
}

static int run_samples(struct st_cgroup_measurement *cm, const struct lab *lab, unsigned int warmup,
		       unsigned int repeat, int *interrupted_by, struct st_error *err)
{
	for (unsigned int i = 0; i < warmup + repeat; i++) {
		int sig = st_signals_poll();
		int ret;

		if (sig) {
			*interrupted_by = sig;
			return st_error_set(err, EINTR, "interrupted by %s while measuring the cgroup layer",
					    st_signal_name(sig));
		}
		ret = sample(cm, lab, i, i >= warmup, err);
		if (ret < 0)
			return st_error_wrap(err, "measuring the cgroup layer");
	}
	return 0;
}

int st_cgroup_measure(unsigned int warmup, unsigned int repeat, const char *parent,
		      struct st_cgroup_measurement *cm, int *interrupted_by, struct st_error *err)
{
	struct lab lab = { .v2_dir = NULL, .v1_ctrl = NULL };
	struct st_error why = { 0 };
	int ret;

	cm->asked = 1;
	for (int f = 0; f < ST_CGM_COUNT; f++)
		if (st_samples_reserve(&cm->fig[f], repeat + 1) < 0)
			return st_error_set(err, ENOMEM, "measuring the cgroup layer");
	/* Rootless without a delegated cgroup: unavailable, with the reason, as a layer. */
	if (plan_lab(&lab, parent, &why) < 0) {
		st_error_format(&why, cm->reason, sizeof(cm->reason));
		return 0;
	}
	cm->mode = lab.parent.mode;
	ret = open_lab(&lab, err);
	if (lab.v1_ctrl)
		snprintf(cm->v1_source, sizeof(cm->v1_source), "%s", lab.v1_ctrl);
	if (ret == 0)
		ret = run_samples(cm, &lab, warmup, repeat, interrupted_by, err);
	if (st_cgroup_rmdirs(&lab.parent, ret < 0 ? &(struct st_error){ 0 } : err) < 0 && ret == 0)
		ret = -err->errnum;
	cm->available = ret == 0;
	return ret;
}

void st_cgroup_measurement_free(struct st_cgroup_measurement *cm)
{
	for (int f = 0; f < ST_CGM_COUNT; f++)
		st_samples_free(&cm->fig[f]);
}
