// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/cycle.h"
#include "sandboxtime/deferred.h"
#include "sandboxtime/ns_user.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/stats.h"
#include "sandboxtime/userns_count.h"
#include "sandboxtime/util.h"

/* A free that has not come after this long is a kernel leak, not a delay. */
#define DEFERRED_TIMEOUT_NS (10ull * 1000000000ull)
/* Spin this long before sleeping between probes, so fast frees stay exact. */
#define SPIN_NS (200ull * 1000ull)
#define MAX_USER_NS "/proc/sys/user/max_user_namespaces"
/* Creating an ipc namespace: the fastest of this many tries. */
#define CALIBRATION_TRIES 5

/* Types whose unshare() waits inside the kernel for a pending free (ipc: flush_work). */
#define BLOCKING_TYPES ST_LAYER_BIT(ST_LAYER_IPC)

/*
 * The types the probe polls; each sample shuffles them, so that no type's
 * figure depends on being probed first or after another. user stays last in
 * each pass: once a probe has moved the helper into a new user namespace,
 * the others are created there (still counted against the helper's limits,
 * as a nested namespace's counts climb to every ancestor).
 */
static const int probe_types[ST_DEFERRED_NPROBE] = {
	ST_LAYER_UTS, ST_LAYER_IPC, ST_LAYER_PID, ST_LAYER_MOUNT,
	ST_LAYER_CGROUP, ST_LAYER_TIME, ST_LAYER_NET, ST_LAYER_USER,
};
#define NPROBE ST_DEFERRED_NPROBE

const char *const st_deferred_marks[ST_LAYER_COUNT] = {
	[ST_LAYER_USER] = "freed",
	[ST_LAYER_UTS] = "count released",
	[ST_LAYER_IPC] = "freed",
	[ST_LAYER_PID] = "freed",
	[ST_LAYER_MOUNT] = "count released",
	[ST_LAYER_CGROUP] = "count released",
	[ST_LAYER_TIME] = "count released",
	[ST_LAYER_NET] = "count released",
};

/* What the lab is asked for: one sample of @mask (0: calibrate), probed in an order from @seed. */
struct request {
	unsigned int mask;
	uint64_t seed;
};

/* What the lab answers: one sample, or why it could not measure it. */
struct result {
	struct st_deferred_sample sample;
	struct st_error err;
	int failed;
};

/* The lab's own state (in the lab process only). */
struct lab {
	struct st_userns_prober prober; /* the chrooted drain prober */
	uint64_t max_user; /* the outer namespace's limit, restored after each drain */
	uint64_t create_ns[ST_LAYER_COUNT]; /* calibrated cost of a blocking type's unshare() */
	unsigned int poll_us; /* the pause between passes after the spin; 0: yield only */
};

static void sleep_us(long us)
{
	const struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

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
			return st_error_set(err, -ret,
					    "setting %s to 1 in a private user namespace", path);
	}
	return 0;
}

/*
 * When type @l was freed, from an attempt that began at @a and ended at @b.
 * A failed attempt before it saw the old namespace, so the free came after
 * that one and before @a; the success's own creation (hundreds of us for
 * net) is not counted. A blocking type waited for the free inside the call:
 * its end less the calibrated creation cost.
 */
static uint64_t charge(const struct lab *lab, int l, uint64_t a, uint64_t b)
{
	if (!(BLOCKING_TYPES & ST_LAYER_BIT(l)) || b - a <= lab->create_ns[l])
		return a;
	return b - lab->create_ns[l];
}

void st_deferred_probe_order(uint64_t seed, int order[ST_DEFERRED_NPROBE])
{
	size_t idx[NPROBE - 1];
	uint64_t state = seed;

	st_permute(idx, NPROBE - 1, &state);
	for (size_t i = 0; i < NPROBE - 1; i++)
		order[i] = probe_types[idx[i]];
	order[NPROBE - 1] = probe_types[NPROBE - 1];
}

