// SPDX-License-Identifier: MIT
/*
 * st_netdev_feed() on any bytes, as if they were /proc/PID/net/dev: byte 0
 * seeds the lengths of the successive reads (1 byte to the whole room), the
 * rest is the file. The names that come out must be those of a plain
 * reading of the whole text (every complete line past the first two that
 * holds a ':', up to it, leading blanks skipped; a line too long for the
 * buffer counts as a line but gives no name), whatever the reads' sizes.
 */
#include "sandboxtime/procfs.h"
#include "fuzz.h"

struct seen {
	char **v;
	size_t n;
};

static void add(const char *name, void *data)
{
	struct seen *s = data;

	if (strlen(name) >= sizeof(((struct st_netdev *)0)->buf) || strchr(name, '\n') ||
	    strchr(name, ':'))
		abort();
	s->v = realloc(s->v, (s->n + 1) * sizeof(*s->v));
	if (!s->v || !(s->v[s->n] = strdup(name)))
		abort();
	s->n++;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* The names a reading of the whole text at once sees. */
static void expected(const uint8_t *text, size_t size, struct seen *s)
{
	const uint8_t *p = text, *end = text + size, *nl;
	unsigned int line = 0;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		if ((size_t)(nl - p) + 1 >= sizeof(((struct st_netdev *)0)->buf)) {
			if (line < 2)
				line++;
		} else if (line < 2) {
			line++;
		} else {
			const uint8_t *colon = memchr(p, ':', (size_t)(nl - p));

			if (colon) {
				char *name = fuzz_strndup(p, (size_t)(colon - p));

				add(name + strspn(name, " \t"), s);
				free(name);
			}
		}
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct st_netdev d;
	struct seen got = { 0 }, want = { 0 };
	uint32_t rnd;

	if (size < 1)
		return 0;
	rnd = 2654435761u * (data[0] + 1u);
	data++;
	size--;
	st_netdev_init(&d);
	for (size_t done = 0; done < size;) {
		size_t room, n;
		char *at = st_netdev_room(&d, &room);

		if (room < 1 || at < d.buf || at + room >= d.buf + sizeof(d.buf))
			abort();
		rnd = rnd * 1103515245u + 12345u;
		n = 1 + (rnd >> 8) % room;
		if (n > size - done)
			n = size - done;
		memcpy(at, data + done, n);
		st_netdev_feed(&d, n, add, &got);
		done += n;
	}
	expected(data, size, &want);
	if (got.n != want.n)
		abort();
	for (size_t i = 0; i < got.n; i++)
		if (strcmp(got.v[i], want.v[i]) != 0)
			abort();
	seen_free(&got);
	seen_free(&want);
	return 0;
}
