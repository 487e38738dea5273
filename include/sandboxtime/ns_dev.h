/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_NS_DEV_H
#define SANDBOXTIME_NS_DEV_H

#include "sandboxtime/error.h"

/*
 * Fills the new root's /dev (@devfd, a directory fd inside it) with the OCI
 * runtime spec's default devices: null, zero, full, random, urandom and tty
 * (mknod; where the kernel refuses it, as in a user namespace, an empty file
 * with the host's node bound onto it, as rootless runc and crun do), and the
 * symlinks ptmx -> pts/ptmx, fd -> /proc/self/fd, stdin, stdout, stderr.
 * What is there already stays.
 */
int st_ns_dev_populate(int devfd, struct st_error *err);

#endif
