// SPDX-License-Identifier: MIT
/*
 * bench churn's lab (bench_churn.h): a process in a user namespace of its
 * own that forks the creators of each run, reads the count of sandboxes not
 * yet freed every ST_CHURN_SAMPLE_NS while they create, and waits for the
 * backlog to drain after every run, so that each run starts from nothing
 * and nothing is left when the lab is done, whatever stopped it.
 */
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/churn_lab.h"
#include "sandboxtime/churn_net.h"
#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/userns_count.h"
#include "sandboxtime/util.h"

#define THROTTLE_SLEEP_NS 50000L /* a creator refused by --max-alive waits this long */
#define DRAIN_POLL_NS 100000L    /* between questions while the backlog drains */
#define WATCH_STEP_NS 1000000L   /* the lab's sleep between looks at its creators */

struct lab {
	const struct st_bench_churn *b;
	struct st_churn_shared *sh;
	struct st_userns_prober prober;
	uint64_t flags; /* every sandbox's clone3() flags */
	struct st_nl *nl; /* --net=veth|bridge: in the lab's network namespace */
};

static void sleep_ns(long ns)
{
	const struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

static int told_to_stop(const struct lab *lab)
{
	return atomic_load(&lab->sh->stop) || atomic_load(&lab->sh->cut);
}

/*
 * The count is read while probe_seq is odd. New clone3() calls wait for it
 * to be even; one already under way goes on (the lab does not wait for a
 * clone stuck behind the kernel's teardown, which would hold every other
 * creator off too). Such a call may be refused with ENOSPC by a lowered
 * limit: a collision, told from --max-alive's refusal by probe_seq having
 * moved, and tried again at once. Returns the sequence it started under.
 */
static int enter(const struct lab *lab, unsigned int *seq)
{
	struct st_churn_shared *sh = lab->sh;

	for (;;) {
		*seq = atomic_load(&sh->probe_seq);
		if (!(*seq & 1))
			return 0;
		if (told_to_stop(lab))
			return -EINTR;
		sched_yield();
	}
}

/*
 * A sandbox: the clone3() whose child _exit()s at once, or with @w
 * (--net=veth|bridge) first waits on its hold until the creator has made
 * its pair. Returns the child's pid, or -errno.
 */
static pid_t clone_sandbox(const struct lab *lab, struct st_churn_wire *w, int hold[2],
			   struct st_error *err)
{
	pid_t pid = st_clone3(lab->flags, err);

	if (pid == 0 && w)
		st_churn_hold_wait(hold);
	if (pid == 0)
		_exit(0);
	return pid;
}

/* Reaps the sandbox @pid; a wiring error @ret still wins. */
static int reap_sandbox(pid_t pid, int ret, struct st_error *err)
{
	if (TEMP_FAILURE_RETRY(waitpid(pid, NULL, 0)) != pid && ret == 0)
		return st_error_set(err, errno, "waitpid");
	return ret;
}

/* One measured sandbox: clone3() timed, wired, counted, reaped, timed again. */
static int measured_one(const struct lab *lab, struct st_churn_wire *w, struct st_churn_creator *me,
			struct st_error *err)
{
	int hold[2] _cleanup_(st_churn_hold_closep) = { -1, -1 };
	struct st_churn_shared *sh = lab->sh;
	uint64_t t0, t1, t2;
	unsigned int seq;
	pid_t pid;
	int ret = 0;

	if (told_to_stop(lab) || enter(lab, &seq) < 0)
		return -EINTR;
	if (w && st_churn_hold_make(hold, err) < 0)
		return -err->errnum;
	t0 = st_now_ns();
	/* --duration: the run is over. */
	if (sh->deadline_ns && t0 >= sh->deadline_ns)
		return -ETIME;
	pid = clone_sandbox(lab, w, hold, err);
	t1 = st_now_ns();
	if (pid == -ENOSPC && atomic_load(&sh->probe_seq) != seq) {
		me->collisions++;
		return -EAGAIN;
	}
	if (pid < 0)
		return pid;
	atomic_fetch_add(&sh->created, 1);
	st_hist_record(&me->create, t1 - t0);
	me->created++;
	if (w) {
		ret = st_churn_wire_sandbox(w, pid, hold, err);
		if (ret == 0)
			st_hist_record(&me->wire, st_now_ns() - t1);
	}
	ret = reap_sandbox(pid, ret, err);
	t2 = st_now_ns();
	atomic_fetch_add(&sh->reaped, 1);
	me->reaped++;
	me->last_reap_ns = t2;
	if (ret == 0)
		st_hist_record(&me->cycle, t2 - t0);
	return ret;
}

/* The same churn without a clock, a counter or the hold-off: the yardstick. */
static int bare_one(const struct lab *lab, struct st_churn_wire *w, struct st_churn_creator *me,
		    struct st_error *err)
{
	int hold[2] _cleanup_(st_churn_hold_closep) = { -1, -1 };
	pid_t pid;
	int ret = 0;

	if (atomic_load(&lab->sh->stop))
		return -EINTR;
	if (w && st_churn_hold_make(hold, err) < 0)
		return -err->errnum;
	pid = clone_sandbox(lab, w, hold, err);
	if (pid < 0)
		return pid;
	if (w)
		ret = st_churn_wire_sandbox(w, pid, hold, err);
	ret = reap_sandbox(pid, ret, err);
	me->created++;
	return ret;
}

static void _noreturn_ creator_main(const struct lab *lab, unsigned int idx, uint64_t share,
				    int bare, int start_rd)
{
	struct st_churn_creator *me = &lab->sh->creator[idx];
	struct st_churn_wire wire, *w = NULL;
	int ret = 0;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* Its socket opened before the start: not a sandbox's cost. */
	if (st_net_wired(lab->b->net)) {
		ret = st_churn_wire_open(&wire, lab->b->net, idx, &me->err);
		w = ret == 0 ? &wire : NULL;
	}
	/* EOF: every creator starts at once. */
	while (read(start_rd, &c, 1) < 0 && errno == EINTR)
		;
	for (uint64_t i = 0; i < share && ret == 0;) {
		ret = bare ? bare_one(lab, w, me, &me->err) : measured_one(lab, w, me, &me->err);
		if (ret == -EAGAIN) {
			ret = 0;
			continue;
		}
		/* ENOSPC: --max-alive sandboxes are counted; wait for the kernel's frees. */
		if (ret == -ENOSPC) {
			me->throttled++;
			sleep_ns(THROTTLE_SLEEP_NS);
			ret = 0;
			continue;
		}
		if (ret == -ETIME) {
			ret = 0;
			break;
		}
		i += ret == 0;
	}
	if (bare) {
		me->reaped = me->created;
		me->last_reap_ns = st_now_ns();
	}
	if (w)
		st_churn_wire_close(w);
	me->failed = ret < 0 && ret != -EINTR;
	atomic_fetch_add(&lab->sh->finished, 1);
	_exit(0);
}

static void add_point(struct st_churn_level *lv, uint64_t t_ns, uint64_t created,
		      uint64_t reaped, uint64_t counted)
{
	uint64_t alive = created - reaped, held;
	uint64_t prev = lv->npoints ? lv->series[lv->npoints - 1].freed : 0;
	struct st_churn_point pt = {
		.t_s = (double)t_ns / 1e9,
		.created = created,
		.reaped = reaped,
		.freed = created > counted ? created - counted : 0,
	};

	/*
	 * A clone3() under way that the kernel counted is not in created yet:
	 * the count can only be too high, and a free is never undone.
	 */
	if (pt.freed < prev)
		pt.freed = prev;
	held = created - pt.freed;
	/* A reap that ended while the count was read: never below 0. */
	pt.backlog = held > alive ? held - alive : 0;

	if (pt.backlog > lv->backlog_max)
		lv->backlog_max = pt.backlog;
	if (lv->npoints == ST_CHURN_SERIES_MAX) {
		lv->truncated = 1;
		return;
	}
	lv->series[lv->npoints++] = pt;
}

/*
 * Holds new clone3() calls off, reads the count, lets them go, adds the
 * point. A call under way that the kernel already counted is not in
 * created yet: the backlog is exact to within the creators (--parallel).
 */
static int sample(struct lab *lab, struct st_churn_level *lv, uint64_t t0, struct st_error *err)
{
	struct st_churn_shared *sh = lab->sh;
	uint64_t a = st_now_ns(), created, reaped, counted, hi;
	uint64_t freed = lv->npoints ? lv->series[lv->npoints - 1].freed : 0;
	int ret;

	atomic_fetch_add(&sh->probe_seq, 1);
	reaped = atomic_load(&sh->reaped);
	/* What was freed stays freed; the calls under way; no more than --max-alive. */
	hi = atomic_load(&sh->created) + lv->parallel - freed;
	if (hi > lab->b->max_alive)
		hi = lab->b->max_alive;
	ret = st_userns_count(&lab->prober, 0, hi, lab->b->max_alive, &counted, err);
	created = atomic_load(&sh->created);
	atomic_fetch_add(&sh->probe_seq, 1);
	lv->samples++;
	lv->paused_ns += st_now_ns() - a;
	if (ret == 0)
		add_point(lv, a - t0, created, reaped, counted);
	return ret;
}

/*
 * Waits until nothing the lab made is counted. With @lv, adds a point every
 * period and one when it is empty, and sets drain_ns from @last_reap.
 */
static int drain(struct lab *lab, struct st_churn_level *lv, uint64_t t0, uint64_t last_reap,
		 struct st_error *err)
{
	uint64_t start = st_now_ns(), next = start + ST_CHURN_SAMPLE_NS, counted;
	int ret = st_userns_set_limit(&lab->prober, 1, err);

	/* With the limit at 1 (no creator runs), one question says "anything left?". */
	while (ret == 0 && (ret = st_userns_prober_ask(&lab->prober, err)) == 1) {
		uint64_t now = st_now_ns();

		ret = 0;
		if (now - start > ST_CHURN_DRAIN_TIMEOUT_NS || (lv && now >= next)) {
			ret = st_userns_count(&lab->prober, 0, lab->b->max_alive, 1, &counted, err);
			if (ret < 0)
				break;
			if (now - start > ST_CHURN_DRAIN_TIMEOUT_NS) {
				if (lv)
					lv->backlog_end = counted;
				ret = st_error_set(err, ETIMEDOUT,
						   "bench churn: the kernel has not freed %llu sandboxes' namespaces after %llu s",
						   (unsigned long long)counted,
						   (unsigned long long)(ST_CHURN_DRAIN_TIMEOUT_NS / 1000000000ull));
				break;
			}
			add_point(lv, now - t0, lv->created, lv->reaped, counted);
			next += ST_CHURN_SAMPLE_NS;
		}
		sleep_ns(DRAIN_POLL_NS);
	}
	if (ret == 0 && lv) {
		uint64_t now = st_now_ns();

		lv->drain_ns = now > last_reap ? now - last_reap : 0;
		add_point(lv, now - t0, lv->created, lv->reaped, 0);
	}
	if (ret < 0) {
		struct st_error ignored = { 0 };

		st_userns_set_limit(&lab->prober, lab->b->max_alive, &ignored);
		return ret;
	}
	return st_userns_set_limit(&lab->prober, lab->b->max_alive, err);
}

/* Sums a finished run's creators; @lv NULL for a bare loop. The first failure wins. */
static int collect(struct lab *lab, unsigned int p, uint64_t t0, struct st_churn_level *lv,
		   uint64_t *made, uint64_t *wall_ns, struct st_error *err)
{
	uint64_t last = t0;
	int ret = 0;

	*made = 0;
	for (unsigned int i = 0; i < p; i++) {
		struct st_churn_creator *c = &lab->sh->creator[i];

		if (c->failed && ret == 0) {
			*err = c->err;
			ret = -(err->errnum ? err->errnum : EIO);
		}
		*made += c->created;
		if (c->last_reap_ns > last)
			last = c->last_reap_ns;
		if (!lv)
			continue;
		st_hist_merge(&lv->create, &c->create);
		st_hist_merge(&lv->cycle, &c->cycle);
		st_hist_merge(&lv->wire, &c->wire);
		lv->created += c->created;
		lv->reaped += c->reaped;
		lv->throttled += c->throttled;
		lv->collisions += c->collisions;
	}
	*wall_ns = last - t0;
	return ret;
}

/* A creator that died (the OOM killer?) without finishing: reaped here, counted in @died. */
static void look_for_dead(const struct lab *lab, pid_t *pids, unsigned int p, unsigned int *died)
{
	for (unsigned int i = 0; i < p; i++) {
		int status;

		if (pids[i] <= 0 || waitpid(pids[i], &status, WNOHANG) != pids[i])
			continue;
		pids[i] = -1;
		if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			(*died)++;
			atomic_store(&lab->sh->cut, 1);
		}
	}
}

