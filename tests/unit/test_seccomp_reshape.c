// SPDX-License-Identifier: MIT
/*
 * st_seccomp_reshape() on programs libseccomp builds here (chain and binary
 * tree, three x86 architectures, argument comparisons, several actions):
 * the reshaped program returns what the original returns for every syscall
 * number near the ranges used, under foreign architectures, and for
 * argument values on both sides of every constant; it is shorter; the
 * kernel's action cache (emulated as kernel/seccomp.c does) allows the same
 * numbers without running the filter; and the kernel loads it (in a child).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/seccomp_eval.h"
#include "sandboxtime/seccomp_reshape.h"

/* Syscalls with rules of their own below. */
static const char *const special[] = { "personality", "clone",	"socket",
				       "clone3",      "ptrace", "sethostname" };

/*
 * Docker's profile allows most of the table: here every x86_64 number up to
 * 334 but every 17th, 100..109 and the special ones. A sparse list (@dense
 * 0: every 8th) is one a search over ranges does not shorten.
 */
static void allow_table(scmp_filter_ctx ctx, int dense)
{
	for (int nr = 0; nr <= 334; nr++) {
		const char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, nr);
		int skip = dense ? nr % 17 == 0 || (nr >= 100 && nr < 110) : nr % 8 != 0;

		for (size_t i = 0; name && i < sizeof(special) / sizeof(special[0]); i++)
			skip |= strcmp(name, special[i]) == 0;
		if (name && !skip)
			seccomp_rule_add(ctx, SCMP_ACT_ALLOW, seccomp_syscall_resolve_name(name),
					 0);
		free((void *)name);
	}
}

/* libseccomp's program for a Docker-like profile: @optimize 1 is a chain, 2 a binary tree. */
static struct sock_filter *build(int optimize, int all_arches, int dense, size_t *len)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM));
	struct sock_filter *prog;

	assert_non_null(ctx);
	assert_int_equal(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, (uint32_t)optimize), 0);
	if (all_arches) {
		assert_int_equal(seccomp_arch_add(ctx, SCMP_ARCH_X86), 0);
		assert_int_equal(seccomp_arch_add(ctx, SCMP_ARCH_X32), 0);
	}
	allow_table(ctx, dense);
	/* Arguments: equal values, a masked comparison, a 64-bit value, an ordering. */
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1,
					  SCMP_A0(SCMP_CMP_EQ, 8)),
			 0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1,
					  SCMP_A0(SCMP_CMP_EQ, 0xffffffffull)),
			 0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
					  SCMP_A0(SCMP_CMP_MASKED_EQ, 0x7e020000ull, 0)),
			 0);
	assert_int_equal(
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_LT, 11)),
	    0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), 0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(ptrace), 0), 0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_LOG, SCMP_SYS(sethostname), 0), 0);

	{
		int fd = memfd_create("reshape-test", 0);
		off_t n;

		assert_true(fd >= 0);
		assert_int_equal(seccomp_export_bpf(ctx, fd), 0);
		n = lseek(fd, 0, SEEK_END);
		assert_true(n > 0 && n % (off_t)sizeof(struct sock_filter) == 0);
		prog = malloc((size_t)n);
		assert_non_null(prog);
		assert_int_equal(pread(fd, prog, (size_t)n, 0), n);
		*len = (size_t)n / sizeof(struct sock_filter);
		close(fd);
	}
	seccomp_release(ctx);
	return prog;
}

/* kernel/seccomp.c seccomp_is_const_allow(): what its action cache skips the filter for. */
static int const_allow(const struct sock_filter *p, size_t len, uint32_t arch, uint32_t nr)
{
	uint32_t a = 0;

	for (size_t pc = 0; pc < len; pc++) {
		const struct sock_filter *f = &p[pc];
		int r;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k == offsetof(struct seccomp_data, nr))
				a = nr;
			else if (f->k == offsetof(struct seccomp_data, arch))
				a = arch;
			else
				return 0;
			continue;
		case BPF_RET | BPF_K:
			return f->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			continue;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			r = BPF_OP(f->code) == BPF_JEQ	 ? a == f->k
			    : BPF_OP(f->code) == BPF_JGE ? a >= f->k
			    : BPF_OP(f->code) == BPF_JGT ? a > f->k
							 : !!(a & f->k);
			pc += r ? f->jt : f->jf;
			continue;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			continue;
		default:
			return 0;
		}
	}
	return 0;
}

static const uint32_t arches[] = { AUDIT_ARCH_X86_64, AUDIT_ARCH_I386, AUDIT_ARCH_AARCH64, 0,
				   UINT32_MAX };

/* Argument values on both sides of the constants above, and a few others. */
static const uint64_t argv_[] = { 0,
				  1,
				  7,
				  8,
				  9,
				  10,
				  11,
				  12,
				  0xfffffffeull,
				  0xffffffffull,
				  0x100000000ull,
				  0x7e020000ull,
				  0x10000ull,
				  0x1000000ffull,
				  UINT64_MAX };

