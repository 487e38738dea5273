/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_CONSOLE_H
#define SANDBOXTIME_CONSOLE_H

#include "sandboxtime/error.h"

/*
 * A container's terminal (process.terminal), made as runc makes it: inside
 * the container, from its own /dev/ptmx (its devpts instance), so that the
 * process's tty has a name there; the master goes to the engine over the
 * connected --console-socket @sock (SCM_RIGHTS, the pty's name as the
 * message), the slave is left in *@slave (console.c).
 */
int st_console_send_pty(int sock, int *slave, struct st_error *err);

#endif
