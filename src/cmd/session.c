// SPDX-License-Identifier: MIT
#include <sys/random.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/cli.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/report.h"
#include "sandboxtime/session.h"
#include "sandboxtime/spawn.h"

static int pin_cpu(int cpu, struct st_error *err)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return st_error_set(err, errno, "--cpu: cannot pin to CPU %d (this machine has %ld online)",
				    cpu, sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}

/* Layers the kernel was built with: /proc/self/ns/<name> exists. No child needed. */
static void kernel_layers(unsigned int mask, int errnums[ST_LAYER_COUNT])
{
	char path[64];

	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		errnums[l] = 0;
		snprintf(path, sizeof(path), "/proc/self/ns/%s", st_layers[l].ns_file);
		if ((mask & ST_LAYER_BIT(l)) && access(path, F_OK) < 0)
			errnums[l] = errno == ENOENT ? EINVAL : errno;
	}
}

/*
 * Decides the measured layers from the errno each asked layer got: a named
 * layer that fails is an error, one that came from "all" is reported as
 * unavailable and left out.
 */
static int apply_layer_errors(struct st_session *s, unsigned int mask,
			      const int errnums[ST_LAYER_COUNT], struct st_error *err)
{
	const struct st_measure_opts *o = s->measure;
	struct st_report *r = &s->report;

	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		const char *name = st_layers[l].name;

		if (!(mask & ST_LAYER_BIT(l)) || !errnums[l])
			continue;
		if ((o->ns_explicit & ST_LAYER_BIT(l)) || (r->host.rootless && l == ST_LAYER_USER)) {
			st_error_set(err, errnums[l], "--ns: cannot create a %s namespace", name);
			st_layer_hint_here(err, errnums[l], (enum st_layer)l);
			return -errnums[l];
		}
		mask &= ~ST_LAYER_BIT(l);
		r->unavailable |= ST_LAYER_BIT(l);
		r->layer_errnum[l] = errnums[l];
		st_report_add_error(r, "layer %s unavailable: %s", name, strerror(errnums[l]));
	}
	r->mask = mask;
	return 0;
}

static unsigned int asked_layers(const struct st_session *s)
{
	unsigned int mask = s->measure->ns_mask;

	/* Without root nothing but user can be created: add it (rootless mode). */
	if (s->report.host.rootless && mask)
		mask |= ST_LAYER_BIT(ST_LAYER_USER);
	return mask;
}

int st_session_probe_layers(struct st_session *s, struct st_error *err)
{
	unsigned int mask = asked_layers(s);
	int errnums[ST_LAYER_COUNT];
	int ret;

	s->report.unavailable = 0;
	s->report.nerrors = 0;
	ret = st_layer_probe(mask, s->report.host.rootless, errnums, err);
	if (ret < 0)
		return ret;
	/* unshare() makes a time namespace, but the measured clone needs clone3 for it. */
	if ((mask & ST_LAYER_BIT(ST_LAYER_TIME)) && !errnums[ST_LAYER_TIME] &&
	    strcmp(st_clone_call(), "clone3") != 0)
		errnums[ST_LAYER_TIME] = ENOSYS;
	return apply_layer_errors(s, mask, errnums, err);
}

/*
 * Measuring needs every layer to work, so probe them all first. A single
 * launch (--repeat=0) only checks what the kernel was built with: the probe
 * would cost as much as the sandbox itself, and runs only if the clone fails.
 */
static int choose_layers(struct st_session *s, struct st_error *err)
{
	unsigned int mask = asked_layers(s);
	int errnums[ST_LAYER_COUNT];

	/*
	 * Without /proc every layer would look missing from the kernel: say
	 * what is missing, and, rootless in a chroot, the chroot first (no
	 * mount of /proc would get it a user namespace).
	 */
	if (mask && access("/proc/self/ns", F_OK) < 0) {
		struct st_userns_env env;

		st_error_set(err, errno, "cannot read /proc/self/ns");
		st_userns_env_read(&env);
		if (!s->report.host.rootless)
			env.chrooted = 0;
		st_userns_cause(err, EPERM, &env);
		return -err->errnum;
	}
	if (s->measure->repeat > 0)
		return st_session_probe_layers(s, err);
	kernel_layers(mask, errnums);
	return apply_layer_errors(s, mask, errnums, err);
}

