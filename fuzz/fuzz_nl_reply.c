// SPDX-License-Identifier: MIT
/*
 * st_nl_parse_reply() on any bytes, as if a netlink socket had returned
 * them: the first 4 bytes are the sequence number and the next 4 the port id
 * of the request (host order), the rest is the reply. A dump callback walks
 * each message's attributes the way the link, address and route callbacks
 * of nl.c do.
 */
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "sandboxtime/nl.h"
#include "fuzz.h"

static int attr_cb(const struct nlattr *attr, void *data)
{
	unsigned int *sum = data;

	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
		mnl_attr_parse_nested(attr, attr_cb, data);
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		*sum += (unsigned int)strlen(mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	/* Only read a header that the message holds. */
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(struct ifinfomsg))
		mnl_attr_parse(nlh, sizeof(struct ifinfomsg), attr_cb, data);
	return MNL_CB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_error err = { 0 };
	uint32_t seq, portid;
	unsigned int sum = 0;
	void *buf;
	int ret;

	if (size < 8)
		return 0;
	memcpy(&seq, data, 4);
	memcpy(&portid, data + 4, 4);
	data += 8;
	size -= 8;
	/* An exact-size, aligned heap copy (as from recvfrom), so that ASan sees overreads. */
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	ret = st_nl_parse_reply(buf, size, seq, portid, (seq & 1) ? dump_cb : NULL, &sum, "fuzz",
				&err);
	if (ret < 0) {
		if (!err.msg[0] || err.errnum != -ret)
			abort(); /* every failure says why, with its errno */
		fuzz_check_error(&err);
	} else if (ret > 1) {
		abort();
	}
	free(buf);
	return 0;
}
