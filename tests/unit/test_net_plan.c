// SPDX-License-Identifier: MIT
/*
 * The network plan's address arithmetic without a socket: the host's routes
 * and addresses are a list in this file, which the wrapped
 * st_nl_ip4_in_use()/st_nl_ip6_in_use() answer from, so picking a free
 * block, the overlap checks, gateways and a joined bridge's member address
 * are checked against known hosts.
 */
// WRAP: st_nl_ip4_in_use st_nl_ip6_in_use
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "sandboxtime/net_plan.h"
#include "sandboxtime/nl.h"

/* The fake host: what it has, and how many questions it was asked. */
static const char *host4[8];
static const char *host6[8];
static int asked, fail_with;

int __wrap_st_nl_ip4_in_use(struct st_nl *nl, const struct st_ip4 *net, int *in_use, char *what,
			    size_t what_len, struct st_error *err);
int __wrap_st_nl_ip6_in_use(struct st_nl *nl, const struct st_ip6 *net, int *in_use, char *what,
			    size_t what_len, struct st_error *err);

int __wrap_st_nl_ip4_in_use(struct st_nl *nl, const struct st_ip4 *net, int *in_use, char *what,
			    size_t what_len, struct st_error *err)
{
	asked++;
	if (fail_with)
		return st_error_set(err, fail_with, "netlink: list routes");
	*in_use = 0;
	for (size_t i = 0; i < 8 && host4[i]; i++) {
		struct st_ip4 h;

		assert_int_equal(st_ip4_parse("host", host4[i], &h, err), 0);
		if (st_ip4_overlap(net, &h)) {
			*in_use = 1;
			snprintf(what, what_len, "route %s", host4[i]);
			return 0;
		}
	}
	return 0;
}

int __wrap_st_nl_ip6_in_use(struct st_nl *nl, const struct st_ip6 *net, int *in_use, char *what,
			    size_t what_len, struct st_error *err)
{
	asked++;
	*in_use = 0;
	for (size_t i = 0; i < 8 && host6[i]; i++) {
		struct st_ip6 h;

		assert_int_equal(st_ip6_parse("host", host6[i], &h, err), 0);
		if (st_ip6_overlap(net, &h)) {
			*in_use = 1;
			snprintf(what, what_len, "address %s", host6[i]);
			return 0;
		}
	}
	return 0;
}

static int reset(void **state)
{
	memset(host4, 0, sizeof(host4));
	memset(host6, 0, sizeof(host6));
	asked = fail_with = 0;
	return 0;
}

static void fmt4(const struct st_ip4 *a, char *buf, size_t len)
{
	st_ip4_format(a, buf, len);
}

static struct st_ip4 ip4(const char *text)
{
	struct st_error err;
	struct st_ip4 a;

	assert_int_equal(st_ip4_parse("test", text, &a, &err), 0);
	return a;
}

static struct st_ip6 ip6(const char *text)
{
	struct st_error err;
	struct st_ip6 a;

	assert_int_equal(st_ip6_parse("test", text, &a, &err), 0);
	return a;
}

static void test_pick4_empty_host_takes_seed_block(void **state)
{
	struct st_error err;
	struct st_ip4 b;
	char t[32];

	/* Block 5 of the veth pool's /30s: 10.213.0.20/30. */
	assert_int_equal(st_net_pick_block4(NULL, ST_NET_VETH_POOL, ST_NET_VETH_PREFIX, 5, &b, &err), 0);
	fmt4(&b, t, sizeof(t));
	assert_string_equal(t, "10.213.0.20/30");
	assert_int_equal(asked, 1);
	/* The seed wraps around the pool: 16384 /30s in a /16. */
	assert_int_equal(st_net_pick_block4(NULL, ST_NET_VETH_POOL, ST_NET_VETH_PREFIX, 16384 + 1, &b, &err), 0);
	fmt4(&b, t, sizeof(t));
	assert_string_equal(t, "10.213.0.4/30");
}