/*
 * Until every creator is done: the measured run's watch adds a point every
 * period; a bare loop (@lv NULL) is watched the same way without them, so
 * the two differ only in the counting (the lab's wakeups alone change how
 * fast a virtual CPU comes back from idle).
 */
static int watch(struct lab *lab, struct st_churn_level *lv, pid_t *pids, unsigned int p,
		 uint64_t t0, unsigned int *died, struct st_error *err)
{
	uint64_t next = t0 + ST_CHURN_SAMPLE_NS;
	int ret = 0;

	if (lv)
		add_point(lv, 0, 0, 0, 0);
	while (atomic_load(&lab->sh->finished) + (int)*died < (int)p) {
		if (lv && ret == 0 && st_now_ns() >= next) {
			ret = sample(lab, lv, t0, err);
			if (ret < 0)
				atomic_store(&lab->sh->cut, 1);
			next += ST_CHURN_SAMPLE_NS;
		}
		sleep_ns(WATCH_STEP_NS);
		look_for_dead(lab, pids, p, died);
	}
	return ret;
}

static void reset(struct st_churn_shared *sh, unsigned int p)
{
	atomic_store(&sh->finished, 0);
	atomic_store(&sh->created, 0);
	atomic_store(&sh->reaped, 0);
	for (unsigned int i = 0; i < p; i++) {
		memset(&sh->creator[i], 0, sizeof(sh->creator[i]));
		st_hist_init(&sh->creator[i].create);
		st_hist_init(&sh->creator[i].cycle);
		st_hist_init(&sh->creator[i].wire);
	}
}

