// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sandboxtime/compiler.h"
#include "sandboxtime/initramfs.h"
#include "sandboxtime/util.h"

/* One entry as the kernel's init/initramfs.c reads it: "070701", 13 hex fields, name, data. */
struct cpio_entry {
	const char *name;
	unsigned int mode;
	unsigned int rdev_major, rdev_minor;
	const void *data;
	size_t size;
};

/* newc pads the header plus name, and the data, to 4 bytes. */
static int pad4(int fd, size_t written)
{
	static const char zeros[4];

	return st_write_all(fd, zeros, (4 - written % 4) % 4);
}

static int write_entry(int fd, unsigned int ino, const struct cpio_entry *e)
{
	char hdr[111];
	size_t namesize = strlen(e->name) + 1;

	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino,
		 e->mode, 0u, 0u, 1u, 0u, e->size, 0u, 0u, e->rdev_major, e->rdev_minor, namesize, 0u);
	int ret = st_write_all(fd, hdr, 110);

	if (ret == 0)
		ret = st_write_all(fd, e->name, namesize);
	if (ret == 0)
		ret = pad4(fd, 110 + namesize);
	if (ret == 0 && e->size)
		ret = st_write_all(fd, e->data, e->size);
	if (ret == 0 && e->size)
		ret = pad4(fd, e->size);
	return ret;
}

/* The program that becomes /init, read whole: it is a static binary of about 1 MB. */
static void *read_program(const char *path, size_t *size, struct st_error *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0)
		return st_error_set(err, errno, "initramfs: %s", path), NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return st_error_set(err, ENOMEM, "initramfs: %s", path), NULL;
	for (size_t got = 0; got < (size_t)st.st_size;) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			free(buf);
			return st_error_set(err, n < 0 ? errno : EIO, "initramfs: reading %s", path), NULL;
		}
		got += (size_t)n;
	}
	*size = (size_t)st.st_size;
	return buf;
}

int st_initramfs_memfd(const char *init_path, struct st_error *err)
{
	_cleanup_free_ void *init = NULL;
	_cleanup_close_ int fd = -1;
	size_t size = 0;
	int ret = 0;

	init = read_program(init_path, &size, err);
	if (!init)
		return -err->errnum;
	const struct cpio_entry entries[] = {
		{ "dev", S_IFDIR | 0755, 0, 0, NULL, 0 },
		{ "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0 },
		{ "dev/null", S_IFCHR | 0666, 1, 3, NULL, 0 },
		{ "init", S_IFREG | 0755, 0, 0, init, size },
		{ "TRAILER!!!", 0, 0, 0, NULL, 0 },
	};

	fd = memfd_create("sandboxtime-initramfs", 0);
	if (fd < 0)
		return st_error_set(err, errno, "initramfs: memfd_create");
	for (size_t i = 0; i < ARRAY_SIZE(entries) && ret == 0; i++)
		ret = write_entry(fd, (unsigned int)i + 1, &entries[i]);
	if (ret < 0)
		return st_error_set(err, -ret, "initramfs: writing the archive");
	return take_fd(&fd);
}
