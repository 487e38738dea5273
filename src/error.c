// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/error.h"

static int vset(struct st_error *err, int errnum, const char *fmt, va_list ap)
{
	err->errnum = errnum;
	err->hint[0] = '\0';
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return errnum ? -errnum : -EINVAL;
}

int st_error_set(struct st_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	err->usage = 0;
	ret = vset(err, errnum, fmt, ap);
	va_end(ap);
	return ret;
}

int st_error_usage(struct st_error *err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vset(err, EINVAL, fmt, ap);
	err->usage = 1;
	va_end(ap);
	/* Bad usage has no errno worth printing: the message says it all. */
	err->errnum = 0;
	return ret;
}

int st_error_wrap(struct st_error *err, const char *fmt, ...)
{
	char ctx[ST_ERROR_MSG_MAX];
	char old[ST_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	if (old[0])
		snprintf(err->msg, sizeof(err->msg), "%s: %s", ctx, old);
	else
		snprintf(err->msg, sizeof(err->msg), "%s", ctx);
	return err->errnum ? -err->errnum : -EINVAL;
}

void st_error_clear(struct st_error *err)
{
	err->errnum = 0;
	err->usage = 0;
	err->msg[0] = '\0';
	err->hint[0] = '\0';
}

void st_error_hint(struct st_error *err, const char *hint)
{
	if (hint)
		snprintf(err->hint, sizeof(err->hint), "%s", hint);
}

/*
 * Where the cause of a failed clone is known, say which knob to turn:
 * users act on hints, not on "Operation not permitted".
 */
const char *st_error_hint_clone(int errnum, const char *layer)
{
	int is_user = layer && strcmp(layer, "user") == 0;

	switch (errnum) {
	case ENOSPC:
		return is_user ? "the limit in /proc/sys/user/max_user_namespaces is reached; raise it with sysctl user.max_user_namespaces=N"
			       : "a /proc/sys/user/max_*_namespaces limit is reached; raise it with sysctl user.max_<type>_namespaces=N";
	case EPERM:
		return is_user ? "unprivileged user namespaces are disabled; enable them with sysctl kernel.unprivileged_userns_clone=1, or check user.max_user_namespaces and AppArmor's kernel.apparmor_restrict_unprivileged_userns"
			       : "creating this namespace needs CAP_SYS_ADMIN: run as root or add the user layer (--ns=user,...)";
	case EINVAL:
		return "the kernel does not support this namespace type (check its CONFIG_*_NS option)";
	case EUSERS:
		return "too many nested user namespaces (the kernel allows 32 levels)";
	default:
		return NULL;
	}
}

void st_error_format(const struct st_error *err, char *buf, size_t len)
{
	const char *msg = err->msg[0] ? err->msg : "unknown error";

	const char *cause = err->errnum ? strerror(err->errnum) : NULL;

	snprintf(buf, len, "%s%s%s%s%s%s", msg, cause ? ": " : "", cause ? cause : "",
		 err->hint[0] ? " (" : "", err->hint, err->hint[0] ? ")" : "");
}
