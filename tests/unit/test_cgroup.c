// SPDX-License-Identifier: MIT
/*
 * Unit tests for the cgroup layer's plan (cgroup.c): path checks, the
 * shares-to-weight map, and the directories planned on v2, v1 and hybrid
 * hosts, from fixture mountinfo and /proc/self/cgroup files whose
 * hierarchies are plain directories under a temporary one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sandboxtime/cgroup.h"

static char tmp[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int setup(void **state)
{
	snprintf(tmp, sizeof(tmp), "/tmp/test-cgroup.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

/* A mountinfo line for a hierarchy at TMP/@mnt. */
static void mount_line(char *buf, size_t len, const char *mnt, const char *fstype, const char *super)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "30 20 0:30 / %s/%s rw,relatime shared:9 - %s %s %s\n", tmp, mnt,
		 fstype, fstype, super);
}

static int plan(const struct st_cgroup_spec *spec, struct st_cgroup *cg, struct st_error *err)
{
	char mi[256], sc[256];

	snprintf(mi, sizeof(mi), "%s/mountinfo", tmp);
	snprintf(sc, sizeof(sc), "%s/cgroup", tmp);
	return st_cgroup_plan_at(spec, 4242, mi, sc, cg, err);
}

static void test_path_check(void **state)
{
	struct st_error err = { 0 };

	assert_int_equal(st_cgroup_path_check("x", "a/b", 0, &err), 0);
	assert_int_equal(st_cgroup_path_check("x", "/a/b", 1, &err), 0);
	assert_int_equal(st_cgroup_path_check("x", "a/b", 1, &err), -EINVAL);
	assert_true(err.usage);
	assert_int_equal(st_cgroup_path_check(".linux.cgroupsPath", "a/../b", 0, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'..' component"));
	assert_non_null(strstr(err.msg, ".linux.cgroupsPath"));
	assert_int_equal(st_cgroup_path_check("x", "..", 0, &err), -EINVAL);
	assert_int_equal(st_cgroup_path_check("x", "/a/.", 0, &err), -EINVAL);
	assert_int_equal(st_cgroup_path_check("x", "", 0, &err), -EINVAL);
	assert_int_equal(st_cgroup_path_check("x", "system.slice:docker:abc", 0, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "slice:prefix:name"));
	/* Dots inside a name are a name. */
	assert_int_equal(st_cgroup_path_check("x", "/a..b/.c", 1, &err), 0);
}

static void test_weight(void **state)
{
	assert_int_equal(st_cgroup_shares_to_weight(0), 0);
	assert_int_equal(st_cgroup_shares_to_weight(2), 1);
	assert_int_equal(st_cgroup_shares_to_weight(1024), 39);
	assert_int_equal(st_cgroup_shares_to_weight(262144), 10000);
	assert_int_equal(st_cgroup_shares_to_weight(1u << 30), 10000);
}

/* This machine's shape: memory, pids, cpu in v1, an empty unified tree, and systemd's. */
static void hybrid_host(void)
{
	char mi[2048] = "";

	dir("memory");
	dir("memory/job");
	dir("pids");
	dir("cpu");
	dir("unified");
	dir("systemd");
	mount_line(mi, sizeof(mi), "memory", "cgroup", "rw,memory");
	mount_line(mi, sizeof(mi), "pids", "cgroup", "rw,pids");
	mount_line(mi, sizeof(mi), "cpu", "cgroup", "rw,cpu");
	mount_line(mi, sizeof(mi), "systemd", "cgroup", "rw,name=systemd");
	mount_line(mi, sizeof(mi), "unified", "cgroup2", "rw");
	put("mountinfo", mi);
	put("cgroup", "9:name=systemd:/\n8:pids:/\n4:memory:/job\n1:cpu:/\n0::/\n");
	put("unified/cgroup.subtree_control", "\n");
}

static const struct st_cgroup_dir *find(const struct st_cgroup *cg, const char *suffix)
{
	size_t ls = strlen(suffix);

	for (size_t i = 0; i < cg->n; i++) {
		size_t lp = strlen(cg->dir[i].path);

		if (lp >= ls && strcmp(cg->dir[i].path + lp - ls, suffix) == 0)
			return &cg->dir[i];
	}
	return NULL;
}

static void test_plan_hybrid(void **state)
{
	struct st_cgroup_spec spec = { .enabled = 1, .lim = { .memory = 1 << 20, .pids = 5 } };
	struct st_error err = { 0 };
	struct st_cgroup cg;
	const struct st_cgroup_dir *d;

	hybrid_host();
	assert_int_equal(plan(&spec, &cg, &err), 0);
	assert_string_equal(cg.mode, "hybrid");
	/* memory, pids, cpu and unified; never name=systemd. */
	assert_int_equal(cg.n, 4);
	d = find(&cg, "/memory/job/sandboxtime-4242");
	assert_non_null(d);
	assert_false(d->v2);
	assert_int_equal(d->ctrls, 1u << ST_CG_MEMORY);
	d = find(&cg, "/unified/sandboxtime-4242");
	assert_non_null(d);
	assert_true(d->v2);
	assert_int_equal(d->ctrls, 0);
	assert_non_null(find(&cg, "/pids/sandboxtime-4242"));
	assert_int_equal(find(&cg, "/pids/sandboxtime-4242")->ctrls, 1u << ST_CG_PIDS);
	assert_null(find(&cg, "/systemd/sandboxtime-4242"));
}

static void test_plan_paths(void **state)
{
	struct st_cgroup_spec spec = { .enabled = 1 };
	struct st_error err = { 0 };
	struct st_cgroup cg;

	/* A relative cgroupsPath under the parent, an absolute one from the root. */
	hybrid_host();
	spec.path = "box";
	assert_int_equal(plan(&spec, &cg, &err), 0);
	assert_non_null(find(&cg, "/memory/job/box"));
	assert_non_null(find(&cg, "/unified/box"));
	spec.path = "/top/box";
	assert_int_equal(plan(&spec, &cg, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "the parent cgroup"));
	dir("memory/top");
	dir("pids/top");
	dir("cpu/top");
	dir("unified/top");
	assert_int_equal(plan(&spec, &cg, &err), 0);
	assert_non_null(find(&cg, "/memory/top/box"));
	/* --cgroup=PARENT: the same path in every hierarchy. */
	spec.path = NULL;
	spec.parent = "/top";
	assert_int_equal(plan(&spec, &cg, &err), 0);
	assert_non_null(find(&cg, "/pids/top/sandboxtime-4242"));
	assert_non_null(find(&cg, "/unified/top/sandboxtime-4242"));
}

static void test_plan_v2(void **state)
{
	struct st_cgroup_spec spec = { .enabled = 1, .lim = { .memory = 1 << 20 } };
	struct st_error err = { 0 };
	char mi[512] = "";
	struct st_cgroup cg;

	dir("u");
	dir("u/user.slice");
	mount_line(mi, sizeof(mi), "u", "cgroup2", "rw,nsdelegate");
	put("mountinfo", mi);
	put("cgroup", "0::/user.slice\n");
	/* The parent does not enable memory for its children: named, not ignored. */
	put("u/user.slice/cgroup.subtree_control", "cpu pids\n");
	assert_int_equal(plan(&spec, &cg, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "memory limit needs the memory controller"));
	put("u/user.slice/cgroup.subtree_control", "cpu memory pids\n");
	assert_int_equal(plan(&spec, &cg, &err), 0);
	assert_string_equal(cg.mode, "v2");
	assert_int_equal(cg.n, 1);
	assert_true(cg.dir[0].v2);
	assert_int_equal(cg.dir[0].ctrls, 1u << ST_CG_MEMORY);
	assert_non_null(strstr(cg.dir[0].path, "/u/user.slice/sandboxtime-4242"));
}

static void test_plan_v1_limits(void **state)
{
	struct st_cgroup_spec spec = { .enabled = 1, .lim = { .cpu_quota = 50000 } };
	struct st_error err = { 0 };
	char mi[1024] = "";
	struct st_cgroup cg;

	dir("memory");
	dir("cpu,cpuacct");
	mount_line(mi, sizeof(mi), "memory", "cgroup", "rw,memory");
	mount_line(mi, sizeof(mi), "cpu,cpuacct", "cgroup", "rw,cpu,cpuacct");
	put("mountinfo", mi);
	put("cgroup", "3:cpu,cpuacct:/\n2:memory:/\n");
	assert_int_equal(plan(&spec, &cg, &err), 0);
	assert_string_equal(cg.mode, "v1");
	assert_int_equal(cg.n, 2);
	assert_non_null(find(&cg, "/cpu,cpuacct/sandboxtime-4242"));
	/* pids has no hierarchy here and there is no unified one. */
	spec.lim.pids = 5;
	assert_int_equal(plan(&spec, &cg, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "pids limit"));
	assert_int_equal(cg.n, 0);
}

static void test_plan_no_cgroups(void **state)
{
	struct st_cgroup_spec spec = { .enabled = 1 };
	struct st_error err = { 0 };
	struct st_cgroup cg;

	put("mountinfo", "22 1 0:20 / /proc rw - proc proc rw\n");
	put("cgroup", "");
	assert_int_equal(plan(&spec, &cg, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no cgroup or cgroup2 hierarchy"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_check),
		cmocka_unit_test(test_weight),
		cmocka_unit_test_setup_teardown(test_plan_hybrid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_v1_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_no_cgroups, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
