// SPDX-License-Identifier: MIT
/*
 * st_seccomp_compile() on profiles written to a temp dir: what a valid one
 * gives, st_caps_default(), "none" and "default", every parse error with the file and the exact
 * JSON path in the message, unknown syscall names, st_seccomp_free(), the
 * program built in at build time (the same as a fresh compile, taken only
 * for the capabilities it was made for) and the digest of a program.
 * A few filters are loaded, in forked children only, to check that the
 * profile means what the OCI runtime-spec says (errnoRet, defaultErrnoRet,
 * SCMP_CMP_MASKED_EQ) and what the default profile blocks.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/seccomp.h>

#include "sandboxtime/caps.h"
#include "sandboxtime/seccomp_filter.h"

static char dir[] = "/tmp/st-seccomp-test.XXXXXX";
static char path[PATH_MAX];

static int setup_dir(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes @json to DIR/@name.json; returns its path (a static buffer). */
static const char *profile(const char *name, const char *json)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(json, f) >= 0);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Compiles @json and expects success; the caller frees @out. */
static void compile_ok(const char *name, const char *json, struct st_seccomp *out)
{
	struct st_error err = { 0 };
	const char *file = profile(name, json);
	int ret = st_seccomp_compile(file, st_caps_default(), out, &err);

	if (ret != 0)
		print_error("# %s: %d %s\n", name, ret, err.msg);
	assert_int_equal(ret, 0);
	assert_non_null(out->prog);
	assert_true(out->len > 0);
	assert_string_equal(out->source, file);
}

/*
 * Compiles @json and expects a usage error, on one line, whose message holds
 * "FILE: @where": the file, the JSON path and the problem; nothing compiled.
 */
#define compile_bad(name, json, where) compile_bad_at((name), (json), (where), __FILE__, __LINE__)

static void compile_bad_at(const char *name, const char *json, const char *where, const char *src,
			   int line)
{
	struct st_error err = { 0 };
	struct st_seccomp f;
	char want[PATH_MAX + 256];
	const char *file = profile(name, json);
	int ret;

	memset(&f, 0x5a, sizeof(f));
	ret = st_seccomp_compile(file, st_caps_default(), &f, &err);
	/* ":N: ..." is a line of a file that is not JSON: "FILE:N: ...". */
	snprintf(want, sizeof(want), "%s%s%s", file, where[0] == ':' ? "" : ": ", where);
	if (ret == -EINVAL && err.usage && strstr(err.msg, want) && !strchr(err.msg, '\n') && !f.prog) {
		st_seccomp_free(&f);
		return;
	}
	print_error("# %s: ret %d, usage %d, prog %p, msg '%s'\n#   expected a usage error with '%s'\n", name,
		    ret, err.usage, f.prog, err.msg, want);
	if (ret == 0)
		st_seccomp_free(&f);
	_fail(src, line);
}

#define ALLOW_GETPPID_99 \
	"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"], " \
	"\"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 99}]}"

static void test_minimal(void **state)
{
	struct st_seccomp f;

	compile_ok("minimal",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\", \"getpgrp\"],"
		   " \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 99}, {\"names\": [\"sethostname\"],"
		   " \"action\": \"SCMP_ACT_ERRNO\"}]}",
		   &f);
	assert_int_equal(f.rules, 3);
	assert_int_equal(f.unknown, 0);
	assert_string_equal(f.unknown_names, "");
	st_seccomp_free(&f);
}

/* The older single-name form "name". */
static void test_single_name(void **state)
{
	struct st_seccomp f;

	compile_ok("single-name",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"name\": \"getppid\","
		   " \"action\": \"SCMP_ACT_KILL_PROCESS\"}]}",
		   &f);
	assert_int_equal(f.rules, 1);
	st_seccomp_free(&f);
}

/* No rule at all is still a filter (of the default action alone). */
static void test_no_rules(void **state)
{
	struct st_seccomp f;

	compile_ok("no-rules", "{\"defaultAction\": \"SCMP_ACT_LOG\"}", &f);
	assert_int_equal(f.rules, 0);
	st_seccomp_free(&f);
	compile_ok("empty-rules", "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [], \"architectures\": []}",
		   &f);
	assert_int_equal(f.rules, 0);
	st_seccomp_free(&f);
}

