// SPDX-License-Identifier: MIT
/*
 * process.terminal: the runtime connects to --console-socket (an AF_UNIX
 * stream socket of the engine's); the container's process makes the pty
 * inside and sends its master there (src/sandbox/console.c).
 */
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "sandboxtime/runtime_console.h"
#include "sandboxtime/util.h"

int st_rt_console_connect(const char *socket_path, int *sock, struct st_error *err)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	*sock = -1;
	if (!socket_path)
		return st_error_usage(err, "process.terminal is true: give --console-socket=PATH for its pty");
	if (strlen(socket_path) >= sizeof(addr.sun_path))
		return st_error_usage(err, "--console-socket: path too long: %s", socket_path);
	strcpy(addr.sun_path, socket_path);
	*sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*sock < 0 || connect(*sock, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int e = errno;

		closep(sock);
		return st_error_set(err, e, "--console-socket: connecting to %s", socket_path);
	}
	return 0;
}
