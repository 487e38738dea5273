// SPDX-License-Identifier: MIT
/*
 * process.terminal: a pty whose master goes to the engine through
 * --console-socket (an AF_UNIX stream socket; the fd rides in SCM_RIGHTS,
 * as runc sends it, with the pty's name as the message), and whose slave
 * becomes the container process's controlling terminal and stdio.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sandboxtime/runtime_console.h"
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
		return st_error_set(err, errno, "--console-socket: sending the pty");
	return 0;
}

int st_rt_console_open(const char *socket_path, int *slave, struct st_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	_cleanup_close_ int master = -1, sock = -1;
	char name[64];

	*slave = -1;
	if (!socket_path)
		return st_error_usage(err, "process.terminal is true: give --console-socket=PATH for its pty");
	if (strlen(socket_path) >= sizeof(addr.sun_path))
		return st_error_usage(err, "--console-socket: path too long: %s", socket_path);
	strcpy(addr.sun_path, socket_path);
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 || ptsname_r(master, name, sizeof(name)))
		return st_error_set(err, errno, "console: a new pty");
	*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0)
		return st_error_set(err, errno, "console: opening %s", name);
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0 || connect(sock, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		closep(slave);
		return st_error_set(err, errno, "--console-socket: connecting to %s", socket_path);
	}
	if (send_fd(sock, master, name, err) < 0) {
		closep(slave);
		return -err->errnum;
	}
	return 0;
}