/* Every action of the list, args with every op, architectures. */
static void test_actions_ops_arches(void **state)
{
	struct st_seccomp f;

	compile_ok("full",
		   "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38,"
		   " \"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\"],"
		   " \"syscalls\": ["
		   "{\"names\": [\"read\", \"write\", \"exit_group\"], \"action\": \"SCMP_ACT_ALLOW\"},"
		   "{\"names\": [\"kill\"], \"action\": \"SCMP_ACT_KILL\"},"
		   "{\"names\": [\"tkill\"], \"action\": \"SCMP_ACT_KILL_THREAD\"},"
		   "{\"names\": [\"tgkill\"], \"action\": \"SCMP_ACT_KILL_PROCESS\"},"
		   "{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_TRAP\"},"
		   "{\"names\": [\"getppid\"], \"action\": \"SCMP_ACT_LOG\"},"
		   "{\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
		   "{\"index\": 0, \"value\": 8, \"op\": \"SCMP_CMP_EQ\"}]},"
		   "{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
		   "{\"index\": 0, \"value\": 16, \"op\": \"SCMP_CMP_NE\"},"
		   "{\"index\": 1, \"value\": 10, \"op\": \"SCMP_CMP_LT\"},"
		   "{\"index\": 2, \"value\": 20, \"op\": \"SCMP_CMP_LE\"}]},"
		   "{\"names\": [\"mmap\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
		   "{\"index\": 2, \"value\": 4, \"valueTwo\": 0, \"op\": \"SCMP_CMP_MASKED_EQ\"},"
		   "{\"index\": 3, \"value\": 1, \"op\": \"SCMP_CMP_GE\"},"
		   "{\"index\": 5, \"value\": 4096, \"op\": \"SCMP_CMP_GT\"}]}]}",
		   &f);
	assert_int_equal(f.rules, 11);
	st_seccomp_free(&f);
}

static void test_none(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f;

	memset(&f, 0x5a, sizeof(f));
	assert_int_equal(st_seccomp_compile("none", st_caps_default(), &f, &err), 0);
	assert_null(f.prog);
	assert_int_equal(f.len, 0);
	assert_int_equal(f.rules, 0);
	assert_int_equal(f.unknown, 0);
	assert_string_equal(f.source, "");
	st_seccomp_free(&f);
}

static void test_default(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f;

	assert_true(st_seccomp_default_json_len > 1000);
	assert_int_equal(strlen(st_seccomp_default_json), st_seccomp_default_json_len);
	assert_int_equal(st_seccomp_compile("default", st_caps_default(), &f, &err), 0);
	assert_non_null(f.prog);
	assert_true(f.len > 0);
	assert_true(f.rules > 300);
	assert_string_equal(f.source, "default");
	st_seccomp_free(&f);
}

static void test_err_not_json(void **state)
{
	compile_bad("not-json", "this is not {json", ":1: ");
	compile_bad("truncated", "{\"defaultAction\": \"SCMP_ACT_ALLOW\",\n \"syscalls\": [", ":2: ");
	compile_bad("empty", "", ":");
}

static void test_err_not_an_object(void **state)
{
	compile_bad("array", "[]", ".: ");
	/* Not even JSON text for jansson, which takes only an object or array. */
	compile_bad("string", "\"SCMP_ACT_ALLOW\"", ":1: ");
}

static void test_err_default_action(void **state)
{
	compile_bad("default-missing", "{\"syscalls\": []}", ".defaultAction: ");
	compile_bad("default-number", "{\"defaultAction\": 1}", ".defaultAction: ");
	compile_bad("default-null", "{\"defaultAction\": null}", ".defaultAction: ");
	compile_bad("default-unknown", "{\"defaultAction\": \"SCMP_ACT_BAR\"}",
		    ".defaultAction: unknown action \"SCMP_ACT_BAR\"");
	compile_bad("default-errno-string", "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": \"1\"}",
		    ".defaultErrnoRet: ");
}

static void test_err_architectures(void **state)
{
	compile_bad("arch-not-array", "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": \"SCMP_ARCH_X86_64\"}",
		    ".architectures: ");
	compile_bad("arch-unknown",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_VAX\"]}",
		    ".architectures[1]: unknown architecture \"SCMP_ARCH_VAX\"");
	compile_bad("arch-no-prefix", "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [\"x86_64\"]}",
		    ".architectures[0]: ");
	compile_bad("arch-number", "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architectures\": [62]}",
		    ".architectures[0]: ");
}

static void test_err_syscalls_shape(void **state)
{
	compile_bad("syscalls-object", "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": {}}", ".syscalls: ");
	compile_bad("rule-not-object",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"], "
		    "\"action\": \"SCMP_ACT_ERRNO\"}, \"getpid\"]}",
		    ".syscalls[1]: ");
}

