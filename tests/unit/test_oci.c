// SPDX-License-Identifier: MIT
/*
 * Unit tests for st_oci_load(): what fuzz/fuzz_oci_config found, kept as
 * regressions. Each config is written to a memfd and read back through
 * /proc/self/fd/N, as the fuzz target does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/layer.h"
#include "sandboxtime/oci.h"

static int load(const char *json, struct st_oci *o, struct st_error *err)
{
	int fd = memfd_create("test-oci", MFD_CLOEXEC), ret;
	char path[64];

	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ret = st_oci_load(path, o, err);
	close(fd);
	return ret;
}

static void test_network_path(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(
	    load("{\"root\": {\"path\": \"/\"}, \"linux\": {\"namespaces\": ["
		 "{\"type\": \"pid\"}, {\"type\": \"network\", \"path\": \"/run/netns/x\"}]}}",
		 &o, &err),
	    0);
	assert_string_equal(o.net_path, "/run/netns/x");
	assert_int_equal(o.ns_mask, ST_LAYER_BIT(ST_LAYER_PID));
	st_oci_free(&o);
}

/*
 * Found by fuzz/fuzz_oci_config (LeakSanitizer): a second network entry with
 * a path replaced net_path without freeing the first. A namespace type given
 * twice is now an error, as in runc; the loader frees what it had read.
 */
static void test_namespace_twice(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(load("{\"root\": {\"path\": \"/\"}, \"linux\": {\"namespaces\": ["
			      "{\"type\": \"network\", \"path\": \"/a\"}, {\"type\": \"network\", "
			      "\"path\": \"/b\"}]}}",
			      &o, &err),
			 -EINVAL);
	assert_true(err.usage);
	assert_non_null(strstr(err.msg, ".linux.namespaces[1].type: namespace type \"network\" given twice"));
	assert_null(o.net_path);
	assert_int_equal(load("{\"root\": {\"path\": \"/\"}, \"linux\": {\"namespaces\": ["
			      "{\"type\": \"pid\"}, {\"type\": \"uts\"}, {\"type\": \"pid\"}]}}",
			      &o, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, ".linux.namespaces[2].type: namespace type \"pid\" given twice"));
}

/* root and mounts: resolved, typed, options split into flags and data. */
static void test_mounts(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(
	    load("{\"root\": {\"path\": \"/tmp\", \"readonly\": true}, \"mounts\": ["
		 "{\"destination\": \"/t\", \"type\": \"tmpfs\", \"options\": [\"ro\", \"nosuid\", "
		 "\"size=1m\", \"mode=755\"]},"
		 "{\"destination\": \"/x/y\", \"source\": \"rel\", \"options\": [\"rbind\", "
		 "\"ro\", \"rprivate\"]},"
		 "{\"destination\": \"/proc\", \"type\": \"proc\", \"source\": \"proc\"}]}",
		 &o, &err),
	    0);
	assert_string_equal(o.mounts.root, "/tmp");
	assert_true(o.mounts.readonly);
	assert_int_equal(o.mounts.n, 3);
	assert_int_equal(o.mounts.v[0].type, ST_MOUNT_TMPFS);
	assert_int_equal(o.mounts.v[0].flags, MS_RDONLY | MS_NOSUID);
	assert_string_equal(o.mounts.v[0].data, "size=1m,mode=755");
	/* A bind by its option (as runc reads it), its source relative to the file's directory. */
	assert_int_equal(o.mounts.v[1].type, ST_MOUNT_BIND);
	assert_string_equal(o.mounts.v[1].source, "/proc/self/fd/rel");
	assert_true(o.mounts.v[1].recursive);
	assert_int_equal(o.mounts.v[1].flags, MS_RDONLY);
	assert_int_equal(o.mounts.v[2].type, ST_MOUNT_PROC);
	assert_true(st_mount_plan_has_proc(&o.mounts));
	st_oci_free(&o);
	/* "/" is the host's root: no pivot_root. */
	assert_int_equal(load("{\"root\": {\"path\": \"/\"}}", &o, &err), 0);
	assert_null(o.mounts.root);
	st_oci_free(&o);
}

