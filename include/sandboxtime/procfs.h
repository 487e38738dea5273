/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_PROCFS_H
#define SANDBOXTIME_PROCFS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Up to @max pids from a file that lists them (cgroup.procs,
 * /proc/self/task/TID/children); how many were read (0: none, or no file).
 */
size_t st_read_pids(const char *path, pid_t *pids, size_t max);

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

/*
 * A mount point of mountinfo split into its directory (copied into @dir,
 * "/" for a name at the top) and its last name (*@base, inside @path):
 * "/run/netns/x" is "/run/netns" and "x". -EINVAL for a path with no '/',
 * one that ends in '/', or a directory longer than @len allows. Pure.
 */
int st_mountpoint_split(const char *path, char *dir, size_t len, const char **base);

/*
 * /proc/PID/net/dev (proc(5)) as read(2) hands it over: two header lines,
 * then one "  name: counters" line per interface. Whole lines only: a line
 * cut at the end of one read waits for the next. No line is longer than
 * the buffer; one that is gets dropped whole. Pure: the caller reads.
 */
struct st_netdev {
	char buf[16384];
	size_t len;	   /* bytes of a cut line kept from the last read */
	unsigned int line; /* lines seen, counted up to 2 (the headers) */
	int skipping;	   /* in the rest of a line too long for buf */
};

/* Starts @d: no line seen yet. */
void st_netdev_init(struct st_netdev *d);

/* Where the next read goes, and (in *@room) how much it may read: at least 1. */
char *st_netdev_room(struct st_netdev *d, size_t *room);

/* @n bytes were read into the room: @cb gets each interface name of the whole lines. */
void st_netdev_feed(struct st_netdev *d, size_t n, void (*cb)(const char *name, void *data),
		    void *data);

#endif