/* Reaps every creator; returns how many did not exit with 0 (killed: the OOM killer?). */
static unsigned int reap_creators(pid_t *pids, unsigned int n)
{
	unsigned int died = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct st_error ignored;
		int status = 0;

		/* Reaped, whatever its status: never kill a pid that may be reused. */
		if (pids[i] > 0 && st_reap(pids[i], &status, &ignored) == 0)
			pids[i] = -1;
		killpidp(&pids[i]);
		died += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	return died;
}

/*
 * One run of @lv->parallel creators making b->count sandboxes between them:
 * measured into @lv, or a bare loop (@lv NULL) whose wall time and count
 * go to @wall_ns and @made.
 */
static int run(struct lab *lab, unsigned int p, struct st_churn_level *lv, uint64_t count,
	       uint64_t *made, uint64_t *wall_ns, uint64_t *started_at, struct st_error *err)
{
	_cleanup_close_ int start_rd = -1, start_wr = -1;
	pid_t pids[ST_CHURN_MAX_PARALLEL];
	uint64_t t0;
	unsigned int started = 0, died = 0;
	int ret = 0;

	reset(lab->sh, p);
	if (st_pipe(&start_rd, &start_wr, "pipe", err) < 0)
		return -err->errnum;
	for (; started < p; started++) {
		pids[started] = st_fork_child(err);
		if (pids[started] < 0)
			break;
		if (pids[started] == 0) {
			closep(&start_wr);
			creator_main(lab, started, count / p + (started < count % p), !lv, start_rd);
		}
	}
	if (started < p) {
		/* They wait for the start: nothing of theirs exists yet. */
		ret = -err->errnum;
		reap_creators(pids, started);
		return ret;
	}
	t0 = st_now_ns();
	*started_at = t0;
	lab->sh->deadline_ns = lv && lab->b->duration_ns ? t0 + lab->b->duration_ns : 0;
	closep(&start_wr);
	ret = watch(lab, lv, pids, p, t0, &died, err);
	died += reap_creators(pids, p);
	if (died && ret == 0)
		ret = st_error_set(err, EPROTO, "bench churn: a creator died before its last sandbox");
	if (ret == 0)
		ret = collect(lab, p, t0, lv, made, wall_ns, err);
	if (lv && ret == 0)
		ret = sample(lab, lv, t0, err);
	if (ret == 0 && told_to_stop(lab))
		ret = -EINTR;
	return ret;
}

