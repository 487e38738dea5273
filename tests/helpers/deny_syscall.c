// SPDX-License-Identifier: MIT
/*
 * deny_syscall NAME PROGRAM [ARG...]: runs PROGRAM under a seccomp filter
 * that makes the system call NAME fail with ENOSYS, as an old kernel or a
 * container's profile would; everything else is allowed. For the suites that
 * check a fallback path (tests/integration/deferred.sh: membarrier).
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int nr, ret;

	if (argc < 3) {
		fputs("usage: deny_syscall NAME PROGRAM [ARG...]\n", stderr);
		return 125;
	}
	nr = seccomp_syscall_resolve_name(argv[1]);
	if (nr == __NR_SCMP_ERROR) {
		fprintf(stderr, "deny_syscall: unknown system call '%s'\n", argv[1]);
		return 125;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 125;
	ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
	if (ret == 0)
		ret = seccomp_load(ctx);
	seccomp_release(ctx);
	if (ret < 0) {
		fprintf(stderr, "deny_syscall: loading the filter: %s\n", strerror(-ret));
		return 125;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "deny_syscall: %s: %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
