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
 * Copies @src escaping control characters (\n, \t, \xNN), so that a name the
 * user typed with a newline in it cannot split the one-line message.
 */
static void escape_controls(const char *src, char *dst, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return;
	for (; *src; src++) {
		unsigned char c = (unsigned char)*src;
		char esc[8];
		size_t n;

		if (c == '\n')
			n = (size_t)snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			n = (size_t)snprintf(esc, sizeof(esc), "\\t");
		else if (c < 0x20 || c == 0x7f)
			n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			n = (size_t)snprintf(esc, sizeof(esc), "%c", c);
		if (o + n >= len)
			break;
		memcpy(dst + o, esc, n);
		o += n;
	}
	dst[o] = '\0';
}

void st_error_format(const struct st_error *err, char *buf, size_t len)
{
	const char *msg = err->msg[0] ? err->msg : "unknown error";
	const char *cause = err->errnum ? strerror(err->errnum) : NULL;
	char raw[3 * ST_ERROR_MSG_MAX];

	snprintf(raw, sizeof(raw), "%s%s%s%s%s%s", msg, cause ? ": " : "", cause ? cause : "",
		 err->hint[0] ? " (" : "", err->hint, err->hint[0] ? ")" : "");
	escape_controls(raw, buf, len);
}