int st_session_open(struct st_session *s, const struct st_output *output, struct st_error *err)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->output = output;
	s->report.out = output;
	s->report.config = &s->config;
	ret = pin_cpu(output->cpu, err);
	/* The workload owns standard output: the report goes to stderr, or -o. */
	if (ret == 0)
		ret = st_sink_open(&s->sink, output, stderr, err);
	if (ret < 0)
		return ret;
	st_host_identify(&s->report.host, output->cpu);
	return 0;
}

int st_session_prepare(struct st_session *s, const struct st_output *output,
		       const struct st_measure_opts *measure, struct st_error *err)
{
	int ret = st_session_open(s, output, err);

	if (ret < 0)
		return ret;
	s->measure = measure;
	s->config.repeat = measure->repeat;
	s->config.warmup = measure->warmup;
	s->config.deferred_repeat = measure->deferred_repeat;
	s->config.seed = measure->seed;
	s->config.cold_ms = measure->cold_ms;
	s->config.alone = measure->alone;
	return choose_layers(s, err);
}

void st_session_describe_run(struct st_session *s, const struct st_run_opts *o, int run)
{
	s->config.run = run;
	s->config.net = o->net.mode;
	s->config.config = o->config;
	s->config.argv = o->argv;
}

int st_session_measure(struct st_session *s, struct st_error *err)
{
	const struct st_measure_opts *o = s->measure;
	struct st_measure_config cfg = {
		.mask = s->report.mask,
		.rootless = s->report.host.rootless,
		.repeat = o->repeat,
		.warmup = o->warmup,
		.deferred_repeat = o->deferred_repeat,
		.cold_ms = o->cold_ms,
		.alone = o->alone,
		.seed = st_seed_or_new(&o->seed),
	};
	int ret;

	/* Progress only where a person watches: stderr is a terminal. */
	if (!s->output->quiet && isatty(STDERR_FILENO))
		cfg.progress = st_report_progress;
	ret = st_measure_run(&cfg, &s->m, err);
	st_report_progress_done();
	if (ret == 0 && o->cgroup)
		ret = st_cgroup_measure(o->warmup, o->repeat, o->cgroup_parent, &s->cgm, &s->m.interrupted_by, err);
	if (ret == 0)
		s->report.m = &s->m;
	if (ret == 0 && o->cgroup)
		s->report.cgroup = &s->cgm;
	/* A run says it once, when it plans its own cgroup. */
	if (ret == 0 && o->cgroup && !s->cgm.available && !s->config.run)
		st_report_add_error(&s->report, "cgroup layer unavailable: %s", s->cgm.reason);
	if (ret == 0 && s->m.deferred_errnum)
		st_report_add_error(&s->report, "deferred teardown unavailable: %s", s->m.deferred_reason);
	return ret;
}

int st_session_report(struct st_session *s, struct st_error *err)
{
	const struct st_sink_writers w = {
		.format = &st_report_format,
		.title = s->report.bench ? "sandboxtime bench" : s->config.run ? "sandboxtime run" : "sandboxtime layers",
		.what = "report",
	};

	if (st_sink_writes(&s->sink))
		st_host_collect(&s->report.host);
	return st_sink_emit(&s->sink, &w, &s->report, err);
}

void st_session_end(struct st_session *s)
{
	st_measurement_free(&s->m);
	st_cgroup_measurement_free(&s->cgm);
	st_sink_close(&s->sink);
}

int st_session_failure_code(const struct st_session *s)
{
	if (s->m.interrupted_by)
		return ST_EXIT_SIGNAL_BASE + s->m.interrupted_by;
	return ST_EXIT_FAILURE;
}
