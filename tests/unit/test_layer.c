// SPDX-License-Identifier: MIT
/* The namespace table and --ns parsing. */
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/layer.h"

#define BIT(l) ST_LAYER_BIT(ST_LAYER_##l)

static void test_fixed_order(void **state)
{
	static const char *const order[] = { "user",  "uts",    "ipc",  "pid",
					     "mount", "cgroup", "time", "net" };

	assert_int_equal(ST_LAYER_COUNT, ARRAY_SIZE(order));
	for (size_t l = 0; l < ARRAY_SIZE(order); l++)
		assert_string_equal(st_layers[l].name, order[l]);
	assert_string_equal(st_layer_names(), "user,uts,ipc,pid,mount,cgroup,time,net");
	/* A second call returns the same text, not a doubled list. */
	assert_string_equal(st_layer_names(), "user,uts,ipc,pid,mount,cgroup,time,net");
}

static void test_table_rows(void **state)
{
	static const struct {
		int layer;
		uint64_t flag;
		const char *flag_name, *ns_file, *max_file;
	} rows[] = {
		{ ST_LAYER_USER, CLONE_NEWUSER, "CLONE_NEWUSER", "user", "max_user_namespaces" },
		{ ST_LAYER_UTS, CLONE_NEWUTS, "CLONE_NEWUTS", "uts", "max_uts_namespaces" },
		{ ST_LAYER_IPC, CLONE_NEWIPC, "CLONE_NEWIPC", "ipc", "max_ipc_namespaces" },
		{ ST_LAYER_PID, CLONE_NEWPID, "CLONE_NEWPID", "pid", "max_pid_namespaces" },
		/* The kernel calls the mount namespace "mnt" in /proc. */
		{ ST_LAYER_MOUNT, CLONE_NEWNS, "CLONE_NEWNS", "mnt", "max_mnt_namespaces" },
		{ ST_LAYER_CGROUP, CLONE_NEWCGROUP, "CLONE_NEWCGROUP", "cgroup",
		  "max_cgroup_namespaces" },
		{ ST_LAYER_TIME, CLONE_NEWTIME, "CLONE_NEWTIME", "time", "max_time_namespaces" },
		{ ST_LAYER_NET, CLONE_NEWNET, "CLONE_NEWNET", "net", "max_net_namespaces" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct st_layer_info *info = &st_layers[rows[i].layer];

		assert_int_equal(info->flag, rows[i].flag);
		assert_string_equal(info->flag_name, rows[i].flag_name);
		assert_string_equal(info->ns_file, rows[i].ns_file);
		assert_string_equal(info->max_file, rows[i].max_file);
	}
}

static void test_lookup(void **state)
{
	for (int l = 0; l < ST_LAYER_COUNT; l++)
		assert_int_equal(st_layer_lookup(st_layers[l].name), l);
	assert_int_equal(st_layer_lookup("mnt"), -1);
	assert_int_equal(st_layer_lookup("USER"), -1);
	assert_int_equal(st_layer_lookup(""), -1);
	assert_int_equal(st_layer_lookup("all"), -1);
	assert_int_equal(st_layer_lookup("none"), -1);
	assert_int_equal(st_layer_lookup("user "), -1);
}

static void test_flags(void **state)
{
	assert_int_equal(st_layer_flags(0), 0);
	assert_int_equal(st_layer_flags(BIT(NET)), CLONE_NEWNET);
	assert_int_equal(st_layer_flags(BIT(USER) | BIT(MOUNT) | BIT(TIME)),
			 CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWTIME);
	assert_int_equal(st_layer_flags(ST_LAYERS_ALL),
			 CLONE_NEWUSER | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNS |
				 CLONE_NEWCGROUP | CLONE_NEWTIME | CLONE_NEWNET);
	/* Bits past the table are no layer. */
	assert_int_equal(st_layer_flags(~0u), st_layer_flags(ST_LAYERS_ALL));
}

static void test_parse_any_order(void **state)
{
	struct st_error err = { 0 };
	unsigned int a, b, ea, eb;

	assert_int_equal(st_layer_parse("user,uts,pid,net", &a, &ea, &err), 0);
	assert_int_equal(st_layer_parse("net,pid,uts,user", &b, &eb, &err), 0);
	assert_int_equal(a, BIT(USER) | BIT(UTS) | BIT(PID) | BIT(NET));
	assert_int_equal(a, b);
	assert_int_equal(ea, a);
	assert_int_equal(eb, b);
	assert_int_equal(st_layer_parse("mount", &a, &ea, &err), 0);
	assert_int_equal(a, BIT(MOUNT));
	assert_int_equal(st_layer_parse("time,cgroup,net,mount,pid,ipc,uts,user", &a, &ea, &err),
			 0);
	assert_int_equal(a, ST_LAYERS_ALL);
}

static void test_parse_repeated(void **state)
{
	struct st_error err = { 0 };
	unsigned int m, e;

	assert_int_equal(st_layer_parse("net,net,user,net", &m, &e, &err), 0);
	assert_int_equal(m, BIT(NET) | BIT(USER));
	assert_int_equal(e, m);
}

static void test_parse_all_none(void **state)
{
	struct st_error err = { 0 };
	unsigned int m = 123, e = 123;

	assert_int_equal(st_layer_parse("all", &m, &e, &err), 0);
	assert_int_equal(m, ST_LAYERS_ALL);
	/* "all" names nothing one by one: what the kernel lacks may be left out. */
	assert_int_equal(e, 0);
	assert_int_equal(st_layer_parse("none", &m, &e, &err), 0);
	assert_int_equal(m, 0);
	assert_int_equal(e, 0);
	assert_int_equal(st_layer_parse("all,all", &m, &e, &err), 0);
	assert_int_equal(m, ST_LAYERS_ALL);
}

/* A usage error on --ns that leaves the masks alone. */
static void assert_parse_error(const char *list, const char *needle)
{
	struct st_error err = { 0 };
	unsigned int m = 0xdead, e = 0xbeef;
	int ret = st_layer_parse(list, &m, &e, &err);

	if (ret != -EINVAL || !err.usage || !strstr(err.msg, "--ns") || !strstr(err.msg, needle)) {
		print_error("# --ns='%s': ret %d, usage %d, msg '%s', expected '%s'\n",
			    list ? list : "(null)", ret, err.usage, err.msg, needle);
		fail();
	}
	assert_int_equal(m, 0xdead);
	assert_int_equal(e, 0xbeef);
}

static void test_parse_mixed_keyword(void **state)
{
	assert_parse_error("all,net", "all,net");
	assert_parse_error("net,all", "net,all");
	assert_parse_error("none,user", "none,user");
	assert_parse_error("user,none", "user,none");
}

static void test_parse_all_and_none(void **state)
{
	/* Contradictory keywords: neither may silently win. */
	assert_parse_error("all,none", "all,none");
	assert_parse_error("none,all", "none,all");
}

static void test_parse_empty(void **state)
{
	assert_parse_error("", "empty");
	assert_parse_error(NULL, "empty");
	assert_parse_error(",", "empty");
	assert_parse_error("user,", "empty");
	assert_parse_error(",user", "empty");
	assert_parse_error("user,,net", "empty");
	/* The empty list's message says what is allowed. */
	assert_parse_error("", "user,uts,ipc,pid,mount,cgroup,time,net");
}

static void test_parse_unknown(void **state)
{
	struct st_error err = { 0 };
	unsigned int m, e;

	assert_int_equal(st_layer_parse("user,utz", &m, &e, &err), -EINVAL);
	assert_int_equal(err.usage, 1);
	assert_int_equal(err.errnum, 0);
	assert_string_equal(err.msg,
			    "--ns: unknown namespace 'utz' (known: user,uts,ipc,pid,mount,cgroup,time,net)");
	assert_parse_error("mnt", "'mnt'");
	assert_parse_error("User", "'User'");
	assert_parse_error(" user", "' user'");
	assert_parse_error("all,bogus", "'bogus'");
}

static void test_hint(void **state)
{
	struct st_error err = { 0 };

	st_layer_hint(&err, ENOSPC, ST_LAYER_MOUNT);
	assert_non_null(strstr(err.hint, "/proc/sys/user/max_mnt_namespaces"));
	assert_non_null(strstr(err.hint, "sysctl user.max_mnt_namespaces="));
	st_layer_hint(&err, ENOSPC, ST_LAYER_USER);
	assert_non_null(strstr(err.hint, "max_user_namespaces"));
	/* The table names no sysctl for user: which one exists is the host's (st_userns_cause). */
	st_layer_hint(&err, EPERM, ST_LAYER_USER);
	assert_string_equal(err.hint, "the kernel refuses this process a new user namespace");
	st_layer_hint(&err, EPERM, ST_LAYER_NET);
	assert_non_null(strstr(err.hint, "CAP_SYS_ADMIN"));
	st_layer_hint(&err, EINVAL, ST_LAYER_TIME);
	assert_non_null(strstr(err.hint, "CONFIG_TIME_NS"));
	st_layer_hint(&err, EUSERS, ST_LAYER_USER);
	assert_non_null(strstr(err.hint, "32"));
	/* No advice known: nothing is made up. */
	st_error_clear(&err);
	st_layer_hint(&err, EIO, ST_LAYER_NET);
	assert_string_equal(err.hint, "");
}

/* The table's texts, whole: the placeholders filled, the rows picked by layer and operation. */
static void test_advise_table(void **state)
{
	struct st_error err = { 0 };

	st_layer_advise(&err, ENOSPC, ST_LAYER_IPC, ST_ADVICE_CREATE);
	assert_string_equal(err.hint, "the limit in /proc/sys/user/max_ipc_namespaces is reached; raise it with sysctl user.max_ipc_namespaces=N");
	st_layer_advise(&err, EINVAL, ST_LAYER_MOUNT, ST_ADVICE_CREATE);
	assert_string_equal(err.hint, "this kernel was built without CONFIG_NAMESPACES");
	st_layer_advise(&err, EPERM, ST_LAYER_UTS, ST_ADVICE_CREATE);
	assert_string_equal(err.hint, "creating this namespace needs CAP_SYS_ADMIN: run as root or add the user layer (--ns=user,...)");
	st_layer_advise(&err, EPERM, ST_LAYER_NET, ST_ADVICE_ENTER);
	assert_string_equal(err.hint, "entering a network namespace needs CAP_SYS_ADMIN over it and in sandboxtime's own user namespace: run as root");
	/* Entering has advice for EPERM on a network namespace only. */
	st_error_clear(&err);
	st_layer_advise(&err, ENOSPC, ST_LAYER_NET, ST_ADVICE_ENTER);
	assert_string_equal(err.hint, "");
	st_layer_advise(&err, EPERM, ST_LAYER_IPC, ST_ADVICE_ENTER);
	assert_string_equal(err.hint, "");
	/* ENOSYS: clone3 is missing, and the row names the layer's clone flag. */
	st_layer_advise(&err, ENOSYS, ST_LAYER_TIME, ST_ADVICE_CREATE);
	assert_string_equal(err.hint, "clone3 is missing here (Linux before 5.3, or a seccomp filter hides it), and clone() cannot pass CLONE_NEWTIME");
}

static void test_userns_cause(void **state)
{
	struct st_userns_env none = { .chrooted = 0, .max_user = 1000, .unpriv_clone = -1,
				       .apparmor_restrict = -1, .seccomp = 0, .root = 0, .proc = 1 };
	struct st_userns_env e;
	struct st_error err = { 0 };

	/*
	 * A refusal nothing read explains: said as that, naming no sysctl this
	 * host lacks (the wrong cause a chroot that is a mount root got, issue 25.3).
	 */
	assert_int_equal(st_userns_cause(&err, EPERM, &none), 1);
	assert_non_null(strstr(err.hint, "no sysctl, AppArmor setting or seccomp filter here refuses it"));
	assert_non_null(strstr(err.hint, "chroot"));
	assert_null(strstr(err.hint, "unprivileged_userns_clone"));
	assert_null(strstr(err.hint, "apparmor_restrict"));
	/* Not a refusal, nothing known: the hint is left to st_layer_hint. */
	st_error_clear(&err);
	assert_int_equal(st_userns_cause(&err, ENOSPC, &none), 0);
	/* No /proc: that first, with how to mount it. */
	e = none;
	e.proc = 0;
	assert_int_equal(st_userns_cause(&err, EPERM, &e), 1);
	assert_non_null(strstr(err.hint, "mount -t proc proc /proc"));
	e = none;
	e.chrooted = 1;
	e.root = 1;
	assert_int_equal(st_userns_cause(&err, EPERM, &e), 1);
	assert_non_null(strstr(err.hint, "chroot"));
	e = none;
	e.max_user = 0;
	assert_int_equal(st_userns_cause(&err, ENOSPC, &e), 1);
	assert_non_null(strstr(err.hint, "user.max_user_namespaces"));
	e = none;
	e.unpriv_clone = 0;
	assert_int_equal(st_userns_cause(&err, EPERM, &e), 1);
	assert_non_null(strstr(err.hint, "kernel.unprivileged_userns_clone"));
	e = none;
	e.apparmor_restrict = 1;
	assert_int_equal(st_userns_cause(&err, EACCES, &e), 1);
	assert_non_null(strstr(err.hint, "AppArmor"));
	/* Root is not held back by the sysctls for unprivileged users: not blamed on them. */
	e.root = 1;
	assert_int_equal(st_userns_cause(&err, EPERM, &e), 1);
	assert_null(strstr(err.hint, "AppArmor restricts"));
	e = none;
	e.seccomp = 2;
	assert_int_equal(st_userns_cause(&err, EPERM, &e), 1);
	assert_non_null(strstr(err.hint, "seccomp"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_order),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_parse_any_order),
		cmocka_unit_test(test_parse_repeated),
		cmocka_unit_test(test_parse_all_none),
		cmocka_unit_test(test_parse_mixed_keyword),
		cmocka_unit_test(test_parse_all_and_none),
		cmocka_unit_test(test_parse_empty),
		cmocka_unit_test(test_parse_unknown),
		cmocka_unit_test(test_hint),
		cmocka_unit_test(test_advise_table),
		cmocka_unit_test(test_userns_cause),
	};

	return cmocka_run_group_tests_name("layer", tests, NULL, NULL);
}
