// SPDX-License-Identifier: MIT
/*
 * The orphans core without a /proc: the mountinfo parser on fixture lines,
 * classification on hand-built sources, and the Prometheus label escaping.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/orphans.h"
#include "sandboxtime/orphans_cleanup.h"
#include "sandboxtime/procfs.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_orphans.h"

#define NSFS 4 /* st_dev of nsfs in these fixtures */

static void test_mountinfo_fields(void **state)
{
	char line[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n";
	struct st_mountinfo m;

	assert_int_equal(st_mountinfo_parse(line, &m), 0);
	assert_int_equal(m.id, 36);
	assert_int_equal(m.parent, 35);
	assert_int_equal(m.major, 98);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.root, "/mnt1");
	assert_string_equal(m.mountpoint, "/mnt2");
	assert_string_equal(m.options, "rw,noatime");
	assert_string_equal(m.fstype, "ext3");
	assert_string_equal(m.source, "/dev/root");
	assert_string_equal(m.super_options, "rw,errors=continue");
}

static void test_mountinfo_nsfs(void **state)
{
	/* What `ip netns add x` leaves in mountinfo: twice, /run/netns is shared. */
	char line[] = "612 29 0:4 net:[4026532295] /run/netns/x rw shared:318 - nsfs nsfs rw";
	struct st_mountinfo m;
	unsigned long long ino = 0;

	assert_int_equal(st_mountinfo_parse(line, &m), 0);
	assert_string_equal(m.fstype, "nsfs");
	assert_int_equal(m.major, 0);
	assert_int_equal(m.minor, NSFS);
	assert_int_equal(st_nsfs_root_inode(m.root, "net", &ino), 0);
	assert_true(ino == 4026532295ULL);
	assert_int_equal(st_nsfs_root_inode("mnt:[4026531841]", "net", &ino), -EINVAL);
	assert_int_equal(st_nsfs_root_inode("net:[12", "net", &ino), -EINVAL);
	assert_int_equal(st_nsfs_root_inode("net:[]", "net", &ino), -EINVAL);
	assert_int_equal(st_nsfs_root_inode("net:[1]x", "net", &ino), -EINVAL);
	assert_int_equal(st_nsfs_root_inode("net:[99999999999999999999999]", "net", &ino), -EINVAL);
}

static void test_mountinfo_optional_fields(void **state)
{
	char none[] = "1 0 0:4 net:[5] /a rw - nsfs nsfs rw";
	char many[] = "1 0 0:4 net:[5] /a rw shared:2 master:3 propagate_from:4 unbindable - nsfs nsfs rw";
	struct st_mountinfo m;

	assert_int_equal(st_mountinfo_parse(none, &m), 0);
	assert_string_equal(m.fstype, "nsfs");
	assert_int_equal(st_mountinfo_parse(many, &m), 0);
	assert_string_equal(m.fstype, "nsfs");
	assert_string_equal(m.super_options, "rw");
}

static void test_mountinfo_escapes(void **state)
{
	char line[] = "7 1 0:4 net:[9] /tmp/a\\040b/f\\011t\\012n\\134s rw - nsfs nsfs\\040src rw";
	char odd[] = "a\\04b\\8888\\\\040\\400";
	struct st_mountinfo m;

	assert_int_equal(st_mountinfo_parse(line, &m), 0);
	assert_string_equal(m.mountpoint, "/tmp/a b/f\tt\nn\\s");
	assert_string_equal(m.source, "nsfs src");
	/* Not an escape: kept as it is (a short one, a non-octal digit, above \377). */
	st_mountinfo_unescape(odd);
	assert_string_equal(odd, "a\\04b\\8888\\ \\400");
}

