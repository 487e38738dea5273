// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/where_probe.h"

const char *const st_probe_figure_keys[ST_PROBE_FIGURES] = {
	[ST_PROBE_CALL] = "call_ns",
	[ST_PROBE_WRITE] = "write_devnull_ns",
	[ST_PROBE_GETPPID] = "getppid_ns",
	[ST_PROBE_MEMSET] = "memset_64mib_us",
	[ST_PROBE_MEMCPY] = "memcpy_64mib_us",
	[ST_PROBE_FORK] = "fork_100mb_us",
};

/* The check of each figure: the probe's count and the count it must equal. */
static const char *const check_keys[ST_PROBE_FIGURES][2] = {
	[ST_PROBE_CALL] = { "calls", "calls_want" },
	[ST_PROBE_WRITE] = { "writes", "writes_want" },
	[ST_PROBE_GETPPID] = { "getppids", "getppids_want" },
	[ST_PROBE_MEMSET] = { "memset_sum", "memset_want" },
	[ST_PROBE_MEMCPY] = { "memcpy_sum", "memcpy_want" },
	[ST_PROBE_FORK] = { "forks", "forks_want" },
};

/* The value of " key=" in @line, ended by a space or the line's end; NULL: none. */
static const char *value_of(const char *line, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *p = line; (p = strstr(p, key)) != NULL; p += klen) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			*len = strcspn(p, " \r\n");
			return p;
		}
	}
	return NULL;
}

/* The value of @key as a C string in @buf (at most 31 characters); -EPROTO when absent. */
static int get_text(const char *line, const char *key, char buf[32], struct st_error *err)
{
	size_t len;
	const char *s = value_of(line, key, &len);

	if (!s || len == 0 || len >= 32)
		return st_error_set(err, EPROTO, "probe: no %s= in its line", key);
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	return 0;
}

static int get_u64(const char *line, const char *key, uint64_t *v, struct st_error *err)
{
	char buf[32], *end;

	if (get_text(line, key, buf, err) < 0)
		return -EPROTO;
	*v = strtoull(buf, &end, 10);
	if (errno || *end || buf[0] == '-')
		return st_error_set(err, EPROTO, "probe: %s=%s is not a count", key, buf);
	return 0;
}

static int get_double(const char *line, const char *key, double *v, struct st_error *err)
{
	char buf[32], *end;

	if (get_text(line, key, buf, err) < 0)
		return -EPROTO;
	*v = strtod(buf, &end);
	if (errno || *end)
		return st_error_set(err, EPROTO, "probe: %s=%s is not a number", key, buf);
	return 0;
}

int st_probe_parse(const char *line, struct st_probe_result *r, struct st_error *err)
{
	size_t len;
	const char *arch;

	memset(r, 0, sizeof(*r));
	if (strncmp(line, ST_PROBE_RESULT_PREFIX, strlen(ST_PROBE_RESULT_PREFIX)) != 0)
		return st_error_set(err, EPROTO, "probe: not its result line (no '%s')",
				    ST_PROBE_RESULT_PREFIX);
	arch = value_of(line, "arch", &len);
	if (!arch || len == 0 || len >= sizeof(r->arch))
		return st_error_set(err, EPROTO, "probe: no arch= in its line");
	memcpy(r->arch, arch, len);
	for (int f = 0; f < ST_PROBE_FIGURES; f++) {
		uint64_t got, want;
		int ret = get_double(line, st_probe_figure_keys[f], &r->v[f], err);

		if (ret == 0)
			ret = get_u64(line, check_keys[f][0], &got, err);
		if (ret == 0)
			ret = get_u64(line, check_keys[f][1], &want, err);
		if (ret < 0)
			return ret;
		/* A negative figure: the probe could not do the work (no memory, no /dev/null). */
		if (r->v[f] < 0)
			snprintf(r->refused[f], sizeof(r->refused[f]),
				 "impossible: the probe could not do the work (%s=%g)",
				 st_probe_figure_keys[f], r->v[f]);
		else
			st_guard_checksum(got, want, check_keys[f][0], r->refused[f],
					  sizeof(r->refused[f]));
	}
	return 0;
}