/* The measured run, its drain timed, into @lv; the drain comes first. */
static int measured(struct lab *lab, struct st_churn_level *lv, uint64_t count,
		    struct st_error *err)
{
	uint64_t made = 0, t0 = 0;
	int ret = drain(lab, NULL, 0, 0, err);

	if (ret == 0)
		ret = run(lab, lv->parallel, lv, count, &made, &lv->wall_ns, &t0, err);
	if (ret == 0)
		ret = drain(lab, lv, t0, t0 + lv->wall_ns, err);
	if (ret == 0)
		lv->freed = lv->created;
	/* Wired: every lab end went with its sandbox's namespace, or this says how many did not. */
	if (ret == 0 && lab->nl)
		ret = st_churn_lab_veths(lab->nl, &lv->links_end, err);
	return ret;
}

/* Bare loop @i of @lv, making @count sandboxes; the drain comes first. */
static int bare(struct lab *lab, struct st_churn_level *lv, int i, uint64_t count,
		struct st_error *err)
{
	uint64_t ignored_t0;
	int ret = drain(lab, NULL, 0, 0, err);

	if (ret == 0)
		ret = run(lab, lv->parallel, NULL, count, &lv->bare_created[i], &lv->bare_wall_ns[i],
			  &ignored_t0, err);
	return ret;
}

