// SPDX-License-Identifier: MIT
/*
 * no_userns PROGRAM [ARG...]: runs PROGRAM under a seccomp filter that
 * refuses new user namespaces the way container runtimes' default profiles
 * do: clone() and unshare() with CLONE_NEWUSER fail with EPERM, and clone3()
 * (whose flags a filter cannot see) with ENOSYS, so that callers fall back
 * to clone(). For tests/integration/degrade.sh only.
 */
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	int ret;

	if (argc < 2) {
		fputs("usage: no_userns PROGRAM [ARG...]\n", stderr);
		return 125;
	}
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 125;
	ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
			       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	if (ret == 0)
		ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
				       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER));
	if (ret == 0)
		ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (ret == 0)
		ret = seccomp_load(ctx);
	seccomp_release(ctx);
	if (ret < 0) {
		fprintf(stderr, "no_userns: loading the filter: %s\n", strerror(-ret));
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no_userns: %s: %s\n", argv[1], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
