// SPDX-License-Identifier: MIT
/*
 * bench churn --net=veth|bridge (churn_net.h): the pair of every sandbox,
 * made by its creator in the lab's own network namespace through the
 * project's netlink requests (nl_link.c), and the lab's bridge.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandboxtime/churn_net.h"
#include "sandboxtime/compiler.h"
#include "sandboxtime/nl.h"
#include "sandboxtime/steps.h"

int st_churn_wire_open(struct st_churn_wire *w, enum st_net_mode mode, unsigned int creator,
		       struct st_error *err)
{
	memset(w, 0, sizeof(*w));
	w->mode = mode;
	w->creator = creator;
	return st_nl_open(&w->nl, err);
}

void st_churn_wire_close(struct st_churn_wire *w)
{
	st_nl_closep(&w->nl);
}

int st_churn_hold_make(int hold[2], struct st_error *err)
{
	/* Not O_CLOEXEC: nothing execs, and the child keeps its end across the clone. */
	if (pipe(hold) < 0)
		return st_error_set(err, errno, "bench churn: the sandbox's hold (pipe)");
	return 0;
}

void st_churn_hold_wait(int hold[2])
{
	char c;

	/* Our copy of the write end closed: EOF comes when the creator closes its own, or dies. */
	close(hold[1]);
	while (read(hold[0], &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* EOPNOTSUPP for a link kind: the kernel has no driver for it. */
static const char no_veth[] =
	"this kernel has no veth driver: build it with CONFIG_VETH, or modprobe veth";
static const char no_bridge[] =
	"this kernel has no bridge driver: build it with CONFIG_BRIDGE, or modprobe bridge";

/* The pair, eth0 born in the namespace @netns, and for a bridge its lab end enslaved. */
static int make_pair(struct st_churn_wire *w, int netns, struct st_error *err)
{
	int ret = st_fault("churn_veth", err);

	if (ret == 0)
		ret = st_nl_veth_create(w->nl, w->lab_if, ST_NET_INSIDE_IF, netns, 0, err);
	if (ret == -EOPNOTSUPP)
		st_error_hint(err, no_veth);
	if (ret < 0 || w->mode != ST_NET_BRIDGE)
		return ret;
	ret = st_fault("churn_bridge_attach", err);
	if (ret == 0)
		ret = st_nl_link_set_master(w->nl, w->lab_if, ST_CHURN_BRIDGE, err);
	if (ret < 0) {
		/* Made but not attached: undone now, not left to the namespace's end. */
		struct st_error ignored = { 0 };

		st_nl_link_del(w->nl, w->lab_if, &ignored);
	}
	return ret;
}

int st_churn_wire_sandbox(struct st_churn_wire *w, pid_t pid, int hold[2], struct st_error *err)
{
	/* Closed last, whatever happens: the child's release. */
	_cleanup_close_ _unused_ int release = take_fd(&hold[1]);
	_cleanup_close_ int netns = -1;
	char path[40];
	int ret;

	closep(&hold[0]);
	snprintf(w->lab_if, sizeof(w->lab_if), "cv%u_%u", w->creator, w->n++);
	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	netns = open(path, O_RDONLY | O_CLOEXEC);
	if (netns < 0)
		ret = st_error_set(err, errno, "opening %s", path);
	else
		ret = make_pair(w, netns, err);
	if (ret < 0)
		return st_error_wrap(err, "bench churn --net=%s: creator %u",
				     st_net_mode_names[w->mode], w->creator);
	return 0;
}

int st_churn_lab_net_start(enum st_net_mode mode, struct st_nl **nl, struct st_error *err)
{
	int ret = st_nl_open(nl, err);

	if (ret == 0 && mode == ST_NET_BRIDGE)
		ret = st_fault("churn_bridge", err);
	if (ret == 0 && mode == ST_NET_BRIDGE)
		ret = st_nl_bridge_create(*nl, ST_CHURN_BRIDGE, 0, err);
	if (ret == 0)
		return 0;
	st_nl_closep(nl);
	if (ret == -EOPNOTSUPP)
		st_error_hint(err, no_bridge);
	return st_error_wrap(err, "bench churn --net=%s: the lab's network namespace",
			     st_net_mode_names[mode]);
}

static void count_veth(const char *name, int index, const char *kind, void *data)
{
	uint64_t *n = data;

	*n += strcmp(kind, "veth") == 0;
}

int st_churn_lab_veths(struct st_nl *nl, uint64_t *n, struct st_error *err)
{
	*n = 0;
	return st_nl_link_list(nl, count_veth, n, err);
}

void st_churn_lab_net_end(enum st_net_mode mode, struct st_nl **nl)
{
	struct st_error ignored = { 0 };

	/* It would go with the lab's namespace too; deleted here, it is not left to chance. */
	if (*nl && mode == ST_NET_BRIDGE)
		st_nl_link_del(*nl, ST_CHURN_BRIDGE, &ignored);
	st_nl_closep(nl);
}