static void same_verdicts(const struct sock_filter *a, size_t alen, const struct sock_filter *b,
			  size_t blen)
{
	static const uint32_t bases[] = { 0, 0x40000000 };
	struct seccomp_data d;
	size_t checked = 0;

	for (size_t ai = 0; ai < sizeof(arches) / sizeof(arches[0]); ai++) {
		for (size_t bi = 0; bi < 2; bi++)
			for (uint32_t nr = bases[bi]; nr < bases[bi] + 1100; nr++)
				for (size_t v = 0; v < sizeof(argv_) / sizeof(argv_[0]); v++) {
					memset(&d, 0, sizeof(d));
					d.arch = arches[ai];
					d.nr = (int)nr;
					for (int k = 0; k < 6; k++)
						d.args[k] =
						    argv_[(v + (size_t)k) %
							  (sizeof(argv_) / sizeof(argv_[0]))];
					if (st_seccomp_eval(a, alen, &d) !=
					    st_seccomp_eval(b, blen, &d)) {
						print_error(
						    "# arch %#x nr %u arg0 %#llx: %lld, reshaped "
						    "%lld\n",
						    arches[ai], nr, (unsigned long long)d.args[0],
						    (long long)st_seccomp_eval(a, alen, &d),
						    (long long)st_seccomp_eval(b, blen, &d));
						fail();
					}
					checked++;
				}
		for (uint32_t nr = UINT32_MAX - 3; nr != 0; nr++) {
			memset(&d, 0, sizeof(d));
			d.arch = arches[ai];
			d.nr = (int)nr;
			assert_true(st_seccomp_eval(a, alen, &d) == st_seccomp_eval(b, blen, &d));
		}
		/* The action cache: same numbers allowed without running the filter. */
		for (uint32_t nr = 0; nr < 1100; nr++)
			assert_int_equal(const_allow(a, alen, arches[ai], nr),
					 const_allow(b, blen, arches[ai], nr));
	}
	assert_true(checked > 100000);
}

static void reshape_and_compare(int optimize, int all_arches)
{
	struct sock_filter *orig, *shaped = NULL;
	size_t len, shaped_len = 0;

	orig = build(optimize, all_arches, 1, &len);
	assert_int_equal(st_seccomp_reshape(orig, len, &shaped, &shaped_len), 0);
	print_message("# optimize %d, %s: %zu -> %zu instructions\n", optimize,
		      all_arches ? "x86_64+x86+x32" : "native", len, shaped_len);
	assert_true(shaped_len < len);
	same_verdicts(orig, len, shaped, shaped_len);
	free(orig);
	free(shaped);
}

static void test_tree_all_arches(void **state)
{
	reshape_and_compare(2, 1);
}

static void test_chain_all_arches(void **state)
{
	reshape_and_compare(1, 1);
}

static void test_tree_native(void **state)
{
	reshape_and_compare(2, 0);
}

/* Nothing to gain, or a shape it does not take: -1, and the caller keeps its program. */
static void test_refused(void **state)
{
	struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_filter out_of_range[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 5, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter *out = NULL, *sparse;
	size_t len = 0, sparse_len;

	assert_int_equal(st_seccomp_reshape(allow, 1, &out, &len), -1);
	assert_int_equal(st_seccomp_reshape(out_of_range, 3, &out, &len), -1);
	/* A few single numbers apart: a range per number takes two comparisons, a JEQ one. */
	sparse = build(2, 1, 0, &sparse_len);
	assert_int_equal(st_seccomp_reshape(sparse, sparse_len, &out, &len), -1);
	assert_null(out);
	free(sparse);
}

/* The kernel takes the reshaped program, and it decides in the kernel as it does here. */
static void test_load(void **state)
{
	struct sock_filter *orig, *shaped = NULL;
	size_t len, shaped_len = 0;
	int status;
	pid_t pid;

	orig = build(2, 1, 1, &len);
	assert_int_equal(st_seccomp_reshape(orig, len, &shaped, &shaped_len), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sock_fprog fp = { .len = (unsigned short)shaped_len, .filter = shaped };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) < 0)
			_exit(10);
		if (syscall(SYS_getppid) < 0)
			_exit(11);
		if (syscall(SYS_getuid) != -1 || errno != EPERM) /* 102: not allowed, the default */
			_exit(12);
		if (syscall(SYS_personality, 8ul) < 0) /* allowed by argument */
			_exit(13);
		if (syscall(SYS_personality, 0ul) != -1 || errno != EPERM)
			_exit(14);
		if (syscall(SYS_clone3, NULL, 0) != -1 || errno != ENOSYS)
			_exit(15);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	free(orig);
	free(shaped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_all_arches),
		cmocka_unit_test(test_chain_all_arches),
		cmocka_unit_test(test_tree_native),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
