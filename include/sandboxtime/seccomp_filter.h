/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_FILTER_H
#define SANDBOXTIME_SECCOMP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/seccomp_cache.h"

/*
 * A seccomp profile in the OCI runtime-spec / Docker JSON format, compiled
 * to a BPF program before the sandbox is cloned and loaded by the workload's
 * process as the last step before exec. Compiling (libseccomp) and loading
 * (one seccomp(2) call) are timed apart: a Docker-sized profile costs more to
 * compile than all the namespaces together, and only loading is per process.
 *
 * The entry points are here (seccomp_filter.c); the JSON-to-BPF compiler is
 * seccomp_profile.c and the cache of compiled programs seccomp_cache.c.
 */
struct st_seccomp {
	char source[256]; /* "default", or the profile's path; "" when none */
	void *prog;       /* struct sock_filter[], NULL when none */
	size_t len;       /* instructions */
	size_t rules;     /* syscall rules added */
	size_t unknown;   /* syscall names this libseccomp and arch do not know: skipped */
	char unknown_names[256];
	int cache;        /* ST_SECCOMP_CACHE_*: where the program came from */
	unsigned int load_flags; /* SECCOMP_FILTER_FLAG_*: given to seccomp(2) when loading */
};

enum {
	ST_SECCOMP_CACHE_OFF,  /* no private cache directory: compiled */
	ST_SECCOMP_CACHE_MISS, /* compiled, then stored */
	ST_SECCOMP_CACHE_HIT,  /* read back: no parsing, no compiling */
};

extern const char *const st_seccomp_cache_names[3];

/* The built-in default profile (configs/seccomp/default.json, embedded at build). */
extern const char st_seccomp_default_json[];
extern const size_t st_seccomp_default_json_len;

/*
 * Compiles @spec: "default", "none" (out->prog stays NULL) or a profile file.
 * A program compiled before from the same bytes, on the same architecture,
 * libseccomp and sandboxtime, is read back from the user's private cache
 * instead (out->cache says which).
 * @caps are the workload's capabilities, against which a Docker profile's
 * includes/excludes conditions are judged.
 * Errors name the file, the JSON path and the problem:
 * "x.json: .syscalls[3].action: unknown action \"SCMP_ACT_FOO\"".
 */
int st_seccomp_compile(const char *spec, uint64_t caps, struct st_seccomp *out, struct st_error *err);

/* Compiles a profile held in memory, named @name in errors; no cache (seccomp_profile.c). */
int st_seccomp_compile_json(const char *json, size_t len, const char *name, uint64_t caps,
			    struct st_seccomp *out, struct st_error *err);

/*
 * The same, through the cache of compiled programs (a config.json's
 * linux.seccomp): a repeat launch only reads the program back.
 */
int st_seccomp_compile_cached_json(const char *json, size_t len, const char *name, uint64_t caps,
				   struct st_seccomp *out, struct st_error *err);

/* Loads the compiled program into the calling process (needs no_new_privs or CAP_SYS_ADMIN). */
int st_seccomp_load(const struct st_seccomp *f, struct st_error *err);

void st_seccomp_free(struct st_seccomp *f);

#endif