static void test_err_names(void **state)
{
	compile_bad("names-string",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": \"getppid\", \"action\": \"SCMP_ACT_ERRNO\"}]}",
		    ".syscalls[0]: names must be an array");
	compile_bad("names-missing",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"action\": \"SCMP_ACT_ERRNO\"}]}",
		    ".syscalls[0]: names must be an array");
	compile_bad("names-element",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\", 39],"
		    " \"action\": \"SCMP_ACT_ERRNO\"}]}",
		    ".syscalls[0].names[1]: ");
}

static void test_err_action(void **state)
{
	compile_bad("action-unknown",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"], \"action\": \"SCMP_ACT_FOO\"}]}",
		    ".syscalls[0].action: unknown action \"SCMP_ACT_FOO\"");
	/* The index is the rule's. */
	compile_bad("action-unknown-2",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		    "{\"names\": [\"getppid\"], \"action\": \"SCMP_ACT_ERRNO\"},"
		    "{\"names\": [\"getpgrp\"], \"action\": \"SCMP_ACT_KILL\"},"
		    "{\"names\": [\"getpid\"], \"action\": \"scmp_act_errno\"}]}",
		    ".syscalls[2].action: unknown action \"scmp_act_errno\"");
	compile_bad("action-missing",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"]}]}",
		    ".syscalls[0].action: ");
	compile_bad("errno-string",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"],"
		    " \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": \"99\"}]}",
		    ".syscalls[0].action: errnoRet must be a number");
}

static void test_err_args(void **state)
{
	compile_bad("args-op",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"personality\"],"
		    " \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 8, \"op\": \"SCMP_CMP_EQ\"},"
		    " {\"index\": 1, \"value\": 0, \"op\": \"SCMP_CMP_FOO\"}]}]}",
		    ".syscalls[0].args[1]: unknown op \"SCMP_CMP_FOO\"");
	compile_bad("args-op-missing",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"personality\"],"
		    " \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": 8}]}]}",
		    ".syscalls[0].args[0]: ");
	compile_bad("args-index",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"personality\"],"
		    " \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 6, \"value\": 8, \"op\": \"SCMP_CMP_EQ\"}]}]}",
		    ".syscalls[0].args[0]: ");
	compile_bad("args-value",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"personality\"],"
		    " \"action\": \"SCMP_ACT_ERRNO\", \"args\": [{\"index\": 0, \"value\": \"8\", \"op\": \"SCMP_CMP_EQ\"}]}]}",
		    ".syscalls[0].args[0]: ");
	compile_bad("args-object",
		    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"personality\"],"
		    " \"action\": \"SCMP_ACT_ERRNO\", \"args\": {\"index\": 0}}]}",
		    ".syscalls[0]: ");
}

static void test_err_missing_file(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f;
	char missing[PATH_MAX];

	snprintf(missing, sizeof(missing), "%s/no-such-profile.json", dir);
	assert_true(st_seccomp_compile(missing, st_caps_default(), &f, &err) < 0);
	assert_non_null(strstr(err.msg, missing));
	assert_null(f.prog);
	st_seccomp_free(&f);
}

/* Unknown to libseccomp: skipped, counted and listed in order; the rest added. */
static void test_unknown_names(void **state)
{
	struct st_seccomp f;

	compile_ok("unknown",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"no_such_call\", \"getppid\","
		   " \"also_no_such\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 99},"
		   " {\"name\": \"third_unknown\", \"action\": \"SCMP_ACT_KILL\"}]}",
		   &f);
	assert_int_equal(f.rules, 1);
	assert_int_equal(f.unknown, 3);
	assert_string_equal(f.unknown_names, "no_such_call,also_no_such,third_unknown");
	st_seccomp_free(&f);
}

/* One name is one unknown name, however many rules list it. */
static void test_unknown_name_twice(void **state)
{
	struct st_seccomp f;

	compile_ok("unknown-twice",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		   "{\"names\": [\"no_such_call\", \"getppid\"], \"action\": \"SCMP_ACT_ERRNO\"},"
		   "{\"names\": [\"no_such_call\"], \"action\": \"SCMP_ACT_KILL\"}]}",
		   &f);
	assert_int_equal(f.rules, 1);
	assert_string_equal(f.unknown_names, "no_such_call");
	assert_int_equal(f.unknown, 1);
	st_seccomp_free(&f);
}

