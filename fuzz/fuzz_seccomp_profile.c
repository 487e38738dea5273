// SPDX-License-Identifier: MIT
/*
 * st_seccomp_compile_json() on any bytes, as if they were a --seccomp
 * profile or an OCI config's linux.seccomp: jansson parses, the profile is
 * checked, and libseccomp compiles and exports what passes. Judged with the
 * default capabilities, so that Docker's includes/excludes conditions go
 * both ways. `make fuzz` runs it with the flags of
 * fuzz/fuzz_seccomp_profile.flags (compiling a big profile is slow).
 */
#include "sandboxtime/caps.h"
#include "sandboxtime/seccomp_filter.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_seccomp f;
	struct st_error err;

	if (st_seccomp_compile_json((const char *)data, size, "fuzz.json", st_caps_default(), &f, &err) < 0) {
		fuzz_check_error(&err);
		if (f.prog)
			abort(); /* a failed compile hands back no program */
	} else if (f.len == 0 || !f.prog) {
		abort(); /* a compiled profile is never empty */
	}
	if (strnlen(f.unknown_names, sizeof(f.unknown_names)) == sizeof(f.unknown_names))
		abort();
	st_seccomp_free(&f);
	return 0;
}
