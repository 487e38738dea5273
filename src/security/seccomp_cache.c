// SPDX-License-Identifier: MIT
/*
 * The cache of compiled seccomp programs: a file per (profile bytes,
 * capabilities, build) in the user's private cache directory, and the
 * policy of which directory that is and when it can be trusted.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/seccomp_cache.h"
#include "sandboxtime/seccomp_filter.h"
#include "sandboxtime/version.h"

#define CACHE_MAGIC "STSECC3" /* 2: load_flags; 3: reshaped programs (seccomp_reshape.c), keys hashed by words */

/* What a cache file holds before the instructions. */
struct cache_header {
	char magic[8];
	uint64_t key;
	uint64_t len;
	uint64_t rules;
	uint64_t unknown;
	uint64_t load_flags;
	char unknown_names[256];
};

/*
 * FNV-1a, eight bytes at a time, then the tail byte by byte: the cache sits
 * in a directory only its owner can write, so a fast hash will do. Each step
 * (xor, multiply by an odd number) is a bijection of the state, so two
 * inputs of one length never share a key, as with FNV byte by byte; the
 * 9.7 kB default profile is hashed on every launch, ~20 us byte by byte
 * (perf), an eighth of the multiplies now.
 */
static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t w;

	for (; len >= sizeof(w); p += sizeof(w), len -= sizeof(w)) {
		memcpy(&w, p, sizeof(w));
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; len; p++, len--)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

uint64_t st_seccomp_cache_key(const char *bytes, size_t len, uint64_t caps)
{
	const struct scmp_version *v = seccomp_version();
	char context[128];

	/* The build too: a program compiled by other code must not come back. */
	snprintf(context, sizeof(context), "%u.%u.%u/%u/%s/%s %s/%llx", v->major, v->minor, v->micro,
		 seccomp_arch_native(), ST_VERSION, __DATE__, __TIME__, (unsigned long long)caps);
	return fnv1a(fnv1a(0xcbf29ce484222325ull, bytes, len), context, strlen(context));
}

/*
 * The user's private cache directory: root's under /var/cache, others' under
 * $XDG_CACHE_HOME or ~/.cache, and for a user with no home of its own (nobody,
 * service users) /tmp/sandboxtime-UID, as tmux does, so that rootless launches
 * of such users do not compile the profile every time. Used only if it is
 * ours and closed to others, since a program read from a place others can
 * write would be a filter they chose: a directory someone else made first
 * under /tmp means no cache. Returns 0, or -1: no cache.
 */
int st_seccomp_cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct stat st;

	if (geteuid() == 0)
		snprintf(buf, len, "/var/cache/sandboxtime");
	else if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/sandboxtime", xdg);
	else if (home && home[0] == '/' && stat(home, &st) == 0 && st.st_uid == geteuid())
		snprintf(buf, len, "%s/.cache/sandboxtime", home);
	else
		snprintf(buf, len, "/tmp/sandboxtime-%u", (unsigned int)geteuid());
	/* Made by the first launch; the others only check it, without a mkdir that fails with EEXIST. */
	if (lstat(buf, &st) < 0) {
		if (errno != ENOENT)
			return -1;
		if (mkdir(buf, 0700) < 0 && errno == ENOENT && geteuid() != 0) {
			char parent[512];

			snprintf(parent, sizeof(parent), "%.*s", (int)(strrchr(buf, '/') - buf), buf);
			mkdir(parent, 0700);
			mkdir(buf, 0700);
		}
		if (lstat(buf, &st) < 0)
			return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077))
		return -1;
	return 0;
}

void st_seccomp_cache_path(char *buf, size_t len, const char *dir, uint64_t key)
{
	snprintf(buf, len, "%s/seccomp-%016llx.bpf", dir, (unsigned long long)key);
}

/* 0 on a hit (out filled), -1 on any miss: a bad or foreign file is a miss. */
int st_seccomp_cache_read(const char *path, uint64_t key, struct st_seccomp *out)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct cache_header h;
	size_t bytes;

	if (fd < 0 || read(fd, &h, sizeof(h)) != (ssize_t)sizeof(h))
		return -1;
	if (memcmp(h.magic, CACHE_MAGIC, sizeof(h.magic)) || h.key != key || !h.len || h.len > BPF_MAXINSNS)
		return -1;
	bytes = (size_t)h.len * sizeof(struct sock_filter);
	out->prog = malloc(bytes);
	if (!out->prog || read(fd, out->prog, bytes) != (ssize_t)bytes) {
		free(out->prog);
		out->prog = NULL;
		return -1;
	}
	out->len = (size_t)h.len;
	out->rules = (size_t)h.rules;
	out->load_flags = (unsigned int)h.load_flags;
	out->unknown = (size_t)h.unknown;
	memcpy(out->unknown_names, h.unknown_names, sizeof(out->unknown_names));
	out->unknown_names[sizeof(out->unknown_names) - 1] = '\0';
	return 0;
}

/* Best effort: written aside and renamed, so a reader never sees half a file. */
void st_seccomp_cache_write(const char *path, uint64_t key, const struct st_seccomp *f)
{
	struct cache_header h = { .key = key,
				  .len = f->len,
				  .rules = f->rules,
				  .unknown = f->unknown,
				  .load_flags = f->load_flags };
	char tmp[600];
	int fd, ok;

	memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
	memcpy(h.unknown_names, f->unknown_names, sizeof(h.unknown_names));
	snprintf(tmp, sizeof(tmp), "%s.%d", path, getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	ok = write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	     write(fd, f->prog, f->len * sizeof(struct sock_filter)) ==
		     (ssize_t)(f->len * sizeof(struct sock_filter));
	close(fd);
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
}

struct cache_entry {
	char name[NAME_MAX + 1];
	struct timespec mtime;
};

static int by_mtime(const void *a, const void *b)
{
	const struct timespec *x = &((const struct cache_entry *)a)->mtime;
	const struct timespec *y = &((const struct cache_entry *)b)->mtime;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? -1 : 1;
	return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

/*
 * Oldest written first, not least recently used: keeping use order would
 * cost a write on every hit, on the launch path the cache is there to make
 * short. An evicted profile still in use is compiled once more.
 */
size_t st_seccomp_cache_trim(const char *dir, size_t keep)
{
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_free_ struct cache_entry *entries = NULL;
	struct cache_entry *grown;
	size_t n = 0, cap = 0, removed = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (dfd < 0 || !(d = fdopendir(dup(dfd))))
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "seccomp-", 8) != 0 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 128;
			grown = realloc(entries, cap * sizeof(*entries));
			if (!grown)
				break;
			entries = grown;
		}
		snprintf(entries[n].name, sizeof(entries[n].name), "%s", de->d_name);
		entries[n++].mtime = st.st_mtim;
	}
	closedir(d);
	if (n > keep) {
		qsort(entries, n, sizeof(*entries), by_mtime);
		for (size_t i = 0; i < n - keep; i++)
			removed += unlinkat(dfd, entries[i].name, 0) == 0;
	}
	return removed;
}