static void test_pick4_skips_used_blocks(void **state)
{
	struct st_error err;
	struct st_ip4 b;
	char t[32];

	/* The host uses the seed's /24 and the next one: the third is taken. */
	host4[0] = "10.214.7.0/24";
	host4[1] = "10.214.8.128/25";
	assert_int_equal(st_net_pick_block4(NULL, ST_NET_BRIDGE_POOL, ST_NET_BRIDGE_PREFIX, 7, &b, &err), 0);
	fmt4(&b, t, sizeof(t));
	assert_string_equal(t, "10.214.9.0/24");
	assert_int_equal(asked, 3);
}

static void test_pick4_all_used(void **state)
{
	struct st_error err;
	struct st_ip4 b;

	/* A route over the whole pool: every block overlaps, and the error says to choose. */
	host4[0] = "10.214.0.0/16";
	assert_int_equal(st_net_pick_block4(NULL, ST_NET_BRIDGE_POOL, ST_NET_BRIDGE_PREFIX, 0, &b, &err),
			 -EADDRINUSE);
	assert_int_equal(asked, 256);
	assert_non_null(strstr(err.msg, "the first 256 /24 blocks of 10.214.0.0/16"));
	assert_non_null(strstr(err.msg, "--addr"));

	/* The veth pool has 16384 blocks: the search stops after 1024. */
	reset(NULL);
	host4[0] = "10.0.0.0/8";
	assert_int_equal(st_net_pick_block4(NULL, ST_NET_VETH_POOL, ST_NET_VETH_PREFIX, 0, &b, &err),
			 -EADDRINUSE);
	assert_int_equal(asked, 1024);
	assert_non_null(strstr(err.msg, "the first 1024 /30 blocks"));
}

static void test_pick4_netlink_error(void **state)
{
	struct st_error err;
	struct st_ip4 b;

	fail_with = EACCES;
	assert_int_equal(st_net_pick_block4(NULL, ST_NET_VETH_POOL, ST_NET_VETH_PREFIX, 0, &b, &err),
			 -EACCES);
	assert_int_equal(asked, 1);
}

static void test_pick6(void **state)
{
	struct st_error err;
	struct st_ip6 b;
	char t[64];

	assert_int_equal(st_net_pick_block6(NULL, 0, 0x12, &b, &err), 0);
	st_ip6_format(&b, t, sizeof(t));
	assert_string_equal(t, "fd5b:7e1d:ab00:12::/64");
	/* Bridges use the upper half of the subnet IDs; a used /64 is skipped. */
	host6[0] = "fd5b:7e1d:ab00:8012::1/64";
	assert_int_equal(st_net_pick_block6(NULL, ST_NET_IP6_BRIDGE_FIRST, 0x12, &b, &err), 0);
	st_ip6_format(&b, t, sizeof(t));
	assert_string_equal(t, "fd5b:7e1d:ab00:8013::/64");
	/* The seed wraps within the half. */
	reset(NULL);
	assert_int_equal(st_net_pick_block6(NULL, 0, 0x8000 + 3, &b, &err), 0);
	st_ip6_format(&b, t, sizeof(t));
	assert_string_equal(t, "fd5b:7e1d:ab00:3::/64");
}

