// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <fcntl.h>
#include <string.h>

#include "sandboxtime/util.h"

int st_read_file(const char *path, char *buf, size_t len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;

	if (len == 0)
		return -EINVAL;
	if (fd < 0)
		return -errno;
	while (used + 1 < len) {
		ssize_t n = TEMP_FAILURE_RETRY(read(fd, buf + used, len - 1 - used));

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	if (used && buf[used - 1] == '\n')
		buf[--used] = '\0';
	return (int)used;
}

int st_pipe(int *rd, int *wr, const char *what, struct st_error *err)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC) < 0)
		return st_error_set(err, errno, "%s", what);
	*rd = fds[0];
	*wr = fds[1];
	return 0;
}

int st_write_file(const char *path, const char *data)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(data);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = TEMP_FAILURE_RETRY(write(fd, data, len));
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	return 0;
}

int st_parse_uint(const char *what, const char *text, uint64_t min, uint64_t max,
		  uint64_t *out, struct st_error *err)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts "-1" and leading blanks; a count must be plain digits. */
	if (!text || !isdigit((unsigned char)text[0]))
		return st_error_usage(err, "%s: '%s' is not a number", what, text ? text : "");
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno == ERANGE)
		return st_error_usage(err, "%s: '%s' is too large (at most %llu)", what, text,
				      (unsigned long long)max);
	if (*end)
		return st_error_usage(err, "%s: '%s' is not a number", what, text);
	if (v < min || v > max)
		return st_error_usage(err, "%s: %llu is out of range (%llu to %llu)", what, v,
				      (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

void st_strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

const char *st_path_dot_component(const char *path, size_t *len)
{
	const char *p = path;

	while (*p) {
		p += strspn(p, "/");
		*len = strcspn(p, "/");
		if ((*len == 1 && p[0] == '.') || (*len == 2 && p[0] == '.' && p[1] == '.'))
			return p;
		p += *len;
	}
	return NULL;
}

int st_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int st_find_on_path(const char *const *names, size_t n, char *out, size_t len)
{
	const char *path = getenv("PATH");

	for (size_t i = 0; i < n; i++) {
		for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
			size_t dlen = strcspn(p, ":");

			snprintf(out, len, "%.*s/%s", (int)dlen, p, names[i]);
			if (dlen && access(out, X_OK) == 0)
				return 0;
			p += dlen + (p[dlen] == ':');
		}
	}
	return -ENOENT;
}
