// SPDX-License-Identifier: MIT
/*
 * caps.c: Docker's default set, --cap-drop/--cap-add editing (names in any
 * case, with or without "CAP_", ALL, bad names), the names of a mask for the
 * report, and st_caps_apply() in a forked child, which can only take away.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/caps.h"

#define DOCKER 0xa80425fbull
#define BIT(c) (1ull << (c))

/* The highest capability of this kernel, as /proc says (libcap's guess otherwise). */
static int kernel_last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "r");
	int last = -1;

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = -1;
		fclose(f);
	}
	if (last < 0)
		last = (int)cap_max_bits() - 1;
	return last > 63 ? 63 : last;
}

static uint64_t all_caps(void)
{
	int last = kernel_last_cap();

	return last >= 63 ? ~0ull : BIT(last + 1) - 1;
}

/* st_caps_edit on Docker's set; returns the result, fails the test on error. */
static uint64_t edited(const char *drop, const char *add)
{
	struct st_error err = { 0 };
	uint64_t mask = st_caps_default();
	int ret = st_caps_edit(&mask, drop, add, &err);

	if (ret != 0)
		print_error("# drop '%s' add '%s': %d %s\n", drop ? drop : "(null)", add ? add : "(null)", ret,
			    err.msg);
	assert_int_equal(ret, 0);
	return mask;
}

/* Editing fails with a usage error whose message names @needle1 (and @needle2). */
static void assert_bad(const char *drop, const char *add, const char *needle1, const char *needle2)
{
	struct st_error err = { 0 };
	uint64_t mask = st_caps_default();
	int ret = st_caps_edit(&mask, drop, add, &err);

	if (ret == -EINVAL && err.usage && strstr(err.msg, needle1) && (!needle2 || strstr(err.msg, needle2)))
		return;
	print_error("# drop '%s' add '%s': ret %d usage %d msg '%s', expected a usage error naming '%s' '%s'\n",
		    drop ? drop : "(null)", add ? add : "(null)", ret, err.usage, err.msg, needle1,
		    needle2 ? needle2 : "");
	fail();
}

static void test_default_is_docker(void **state)
{
	assert_int_equal(st_caps_default(), DOCKER);
	/* CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, SETPCAP,
	 * NET_BIND_SERVICE, NET_RAW, SYS_CHROOT, MKNOD, AUDIT_WRITE, SETFCAP */
	assert_int_equal(st_caps_default(),
			 BIT(CAP_CHOWN) | BIT(CAP_DAC_OVERRIDE) | BIT(CAP_FOWNER) | BIT(CAP_FSETID) |
				 BIT(CAP_KILL) | BIT(CAP_SETGID) | BIT(CAP_SETUID) | BIT(CAP_SETPCAP) |
				 BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_NET_RAW) | BIT(CAP_SYS_CHROOT) |
				 BIT(CAP_MKNOD) | BIT(CAP_AUDIT_WRITE) | BIT(CAP_SETFCAP));
}

static void test_edit_nothing(void **state)
{
	assert_int_equal(edited(NULL, NULL), DOCKER);
}

static void test_edit_add(void **state)
{
	assert_int_equal(edited(NULL, "NET_ADMIN"), 0xa80435fbull);
	assert_int_equal(edited(NULL, "CAP_NET_ADMIN,CAP_SYS_ADMIN"), DOCKER | BIT(CAP_NET_ADMIN) | BIT(CAP_SYS_ADMIN));
	/* Adding what is there already changes nothing. */
	assert_int_equal(edited(NULL, "CHOWN"), DOCKER);
}

static void test_edit_drop(void **state)
{
	assert_int_equal(edited("chown,CAP_KILL", NULL), 0xa80425daull);
	/* Dropping what is not there changes nothing. */
	assert_int_equal(edited("SYS_ADMIN", NULL), DOCKER);
}

static void test_edit_any_case(void **state)
{
	assert_int_equal(edited("Cap_Chown,kill", NULL), 0xa80425daull);
	assert_int_equal(edited("cap_chown,KILL", NULL), 0xa80425daull);
	assert_int_equal(edited("CHOWN,Kill", NULL), 0xa80425daull);
	assert_int_equal(edited(NULL, "net_admin"), 0xa80435fbull);
	assert_int_equal(edited(NULL, "cAp_NeT_aDmIn"), 0xa80435fbull);
}

