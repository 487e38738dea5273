/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_UTS_H
#define SANDBOXTIME_NS_UTS_H

#include "sandboxtime/error.h"

#define ST_DEFAULT_HOSTNAME "sandbox"

/* Checks a --hostname value the way sethostname(2) will: 1..64 bytes. */
int st_ns_uts_validate(const char *hostname, struct st_error *err);

/* In the child, inside the new uts namespace. */
int st_ns_uts_set_hostname(const char *hostname, struct st_error *err);

#endif