static void test_mountinfo_rejects(void **state)
{
	static const char *const bad[] = {
		"",
		"36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 ext3 /dev/root rw", /* no " - " */
		"36 35 98:0 /mnt1 /mnt2 rw - ext3 /dev/root",                    /* no super options */
		"36 35 98-0 /mnt1 /mnt2 rw - ext3 /dev/root rw",                 /* bad major:minor */
		"x 35 98:0 /mnt1 /mnt2 rw - ext3 /dev/root rw",
		"36 35 98:0 /mnt1",
		"36 35 98:0 /a /b rw - ext3 /dev/root rw extra",
		"99999999999 35 98:0 /a /b rw - ext3 /dev/root rw",
	};
	struct st_mountinfo m;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char buf[256];

		snprintf(buf, sizeof(buf), "%s", bad[i]);
		if (st_mountinfo_parse(buf, &m) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
	}
}

static const struct st_netns *find(const struct st_orphans *s, uint64_t ino)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ino == ino)
			return &s->v[i];
	return NULL;
}

/* Host (1) with processes; 2 held by a mount only; 3 by an fd only; 4 with a process and a mount. */
static void build(struct st_orphans *s)
{
	struct st_holder mount = { .kind = ST_HOLDER_MOUNT, .path = "/run/netns/a", .mntns = 77 };
	struct st_holder fd = { .kind = ST_HOLDER_FD, .pid = 300, .fd = 7, .comm = "bash" };
	struct st_holder sock = { .kind = ST_HOLDER_SOCKET, .pid = 301, .fd = 3, .comm = "sshd" };

	assert_int_equal(st_orphans_add_process(s, NSFS, 1, 100), 0);
	/* Three threads of pid 101: one process. */
	for (int t = 0; t < 3; t++)
		assert_int_equal(st_orphans_add_process(s, NSFS, 1, 101), 0);
	assert_int_equal(st_orphans_add_holder(s, NSFS, 2, &mount), 0);
	assert_int_equal(st_orphans_add_holder(s, NSFS, 3, &fd), 0);
	assert_int_equal(st_orphans_add_holder(s, NSFS, 5, &sock), 0);
	assert_int_equal(st_orphans_add_process(s, NSFS, 4, 200), 0);
	mount.path = "/run/netns/b";
	assert_int_equal(st_orphans_add_holder(s, NSFS, 4, &mount), 0);
	/* Same inode on another device: another namespace (never keyed by inode alone). */
	assert_int_equal(st_orphans_add_process(s, NSFS + 1, 2, 400), 0);
}

static void test_classify_root(void **state)
{
	struct st_orphans s = { 0 };

	build(&s);
	s.unreadable_processes = 1; /* as root this changes nothing */
	st_orphans_classify(&s);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.orphans, 3);
	assert_int_equal(s.active, 3);
	assert_int_equal(s.unverified, 0);
	assert_int_equal(find(&s, 1)->state, ST_NETNS_ACTIVE);
	assert_int_equal(find(&s, 1)->processes, 2);
	assert_int_equal(find(&s, 3)->state, ST_NETNS_ORPHAN);
	assert_int_equal(find(&s, 3)->holders[0].fd, 7);
	assert_string_equal(find(&s, 3)->holders[0].comm, "bash");
	assert_int_equal(find(&s, 4)->state, ST_NETNS_ACTIVE);
	assert_int_equal(find(&s, 5)->state, ST_NETNS_ORPHAN);
	/* Orphans first, by inode; the mount's path was copied. */
	assert_int_equal(s.v[0].ino, 2);
	assert_int_equal(s.v[0].dev, NSFS);
	assert_int_equal(s.v[0].state, ST_NETNS_ORPHAN);
	assert_string_equal(s.v[0].holders[0].path, "/run/netns/a");
	assert_int_equal(s.v[0].holders[0].mntns, 77);
	assert_int_equal(s.v[1].ino, 3);
	assert_int_equal(s.v[2].ino, 5);
	assert_int_equal(s.v[3].state, ST_NETNS_ACTIVE);
	st_orphans_free(&s);
}

