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

	assert_int_equal(load("{\"root\": {\"path\": \"r\"}, \"linux\": {\"namespaces\": ["
			      "{\"type\": \"pid\"}, {\"type\": \"network\", \"path\": \"/run/netns/x\"}]}}",
			      &o, &err), 0);
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

	assert_int_equal(load("{\"root\": {\"path\": \"r\"}, \"linux\": {\"namespaces\": ["
			      "{\"type\": \"network\", \"path\": \"/a\"}, {\"type\": \"network\", \"path\": \"/b\"}]}}",
			      &o, &err), -EINVAL);
	assert_true(err.usage);
	assert_non_null(strstr(err.msg, ".linux.namespaces[1].type: namespace type \"network\" given twice"));
	assert_null(o.net_path);
	assert_int_equal(load("{\"root\": {\"path\": \"r\"}, \"linux\": {\"namespaces\": ["
			      "{\"type\": \"pid\"}, {\"type\": \"uts\"}, {\"type\": \"pid\"}]}}",
			      &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, ".linux.namespaces[2].type: namespace type \"pid\" given twice"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_network_path),
		cmocka_unit_test(test_namespace_twice),
	};

	return cmocka_run_group_tests_name("oci", tests, NULL, NULL);
}
