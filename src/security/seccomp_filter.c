// SPDX-License-Identifier: MIT
/*
 * The seccomp filter a sandbox gets: the profile's bytes (embedded default
 * or a file), its program from the cache (seccomp_cache.c) or compiled
 * (seccomp_profile.c) and stored, and loading it with seccomp(2).
 */
#include <fcntl.h>
#include <jansson.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandboxtime/seccomp_cache.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/seccomp_profile.h"

const char *const st_seccomp_cache_names[3] = { "off", "miss", "hit" };

#define MAX_PROFILE (4u << 20)

/* The profile's bytes: the embedded default, or the file. */
static int profile_bytes(const char *spec, char **bytes, size_t *len, struct st_error *err)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	ssize_t n;

	if (strcmp(spec, "default") == 0) {
		*bytes = (char *)st_seccomp_default_json;
		*len = st_seccomp_default_json_len;
		return 0;
	}
	fd = open(spec, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		return st_error_set(err, errno, "--seccomp: cannot read '%s'", spec);
	if (S_ISDIR(st.st_mode))
		return st_error_usage(err, "--seccomp: '%s' is a directory, not a profile", spec);
	/* Read to the end: a pipe (<(...)) has no size to trust. */
	*bytes = malloc(MAX_PROFILE + 1);
	if (!*bytes)
		return st_error_set(err, ENOMEM, "--seccomp");
	*len = 0;
	while ((n = TEMP_FAILURE_RETRY(read(fd, *bytes + *len, MAX_PROFILE + 1 - *len))) > 0)
		*len += (size_t)n;
	if (n < 0 || *len > MAX_PROFILE) {
		int e = n < 0 ? errno : EFBIG;

		free(*bytes);
		return st_error_set(err, e, "--seccomp: reading '%s' (at most 4 MiB)", spec);
	}
	return 0;
}

/*
 * The program of profile @bytes: from the cache when it holds one for these
 * bytes and capabilities, else parsed and compiled, and stored. @what
 * prefixes a JSON syntax error ("--seccomp: " or "").
 */
static int compile_bytes(const char *bytes, size_t len, const char *file, const char *what,
			 uint64_t caps, struct st_seccomp *out, struct st_error *err)
{
	char dir[512], path[600];
	json_auto_t *doc = NULL;
	json_error_t jerr;
	uint64_t key = st_seccomp_cache_key(bytes, len, caps);
	int ret;

	if (st_seccomp_cache_dir(dir, sizeof(dir)) == 0) {
		st_seccomp_cache_path(path, sizeof(path), dir, key);
		out->cache =
		    st_seccomp_cache_read(path, key, out) == 0 ? ST_SECCOMP_CACHE_HIT : ST_SECCOMP_CACHE_MISS;
	}
	if (out->cache == ST_SECCOMP_CACHE_HIT)
		return 0;
	doc = json_loadb(bytes, len, 0, &jerr);
	if (!doc)
		return st_error_usage(err, "%s%s:%d: %s", what, file, jerr.line, jerr.text);
	ret = st_seccomp_profile_compile(doc, file, caps, out, err);
	if (ret == 0 && out->cache == ST_SECCOMP_CACHE_MISS) {
		st_seccomp_cache_write(path, key, out);
		st_seccomp_cache_trim(dir, ST_SECCOMP_CACHE_KEEP);
	}
	return ret;
}

int st_seccomp_compile(const char *spec, uint64_t caps, struct st_seccomp *out,
		       struct st_error *err)
{
	const char *file = strcmp(spec, "default") == 0 ? "default profile" : spec;
	char *bytes = NULL;
	size_t len = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (strcmp(spec, "none") == 0)
		return 0;
	snprintf(out->source, sizeof(out->source), "%s", spec);
	ret = profile_bytes(spec, &bytes, &len, err);
	if (ret < 0)
		return ret;
	ret = compile_bytes(bytes, len, file, "--seccomp: ", caps, out, err);
	if (bytes != st_seccomp_default_json)
		free(bytes);
	return ret;
}

int st_seccomp_compile_cached_json(const char *json, size_t len, const char *name, uint64_t caps,
				   struct st_seccomp *out, struct st_error *err)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->source, sizeof(out->source), "%s", name);
	return compile_bytes(json, len, name, "", caps, out, err);
}

int st_seccomp_load(const struct st_seccomp *f, struct st_error *err)
{
	struct sock_fprog prog = { .len = (unsigned short)f->len, .filter = f->prog };

	if (!f->prog)
		return 0;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, f->load_flags, &prog) < 0)
		return st_error_set(err, errno, "seccomp: loading the filter");
	return 0;
}

void st_seccomp_free(struct st_seccomp *f)
{
	free(f->prog);
	f->prog = NULL;
}