static void test_classify_rootless(void **state)
{
	struct st_orphans s = { 0 };

	build(&s);
	s.rootless = 1;
	s.uid = 65534;
	s.unreadable_processes = 5;
	/* Only namespace 3 belongs to a user namespace of ours. */
	for (size_t i = 0; i < s.n; i++)
		s.v[i].owner_uid = s.v[i].ino == 3 ? 65534 : 0;
	st_orphans_classify(&s);
	assert_int_equal(s.orphans, 1);
	assert_int_equal(s.unverified, 2);
	assert_int_equal(find(&s, 3)->state, ST_NETNS_ORPHAN);
	assert_int_equal(find(&s, 5)->state, ST_NETNS_UNVERIFIED);
	assert_int_equal(s.v[0].ino, 3);
	st_orphans_free(&s);

	/* Rootless but everything readable: every held namespace is judged. */
	build(&s);
	s.rootless = 1;
	s.uid = 65534;
	st_orphans_classify(&s);
	assert_int_equal(s.orphans, 3);
	st_orphans_free(&s);
}

static void test_holder_text(void **state)
{
	struct st_holder m = { .kind = ST_HOLDER_MOUNT, .path = "/tmp/a b" };
	struct st_holder f = { .kind = ST_HOLDER_FD, .pid = 12, .fd = 7, .comm = "bash" };
	struct st_holder k = { .kind = ST_HOLDER_SOCKET, .pid = 13, .fd = 3, .comm = "x" };
	char buf[64];

	st_holder_text(&m, buf, sizeof(buf));
	assert_string_equal(buf, "mount:/tmp/a b");
	st_holder_text(&f, buf, sizeof(buf));
	assert_string_equal(buf, "fd:12/7(bash)");
	st_holder_text(&k, buf, sizeof(buf));
	assert_string_equal(buf, "socket:13/3(x)");
}

static void test_prom_escape(void **state)
{
	char buf[64];

	assert_int_equal(st_prom_escape_label("plain", buf, sizeof(buf)), 5);
	assert_string_equal(buf, "plain");
	st_prom_escape_label("a\"b\\c\nd", buf, sizeof(buf));
	assert_string_equal(buf, "a\\\"b\\\\c\\nd");
	/* Tabs and spaces stay: only \\, " and line feed are escaped. */
	st_prom_escape_label("/tmp/a b\t", buf, sizeof(buf));
	assert_string_equal(buf, "/tmp/a b\t");
	/* Cut like snprintf, and the needed length returned. */
	assert_int_equal(st_prom_escape_label("\"\"\"", buf, 4), 6);
	assert_string_equal(buf, "\\\"\\");
	assert_int_equal(st_prom_escape_label("", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_cleanup_path_under(void **state)
{
	assert_true(st_cleanup_path_under("/run/netns/a", "/run/netns"));
	assert_true(st_cleanup_path_under("/run/netns/d/a", "/run/netns"));
	assert_false(st_cleanup_path_under("/run/netns", "/run/netns"));
	assert_false(st_cleanup_path_under("/run/netns/", "/run/netns"));
	assert_false(st_cleanup_path_under("/run/netnsx/a", "/run/netns"));
	assert_false(st_cleanup_path_under("/run/a", "/run/netns"));
	assert_true(st_cleanup_path_under("/x", "/"));
	assert_false(st_cleanup_path_under("/", "/"));
}

/* A namespace no process lives in, with @holders, aged @age seconds (< 0: unknown). */
static struct st_netns orphan(struct st_holder *holders, size_t n, double age)
{
	return (struct st_netns){ .dev = NSFS,
				  .ino = 9,
				  .state = ST_NETNS_ORPHAN,
				  .holders = holders,
				  .nholders = n,
				  .age_s = age,
				  .nsid = -1 };
}

static void test_cleanup_eligible(void **state)
{
	char *roots[] = { "/run/netns", "/tmp/c p" };
	struct st_holder h[2] = {
		{ .kind = ST_HOLDER_MOUNT, .path = "/run/netns/a", .mntns = 77 },
		{ .kind = ST_HOLDER_MOUNT, .path = "/tmp/c p/b", .mntns = 77 },
	};
	struct st_netns ns = orphan(h, 2, 120);
	char why[512];

	assert_int_equal(st_cleanup_eligible(&ns, 77, 60, roots, 2, why, sizeof(why)), 1);
	assert_string_equal(why, "");
	/* Exactly --min-age old is old enough; younger is not; unknown never is. */
	ns.age_s = 60;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 60, roots, 2, why, sizeof(why)), 1);
	ns.age_s = 59.5;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 60, roots, 2, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "younger than --min-age"));
	ns.age_s = -1;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "age unknown"));
	ns.age_s = 120;
	/* Outside every root. */
	assert_int_equal(st_cleanup_eligible(&ns, 77, 60, roots, 1, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "outside"));
	/* Another mount namespace. */
	h[1].mntns = 78;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 60, roots, 2, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "mount namespace 78"));
	h[1].mntns = 77;
	/* An fd or a socket besides the mount: never. */
	h[1] = (struct st_holder){ .kind = ST_HOLDER_FD, .pid = 300, .fd = 7, .comm = "bash" };
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "held by fd:300/7(bash)"));
	h[1].kind = ST_HOLDER_SOCKET;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "held by socket:300/7(bash)"));
	/* Not an orphan: active, hidden, unverified, or a process in it. */
	ns.nholders = 1;
	ns.state = ST_NETNS_ACTIVE;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
	ns.state = ST_NETNS_UNVERIFIED;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
	ns.state = ST_NETNS_ORPHAN;
	ns.processes = 1;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
	ns.processes = 0;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 1);
	/* No holder at all: nothing to remove. */
	ns.nholders = 0;
	assert_int_equal(st_cleanup_eligible(&ns, 77, 0, roots, 2, why, sizeof(why)), 0);
}

