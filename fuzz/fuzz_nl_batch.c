// SPDX-License-Identifier: MIT
/*
 * st_nl_batch_parse() on any bytes, as if the kernel had answered a batch
 * with them: byte 0 is how many requests the batch holds (1 to
 * ST_NL_BATCH_MAX), bytes 1-4 the first sequence number, 5-8 the port id
 * (host order) and byte 9 how many messages each receive returns (0: all);
 * the rest is split into the buffers of successive receives at the lengths
 * their messages claim, as st_nl_batch_send() would get them. The batch mixes every kind of request
 * it is built from (link up, IPv4 and IPv6 addresses and default routes).
 */
#include <arpa/inet.h>
#include <libmnl/libmnl.h>

#include "sandboxtime/nl.h"
#include "fuzz.h"

static void build(struct st_nl_batch *b, uint32_t first_seq, unsigned int n)
{
	struct st_error err = { 0 };
	struct st_ip4 a4 = { .prefix = 30 };
	struct st_ip6 a6 = { .prefix = 64 };
	struct in_addr gw4;
	int ret = 0;

	inet_pton(AF_INET, "10.213.0.2", &a4.addr);
	inet_pton(AF_INET, "10.213.0.1", &gw4);
	inet_pton(AF_INET6, "fd5b:7e1d:ab00:12::2", &a6.addr);
	st_nl_batch_init(b, first_seq);
	for (unsigned int i = 0; i < n && ret == 0; i++) {
		switch (i % 5) {
		case 0:
			ret = st_nl_batch_link_up(b, i ? "eth0" : "lo", (int)(i & 1), &err);
			break;
		case 1:
			ret = st_nl_batch_addr(b, 2, "eth0", &a4, &err);
			break;
		case 2:
			ret = st_nl_batch_addr6(b, 2, "eth0", &a6, &err);
			break;
		case 3:
			ret = st_nl_batch_route(b, 2, "eth0", gw4, &err);
			break;
		default:
			ret = st_nl_batch_route6(b, 2, "eth0", &a6.addr, &err);
			break;
		}
	}
	if (ret < 0 || b->n != n)
		abort(); /* up to ST_NL_BATCH_MAX requests always fit */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct st_nl_batch b;
	struct st_error err = { 0 };
	size_t acked = 0;
	int first_error = 0, ret = 0;
	uint32_t seq, portid;
	unsigned int n, per_recv;

	if (size < 10)
		return 0;
	n = 1 + data[0] % ST_NL_BATCH_MAX;
	memcpy(&seq, data + 1, 4);
	memcpy(&portid, data + 5, 4);
	per_recv = data[9];
	data += 10;
	size -= 10;
	build(&b, seq, n);
	while (size > 0 && ret == 0) {
		size_t chunk = 0;
		void *buf;

		/* One receive: @per_recv messages, or all that is left where one overruns it. */
		for (unsigned int k = 0; per_recv && k < per_recv && chunk < size; k++) {
			uint32_t claimed;

			if (size - chunk < 16)
				break;
			memcpy(&claimed, data + chunk, 4);
			if (claimed < 16 || MNL_ALIGN((size_t)claimed) > size - chunk)
				break;
			chunk += MNL_ALIGN((size_t)claimed);
		}
		if (chunk == 0)
			chunk = size;
		/* An exact-size, aligned heap copy (as from recvfrom): ASan sees overreads. */
		buf = malloc(chunk);
		if (!buf)
			abort();
		memcpy(buf, data, chunk);
		ret = st_nl_batch_parse(&b, buf, chunk, portid, &acked, &first_error, &err);
		free(buf);
		data += chunk;
		size -= chunk;
	}
	if (ret < 0) {
		if (ret != -EBADMSG && ret != -EPROTO)
			abort();
		if (!err.msg[0] || err.errnum != -ret)
			abort(); /* every failure says why, with its errno */
		fuzz_check_error(&err);
	} else if (ret > 0) {
		abort();
	}
	if (first_error > 0)
		abort();
	if (first_error < 0 && ret == 0) {
		/* The first failure is the one in @err, and names its request. */
		if (err.errnum != -first_error || strncmp(err.msg, "netlink: ", 9) != 0)
			abort();
		fuzz_check_error(&err);
	}
	return 0;
}