/* One pass over the still pending types; clears the bit of each one freed. */
static int probe_pass(const struct lab *lab, const int order[NPROBE], unsigned int *pending,
		      uint64_t reaped, struct st_deferred_sample *out, struct st_error *err)
{
	for (size_t i = 0; i < NPROBE; i++) {
		int l = order[i];
		uint64_t a, b;
		int r;

		if (!(*pending & ST_LAYER_BIT(l)))
			continue;
		a = st_now_ns();
		r = unshare((int)st_layers[l].flag);
		b = st_now_ns();
		if (r < 0 && errno != ENOSPC)
			return st_error_set(err, errno, "probe unshare(%s)",
					    st_layers[l].flag_name);
		if (r < 0) {
			out->probes++;
			continue;
		}
		out->freed_ns[l] = charge(lab, l, a, b) - reaped;
		out->call_ns[l] = b - a;
		*pending &= ~ST_LAYER_BIT(l);
	}
	return 0;
}

static void pending_names(unsigned int pending, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int l = 0; l < ST_LAYER_COUNT && used < len; l++)
		if (pending & ST_LAYER_BIT(l))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 st_layers[l].name);
}

/* Polls every pending type in turn until all are freed. */
static int probe_until_free(const struct lab *lab, const struct request *q, uint64_t reaped,
			    struct st_deferred_sample *out, struct st_error *err)
{
	unsigned int pending = q->mask;
	int order[NPROBE];

	st_deferred_probe_order(q->seed, order);
	for (;;) {
		uint64_t waited;
		int ret = probe_pass(lab, order, &pending, reaped, out, err);
		char names[96];

		if (ret < 0 || !pending)
			return ret;
		waited = st_now_ns() - reaped;
		if (waited > DEFERRED_TIMEOUT_NS) {
			pending_names(pending, names, sizeof(names));
			return st_error_set(
			    err, ETIMEDOUT, "namespaces not freed after %llu s: %s",
			    (unsigned long long)(DEFERRED_TIMEOUT_NS / 1000000000ull), names);
		}
		/*
		 * Spinning would hold the CPU that the kernel's work queue
		 * wants: after a short spin, yield it in small steps.
		 */
		if (waited < SPIN_NS || !lab->poll_us)
			sched_yield();
		else
			sleep_us((long)lab->poll_us);
	}
}

static int helper_measure(const struct lab *lab, const struct request *q,
			  struct st_deferred_sample *out, struct st_error *err)
{
	unsigned int mask = q->mask;
	struct st_cycle cycle;
	int ret;

	out->last_layer = -1;
	ret = lower_limits(mask, err);
	if (ret == 0)
		ret = st_measure_cycle(st_layer_flags(mask), &cycle, err);
	if (ret == 0)
		ret = probe_until_free(lab, q, cycle.reaped_at_ns, out, err);
	if (ret < 0)
		return ret;
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if ((mask & ST_LAYER_BIT(l)) &&
		    (out->last_layer < 0 || out->freed_ns[l] >= out->deferred_ns)) {
			out->deferred_ns = out->freed_ns[l];
			out->last_layer = l;
		}
	return 0;
}

/* The fastest creation of each blocking type, in a throwaway helper. */
static int helper_calibrate(struct st_deferred_sample *out, struct st_error *err)
{
	for (int l = 0; l < ST_LAYER_COUNT; l++) {
		if (!(BLOCKING_TYPES & ST_LAYER_BIT(l)))
			continue;
		out->call_ns[l] = UINT64_MAX;
		for (int k = 0; k < CALIBRATION_TRIES; k++) {
			uint64_t a = st_now_ns(), d;

			if (unshare((int)st_layers[l].flag) < 0)
				return st_error_set(err, errno, "calibrating unshare(%s)",
						    st_layers[l].flag_name);
			d = st_now_ns() - a;
			if (d < out->call_ns[l])
				out->call_ns[l] = d;
		}
	}
	return 0;
}

