/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NL_H
#define SANDBOXTIME_NL_H

#include "sandboxtime/error.h"

/*
 * rtnetlink over libmnl, the project's only netlink user. A socket belongs to
 * the network namespace it was opened in. Every request asks for an ACK, and
 * a NLMSG_ERROR becomes -errno with the kernel's extended-ack text, if any,
 * in the error message.
 */
struct st_nl;

int st_nl_open(struct st_nl **out, struct st_error *err);
void st_nl_close(struct st_nl *nl);
static inline void st_nl_closep(struct st_nl **nl)
{
	if (*nl)
		st_nl_close(*nl);
	*nl = NULL;
}

/* Sets link @ifname up (IFF_UP) with RTM_NEWLINK. */
int st_nl_link_set_up(struct st_nl *nl, const char *ifname, struct st_error *err);

#endif
