/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_PROCFS_H
#define SANDBOXTIME_PROCFS_H

#include <stddef.h>

/*
 * One line of /proc/PID/mountinfo (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)   (10)         (11)
 * Field 7 is zero or more optional fields, ended by the single "-". The
 * pointers point into the parsed line; root, mount point and source have
 * their octal escapes (\040 \011 \012 \134) decoded.
 */
struct st_mountinfo {
	unsigned int id;
	unsigned int parent;
	unsigned int major;
	unsigned int minor;
	char *root;
	char *mountpoint;
	char *options;
	char *fstype;
	char *source;
	char *super_options;
};

/*
 * Parses @line in place (it is cut into fields). A trailing newline is
 * allowed. Returns 0 or -EINVAL for a line that is not mountinfo. Pure.
 */
int st_mountinfo_parse(char *line, struct st_mountinfo *m);

/* Decodes the kernel's "\ooo" escapes of @s in place (mangle() in fs/proc_namespace.c). */
void st_mountinfo_unescape(char *s);

/*
 * The inode in a nsfs root field "net:[4026531840]" when its type is @type
 * ("net"); -EINVAL otherwise. Pure.
 */
int st_nsfs_root_inode(const char *root, const char *type, unsigned long long *ino);

#endif
