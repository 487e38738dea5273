// SPDX-License-Identifier: MIT
/*
 * The seccomp filter a sandbox gets: the profile's bytes (embedded default
 * or a file), its program built in (the default for Docker's capabilities)
 * or compiled (seccomp_profile.c), and loading it with seccomp(2).
 */
#include <fcntl.h>
#include <jansson.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/seccomp_profile.h"
#include "sandboxtime/sha256.h"

const char *const st_seccomp_origin_names[2] = { "compiled", "built-in" };

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

/* The profile's program, parsed and compiled. @what prefixes a JSON syntax error ("--seccomp: " or ""). */
static int compile_bytes(const char *bytes, size_t len, const char *file, const char *what,
			 uint64_t caps, struct st_seccomp *out, struct st_error *err)
{
	json_auto_t *doc = NULL;
	json_error_t jerr;

	out->origin = ST_SECCOMP_COMPILED;
	doc = json_loadb(bytes, len, 0, &jerr);
	if (!doc)
		return st_error_usage(err, "%s%s:%d: %s", what, file, jerr.line, jerr.text);
	return st_seccomp_profile_compile(doc, file, caps, out, err);
}

/*
 * The built-in program, when it is the one asked for: the default profile
 * with the capabilities it was compiled for (another set changes the
 * profile's includes/excludes, so it is compiled). A copy, so that the
 * caller frees every program alike.
 */
static int take_builtin(uint64_t caps, struct st_seccomp *out)
{
	const struct st_seccomp_builtin *b = &st_seccomp_builtin;
	size_t bytes = b->len * sizeof(struct sock_filter);

	if (!b->prog || b->caps != caps || !(out->prog = malloc(bytes)))
		return 0;
	memcpy(out->prog, b->prog, bytes);
	out->len = b->len;
	out->rules = b->rules;
	out->unknown = b->unknown;
	out->load_flags = b->load_flags;
	snprintf(out->unknown_names, sizeof(out->unknown_names), "%s", b->unknown_names);
	out->origin = ST_SECCOMP_BUILTIN;
	return 1;
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
	if (strcmp(spec, "default") == 0 && take_builtin(caps, out))
		return 0;
	ret = profile_bytes(spec, &bytes, &len, err);
	if (ret < 0)
		return ret;
	ret = compile_bytes(bytes, len, file, "--seccomp: ", caps, out, err);
	if (bytes != st_seccomp_default_json)
		free(bytes);
	return ret;
}

void st_seccomp_digest(const struct st_seccomp *f, char *buf, size_t len)
{
	char hex[ST_SHA256_HEX];

	st_sha256_hex(f->prog, f->len * sizeof(struct sock_filter), hex);
	snprintf(buf, len, "sha256:%s", hex);
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
