// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/deferred.h"
#include "sandboxtime/layer.h"
#include "sandboxtime/measure.h"
#include "sandboxtime/ns_user.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

/* A free that has not come after this long is a kernel leak, not a delay. */
#define DEFERRED_TIMEOUT_NS (10ull * 1000000000ull)
/* Spin this long before sleeping between probes, so fast frees stay exact. */
#define SPIN_NS (200ull * 1000ull)

/*
 * user last: once the probe has moved this helper into a new user namespace,
 * the others would be created there (they are still counted here, as a
 * nested namespace's counts climb to every ancestor, but keep it plain).
 */
static const int probe_order[] = {
	ST_LAYER_UTS, ST_LAYER_IPC, ST_LAYER_PID, ST_LAYER_MOUNT,
	ST_LAYER_CGROUP, ST_LAYER_TIME, ST_LAYER_NET, ST_LAYER_USER,
};

struct result {
	struct st_deferred_sample sample;
	struct st_error err;
	int failed;
};

static int lower_limits(unsigned int mask, struct st_error *err)
{
	char path[96];

	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		int ret;

		if (!(mask & ST_LAYER_BIT(l)))
			continue;
		snprintf(path, sizeof(path), "/proc/sys/user/%s", st_layers[l].max_file);
		ret = st_write_file(path, "1");
		if (ret < 0)
			return st_error_set(err, -ret, "setting %s to 1 in a private user namespace",
					    path);
	}
	return 0;
}

/*
 * Waits until a namespace of @layer can be created again; *@freed_at gets the
 * start of the first attempt that succeeded. The probe's own new namespace
 * stays with this helper and dies with its user namespace, thrown away after
 * one sample. Its kernel cleanup still runs after that and may delay the
 * next sample's (for net, one ordered work queue); a pause between samples
 * did not lower the figures here (an idle gap slows what follows it), so
 * samples run back to back and the man page says so.
 */
static int probe_until_free(int layer, uint64_t start, uint64_t *freed_at, uint64_t *probes,
			    struct st_error *err)
{
	const struct timespec pause = { 0, 20000 };

	for (;;) {
		/*
		 * The free happened before the attempt that succeeds started:
		 * stamp it first, so that building the probe's own namespace
		 * (hundreds of us for net) is not counted.
		 */
		uint64_t attempt = st_now_ns();
		uint64_t waited = attempt - start;

		if (unshare((int)st_layers[layer].flag) == 0) {
			*freed_at = attempt;
			return 0;
		}
		if (errno != ENOSPC)
			return st_error_set(err, errno, "probe unshare(%s)", st_layers[layer].flag_name);
		(*probes)++;
		if (waited > DEFERRED_TIMEOUT_NS)
			return st_error_set(err, ETIMEDOUT, "%s namespace not freed after %llu s",
					    st_layers[layer].name,
					    (unsigned long long)(DEFERRED_TIMEOUT_NS / 1000000000ull));
		/*
		 * Spinning would hold the CPU that the kernel's work queue
		 * wants: after a short spin, yield it in small steps.
		 */
		if (waited < SPIN_NS)
			sched_yield();
		else
			nanosleep(&pause, NULL);
	}
}

static int helper_measure(unsigned int mask, struct st_deferred_sample *out, struct st_error *err)
{
	struct st_cycle cycle;
	uint64_t freed_at = 0, last = 0;
	int ret;

	/* Sleeps of 20 us must not be stretched to the default 50 us slack. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	ret = lower_limits(mask, err);
	if (ret < 0)
		return ret;
	ret = st_measure_cycle(st_layer_flags(mask), &cycle, err);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(probe_order); i++) {
		int layer = probe_order[i];

		if (!(mask & ST_LAYER_BIT(layer)))
			continue;
		ret = probe_until_free(layer, cycle.reaped_at_ns, &freed_at, &out->probes, err);
		if (ret < 0)
			return ret;
		if (freed_at > last)
			last = freed_at;
	}
	out->deferred_ns = last - cycle.reaped_at_ns;
	return 0;
}

static void _noreturn_ helper_main(unsigned int mask, int go_rd, int result_wr)
{
	struct result r;
	char c;

	memset(&r, 0, sizeof(r));
	/* The parent writes our id maps, then closes its end: EOF means go. */
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	if (helper_measure(mask, &r.sample, &r.err) < 0)
		r.failed = 1;
	if (write(result_wr, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

int st_deferred_measure(unsigned int mask, struct st_deferred_sample *out, struct st_error *err)
{
	_cleanup_close_ int go_rd = -1, go_wr = -1, res_rd = -1, res_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	struct result r;
	int fds[2], ret;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "pipe");
	go_rd = fds[0];
	go_wr = fds[1];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "pipe");
	res_rd = fds[0];
	res_wr = fds[1];

	pid = st_clone3(CLONE_NEWUSER, err);
	if (pid < 0)
		return st_error_wrap(err, "deferred probe helper");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(go_wr);
		close(res_rd);
		helper_main(mask, go_rd, res_wr);
	}
	closep(&go_rd);
	closep(&res_wr);
	/* The helper's nested namespaces need its uid mapped in its own. */
	ret = st_ns_user_map_caller(pid, err);
	if (ret < 0)
		return st_error_wrap(err, "deferred probe helper");
	closep(&go_wr);

	n = TEMP_FAILURE_RETRY(read(res_rd, &r, sizeof(r)));
	if (n != (ssize_t)sizeof(r))
		return st_error_set(err, EPROTO, "deferred probe helper died without an answer");
	ret = st_reap(take_pid(&pid), NULL, err);
	if (ret < 0)
		return ret;
	if (r.failed) {
		*err = r.err;
		return r.err.errnum ? -r.err.errnum : -EIO;
	}
	*out = r.sample;
	return 0;
}
