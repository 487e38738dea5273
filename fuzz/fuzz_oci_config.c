// SPDX-License-Identifier: MIT
/*
 * st_oci_load() on any bytes, as if they were a --config file: the input is
 * written to a memfd and read back through /proc/self/fd/N, the path that
 * json_load_file() opens. Every field is freed by st_oci_free(), so that
 * LeakSanitizer sees anything a partial or repeated parse leaves behind.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sandboxtime/oci.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-oci", MFD_CLOEXEC);
	char path[64];
	struct st_oci o;
	struct st_error err;
	size_t done = 0;

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (st_oci_load(path, &o, &err) < 0) {
		fuzz_check_error(&err);
		/* A failed load hands back nothing to free. */
		if (o.args || o.env || o.cwd || o.hostname || o.net_path || o.seccomp ||
		    o.mounts.v || o.mounts.root || o.mounts.file || o.sysctl || o.mounts.masked ||
		    o.mounts.readonly_paths)
			abort();
	} else {
		for (size_t i = 0; o.args && o.args[i]; i++)
			if (strlen(o.args[i]) > size)
				abort();
		/* Masked and read-only paths cannot climb out either; every sysctl is namespaced. */
		for (size_t i = 0; o.mounts.masked && o.mounts.masked[i]; i++)
			if (!st_mount_dest_ok(o.mounts.masked[i]))
				abort();
		for (size_t i = 0; o.mounts.readonly_paths && o.mounts.readonly_paths[i]; i++)
			if (!st_mount_dest_ok(o.mounts.readonly_paths[i]))
				abort();
		for (size_t i = 0; i < o.nsysctl; i++)
			if (st_sysctl_layer(o.sysctl[i].key) < 0)
				abort();
		/* Every destination checked: none can climb out of the root. */
		for (size_t i = 0; i < o.mounts.n; i++)
			if (!st_mount_dest_ok(o.mounts.v[i].dest) ||
			    (o.mounts.v[i].type == ST_MOUNT_BIND && !o.mounts.v[i].source) ||
			    strnlen(o.mounts.v[i].data, sizeof(o.mounts.v[i].data)) ==
				sizeof(o.mounts.v[i].data))
				abort();
	}
	st_oci_free(&o);
	close(fd);
	return 0;
}