static void test_edit_drop_all(void **state)
{
	assert_int_equal(edited("ALL", NULL), 0);
	assert_int_equal(edited("all", NULL), 0);
	/* --cap-drop applies first, then --cap-add. */
	assert_int_equal(edited("ALL", "NET_ADMIN"), BIT(CAP_NET_ADMIN));
	assert_int_equal(edited("ALL", "chown,kill"), BIT(CAP_CHOWN) | BIT(CAP_KILL));
}

static void test_edit_add_all(void **state)
{
	assert_int_equal(edited(NULL, "ALL"), all_caps());
	assert_int_equal(edited(NULL, "All"), all_caps());
	/* Nothing above the kernel's last capability. */
	assert_int_equal(edited(NULL, "ALL") & ~all_caps(), 0);
}

/* A name both dropped and added: dropped first, so it stays, as in Docker. */
static void test_edit_drop_then_add_same(void **state)
{
	assert_int_equal(edited("CHOWN", "CHOWN"), DOCKER);
	assert_int_equal(edited("NET_ADMIN", "NET_ADMIN"), DOCKER | BIT(CAP_NET_ADMIN));
}

/*
 * Docker (moby oci/caps TweakCapabilities): with ALL in --cap-add, the
 * result is every capability except those of --cap-drop. Giving the
 * capability that was asked to be dropped is more than the user asked for.
 */
static void test_edit_add_all_keeps_drops(void **state)
{
	assert_int_equal(edited("NET_ADMIN", "ALL"), all_caps() & ~BIT(CAP_NET_ADMIN));
	assert_int_equal(edited("SYS_ADMIN,sys_module", "ALL"),
			 all_caps() & ~BIT(CAP_SYS_ADMIN) & ~BIT(CAP_SYS_MODULE));
}

static void test_edit_unknown(void **state)
{
	assert_bad("CAP_FOO", NULL, "--cap-drop", "'CAP_FOO'");
	assert_bad(NULL, "foo", "--cap-add", "'foo'");
	/* The bad one among good ones is the one named. */
	assert_bad("chown,nope,kill", NULL, "--cap-drop", "'nope'");
	assert_bad(NULL, "NET_ADMIN,SYS_FOO", "--cap-add", "'SYS_FOO'");
	/* "CAP_" alone, a number, blanks, "CAP_CAP_CHOWN". */
	assert_bad(NULL, "CAP_", "--cap-add", "'CAP_'");
	assert_bad(NULL, "12", "--cap-add", "'12'");
	assert_bad(NULL, "NET ADMIN", "--cap-add", "'NET ADMIN'");
	assert_bad(NULL, " CHOWN", "--cap-add", "' CHOWN'");
	assert_bad(NULL, "CAP_CAP_CHOWN", "--cap-add", "'CAP_CAP_CHOWN'");
	/* A name longer than any capability, that starts like one. */
	assert_bad(NULL, "CAP_CHOWNXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
		   "--cap-add", "CAP_CHOWNXXXX");
	/* The drop list is checked even when the add list is bad too, and first. */
	assert_bad("bad1", "bad2", "--cap-drop", "'bad1'");
}

static void test_edit_empty_list(void **state)
{
	assert_bad("", NULL, "--cap-drop", "empty");
	assert_bad(NULL, "", "--cap-add", "empty");
}

/*
 * An empty element is refused as --ns refuses one ("uts,,pid"): "," is an
 * empty list by another spelling, and "chown,,kill" most likely a typo.
 */
static void test_edit_empty_elements(void **state)
{
	assert_bad(",", NULL, "--cap-drop", NULL);
	assert_bad(NULL, "chown,,kill", "--cap-add", NULL);
	assert_bad(NULL, "chown,", "--cap-add", NULL);
}

static void test_format_default(void **state)
{
	char buf[1024];

	st_caps_format(DOCKER, buf, sizeof(buf));
	assert_string_equal(buf, "CAP_CHOWN,CAP_DAC_OVERRIDE,CAP_FOWNER,CAP_FSETID,CAP_KILL,CAP_SETGID,"
				 "CAP_SETUID,CAP_SETPCAP,CAP_NET_BIND_SERVICE,CAP_NET_RAW,CAP_SYS_CHROOT,"
				 "CAP_MKNOD,CAP_AUDIT_WRITE,CAP_SETFCAP");
}

static void test_format_order(void **state)
{
	char buf[256];

	/* In CAP_* order, whatever the order of the options that made the mask. */
	st_caps_format(BIT(CAP_SYS_ADMIN) | BIT(CAP_CHOWN) | BIT(CAP_NET_ADMIN), buf, sizeof(buf));
	assert_string_equal(buf, "CAP_CHOWN,CAP_NET_ADMIN,CAP_SYS_ADMIN");
	st_caps_format(BIT(CAP_KILL), buf, sizeof(buf));
	assert_string_equal(buf, "CAP_KILL");
}

