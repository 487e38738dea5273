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

void st_error_format(const struct st_error *err, char *buf, size_t len)
{
	const char *msg = err->msg[0] ? err->msg : "unknown error";

	const char *cause = err->errnum ? strerror(err->errnum) : NULL;

	snprintf(buf, len, "%s%s%s%s%s%s", msg, cause ? ": " : "", cause ? cause : "",
		 err->hint[0] ? " (" : "", err->hint, err->hint[0] ? ")" : "");
}