/* Where the mount ages and --cleanup open a mount point from. */
static void test_mountpoint_split(void **state)
{
	char dir[16];
	const char *base = NULL;

	assert_int_equal(st_mountpoint_split("/run/netns/x", dir, sizeof(dir), &base), 0);
	assert_string_equal(dir, "/run/netns");
	assert_string_equal(base, "x");
	assert_int_equal(st_mountpoint_split("/x", dir, sizeof(dir), &base), 0);
	assert_string_equal(dir, "/");
	assert_string_equal(base, "x");
	assert_int_equal(st_mountpoint_split("/run/netns/", dir, sizeof(dir), &base), -EINVAL);
	assert_int_equal(st_mountpoint_split("/", dir, sizeof(dir), &base), -EINVAL);
	assert_int_equal(st_mountpoint_split("x", dir, sizeof(dir), &base), -EINVAL);
	/* A directory of 15 bytes fits in 16, one of 16 does not. */
	assert_int_equal(st_mountpoint_split("/123456789abcde/x", dir, sizeof(dir), &base), 0);
	assert_string_equal(dir, "/123456789abcde");
	assert_int_equal(st_mountpoint_split("/123456789abcdef/x", dir, sizeof(dir), &base),
			 -EINVAL);
}

/* The interface names st_netdev_feed() hands over, joined by ','. */
struct netdev_names {
	char text[256];
};

static void netdev_name(const char *name, void *data)
{
	struct netdev_names *n = data;
	size_t used = strlen(n->text);

	snprintf(n->text + used, sizeof(n->text) - used, "%s%s", used ? "," : "", name);
}

/* Feeds @text in reads of @step bytes at most. */
static void netdev_read(struct st_netdev *d, const char *text, size_t len, size_t step,
			struct netdev_names *n)
{
	st_netdev_init(d);
	n->text[0] = '\0';
	for (size_t done = 0; done < len;) {
		size_t room, k;
		char *at = st_netdev_room(d, &room);

		assert_true(room >= 1);
		k = len - done < step ? len - done : step;
		k = k < room ? k : room;
		memcpy(at, text + done, k);
		st_netdev_feed(d, k, netdev_name, n);
		done += k;
	}
}