/*
 * Found by fuzz/fuzz_seccomp_profile: an empty name after an unknown one
 * made note_unknown() search for "" with strstr(), which walked past the end
 * of unknown_names (stack-buffer-overflow). "" is one unknown name, listed
 * as "", once however often it comes.
 */
static void test_unknown_name_empty(void **state)
{
	static const char json[] =
		"{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		"{\"names\": [\"mogunt\", \"\"], \"action\": \"SCMP_ACT_ERRNO\"},"
		"{\"names\": [\"\", \"getppid\", \"\"], \"action\": \"SCMP_ACT_KILL\"}]}";
	struct st_error err = { 0 };
	struct st_seccomp f;

	assert_int_equal(st_seccomp_compile_json(json, sizeof(json) - 1, "empty", st_caps_default(), &f, &err), 0);
	assert_string_equal(f.unknown_names, "mogunt,\"\"");
	assert_int_equal(f.unknown, 2);
	assert_int_equal(f.rules, 1);
	st_seccomp_free(&f);
}

/* linux.seccomp.flags as runc reads them; none by default. */
static void test_flags(void **state)
{
	static const char json[] =
	    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": [\"SECCOMP_FILTER_FLAG_TSYNC\", "
	    "\"SECCOMP_FILTER_FLAG_SPEC_ALLOW\"], \"syscalls\": []}";
	static const char bad[] =
	    "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"flags\": [\"SECCOMP_FILTER_FLAG_FOO\"]}";
	struct st_error err = { 0 };
	struct st_seccomp f;

	assert_int_equal(st_seccomp_compile_json(json, sizeof(json) - 1, "flags", st_caps_default(), &f, &err), 0);
	assert_int_equal(f.load_flags, SECCOMP_FILTER_FLAG_SPEC_ALLOW);
	st_seccomp_free(&f);
	assert_int_equal(st_seccomp_compile("default", st_caps_default(), &f, &err), 0);
	assert_int_equal(f.load_flags, 0);
	st_seccomp_free(&f);
	assert_int_equal(
	    st_seccomp_compile_json(bad, sizeof(bad) - 1, "bad", st_caps_default(), &f, &err),
	    -EINVAL);
	assert_non_null(
	    strstr(err.msg, "bad: .flags[0]: unknown flag \"SECCOMP_FILTER_FLAG_FOO\""));
	st_seccomp_free(&f);
}

/* More unknown names than the list holds: all counted, the list cut at a name. */
static void test_unknown_names_overflow(void **state)
{
	char json[8192], *p = json, *save = NULL;
	struct st_seccomp f;
	int n = 0;

	p += sprintf(p, "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [");
	for (int i = 0; i < 60; i++)
		p += sprintf(p, "%s\"unknown_call_number_%02d\"", i ? ", " : "", i);
	sprintf(p, "], \"action\": \"SCMP_ACT_ERRNO\"}]}");
	compile_ok("unknown-overflow", json, &f);
	assert_int_equal(f.unknown, 60);
	assert_int_equal(f.rules, 0);
	assert_true(strlen(f.unknown_names) < sizeof(f.unknown_names));
	for (char *tok = strtok_r(f.unknown_names, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
		char want[32];

		snprintf(want, sizeof(want), "unknown_call_number_%02d", n);
		assert_string_equal(tok, want);
	}
	assert_true(n > 0 && n < 60);
	st_seccomp_free(&f);
}

/*
 * A rule whose action is the default action is redundant: runc skips it
 * (libcontainer/seccomp: "This rule is redundant, silently skip it"), since
 * libseccomp refuses to add it. A profile runc accepts must compile.
 */
static void test_rule_same_as_default(void **state)
{
	struct st_seccomp f;

	compile_ok("redundant-allow",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": ["
		   "{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_ALLOW\"},"
		   "{\"names\": [\"getppid\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 99}]}",
		   &f);
	assert_int_equal(f.rules, 1);
	st_seccomp_free(&f);
	compile_ok("redundant-errno",
		   "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
		   "{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1},"
		   "{\"names\": [\"exit_group\"], \"action\": \"SCMP_ACT_ALLOW\"}]}",
		   &f);
	st_seccomp_free(&f);
}

static void test_free_twice(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f, zero;

	compile_ok("free-twice", ALLOW_GETPPID_99, &f);
	st_seccomp_free(&f);
	assert_null(f.prog);
	st_seccomp_free(&f);
	assert_int_equal(st_seccomp_compile("none", st_caps_default(), &f, &err), 0);
	st_seccomp_free(&f);
	st_seccomp_free(&f);
	memset(&zero, 0, sizeof(zero));
	st_seccomp_free(&zero);
}

/*
 * The program the build carries is the one this code compiles from the
 * embedded profile for Docker's capabilities, instruction for instruction,
 * with the same counts; "default" takes it for those capabilities only.
 */
static void test_builtin_is_compiled(void **state)
{
	const struct st_seccomp_builtin *b = &st_seccomp_builtin;
	struct st_error err = { 0 };
	struct st_seccomp fresh, taken;

	assert_non_null(b->prog);
	assert_int_equal(b->caps, st_caps_default());
	assert_int_equal(st_seccomp_compile_json(st_seccomp_default_json, st_seccomp_default_json_len, "default",
						 st_caps_default(), &fresh, &err),
			 0);
	assert_int_equal(fresh.origin, ST_SECCOMP_COMPILED);
	assert_int_equal(b->len, fresh.len);
	assert_memory_equal(b->prog, fresh.prog, fresh.len * sizeof(struct sock_filter));
	assert_int_equal(b->rules, fresh.rules);
	assert_int_equal(b->unknown, fresh.unknown);
	assert_int_equal(b->load_flags, fresh.load_flags);
	assert_string_equal(b->unknown_names, fresh.unknown_names);

	assert_int_equal(st_seccomp_compile("default", st_caps_default(), &taken, &err), 0);
	assert_int_equal(taken.origin, ST_SECCOMP_BUILTIN);
	assert_string_equal(st_seccomp_origin_names[taken.origin], "built-in");
	assert_ptr_not_equal(taken.prog, b->prog); /* a copy: freed like any program */
	assert_memory_equal(taken.prog, fresh.prog, fresh.len * sizeof(struct sock_filter));
	assert_string_equal(taken.source, "default");
	st_seccomp_free(&taken);
	st_seccomp_free(&fresh);
}

/* Another capability set changes the profile's conditions: compiled, not taken. */
static void test_builtin_other_caps(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f;
	uint64_t caps = st_caps_default() | (1ull << 21); /* CAP_SYS_ADMIN */

	assert_int_equal(st_seccomp_compile("default", caps, &f, &err), 0);
	assert_int_equal(f.origin, ST_SECCOMP_COMPILED);
	assert_string_equal(st_seccomp_origin_names[f.origin], "compiled");
	assert_true(f.len > 0);
	st_seccomp_free(&f);
}

/* The digest is of the program's bytes (hashlib gave this one: RET ALLOW alone). */
static void test_digest(void **state)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct st_seccomp f = { .prog = &allow, .len = 1 };
	char digest[ST_SECCOMP_DIGEST_LEN];

	st_seccomp_digest(&f, digest, sizeof(digest));
	assert_string_equal(digest, "sha256:40b2a31e1a78576bb4afdf1433867d0cc67b769635ef549fba81c7d37570520f");
}

/*
 * Loads @f in a child with no_new_privs, then runs @probe there; returns
 * the child's exit status (100: the load failed, 101: killed, 102: the load
 * failed with ENOSYS, no seccomp(2) here: valgrind does not implement it).
 */
static int in_child(const struct st_seccomp *f, int (*probe)(void))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct st_error err = { 0 };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			syscall(SYS_exit_group, 100);
		if (st_seccomp_load(f, &err) < 0)
			syscall(SYS_exit_group, err.errnum == ENOSYS ? 102 : 100);
		syscall(SYS_exit_group, probe());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 101;
}