static void expect_bad(const char *json, const char *msg)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(load(json, &o, &err), -EINVAL);
	assert_true(err.usage);
	if (!strstr(err.msg, msg))
		fail_msg("%s: got '%s'", msg, err.msg);
	/* Nothing handed back: a half-read mounts list is freed by the loader. */
	assert_null(o.mounts.v);
	assert_null(o.mounts.root);
	assert_null(o.mounts.file);
}

static void test_mount_errors(void **state)
{
	expect_bad("{\"process\": {\"args\": [\"true\"]}}", ".root.path: missing");
	expect_bad("{\"root\": {\"path\": \"/nonexistent-root\"}}",
		   ".root.path: \"/nonexistent-root\": No such file");
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/s\", \"type\": "
		   "\"overlay\"}]}",
		   ".mounts[0].type: type \"overlay\" is not supported");
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/t\", \"type\": "
		   "\"tmpfs\"},"
		   "{\"destination\": \"/a/../../b\", \"type\": \"tmpfs\"}]}",
		   ".mounts[1].destination: \"/a/../../b\" must be an absolute path");
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/\", \"type\": "
		   "\"tmpfs\"}]}",
		   ".mounts[0].destination");
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/t\", \"type\": "
		   "\"tmpfs\", \"options\": [\"shared\"]}]}",
		   ".mounts[0].options[0]: option \"shared\" is not supported for a tmpfs mount");
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/t\", \"type\": "
		   "\"bind\"}]}",
		   ".mounts[0].source: a bind mount needs a source path");
}

static void test_mount_helpers(void **state)
{
	struct st_mount m = { .type = ST_MOUNT_TMPFS };

	assert_true(st_mount_dest_ok("/a/b.c/..d"));
	assert_false(st_mount_dest_ok("a"));
	assert_false(st_mount_dest_ok("/a/./b"));
	assert_false(st_mount_dest_ok("/a/.."));
	assert_int_equal(st_mount_option(&m, "ro"), 0);
	assert_int_equal(st_mount_option(&m, "rw"), 0);
	assert_int_equal(m.flags, 0);
	assert_int_equal(st_mount_option(&m, "a=b,c=d"), -EINVAL); /* one option, one value */
	assert_int_equal(st_mount_option(&m, "=x"), -EINVAL);
	assert_int_equal(st_mount_option(&m, "rslave"), -EINVAL);
	m.type = ST_MOUNT_BIND;
	assert_int_equal(st_mount_option(&m, "size=1m"), -EINVAL);
}

/* runc's devpts, mqueue, sysfs and cgroup entries; options a type does not take are refused. */
static void test_mount_types(void **state)
{
	struct st_mount m = { .type = ST_MOUNT_DEVPTS };
	enum st_mount_type t;

	assert_int_equal(st_mount_option(&m, "newinstance"), 0);
	assert_int_equal(st_mount_option(&m, "ptmxmode=0666"), 0);
	assert_int_equal(st_mount_option(&m, "gid=5"), 0);
	assert_string_equal(m.data, "newinstance,ptmxmode=0666,gid=5");
	assert_int_equal(st_mount_option(&m, "size=1m"), -EINVAL);
	assert_int_equal(st_mount_option(&m, "mode="), -EINVAL);
	m.type = ST_MOUNT_MQUEUE;
	assert_int_equal(st_mount_option(&m, "nodev"), 0);
	assert_int_equal(st_mount_option(&m, "newinstance"), -EINVAL);
	assert_int_equal(st_mount_type_parse("cgroup2", &t), 0);
	assert_int_equal(t, ST_MOUNT_CGROUP2);
	assert_string_equal(st_mount_type_name(ST_MOUNT_SYSFS), "sysfs");
	assert_int_equal(st_mount_type_parse("none", &t), -EINVAL);
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/q\", \"type\": "
		   "\"mqueue\", \"options\": [\"size=1m\"]}]}",
		   ".mounts[0].options[0]: option \"size=1m\" is not supported for a mqueue mount");
	expect_bad("{\"root\": {\"path\": \"/\"}, \"mounts\": [{\"destination\": \"/q\", \"type\": "
		   "\"none\"}]}",
		   ".mounts[0].type: type \"none\" is not supported");
}

