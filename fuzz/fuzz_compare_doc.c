// SPDX-License-Identifier: MIT
/*
 * st_cmp_doc_load() on any bytes, as if they were a report given to
 * `sandboxtime compare`: written to a memfd and read back through
 * /proc/self/fd/N. A loaded document must name every figure and hold only
 * what it found; st_cmp_doc_free() releases all of it on both paths, so that
 * LeakSanitizer sees what a partial read leaves behind.
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sandboxtime/compare_doc.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-compare", MFD_CLOEXEC);
	struct st_error err = { 0 };
	struct st_cmp_doc d;
	size_t done = 0;
	char path[64];

	if (fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (st_cmp_doc_load(&d, path, &err) < 0) {
		fuzz_check_error(&err);
	} else {
		if (!d.kind || d.nfig == 0)
			abort();
		for (size_t i = 0; i < d.nfig; i++)
			if (!d.fig[i].name[0] || st_cmp_doc_find(&d, d.fig[i].name, i) == NULL)
				abort();
	}
	st_cmp_doc_free(&d);
	close(fd);
	return 0;
}