/*
 * in_child(), skipping the test (after freeing @f, so that valgrind sees no
 * leak) where seccomp(2) does not exist; any other result is returned.
 */
static int in_child_or_skip(struct st_seccomp *f, int (*probe)(void))
{
	int ret = in_child(f, probe);

	if (ret == 102) {
		print_message("# seccomp(2) is not implemented here (valgrind?): skipped\n");
		st_seccomp_free(f);
		skip();
	}
	return ret;
}

/* errno of a raw syscall, 0 when it succeeded. */
static long raw_errno(long nr, long a0)
{
	errno = 0;
	return syscall(nr, a0, 0, 0, 0, 0, 0) == -1 ? errno : 0;
}

static int probe_errno_ret(void)
{
	if (raw_errno(SYS_getppid, 0) != 99)
		return 1;
	if (raw_errno(SYS_getpgrp, 0) != 0)
		return 2;
	return 0;
}

static void test_load_errno_ret(void **state)
{
	struct st_seccomp f;

	compile_ok("load-errno", ALLOW_GETPPID_99, &f);
	assert_int_equal(in_child_or_skip(&f, probe_errno_ret), 0);
	st_seccomp_free(&f);
}

/* Only what the child needs to exit is allowed; the rest fails with ENOSYS. */
static int probe_default_errno(void)
{
	return raw_errno(SYS_getpid, 0) == ENOSYS && raw_errno(SYS_getppid, 0) == ENOSYS ? 0 : 1;
}

