// SPDX-License-Identifier: MIT
/*
 * The count of user namespaces below ours, read through the kernel's own
 * limit check (userns_count.h). Shared by the deferred lab, which asks
 * "is anything still counted?", and bench churn, which reads the backlog.
 */
#include <fcntl.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sandboxtime/clock.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/userns_count.h"

#define MAX_USER_NS "/proc/sys/user/max_user_namespaces"
#define SETTLE_GRACE_PERIODS 2
#define SETTLE_SLEEP_NS 50000000L
#define DRAIN_POLL_NS 50000L

static void _noreturn_ prober_main(int req_rd, int res_wr)
{
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (chroot("/proc") < 0 || chdir("/") < 0)
		_exit(1);
	while (TEMP_FAILURE_RETRY(read(req_rd, &c, 1)) == 1) {
		int e = unshare(CLONE_NEWUSER) == 0 ? 0 : errno;

		/* Created one after all (not chrooted?): stop, the caller says why. */
		if (write(res_wr, &e, sizeof(e)) != (ssize_t)sizeof(e) || e == 0)
			_exit(e == 0 ? 2 : 1);
	}
	_exit(0);
}

int st_userns_prober_start(struct st_userns_prober *p, struct st_error *err)
{
	int req[2], res[2];

	p->pid = -1;
	p->req_wr = p->res_rd = p->limit_fd = -1;
	if (pipe2(req, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "pipe");
	if (pipe2(res, O_CLOEXEC) < 0) {
		close(req[0]);
		close(req[1]);
		return st_error_set(err, errno, "pipe");
	}
	p->pid = st_fork_child(err);
	if (p->pid == 0) {
		close(req[1]);
		close(res[0]);
		prober_main(req[0], res[1]);
	}
	close(req[0]);
	close(res[1]);
	p->req_wr = req[1];
	p->res_rd = res[0];
	if (p->pid < 0) {
		int ret = (int)p->pid;

		st_userns_prober_stop(p);
		return ret;
	}
	return 0;
}

int st_userns_prober_ask(const struct st_userns_prober *p, struct st_error *err)
{
	char c = '?';
	int e;

	if (write(p->req_wr, &c, 1) != 1 ||
	    TEMP_FAILURE_RETRY(read(p->res_rd, &e, sizeof(e))) != (ssize_t)sizeof(e))
		return st_error_set(err, EPROTO, "the user namespace prober died");
	if (e == 0)
		return st_error_set(err, EPROTO,
				    "the user namespace prober created a user namespace in a chroot");
	if (e != ENOSPC && e != EPERM)
		return st_error_set(err, e, "the user namespace prober's unshare(CLONE_NEWUSER)");
	return e == ENOSPC;
}

int st_userns_set_limit(struct st_userns_prober *p, uint64_t n, struct st_error *err)
{
	char buf[24];
	int len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)n);

	if (p->limit_fd < 0) {
		p->limit_fd = open(MAX_USER_NS, O_WRONLY | O_CLOEXEC);
		if (p->limit_fd < 0)
			return st_error_set(err, errno, "opening %s in a private user namespace",
					    MAX_USER_NS);
	}
	if (pwrite(p->limit_fd, buf, (size_t)len, 0) != len)
		return st_error_set(err, errno, "setting %s to %llu in a private user namespace",
				    MAX_USER_NS, (unsigned long long)n);
	return 0;
}

int st_userns_count(struct st_userns_prober *p, uint64_t lo, uint64_t hi, uint64_t restore,
		    uint64_t *out, struct st_error *err)
{
	int ret = 0;

	/* The prober's own attempt counts too: at limit m+1 it is refused iff count > m. */
	while (lo < hi && ret >= 0) {
		uint64_t m = lo + (hi - lo) / 2;

		ret = st_userns_set_limit(p, m + 1, err);
		if (ret == 0)
			ret = st_userns_prober_ask(p, err);
		if (ret == 1)
			lo = m + 1;
		else if (ret == 0)
			hi = m;
	}
	*out = lo;
	if (st_userns_set_limit(p, restore, err) < 0 && ret >= 0)
		return -err->errnum;
	return ret < 0 ? ret : 0;
}

void st_userns_prober_stop(struct st_userns_prober *p)
{
	struct st_error ignored;

	closep(&p->req_wr);
	closep(&p->res_rd);
	closep(&p->limit_fd);
	/* EOF on its requests ends it. */
	if (p->pid > 0)
		st_reap(p->pid, NULL, &ignored);
	p->pid = -1;
}

static void sleep_ns(long ns)
{
	const struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/*
 * A grace period still running when the next sample's free asks for one
 * makes that free wait for the rest of it too: ipc read 12-15 ms right after
 * the count drained, against 6.5-8 ms for bench/clone_loop after 300 ms
 * idle, and 6.9-7.2 ms after two grace periods of our own.
 * membarrier(MEMBARRIER_CMD_GLOBAL) is synchronize_rcu().
 */
int st_rcu_settle(void)
{
	for (int i = 0; i < SETTLE_GRACE_PERIODS; i++)
		if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) < 0) {
			sleep_ns(SETTLE_SLEEP_NS);
			return ST_SETTLE_SLEEP;
		}
	return ST_SETTLE_RCU;
}

int st_userns_drain(struct st_userns_prober *p, uint64_t restore, uint64_t timeout_ns,
		    int *settled_by, struct st_error *err)
{
	uint64_t start = st_now_ns();
	struct st_error ignored;
	int ret = st_userns_set_limit(p, 1, err);

	/* At limit 1 the prober's own attempt is refused iff anything is counted. */
	while (ret == 0 && (ret = st_userns_prober_ask(p, err)) == 1) {
		ret = 0;
		if (st_now_ns() - start > timeout_ns) {
			ret = st_error_set(err, ETIMEDOUT,
					   "user namespaces of earlier samples not freed after %llu s",
					   (unsigned long long)(timeout_ns / 1000000000ull));
			break;
		}
		sleep_ns(DRAIN_POLL_NS);
	}
	if (ret == 0)
		*settled_by = st_rcu_settle();
	/* Put back on every path; its failure is the error only when nothing failed before. */
	if (st_userns_set_limit(p, restore, ret < 0 ? &ignored : err) < 0 && ret == 0)
		ret = -err->errnum;
	return ret < 0 ? ret : 0;
}