/*
 * bare, measured, bare, each from an empty backlog; with --duration the
 * measured run first (the bare loops then make as many as it did).
 */
static int run_level(struct lab *lab, struct st_churn_level *lv, struct st_error *err)
{
	uint64_t count = lab->b->count;
	int ret;

	if (lab->b->duration_ns) {
		ret = measured(lab, lv, UINT64_MAX, err);
		if (ret == 0)
			ret = bare(lab, lv, 0, lv->created, err);
	} else {
		ret = bare(lab, lv, 0, count, err);
		if (ret == 0)
			ret = measured(lab, lv, count, err);
	}
	if (ret == 0)
		ret = bare(lab, lv, 1, lv->created, err);
	return ret;
}

static int lab_run(struct lab *lab, struct st_churn_result *r)
{
	const struct st_bench_churn *b = lab->b;
	int ret;

	/* Sleeps of 0.1 ms must not be stretched to the default 50 us slack. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	ret = st_userns_prober_start(&lab->prober, &r->err);
	if (ret == 0)
		ret = st_userns_set_limit(&lab->prober, b->max_alive, &r->err);
	if (ret == 0 && st_net_wired(b->net))
		ret = st_churn_lab_net_start(b->net, &lab->nl, &r->err);
	for (size_t i = 0; ret == 0 && i < b->nlevels; i++) {
		struct st_churn_level *lv = &lab->sh->level[i];

		memset(lv, 0, offsetof(struct st_churn_level, series));
		lv->parallel = b->parallel[i];
		st_hist_init(&lv->create);
		st_hist_init(&lv->cycle);
		st_hist_init(&lv->wire);
		ret = run_level(lab, lv, &r->err);
		if (ret == 0)
			r->done = i + 1;
	}
	/* Whatever stopped us, nothing made here may outlive the lab. */
	if (ret < 0 && lab->prober.pid > 0) {
		struct st_error ignored = { 0 };

		drain(lab, NULL, 0, 0, &ignored);
	}
	st_churn_lab_net_end(b->net, &lab->nl);
	st_userns_prober_stop(&lab->prober);
	return ret;
}

void st_churn_lab_main(const struct st_bench_churn *b, struct st_churn_shared *sh, int go_rd,
		       int res_wr)
{
	struct lab lab = { .b = b, .sh = sh, .flags = st_layer_flags(b->mask),
			   .prober = { .pid = -1, .req_wr = -1, .res_rd = -1, .limit_fd = -1 } };
	struct st_churn_result r;
	char c;
	int ret;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The main process writes our id maps, then closes its end: EOF means go. */
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	memset(&r, 0, sizeof(r));
	ret = lab_run(&lab, &r);
	r.stopped = atomic_load(&sh->stop);
	r.failed = ret < 0 && !(ret == -EINTR && r.stopped);
	if (write(res_wr, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}
