// SPDX-License-Identifier: MIT
#include <string.h>
#include <sys/utsname.h>

#include "sandboxtime/ns_uts.h"

int st_ns_uts_validate(const char *hostname, struct st_error *err)
{
	size_t len = strlen(hostname);
	struct utsname u;

	if (len == 0 || len >= sizeof(u.nodename))
		return st_error_usage(err, "--hostname: '%s' must be 1 to %zu bytes long", hostname,
				      sizeof(u.nodename) - 1);
	return 0;
}

int st_ns_uts_set_hostname(const char *hostname, struct st_error *err)
{
	if (sethostname(hostname, strlen(hostname)) < 0)
		return st_error_set(err, errno, "uts: sethostname '%s'", hostname);
	return 0;
}