static void test_load_default_errno_ret(void **state)
{
	struct st_seccomp f;

	compile_ok("load-default-errno",
		   "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38, \"syscalls\": ["
		   "{\"names\": [\"exit_group\", \"exit\"], \"action\": \"SCMP_ACT_ALLOW\"}]}",
		   &f);
	assert_int_equal(in_child_or_skip(&f, probe_default_errno), 0);
	st_seccomp_free(&f);
}

/* OCI: MASKED_EQ is (arg & value) == valueTwo. */
static int probe_masked_eq(void)
{
	if (raw_errno(SYS_getppid, 0x1234) != 99) /* 0x1234 & 0xff == 0x34 */
		return 1;
	if (raw_errno(SYS_getppid, 0x1235) != 0)
		return 2;
	if (raw_errno(SYS_getppid, 0x34) != 99)
		return 3;
	return 0;
}

static void test_load_masked_eq(void **state)
{
	struct st_seccomp f;

	compile_ok("load-masked",
		   "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"getppid\"],"
		   " \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 99, \"args\": ["
		   "{\"index\": 0, \"value\": 255, \"valueTwo\": 52, \"op\": \"SCMP_CMP_MASKED_EQ\"}]}]}",
		   &f);
	assert_int_equal(in_child_or_skip(&f, probe_masked_eq), 0);
	st_seccomp_free(&f);
}

/* The built-in profile: EPERM for what it leaves out, ENOSYS for clone3. */
static int probe_default_profile(void)
{
	if (raw_errno(SYS_getppid, 0) != 0)
		return 1;
	if (raw_errno(SYS_keyctl, 0) != EPERM)
		return 2;
	if (raw_errno(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */) != EPERM)
		return 3;
	if (raw_errno(SYS_mount, 0) != EPERM)
		return 4;
	if (raw_errno(SYS_clone3, 0) != ENOSYS)
		return 5;
	if (raw_errno(SYS_bpf, 0) != EPERM)
		return 6;
	if (raw_errno(SYS_personality, 0x0040000 /* ADDR_NO_RANDOMIZE */) != EPERM)
		return 7;
	return 0;
}

static void test_load_default(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f;

	assert_int_equal(st_seccomp_compile("default", st_caps_default(), &f, &err), 0);
	assert_int_equal(in_child_or_skip(&f, probe_default_profile), 0);
	st_seccomp_free(&f);
}

/* Loading "none" does nothing and succeeds. */
static void test_load_none(void **state)
{
	struct st_error err = { 0 };
	struct st_seccomp f;

	assert_int_equal(st_seccomp_compile("none", st_caps_default(), &f, &err), 0);
	assert_int_equal(st_seccomp_load(&f, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_single_name),
		cmocka_unit_test(test_no_rules),
		cmocka_unit_test(test_actions_ops_arches),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_err_not_json),
		cmocka_unit_test(test_err_not_an_object),
		cmocka_unit_test(test_err_default_action),
		cmocka_unit_test(test_err_architectures),
		cmocka_unit_test(test_err_syscalls_shape),
		cmocka_unit_test(test_err_names),
		cmocka_unit_test(test_err_action),
		cmocka_unit_test(test_err_args),
		cmocka_unit_test(test_err_missing_file),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_unknown_name_twice),
		cmocka_unit_test(test_unknown_names_overflow),
		cmocka_unit_test(test_unknown_name_empty),
		cmocka_unit_test(test_rule_same_as_default),
		cmocka_unit_test(test_free_twice),
		cmocka_unit_test(test_builtin_is_compiled),
		cmocka_unit_test(test_builtin_other_caps),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_load_errno_ret),
		cmocka_unit_test(test_load_default_errno_ret),
		cmocka_unit_test(test_load_masked_eq),
		cmocka_unit_test(test_load_default),
		cmocka_unit_test(test_load_none),
	};

	return cmocka_run_group_tests_name("seccomp", tests, setup_dir, teardown_dir);
}
