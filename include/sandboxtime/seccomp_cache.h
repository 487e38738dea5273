/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SECCOMP_CACHE_H
#define SANDBOXTIME_SECCOMP_CACHE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The cache of compiled seccomp programs (seccomp_cache.c): one file per
 * profile's bytes, capabilities and build, in the user's private cache
 * directory. Every miss, bad file or foreign file means "compile"; writing
 * is best effort.
 */
struct st_seccomp;

/* The key of a program: its profile's bytes, @caps, libseccomp, the arch and this build. */
uint64_t st_seccomp_cache_key(const char *bytes, size_t len, uint64_t caps);

/*
 * The user's private cache directory in @buf (made if missing): 0, or -1
 * when there is none to trust (not ours, or open to others).
 */
int st_seccomp_cache_dir(char *buf, size_t len);

/* @dir/seccomp-KEY.bpf */
void st_seccomp_cache_path(char *buf, size_t len, const char *dir, uint64_t key);

/* 0 on a hit (@out's program, counts and flags filled), -1 on any miss. */
int st_seccomp_cache_read(const char *path, uint64_t key, struct st_seccomp *out);

/* Stores @f's program under @path (written aside, then renamed). */
void st_seccomp_cache_write(const char *path, uint64_t key, const struct st_seccomp *f);

/* How many compiled programs the cache keeps: see st_seccomp_cache_trim(). */
#define ST_SECCOMP_CACHE_KEEP 64

/*
 * Removes the oldest written "seccomp-*" files of cache directory @dir (and
 * any temporary file a crashed writer left) until at most @keep remain.
 * Best effort; returns how many files it removed.
 */
size_t st_seccomp_cache_trim(const char *dir, size_t keep);

#endif
