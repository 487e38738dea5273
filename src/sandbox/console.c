// SPDX-License-Identifier: MIT
/* The container's pty: made inside, the master sent to the engine (console.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sandboxtime/console.h"
#include "sandboxtime/util.h"

static int send_fd(int sock, int fd, const char *name, struct st_error *err)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)name, .iov_len = strlen(name) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (TEMP_FAILURE_RETRY(sendmsg(sock, &msg, 0)) < 0)
		return st_error_set(err, errno, "console: sending the pty to the console socket");
	return 0;
}

int st_console_send_pty(int sock, int *slave, struct st_error *err)
{
	_cleanup_close_ int master = -1;
	char name[64];

	*slave = -1;
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 || ptsname_r(master, name, sizeof(name)))
		return st_error_set(err, errno, "console: a new pty from /dev/ptmx");
	*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0)
		return st_error_set(err, errno, "console: opening %s", name);
	if (send_fd(sock, master, name, err) < 0) {
		closep(slave);
		return -err->errnum;
	}
	return 0;
}
