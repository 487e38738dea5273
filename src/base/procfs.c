// SPDX-License-Identifier: MIT
/*
 * /proc formats, parsed without I/O so that unit tests and the fuzzer reach
 * them with fixture lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/procfs.h"

static int is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

void st_mountinfo_unescape(char *s)
{
	char *w = s;

	/* The kernel writes " \t\n\\" as \040 \011 \012 \134; a backslash never stands alone. */
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && is_odigit(s[2]) && is_odigit(s[3])) {
			*w++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
			continue;
		}
		*w++ = *s++;
	}
	*w = '\0';
}

/* The next space-separated field of *@p, NUL-terminated; NULL at the end of the line. */
static char *next_field(char **p)
{
	char *s = *p, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, ' ');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

static int parse_uint(const char *s, char stop, unsigned int *out, const char **end)
{
	unsigned long v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 0xffffffffUL)
			return -EINVAL;
	}
	if (*s != stop)
		return -EINVAL;
	*out = (unsigned int)v;
	if (end)
		*end = s;
	return 0;
}

int st_mountinfo_parse(char *line, struct st_mountinfo *m)
{
	char *p = line, *f;
	const char *end;

	memset(m, 0, sizeof(*m));
	line[strcspn(line, "\n")] = '\0';
	f = next_field(&p);
	if (!f || parse_uint(f, '\0', &m->id, NULL) < 0)
		return -EINVAL;
	f = next_field(&p);
	if (!f || parse_uint(f, '\0', &m->parent, NULL) < 0)
		return -EINVAL;
	f = next_field(&p);
	if (!f || parse_uint(f, ':', &m->major, &end) < 0 || parse_uint(end + 1, '\0', &m->minor, NULL) < 0)
		return -EINVAL;
	m->root = next_field(&p);
	m->mountpoint = next_field(&p);
	m->options = next_field(&p);
	if (!m->options)
		return -EINVAL;
	/* Optional fields ("shared:1", "master:2", ...) until the lone "-". */
	for (;;) {
		f = next_field(&p);
		if (!f)
			return -EINVAL;
		if (strcmp(f, "-") == 0)
			break;
	}
	m->fstype = next_field(&p);
	m->source = next_field(&p);
	m->super_options = next_field(&p);
	if (!m->fstype || !m->source || !m->super_options || p)
		return -EINVAL;
	st_mountinfo_unescape(m->root);
	st_mountinfo_unescape(m->mountpoint);
	st_mountinfo_unescape(m->source);
	return 0;
}

int st_nsfs_root_inode(const char *root, const char *type, unsigned long long *ino)
{
	size_t len = strlen(type);
	unsigned long long v = 0;
	const char *s;

	if (strncmp(root, type, len) != 0 || root[len] != ':' || root[len + 1] != '[')
		return -EINVAL;
	s = root + len + 2;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (~0ULL - 9) / 10)
			return -EINVAL;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (s[0] != ']' || s[1] != '\0')
		return -EINVAL;
	*ino = v;
	return 0;
}

int st_mountpoint_split(const char *path, char *dir, size_t len, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash || !slash[1] || (size_t)(slash - path) >= len)
		return -EINVAL;
	snprintf(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	*base = slash + 1;
	return 0;
}

void st_netdev_init(struct st_netdev *d)
{
	d->len = 0;
	d->line = 0;
	d->skipping = 0;
}

char *st_netdev_room(struct st_netdev *d, size_t *room)
{
	*room = sizeof(d->buf) - 1 - d->len;
	return d->buf + d->len;
}

void st_netdev_feed(struct st_netdev *d, size_t n, void (*cb)(const char *name, void *data),
		    void *data)
{
	char *p = d->buf, *end, *nl;

	d->len += n;
	end = d->buf + d->len;
	*end = '\0';
	/* memchr, not strchr: a NUL byte must not hide the newlines after it. */
	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		char *colon = memchr(p, ':', (size_t)(nl - p));

		*nl = '\0';
		if (d->skipping) {
			/* The end of a line too long: not a name, but a line (perhaps a header). */
			d->skipping = 0;
			if (d->line < 2)
				d->line++;
		} else if (d->line < 2) {
			d->line++;
		} else if (colon) {
			*colon = '\0';
			cb(p + strspn(p, " \t"), data);
		}
		p = nl + 1;
	}
	d->len = (size_t)(end - p);
	memmove(d->buf, p, d->len);
	if (d->len == sizeof(d->buf) - 1) {
		d->len = 0; /* no line is that long: drop it, up to its newline */
		d->skipping = 1;
	}
}

size_t st_read_pids(const char *path, pid_t *pids, size_t max)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;
	int pid;

	if (!f)
		return 0;
	while (n < max && fscanf(f, "%d", &pid) == 1)
		pids[n++] = pid;
	fclose(f);
	return n;
}
