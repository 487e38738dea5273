/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_INITRAMFS_H
#define SANDBOXTIME_INITRAMFS_H

#include "sandboxtime/error.h"

/*
 * The microVM's initramfs (bench where, issue 14.2): an uncompressed cpio
 * archive in the kernel's "newc" format, written to an unlinked memory file
 * (memfd), so that nothing is left on disk on any path and no privilege is
 * needed for its device nodes: they exist only as headers in the archive.
 * It holds /dev (console, null) and /init, a copy of the static program at
 * @init_path. The fd is not close-on-exec: qemu opens it as /dev/fd/N.
 */
int st_initramfs_memfd(const char *init_path, struct st_error *err);

#endif