static void test_check_free(void **state)
{
	struct st_error err;
	struct st_ip4 a = ip4("192.168.5.0/24");
	struct st_ip6 b = ip6("fd00:1::/64");

	host4[0] = "192.168.0.0/16";
	assert_int_equal(st_net_check_free4(NULL, "--addr", &a, &err), -EINVAL);
	assert_string_equal(err.msg, "--addr: 192.168.5.0/24 overlaps route 192.168.0.0/16 on this host (choose another range)");
	a = ip4("172.16.0.0/30");
	assert_int_equal(st_net_check_free4(NULL, "--addr", &a, &err), 0);

	host6[0] = "fd00:1::5/128";
	assert_int_equal(st_net_check_free6(NULL, &b, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--addr6: fd00:1::/64 overlaps address fd00:1::5/128"));
	b = ip6("fd00:2::7/64");
	assert_int_equal(st_net_check_free6(NULL, &b, &err), 0);
}

static void test_host_part(void **state)
{
	struct st_error err;
	struct st_ip4 a;

	a = ip4("10.0.0.2/30");
	assert_int_equal(st_net_check_host_part("--addr", &a, &err), 0);
	a = ip4("10.0.0.0/30");
	assert_int_equal(st_net_check_host_part("--addr", &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "network or broadcast"));
	a = ip4("10.0.0.3/30");
	assert_int_equal(st_net_check_host_part("--addr", &a, &err), -EINVAL);
	a = ip4("10.0.0.1/31");
	assert_int_equal(st_net_check_host_part("--addr", &a, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no room for a gateway"));
}

static void test_gateways(void **state)
{
	struct st_ip4 a = ip4("10.213.0.22/30"), g;
	struct st_ip6 b = ip6("fd00::2/64"), h;
	char t[64];

	g = st_net_gateway4(&a);
	fmt4(&g, t, sizeof(t));
	assert_string_equal(t, "10.213.0.21/30");
	/* The sandbox has the first host address: the gateway is the second. */
	a = ip4("10.213.0.21/30");
	g = st_net_gateway4(&a);
	fmt4(&g, t, sizeof(t));
	assert_string_equal(t, "10.213.0.22/30");

	h = st_net_gateway6(&b);
	st_ip6_format(&h, t, sizeof(t));
	assert_string_equal(t, "fd00::1/64");
	b = ip6("fd00::1/64");
	h = st_net_gateway6(&b);
	st_ip6_format(&h, t, sizeof(t));
	assert_string_equal(t, "fd00::2/64");
}

static void test_bridge_member(void **state)
{
	struct st_ip4 br = ip4("10.50.0.1/24"), m;
	struct st_ip6 br6 = ip6("fd00:9::1/64"), m6;
	char t[64];

	/* 2 + seed % (256 - 3): always a host address, never the bridge's. */
	m = st_net_bridge_member4(&br, 0);
	fmt4(&m, t, sizeof(t));
	assert_string_equal(t, "10.50.0.2/24");
	m = st_net_bridge_member4(&br, 252);
	fmt4(&m, t, sizeof(t));
	assert_string_equal(t, "10.50.0.254/24");
	for (uint32_t seed = 0; seed < 600; seed++) {
		uint32_t host;

		m = st_net_bridge_member4(&br, seed);
		host = ntohl(m.addr.s_addr) & 0xff;
		assert_true(host >= 1 && host <= 254);
		assert_true(m.addr.s_addr != br.addr.s_addr);
		assert_true(st_ip4_overlap(&m, &br));
	}
	/* On the bridge's own address: the one below it. */
	br = ip4("10.50.0.7/24");
	m = st_net_bridge_member4(&br, 5);
	fmt4(&m, t, sizeof(t));
	assert_string_equal(t, "10.50.0.6/24");

	m6 = st_net_bridge_member6(&br6, 0x10);
	st_ip6_format(&m6, t, sizeof(t));
	assert_string_equal(t, "fd00:9::12/64");
	/* The bridge's own address: the other of the pair. */
	br6 = ip6("fd00:9::12/64");
	m6 = st_net_bridge_member6(&br6, 0x10);
	st_ip6_format(&m6, t, sizeof(t));
	assert_string_equal(t, "fd00:9::13/64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pick4_empty_host_takes_seed_block, reset),
		cmocka_unit_test_setup(test_pick4_skips_used_blocks, reset),
		cmocka_unit_test_setup(test_pick4_all_used, reset),
		cmocka_unit_test_setup(test_pick4_netlink_error, reset),
		cmocka_unit_test_setup(test_pick6, reset),
		cmocka_unit_test_setup(test_check_free, reset),
		cmocka_unit_test_setup(test_host_part, reset),
		cmocka_unit_test_setup(test_gateways, reset),
		cmocka_unit_test_setup(test_bridge_member, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
