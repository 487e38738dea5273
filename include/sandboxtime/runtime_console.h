/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_RUNTIME_CONSOLE_H
#define SANDBOXTIME_RUNTIME_CONSOLE_H

#include "sandboxtime/error.h"

/*
 * A new pty: its master is sent to the engine over @socket_path
 * (--console-socket, SCM_RIGHTS) and closed here, its slave left in
 * *@slave for the container's process (runtime_console.c).
 */
int st_rt_console_open(const char *socket_path, int *slave, struct st_error *err);

#endif
