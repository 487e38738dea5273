/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_RUNTIME_CONSOLE_H
#define SANDBOXTIME_RUNTIME_CONSOLE_H

#include "sandboxtime/error.h"

/*
 * Connects to the engine's --console-socket @socket_path: *@sock then goes
 * to the container's process, which sends the pty's master over it
 * (st_console_send_pty). A terminal without a socket is refused.
 */
int st_rt_console_connect(const char *socket_path, int *sock, struct st_error *err);

#endif