#define ROOT "{\"root\": {\"path\": \"/\"}, "

/* A namespace with a path other than network is joined for the clone; its type is not made. */
static void test_join_paths(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(load(ROOT "\"linux\": {\"namespaces\": [{\"type\": \"mount\"}, "
			      "{\"type\": \"ipc\", \"path\": \"/proc/7/ns/ipc\"}]}}", &o, &err), 0);
	assert_int_equal(o.njoins, 1);
	assert_int_equal(o.joins[0].layer, ST_LAYER_IPC);
	assert_string_equal(o.joins[0].path, "/proc/7/ns/ipc");
	assert_int_equal(o.ns_mask, ST_LAYER_BIT(ST_LAYER_MOUNT));
	st_oci_free(&o);
}

/* process.user, rlimits, oomScoreAdj; linux.sysctl, maskedPaths, readonlyPaths, resources. */
static void test_process_and_linux(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(
	    load(ROOT "\"process\": {\"user\": {\"uid\": 7, \"gid\": 8, \"additionalGids\": [5]},"
		 "\"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"soft\": 10, \"hard\": 20}],"
		 "\"oomScoreAdj\": -5}, \"linux\": {\"namespaces\": [{\"type\": \"network\"},"
		 "{\"type\": \"mount\"}], \"sysctl\": {\"net.ipv4.ip_forward\": \"1\"},"
		 "\"maskedPaths\": [\"/proc/kcore\"], \"readonlyPaths\": [\"/proc/sys\"],"
		 "\"resources\": {\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}}}",
		 &o, &err),
	    0);
	assert_true(o.process.has_user);
	assert_int_equal(o.process.uid, 7);
	assert_int_equal(o.process.gid, 8);
	assert_int_equal(o.process.ngroups, 1);
	assert_int_equal(o.process.groups[0], 5);
	assert_int_equal(o.process.nrlimits, 1);
	assert_int_equal(o.process.rlimits[0].resource, RLIMIT_NOFILE);
	assert_int_equal(o.process.rlimits[0].lim.rlim_cur, 10);
	assert_int_equal(o.process.rlimits[0].lim.rlim_max, 20);
	assert_int_equal(o.process.oom_score_adj, -5);
	assert_int_equal(o.nsysctl, 1);
	assert_string_equal(o.sysctl[0].key, "net.ipv4.ip_forward");
	assert_string_equal(o.mounts.masked[0], "/proc/kcore");
	assert_null(o.mounts.masked[1]);
	assert_string_equal(o.mounts.readonly_paths[0], "/proc/sys");
	st_oci_free(&o);
}

/* Bad values and unsupported keys: refused, with the JSON path in the message. */
/* linux.resources and cgroupsPath: the cgroup layer's limits, read and checked. */
static void test_resources(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(load(ROOT "\"linux\": {\"cgroupsPath\": \"box/inner\", \"resources\": {"
			      "\"devices\": [{\"allow\": false, \"access\": \"rwm\"}],"
			      "\"memory\": {\"limit\": 67108864}, \"pids\": {\"limit\": 5},"
			      "\"cpu\": {\"shares\": 512, \"quota\": 50000, \"period\": 100000}}}}",
			      &o, &err),
			 0);
	assert_true(o.cgroup.enabled);
	assert_string_equal(o.cgroup.path, "box/inner");
	assert_int_equal(o.cgroup.lim.memory, 67108864);
	assert_int_equal(o.cgroup.lim.pids, 5);
	assert_int_equal(o.cgroup.lim.cpu_shares, 512);
	assert_int_equal(o.cgroup.lim.cpu_quota, 50000);
	assert_int_equal(o.cgroup.lim.cpu_period, 100000);
	st_oci_free(&o);
	/* -1 is unlimited; runc spec's device rule alone asks for no cgroup. */
	assert_int_equal(load(ROOT "\"linux\": {\"resources\": {\"memory\": {\"limit\": -1}}}}", &o, &err), 0);
	assert_int_equal(o.cgroup.lim.memory, -1);
	assert_true(o.cgroup.enabled);
	st_oci_free(&o);
	assert_int_equal(load(ROOT "\"linux\": {\"resources\": {\"devices\": [{\"allow\": false}]}}}", &o, &err), 0);
	assert_false(o.cgroup.enabled);
	st_oci_free(&o);
}

