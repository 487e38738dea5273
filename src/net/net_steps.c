// SPDX-License-Identifier: MIT
/*
 * --net-steps-repeat: the network wiring's steps done N times in a private
 * lab and timed, for a median and a spread of each (a measurement; the one
 * run's own step list is steps.c).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "sandboxtime/net_steps.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/ns_user.h"
#include "sandboxtime/spawn.h"
#include "sandboxtime/util.h"

/* What the worker sends per repetition: that round's steps, or why it failed. */
struct round {
	int failed;
	struct st_error err;
	struct st_steps steps;
};

/* A process that only holds a fresh network namespace: the sandbox's stand-in. */
struct holder {
	pid_t pid;
	int netns_fd; /* its network namespace */
	int release;  /* closing it ends the holder */
};

static int holder_start(struct holder *h, struct st_error *err)
{
	char path[64], c;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "net steps: pipe");
	h->pid = st_clone3(CLONE_NEWNET, err);
	if (h->pid == 0) {
		close(fds[1]);
		while (read(fds[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(fds[0]);
	h->release = fds[1];
	if (h->pid < 0)
		return (int)h->pid;
	snprintf(path, sizeof(path), "/proc/%d/ns/net", h->pid);
	h->netns_fd = open(path, O_RDONLY | O_CLOEXEC);
	return h->netns_fd < 0 ? st_error_set(err, errno, "net steps: %s", path) : 0;
}

static void holder_end(struct holder *h)
{
	closep(&h->netns_fd);
	closep(&h->release);
	if (h->pid > 0)
		st_reap(h->pid, &(int){ 0 }, &(struct st_error){ 0 });
	h->pid = -1;
}

/* A netlink socket in the network namespace @netns_fd; the caller stays where it was. */
static int nl_open_in(int netns_fd, struct st_nl **nl, struct st_error *err)
{
	_cleanup_close_ int own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	int ret;

	if (own < 0)
		return st_error_set(err, errno, "net steps: opening own network namespace");
	if (setns(netns_fd, CLONE_NEWNET) < 0)
		return st_error_set(err, errno, "net steps: entering the sandbox's stand-in");
	ret = st_nl_open(nl, err);
	if (setns(own, CLONE_NEWNET) < 0 && ret == 0) {
		st_nl_closep(nl);
		ret = st_error_set(err, errno, "net steps: returning to the lab");
	}
	return ret;
}

/*
 * One wiring and unwiring of a fresh namespace, every step timed into
 * r->steps: the outside, then the inside through a socket opened there
 * beforehand (as the sandbox opens its own before its first step).
 */
static int one_round(struct st_nl *nl, const struct st_net_plan *p, struct round *r)
{
	struct holder h = { .pid = -1, .netns_fd = -1, .release = -1 };
	struct st_net_made made = { 0, 0 };
	_cleanup_(st_nl_closep) struct st_nl *inside = NULL;
	int ret = holder_start(&h, &r->err);

	if (ret == 0)
		ret = st_net_setup_outside(nl, p, h.netns_fd, &made, &r->steps, &r->err);
	if (ret == 0)
		ret = nl_open_in(h.netns_fd, &inside, &r->err);
	if (ret == 0)
		ret = st_net_setup_inside_nl(inside, p, &r->steps, &r->err);
	/* Always unwired, and timed: the delete is what the kernel makes expensive. */
	if (st_net_teardown_outside(nl, p, &made, &r->steps, ret < 0 ? &(struct st_error){ 0 } : &r->err) < 0 &&
	    ret == 0)
		ret = -r->err.errnum;
	holder_end(&h);
	return ret;
}

static void _noreturn_ worker(const struct st_net_plan *p, unsigned int rounds, int go_rd, int out_wr)
{
	struct st_nl *nl = NULL;
	struct round r;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;
	memset(&r, 0, sizeof(r));
	if (st_nl_open(&nl, &r.err) < 0) {
		r.failed = 1;
		if (write(out_wr, &r, sizeof(r)) < 0)
			_exit(1);
		_exit(0);
	}
	for (unsigned int i = 0; i < rounds; i++) {
		memset(&r, 0, sizeof(r));
		r.failed = one_round(nl, p, &r) < 0;
		if (write(out_wr, &r, sizeof(r)) != (ssize_t)sizeof(r) || r.failed)
			break;
	}
	_exit(0);
}

static struct st_samples *samples_of(struct st_net_steps *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->step[i].name, name) == 0)
			return &s->step[i].us;
	if (s->n == ST_NET_STEPS_MAX)
		return NULL;
	snprintf(s->step[s->n].name, sizeof(s->step[s->n].name), "%s", name);
	return &s->step[s->n++].us;
}

int st_net_steps_measure(enum st_net_mode mode, unsigned int mtu, int ipv6, int batch, unsigned int repeat, int rootless,
			 struct st_net_steps *out, struct st_error *err)
{
	_cleanup_close_ int go_rd = -1, go_wr = -1, out_rd = -1, out_wr = -1;
	_cleanup_pid_ pid_t pid = -1;
	struct st_net_plan p;
	int ret;

	memset(out, 0, sizeof(*out));
	out->repeat = repeat;
	memset(&p, 0, sizeof(p));
	p.mode = mode;
	p.mtu = mtu;
	p.join_fd = -1;
	/* Names and addresses of the lab: nothing outside it can see them. */
	snprintf(p.host_if, sizeof(p.host_if), "lab0");
	snprintf(p.bridge, sizeof(p.bridge), "labbr0");
	if (st_ip4_parse("lab", mode == ST_NET_BRIDGE ? "10.218.0.1/24" : "10.218.0.1/30", &p.outside, err) < 0 ||
	    st_ip4_parse("lab", mode == ST_NET_BRIDGE ? "10.218.0.2/24" : "10.218.0.2/30", &p.inside, err) < 0)
		return -EINVAL;
	p.batch = batch;
	/* --ipv6: the outside end's IPv6 address is one step more, timed too. */
	p.ipv6 = ipv6;
	if (ipv6 && (st_ip6_parse("lab", "fd5b:7e1d:abff::1/64", &p.outside6, err) < 0 ||
		     st_ip6_parse("lab", "fd5b:7e1d:abff::2/64", &p.inside6, err) < 0))
		return -EINVAL;
	if (st_pipe(&go_rd, &go_wr, "net steps: pipe", err) < 0)
		return -err->errnum;
	if (st_pipe(&out_rd, &out_wr, "net steps: pipe", err) < 0)
		return -err->errnum;
	pid = st_clone3(CLONE_NEWNET | (rootless ? CLONE_NEWUSER : 0), err);
	if (pid < 0)
		return st_error_wrap(err, "net steps");
	if (pid == 0)
		worker(&p, repeat, go_rd, out_wr);
	closep(&out_wr);
	if (rootless && (ret = st_ns_user_map_caller(pid, err)) < 0)
		return st_error_wrap(err, "net steps");
	if (write(go_wr, "g", 1) != 1)
		return st_error_set(err, errno, "net steps: releasing the worker");
	for (unsigned int i = 0; i < repeat; i++) {
		struct round r;

		if (TEMP_FAILURE_RETRY(read(out_rd, &r, sizeof(r))) != (ssize_t)sizeof(r))
			return st_error_set(err, EPROTO, "net steps: the worker died");
		if (r.failed) {
			*err = r.err;
			return st_error_wrap(err, "net steps");
		}
		for (size_t k = 0; k < r.steps.n; k++) {
			struct st_samples *s = samples_of(out, r.steps.v[k].name);

			if (s)
				st_samples_add(s, r.steps.v[k].us);
		}
	}
	return st_reap(take_pid(&pid), NULL, err);
}

void st_net_steps_free(struct st_net_steps *s)
{
	for (size_t i = 0; i < s->n; i++)
		st_samples_free(&s->step[i].us);
	s->n = 0;
}
