/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_FILTER_H
#define SANDBOXTIME_SECCOMP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"

/*
 * A seccomp profile in the OCI runtime-spec / Docker JSON format, compiled
 * to a BPF program before the sandbox is cloned and loaded by the workload's
 * process as the last step before exec. Compiling (libseccomp) and loading
 * (one seccomp(2) call) are timed apart: a Docker-sized profile costs more to
 * compile than all the namespaces together, and only loading is per process.
 *
 * The entry points are here (seccomp_filter.c); the JSON-to-BPF compiler is
 * seccomp_profile.c. The default profile for Docker's capability set is
 * compiled once, at build time, into the binary (st_seccomp_builtin); every
 * other profile is compiled by each run. Nothing is cached in a file: a
 * file that a run reads back is a file a sandboxed workload may rewrite
 * (docs/DESIGN.md, "State that outlives a run").
 */
struct st_seccomp {
	char source[256]; /* "default", or the profile's path; "" when none */
	void *prog;       /* struct sock_filter[], NULL when none */
	size_t len;       /* instructions */
	size_t rules;     /* syscall rules added */
	size_t unknown;   /* syscall names this libseccomp and arch do not know: skipped */
	char unknown_names[256];
	int origin;       /* ST_SECCOMP_*: where the program came from */
	unsigned int load_flags; /* SECCOMP_FILTER_FLAG_*: given to seccomp(2) when loading */
};

enum {
	ST_SECCOMP_COMPILED, /* parsed and compiled by this run */
	ST_SECCOMP_BUILTIN,  /* the default profile's program, compiled at build time */
};

/* "compiled", "built-in": the report's seccomp.program. */
extern const char *const st_seccomp_origin_names[2];

/*
 * The default profile compiled for Docker's default capabilities (@caps)
 * by src/buildtool/seccomp_gen.c at build time; prog is NULL where the
 * build carries none (the generator itself, the fuzz targets).
 */
struct st_seccomp_builtin {
	uint64_t caps;
	const void *prog; /* const struct sock_filter[len] */
	size_t len;
	size_t rules;
	size_t unknown;
	unsigned int load_flags;
	const char *unknown_names;
};

extern const struct st_seccomp_builtin st_seccomp_builtin;

/* The built-in default profile (configs/seccomp/default.json, embedded at build). */
extern const char st_seccomp_default_json[];
extern const size_t st_seccomp_default_json_len;

/*
 * Compiles @spec: "default", "none" (out->prog stays NULL) or a profile file.
 * "default" with the capabilities the built-in program was compiled for
 * takes that program instead (out->origin says which).
 * @caps are the workload's capabilities, against which a Docker profile's
 * includes/excludes conditions are judged.
 * Errors name the file, the JSON path and the problem:
 * "x.json: .syscalls[3].action: unknown action \"SCMP_ACT_FOO\"".
 */
int st_seccomp_compile(const char *spec, uint64_t caps, struct st_seccomp *out, struct st_error *err);

/* Compiles a profile held in memory (a config.json's linux.seccomp), named @name in errors (seccomp_profile.c). */
int st_seccomp_compile_json(const char *json, size_t len, const char *name, uint64_t caps,
			    struct st_seccomp *out, struct st_error *err);

/* "sha256:" and the hex digest of @f's program as loaded, into @buf (ST_SECCOMP_DIGEST_LEN). */
#define ST_SECCOMP_DIGEST_LEN (7 + 64 + 1)
void st_seccomp_digest(const struct st_seccomp *f, char *buf, size_t len);

/* Loads the compiled program into the calling process (needs no_new_privs or CAP_SYS_ADMIN). */
int st_seccomp_load(const struct st_seccomp *f, struct st_error *err);

void st_seccomp_free(struct st_seccomp *f);

#endif