/* @q->mask 0: calibrate. */
static void _noreturn_ helper_main(const struct lab *lab, const struct request *q, int go_rd,
				   int result_wr)
{
	struct result r;
	char c;
	int ret;

	memset(&r, 0, sizeof(r));
	/* The lab writes our id maps, then closes its end: EOF means go. */
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	ret = q->mask ? helper_measure(lab, q, &r.sample, &r.err)
		   : helper_calibrate(&r.sample, &r.err);
	r.failed = ret < 0;
	if (write(result_wr, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

/*
 * Runs a helper in a nested user namespace of the lab's: the parent maps
 * our uid, then the helper answers one struct result.
 */
static int run_helper(const struct lab *lab, const struct request *q, struct result *r,
		      struct st_error *err)
{
	_cleanup_close_ int go_rd = -1, go_wr = -1, res_rd = -1, res_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	int ret;

	if (st_pipe(&go_rd, &go_wr, "pipe", err) < 0)
		return -err->errnum;
	if (st_pipe(&res_rd, &res_wr, "pipe", err) < 0)
		return -err->errnum;
	pid = st_clone3(CLONE_NEWUSER, err);
	if (pid < 0)
		return st_error_wrap(err, "deferred probe helper");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(go_wr);
		close(res_rd);
		helper_main(lab, q, go_rd, res_wr);
	}
	closep(&go_rd);
	closep(&res_wr);
	/* The helper's nested namespaces need its uid mapped in its own. */
	ret = st_ns_user_map_caller(pid, err);
	if (ret < 0)
		return st_error_wrap(err, "deferred probe helper");
	closep(&go_wr);
	if (TEMP_FAILURE_RETRY(read(res_rd, r, sizeof(*r))) != (ssize_t)sizeof(*r))
		return st_error_set(err, EPROTO, "deferred probe helper died without an answer");
	return st_reap(take_pid(&pid), NULL, err);
}

/*
 * Waits, untimed, until no namespace of an earlier sample is counted (the
 * drain prober, userns_count.h), then settles.
 */
static int drain(struct lab *lab, uint64_t *waited, int *settled_by, struct st_error *err)
{
	uint64_t start = st_now_ns();
	int ret = st_userns_drain(&lab->prober, lab->max_user, DEFERRED_TIMEOUT_NS, settled_by, err);

	*waited = st_now_ns() - start;
	return ret;
}

static int lab_setup(struct lab *lab, struct st_error *err)
{
	struct result r;
	uint64_t waited;
	char buf[32];
	int settled_by = ST_SETTLE_RCU, ret;

	/* Sleeps of 20 us must not be stretched to the default 50 us slack. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	ret = st_read_file(MAX_USER_NS, buf, sizeof(buf));
	if (ret < 0)
		return st_error_set(err, -ret, "reading %s", MAX_USER_NS);
	lab->max_user = strtoull(buf, NULL, 10);
	ret = st_userns_prober_start(&lab->prober, err);
	if (ret == 0)
		ret = run_helper(lab, &(const struct request){ .mask = 0 }, &r, err);
	if (ret == 0 && r.failed) {
		*err = r.err;
		ret = r.err.errnum ? -r.err.errnum : -EIO;
	}
	if (ret < 0)
		return ret;
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		if (BLOCKING_TYPES & ST_LAYER_BIT(l))
			lab->create_ns[l] = r.sample.call_ns[l];
	/* Nothing of the calibration may weigh on the first sample. */
	return drain(lab, &waited, &settled_by, err);
}

/* The lab process: answers its setup, then one result per requested mask. */
static void _noreturn_ lab_main(unsigned int poll_us, int go_rd, int req_rd, int res_wr)
{
	struct lab lab = { .prober = { .pid = -1, .req_wr = -1, .res_rd = -1, .limit_fd = -1 },
			   .poll_us = poll_us };
	struct result r;
	struct request q;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	memset(&r, 0, sizeof(r));
	r.failed = lab_setup(&lab, &r.err) < 0;
	if (write(res_wr, &r, sizeof(r)) != (ssize_t)sizeof(r) || r.failed)
		_exit(1);
	while (TEMP_FAILURE_RETRY(read(req_rd, &q, sizeof(q))) == (ssize_t)sizeof(q)) {
		uint64_t waited = 0;
		int settled_by = ST_SETTLE_RCU;
		struct result h;
		int ret;

		memset(&r, 0, sizeof(r));
		ret = drain(&lab, &waited, &settled_by, &r.err);
		if (ret == 0)
			ret = run_helper(&lab, &q, &h, &r.err);
		if (ret == 0)
			r = h;
		r.failed = r.failed || ret < 0;
		r.sample.drain_ns = waited;
		r.sample.settled_by = settled_by;
		if (write(res_wr, &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(1);
	}
	st_userns_prober_stop(&lab.prober);
	_exit(0);
}

static int read_result(struct st_deferred_lab *lab, struct result *r, struct st_error *err)
{
	if (TEMP_FAILURE_RETRY(read(lab->res_rd, r, sizeof(*r))) != (ssize_t)sizeof(*r))
		return st_error_set(err, EPROTO, "the deferred lab died without an answer");
	if (!r->failed)
		return 0;
	*err = r->err;
	return r->err.errnum ? -r->err.errnum : -EIO;
}

int st_deferred_lab_open(struct st_deferred_lab *lab, struct st_error *err)
{
	_cleanup_close_ int go_rd = -1, go_wr = -1, req_rd = -1, req_wr = -1, res_rd = -1,
			    res_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	struct result r;
	int ret;

	lab->pid = -1;
	lab->req_wr = lab->res_rd = -1;
	lab->poll_us = ST_DEFERRED_POLL_US_DEFAULT;
	if (getenv(ST_DEFERRED_POLL_ENV)) {
		uint64_t v;

		ret = st_parse_uint(ST_DEFERRED_POLL_ENV, getenv(ST_DEFERRED_POLL_ENV), 0, 100000, &v,
				    err);
		if (ret < 0) {
			err->errnum = EINVAL;
			return ret;
		}
		lab->poll_us = (unsigned int)v;
	}
	if (st_pipe(&go_rd, &go_wr, "pipe", err) < 0)
		return -err->errnum;
	if (st_pipe(&req_rd, &req_wr, "pipe", err) < 0)
		return -err->errnum;
	if (st_pipe(&res_rd, &res_wr, "pipe", err) < 0)
		return -err->errnum;
	pid = st_clone3(CLONE_NEWUSER, err);
	if (pid < 0) {
		st_layer_hint_here(err, err->errnum, ST_LAYER_USER);
		return st_error_wrap(err, "deferred lab: a user namespace");
	}
	if (pid == 0) {
		close(go_wr);
		close(req_wr);
		close(res_rd);
		lab_main(lab->poll_us, go_rd, req_rd, res_wr);
	}
	closep(&go_rd);
	closep(&req_rd);
	closep(&res_wr);
	ret = st_ns_user_map_caller(pid, err);
	if (ret < 0)
		return st_error_wrap(err, "deferred lab");
	closep(&go_wr);
	lab->res_rd = take_fd(&res_rd);
	lab->req_wr = take_fd(&req_wr);
	lab->pid = take_pid(&pid);
	ret = read_result(lab, &r, err);
	if (ret < 0) {
		st_deferred_lab_close(lab);
		return st_error_wrap(err, "deferred lab");
	}
	return 0;
}

int st_deferred_lab_sample(struct st_deferred_lab *lab, unsigned int mask, uint64_t seed,
			   struct st_deferred_sample *out, struct st_error *err)
{
	const struct request q = { .mask = mask, .seed = seed };
	struct result r;
	int ret;

	/* One write of a few bytes to a pipe: atomic, never split. */
	if (write(lab->req_wr, &q, sizeof(q)) != (ssize_t)sizeof(q))
		return st_error_set(err, EPROTO, "the deferred lab is gone");
	ret = read_result(lab, &r, err);
	if (ret == 0)
		*out = r.sample;
	return ret;
}

void st_deferred_lab_close(struct st_deferred_lab *lab)
{
	struct st_error err = { 0 };

	closep(&lab->req_wr);
	closep(&lab->res_rd);
	/* EOF on its requests ends the lab; its prober and helpers die with it. */
	if (lab->pid > 0)
		st_reap(lab->pid, NULL, &err);
	lab->pid = -1;
}
