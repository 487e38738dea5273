// SPDX-License-Identifier: MIT
/*
 * The /proc sources of the orphans scan on a fixture tree
 * (tests/fixtures/proc/basic, its README says what it holds): threads,
 * mount namespaces read once, mounts of other mount namespaces, fds and an
 * unreadable socket, a process that exited; then classification. And one
 * scan of the real /proc, which must at least find this process.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/orphans.h"

#define HOST_NET 4026531840ull
#define OUR_MNT 4026531841ull

static char root[PATH_MAX];

/* The fixture from the test binary's place: BUILD/tests/NAME -> tests/fixtures/proc/basic. */
static int find_fixture(void **state)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	for (int up = 0; up < 3; up++)
		*strrchr(exe, '/') = '\0';
	snprintf(root, sizeof(root), "%s/tests/fixtures/proc/basic", exe);
	return 0;
}

static const struct st_netns *find(const struct st_orphans *s, uint64_t ino)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ino == ino)
			return &s->v[i];
	fail_msg("namespace %llu not found", (unsigned long long)ino);
	return NULL;
}

static void scan_fixture(struct st_orphans *s)
{
	struct st_orphans_proc p = {
		.root = root, .nsfs_dev = makedev(0, 4), .self_mntns = OUR_MNT, .self = 5000100
	};
	struct st_error err = { 0 };

	assert_int_equal(st_orphans_scan_proc(s, &p, &err), 0);
	st_orphans_classify(s);
}

static void test_sources(void **state)
{
	struct st_orphans s = { 0 };
	const struct st_netns *ns;

	scan_fixture(&s);
	/* 4026532099 is in a mountinfo of a mount namespace read already: never seen. */
	assert_int_equal(s.n, 5);
	assert_int_equal(s.active, 2);
	assert_int_equal(s.orphans, 3);
	assert_int_equal(s.unverified, 0);
	assert_int_equal(s.unreadable_processes, 0); /* 5000400 exited: skipped, not unreadable */
	assert_int_equal(s.sockets_unchecked, 1);
	assert_int_equal(s.self_mntns, OUR_MNT);

	ns = find(&s, HOST_NET);
	assert_int_equal(ns->state, ST_NETNS_ACTIVE);
	assert_int_equal(ns->processes, 2);
	assert_int_equal(ns->dev, makedev(0, 4));
	assert_int_equal(ns->nholders, 0);

	/* A thread of 5000200 that moved, and 5000300: two processes. */
	ns = find(&s, 4026532003);
	assert_int_equal(ns->state, ST_NETNS_ACTIVE);
	assert_int_equal(ns->processes, 2);
	st_orphans_free(&s);
}

static void test_mount_holders(void **state)
{
	struct st_orphans s = { 0 };
	const struct st_netns *ns;
	char path[PATH_MAX + 64];

	scan_fixture(&s);
	/* Mounted in ours and in another mount namespace: two holders, opened from ours. */
	ns = find(&s, 4026532001);
	assert_int_equal(ns->state, ST_NETNS_ORPHAN);
	assert_int_equal(ns->processes, 0);
	assert_int_equal(ns->nholders, 2);
	assert_int_equal(ns->holders[0].kind, ST_HOLDER_MOUNT);
	assert_string_equal(ns->holders[0].path, "/run/netns/orphan-a");
	assert_int_equal(ns->holders[0].mntns, OUR_MNT);
	assert_int_equal(ns->holders[1].kind, ST_HOLDER_MOUNT);
	assert_int_equal(ns->holders[1].mntns, 4026532900ull);
	assert_string_equal(ns->open_path, "/run/netns/orphan-a");

	/* Only another mount namespace's mount: opened through that process's root. */
	ns = find(&s, 4026532005);
	assert_int_equal(ns->state, ST_NETNS_ORPHAN);
	assert_int_equal(ns->nholders, 2);
	assert_int_equal(ns->holders[0].kind, ST_HOLDER_MOUNT);
	assert_string_equal(ns->holders[0].path, "/var/run/netns/other");
	snprintf(path, sizeof(path), "%s/5000300/root/var/run/netns/other", root);
	assert_string_equal(ns->open_path, path);
	st_orphans_free(&s);
}

static void test_fd_holders(void **state)
{
	struct st_orphans s = { 0 };
	const struct st_netns *ns;
	char path[PATH_MAX + 64];

	scan_fixture(&s);
	ns = find(&s, 4026532002);
	assert_int_equal(ns->state, ST_NETNS_ORPHAN);
	assert_int_equal(ns->nholders, 1);
	assert_int_equal(ns->holders[0].kind, ST_HOLDER_FD);
	assert_int_equal(ns->holders[0].pid, 5000100);
	assert_int_equal(ns->holders[0].fd, 3);
	assert_string_equal(ns->holders[0].comm, "fixture-a");
	snprintf(path, sizeof(path), "%s/5000100/fd/3", root);
	assert_string_equal(ns->open_path, path);

	ns = find(&s, 4026532005);
	assert_int_equal(ns->holders[1].kind, ST_HOLDER_FD);
	assert_int_equal(ns->holders[1].pid, 5000300);
	assert_int_equal(ns->holders[1].fd, 5);
	assert_string_equal(ns->holders[1].comm, "fixture-c");

	/* Orphans first, by inode. */
	assert_int_equal(s.v[0].ino, 4026532001ull);
	assert_int_equal(s.v[1].ino, 4026532002ull);
	assert_int_equal(s.v[2].ino, 4026532005ull);
	st_orphans_free(&s);
}

static void test_missing_root(void **state)
{
	struct st_orphans s = { 0 };
	struct st_orphans_proc p = { .root = "/nonexistent-proc", .nsfs_dev = makedev(0, 4) };
	struct st_error err = { 0 };

	assert_int_equal(st_orphans_scan_proc(&s, &p, &err), -ENOENT);
	assert_string_equal(err.msg, "orphans: /nonexistent-proc");
	st_orphans_free(&s);
}

/* The real /proc: this process's own namespace is found, with at least this process in it. */
static void test_real_proc(void **state)
{
	struct st_orphans s = { 0 };
	struct st_orphans_proc p = { .root = "/proc", .self = getpid() };
	struct st_error err = { 0 };
	struct stat st, mnt;

	assert_int_equal(stat("/proc/self/ns/net", &st), 0);
	assert_int_equal(stat("/proc/self/ns/mnt", &mnt), 0);
	p.nsfs_dev = st.st_dev;
	p.self_mntns = mnt.st_ino;
	assert_int_equal(st_orphans_scan_proc(&s, &p, &err), 0);
	st_orphans_classify(&s);
	assert_true(find(&s, st.st_ino)->processes >= 1);
	assert_int_equal(find(&s, st.st_ino)->state, ST_NETNS_ACTIVE);
	st_orphans_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_mount_holders),
		cmocka_unit_test(test_fd_holders),
		cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_real_proc),
	};

	return cmocka_run_group_tests(tests, find_fixture, NULL);
}