static void test_resources_errors(void **state)
{
	expect_bad(ROOT "\"linux\": {\"cgroupsPath\": \"a/../../b\"}}",
		   ".linux.cgroupsPath: 'a/../../b' has a '..' component");
	expect_bad(ROOT "\"linux\": {\"cgroupsPath\": \"system.slice:x:y\"}}", "slice:prefix:name");
	expect_bad(ROOT "\"linux\": {\"cgroupsPath\": 7}}", ".linux.cgroupsPath: must be a string");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"blockIO\": {}}}}",
		   ".linux.resources: \"blockIO\" is not supported");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"memory\": {\"limit\": 1, \"swap\": 2}}}}",
		   ".linux.resources.memory: \"swap\" is not supported");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"memory\": {\"limit\": 100}}}}",
		   ".linux.resources.memory.limit: must be an integer from 4096");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"pids\": {\"limit\": 0}}}}",
		   ".linux.resources.pids.limit: must be an integer from 1");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"cpu\": {\"cpus\": \"0\"}}}}",
		   ".linux.resources.cpu: \"cpus\" is not supported");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"cpu\": {\"period\": 10}}}}",
		   ".linux.resources.cpu.period: must be an integer from 1000 to 1000000");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"cpu\": {\"period\": -1}}}}",
		   ".linux.resources.cpu.period: must be 1000 to 1000000");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"pids\": 5}}}",
		   ".linux.resources.pids: must be an object");
}

static void test_process_and_linux_errors(void **state)
{
	expect_bad(ROOT "\"process\": {\"rlimits\": [{\"type\": \"RLIMIT_FOO\", \"soft\": 1, "
		   "\"hard\": 1}]}}", ".process.rlimits[0].type: unknown limit \"RLIMIT_FOO\"");
	expect_bad(ROOT "\"process\": {\"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"soft\": 9, "
		   "\"hard\": 1}]}}", ".process.rlimits[0].hard: is below soft");
	expect_bad(ROOT "\"process\": {\"rlimits\": [{\"type\": \"RLIMIT_NOFILE\", \"soft\": -1, "
		   "\"hard\": 1}]}}", ".process.rlimits[0].soft: must be an integer");
	expect_bad(ROOT "\"process\": {\"oomScoreAdj\": 1001}}", ".process.oomScoreAdj: must be an integer from -1000 to 1000");
	expect_bad(ROOT "\"process\": {\"user\": {\"uid\": \"root\", \"gid\": 0}}}", ".process.user.uid: must be an integer");
	expect_bad(ROOT "\"process\": {\"user\": {\"uid\": 0, \"gid\": 0, \"umask\": 18}}}",
		   ".process.user: \"umask\" is not supported");
	expect_bad(ROOT "\"process\": {\"user\": {\"uid\": 0, \"gid\": 0, \"additionalGids\": [-1]}}}",
		   ".process.user.additionalGids[0]: must be an integer");
	expect_bad(ROOT "\"process\": {\"capabilities\": {\"bounding\": [\"CAP_KILL\"], "
		   "\"effective\": [\"CAP_CHOWN\"]}}}", ".process.capabilities.effective: must be empty or the bounding set");
	expect_bad(ROOT "\"linux\": {\"maskedPaths\": [\"/proc/../etc\"]}}",
		   ".linux.maskedPaths[0]: \"/proc/../etc\" must be an absolute path");
	expect_bad(ROOT "\"linux\": {\"readonlyPaths\": [\"proc\"]}}", ".linux.readonlyPaths[0]");
	expect_bad(ROOT "\"linux\": {\"sysctl\": {\"kernel.panic\": \"1\"}}}",
		   ".linux.sysctl.kernel.panic: not a namespaced key");
	expect_bad(ROOT "\"linux\": {\"sysctl\": {\"net.ipv4.ip_forward\": \"1\"}}}",
		   ".linux.sysctl.net.ipv4.ip_forward: needs the net namespace");
	expect_bad(ROOT "\"linux\": {\"sysctl\": {\"net...x\": \"1\"}}}", ".linux.sysctl.net...x");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"devices\": [{\"allow\": true, \"type\": \"x\"}]}}}",
		   ".linux.resources.devices[0]: .type: \"x\" (a, c, b or u)");
	expect_bad(ROOT "\"linux\": {\"resources\": {\"devices\": [{\"access\": \"rwm\"}]}}}",
		   ".linux.resources.devices[0]: .allow: must be true or false");
	expect_bad(ROOT "\"linux\": {\"uidMappings\": [{\"containerID\": 0, \"hostID\": 0, \"size\": 1}]}}",
		   ".linux.uidMappings: needs {\"type\": \"user\"}");
	expect_bad(ROOT "\"linux\": {\"namespaces\": [{\"type\": \"user\"}], \"gidMappings\": "
		   "[{\"containerID\": 0, \"hostID\": 4000000, \"size\": 1}]}}",
		   ".linux.gidMappings[0]: must be {\"containerID\": 0");
	expect_bad(ROOT "\"linux\": {\"namespaces\": [{\"type\": \"user\", \"path\": \"/proc/1/ns/user\"}]}}",
		   ".linux.namespaces[0].path: joining a user namespace is not supported");
	expect_bad(ROOT "\"linux\": {\"namespaces\": [{\"type\": \"mount\", \"path\": \"/proc/1/ns/mnt\"}]}}",
		   ".linux.namespaces[0].path: joining a mount namespace is not supported");
	expect_bad(ROOT "\"linux\": {\"namespaces\": [{\"type\": \"ipc\", \"path\": \"x\"}]}}",
		   ".linux.namespaces[0].path: must be an absolute path");
	expect_bad(ROOT "\"linux\": {\"intelRdt\": {}}}", ".linux: \"intelRdt\" is not supported");
	expect_bad(ROOT "\"hooks\": {}}", ".: \"hooks\" is not supported");
}