static void test_format_empty(void **state)
{
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	st_caps_format(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* Every capability of the kernel once, upper case, none unnamed; no bit above. */
static void test_format_all(void **state)
{
	int last = kernel_last_cap(), n = 0;
	char buf[2048], *save = NULL;

	st_caps_format(ST_CAPS_ALL, buf, sizeof(buf));
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
		assert_true(strncmp(tok, "CAP_", 4) == 0);
		for (char *p = tok; *p; p++)
			assert_true((*p >= 'A' && *p <= 'Z') || *p == '_' || (*p >= '0' && *p <= '9'));
		if (n == 0)
			assert_string_equal(tok, "CAP_CHOWN");
	}
	assert_int_equal(n, last + 1);
}

/* A short buffer is cut, never overrun, and stays a string: a prefix of the whole. */
static void test_format_short_buffer(void **state)
{
	char full[1024], buf[32];

	st_caps_format(DOCKER, full, sizeof(full));
	memset(buf, '#', sizeof(buf));
	st_caps_format(DOCKER, buf, 12);
	assert_non_null(memchr(buf, '\0', 12));
	for (size_t i = 12; i < sizeof(buf); i++)
		assert_int_equal(buf[i], '#');
	assert_true(strlen(buf) > 0);
	assert_int_equal(strncmp(full, buf, strlen(buf)), 0);
}

/* A set of /proc/self/status ("CapEff") as a mask. */
static uint64_t status_mask(const char *field)
{
	char line[256];
	uint64_t v = 0;
	FILE *f = fopen("/proc/self/status", "r");
	size_t n = strlen(field);

	if (!f)
		return ~0ull;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			v = strtoull(line + n + 1, NULL, 16);
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * In a child: st_caps_apply(@mask), then the sets are checked. Exit codes:
 * 0 fine, 10 apply failed, 11-15 the set that is wrong.
 */
static int apply_in_child(uint64_t mask)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct st_error err = { 0 };
		uint64_t before_prm = status_mask("CapPrm"), before_bnd = status_mask("CapBnd");
		int setpcap = !!(status_mask("CapEff") & BIT(CAP_SETPCAP));

		if (st_caps_apply(mask, &err) < 0) {
			fprintf(stderr, "# st_caps_apply: %s\n", err.msg);
			_exit(10);
		}
		if (status_mask("CapPrm") != (mask & before_prm))
			_exit(11);
		if (status_mask("CapEff") != (mask & before_prm))
			_exit(12);
		/* Without CAP_SETPCAP the bounding set cannot shrink; it never grows. */
		if (status_mask("CapBnd") != (setpcap ? (mask & before_bnd) : before_bnd))
			_exit(13);
		if (status_mask("CapInh") != 0)
			_exit(14);
		if (status_mask("CapAmb") != 0)
			_exit(15);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_apply_default(void **state)
{
	assert_int_equal(apply_in_child(DOCKER), 0);
}

static void test_apply_none(void **state)
{
	assert_int_equal(apply_in_child(0), 0);
}

/* ALL takes nothing away and gives nothing the process did not have. */
static void test_apply_all_gives_nothing_new(void **state)
{
	assert_int_equal(apply_in_child(ST_CAPS_ALL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_is_docker),
		cmocka_unit_test(test_edit_nothing),
		cmocka_unit_test(test_edit_add),
		cmocka_unit_test(test_edit_drop),
		cmocka_unit_test(test_edit_any_case),
		cmocka_unit_test(test_edit_drop_all),
		cmocka_unit_test(test_edit_add_all),
		cmocka_unit_test(test_edit_drop_then_add_same),
		cmocka_unit_test(test_edit_add_all_keeps_drops),
		cmocka_unit_test(test_edit_unknown),
		cmocka_unit_test(test_edit_empty_list),
		cmocka_unit_test(test_edit_empty_elements),
		cmocka_unit_test(test_format_default),
		cmocka_unit_test(test_format_order),
		cmocka_unit_test(test_format_empty),
		cmocka_unit_test(test_format_all),
		cmocka_unit_test(test_format_short_buffer),
		cmocka_unit_test(test_apply_default),
		cmocka_unit_test(test_apply_none),
		cmocka_unit_test(test_apply_all_gives_nothing_new),
	};

	return cmocka_run_group_tests_name("caps", tests, NULL, NULL);
}