static void test_netdev_names(void **state)
{
	static const char text[] =
	    "Inter-|   Receive                                                |  Transmit\n"
	    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	    "errs drop fifo colls carrier compressed\n"
	    "    lo:    6774      62    0    0    0     0          0         0     6774      62    "
	    "0    0    0     0       0          0\n"
	    "stv1234p: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	    "  eth0:    1296      16    0    0    0     0          0         0     1296      16    "
	    "0    0    0     0       0          0\n"
	    "no colon here\n"
	    "  cut: 0"; /* no newline: not a whole line */
	static struct st_netdev d;
	struct netdev_names n;

	/* In one read, and cut anywhere: the same names. */
	for (size_t step = 1; step <= sizeof(text); step++) {
		netdev_read(&d, text, sizeof(text) - 1, step, &n);
		assert_string_equal(n.text, "lo,stv1234p,eth0");
	}
}

/*
 * Found by fuzz_netdev: a NUL byte in a line stopped strchr(), so the
 * newlines after it went unseen and the following lines were kept as one
 * cut line until the buffer filled and was dropped: every interface after
 * it was missing. The name holding the NUL ends there.
 */
static void test_netdev_nul_byte(void **state)
{
	static const char text[] = "h1\nh2\n  a\0b: 0\n  eth0: 0\n";
	static struct st_netdev d;
	struct netdev_names n;

	netdev_read(&d, text, sizeof(text) - 1, sizeof(text), &n);
	assert_string_equal(n.text, "a,eth0");
}

/*
 * A line longer than the buffer is dropped whole, up to its newline: its
 * tail used to come out as a line of its own, and a ':' in it as a name
 * (seen while reading it for fuzz_netdev, which now compares long lines
 * too). The lines after it are read, and it still counts as a line.
 */
static void test_netdev_long_line(void **state)
{
	static struct st_netdev d;
	static char text[2 * sizeof(d.buf) + 64];
	struct netdev_names n;
	size_t len;

	/* After the headers, with a ':' in its tail. */
	memset(text, 'x', sizeof(text));
	memcpy(text, "h1\nh2\n", 6);
	len = 6 + sizeof(d.buf) + 16;
	len += (size_t)snprintf(text + len, sizeof(text) - len, "tail: 0\n  eth0: 0\n");
	netdev_read(&d, text, len, 4096, &n);
	assert_string_equal(n.text, "eth0");
	/* Longer than twice the buffer: dropped twice, still one line. */
	memset(text + 6, 'x', sizeof(text) - 6);
	len = 6 + 2 * sizeof(d.buf) + 16;
	len += (size_t)snprintf(text + len, sizeof(text) - len, "tail: 0\n  eth0: 0\n");
	netdev_read(&d, text, len, 1000, &n);
	assert_string_equal(n.text, "eth0");
	/* As the second header: it counts, so lo is a name. */
	memset(text + 3, 'x', sizeof(text) - 3);
	len = 3 + sizeof(d.buf) + 16;
	len += (size_t)snprintf(text + len, sizeof(text) - len, "\n  lo: 0\n  eth0: 0\n");
	netdev_read(&d, text, len, 4096, &n);
	assert_string_equal(n.text, "lo,eth0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo_fields),
		cmocka_unit_test(test_mountinfo_nsfs),
		cmocka_unit_test(test_mountinfo_optional_fields),
		cmocka_unit_test(test_mountinfo_escapes),
		cmocka_unit_test(test_mountinfo_rejects),
		cmocka_unit_test(test_mountpoint_split),
		cmocka_unit_test(test_netdev_names),
		cmocka_unit_test(test_netdev_nul_byte),
		cmocka_unit_test(test_netdev_long_line),
		cmocka_unit_test(test_classify_root),
		cmocka_unit_test(test_classify_rootless),
		cmocka_unit_test(test_holder_text),
		cmocka_unit_test(test_prom_escape),
		cmocka_unit_test(test_cleanup_path_under),
		cmocka_unit_test(test_cleanup_eligible),
	};

	return cmocka_run_group_tests_name("orphans", tests, NULL, NULL);
}