/* Device rules: deny-all alone needs no cgroup; with an allow, every rule is kept in order. */
static void test_device_rules(void **state)
{
	struct st_error err = { 0 };
	struct st_oci o;

	assert_int_equal(load(ROOT "\"linux\": {\"resources\": {\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}}}",
			      &o, &err), 0);
	assert_int_equal(o.cgroup.lim.ndevices, 0);
	assert_false(o.cgroup.enabled);
	st_oci_free(&o);
	assert_int_equal(load(ROOT "\"linux\": {\"resources\": {\"devices\": [{\"allow\": false, \"access\": \"rwm\"},"
			      "{\"allow\": true, \"type\": \"c\", \"major\": 1, \"minor\": 3, \"access\": \"rw\"},"
			      "{\"allow\": true, \"type\": \"b\", \"major\": 8, \"access\": \"m\"}]}}}",
			      &o, &err), 0);
	assert_int_equal(o.cgroup.lim.ndevices, 3);
	assert_true(o.cgroup.enabled);
	assert_false(o.cgroup.lim.devices[0].allow);
	assert_int_equal(o.cgroup.lim.devices[0].type, 'a');
	assert_int_equal(o.cgroup.lim.devices[0].major, -1);
	assert_true(o.cgroup.lim.devices[1].allow);
	assert_int_equal(o.cgroup.lim.devices[1].type, 'c');
	assert_int_equal(o.cgroup.lim.devices[1].major, 1);
	assert_int_equal(o.cgroup.lim.devices[1].minor, 3);
	assert_string_equal(o.cgroup.lim.devices[1].access, "rw");
	assert_int_equal(o.cgroup.lim.devices[2].minor, -1);
	st_oci_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_network_path),  cmocka_unit_test(test_namespace_twice),
		cmocka_unit_test(test_mounts),	      cmocka_unit_test(test_mount_errors),
		cmocka_unit_test(test_mount_helpers), cmocka_unit_test(test_mount_types),
		cmocka_unit_test(test_process_and_linux), cmocka_unit_test(test_process_and_linux_errors),
		cmocka_unit_test(test_join_paths), cmocka_unit_test(test_resources),
		cmocka_unit_test(test_resources_errors),
		cmocka_unit_test(test_device_rules),
	};

	return cmocka_run_group_tests_name("oci", tests, NULL, NULL);
}
