// SPDX-License-Identifier: MIT
/*
 * sha256.c against FIPS 180-4's examples and Python's hashlib (the digests
 * below were computed with hashlib, not with the code under test), at the
 * lengths where the padding changes: 55 bytes fit one block with the
 * length, 56 need a second, 64 is a whole block.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sandboxtime/sha256.h"

static void check(const void *data, size_t len, const char *want)
{
	char hex[ST_SHA256_HEX];

	st_sha256_hex(data, len, hex);
	assert_string_equal(hex, want);
}

static void test_fips_examples(void **state)
{
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_padding_edges(void **state)
{
	char a[64];

	memset(a, 'a', sizeof(a));
	check(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	check(a, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
	check(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static void test_million_a(void **state)
{
	char *a = malloc(1000000);

	assert_non_null(a);
	memset(a, 'a', 1000000);
	check(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips_examples),
		cmocka_unit_test(test_padding_edges),
		cmocka_unit_test(test_million_a),
	};

	return cmocka_run_group_tests_name("sha256", tests, NULL, NULL);
}
