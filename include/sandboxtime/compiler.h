/* SPDX-License-Identifier: MIT */
/*
 * Scope-owned resources and small helpers shared by every module.
 *
 * Every fd, heap pointer and child pid is owned by one scope and released by a
 * cleanup attribute, so that an early return cannot leak it; ownership leaves a
 * scope only through steal_pointer()/take_fd().
 */
#ifndef SANDBOXTIME_COMPILER_H
#define SANDBOXTIME_COMPILER_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Debian 12's glibc headers know these system calls; older ones may not. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_pid_ _cleanup_(killpidp)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _warn_unused_ __attribute__((warn_unused_result))
#define _noreturn_ __attribute__((noreturn))

static inline void freep(void *p)
{
	free(*(void **)p);
}

/* close() keeps errno: cleanup runs on error paths that still report it. */
static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		close(*fd);
		errno = saved;
	}
	*fd = -1;
}

/* A stream read to the end (a written one is closed where its error is checked). */
static inline void fclosep(FILE **f)
{
	if (*f) {
		int saved = errno;

		fclose(*f);
		errno = saved;
	}
	*f = NULL;
}

/*
 * A child that is still owned when its scope ends was not handed on, so the
 * scope failed: kill it and reap it, so that no process outlives the error.
 */
static inline void killpidp(pid_t *pid)
{
	if (*pid > 0) {
		int saved = errno;

		kill(*pid, SIGKILL);
		while (waitpid(*pid, NULL, __WALL) < 0 && errno == EINTR)
			;
		errno = saved;
	}
	*pid = -1;
}

#define steal_pointer(pp)                     \
	({                                    \
		__typeof__(*(pp)) _ptr = *(pp); \
		*(pp) = NULL;                 \
		_ptr;                         \
	})

static inline int take_fd(int *fd)
{
	int ret = *fd;

	*fd = -1;
	return ret;
}

static inline pid_t take_pid(pid_t *pid)
{
	pid_t ret = *pid;

	*pid = -1;
	return ret;
}

#ifndef TEMP_FAILURE_RETRY
#define TEMP_FAILURE_RETRY(expr)                                   \
	({                                                         \
		long _r;                                           \
		do                                                 \
			_r = (long)(expr);                         \
		while (_r == -1L && errno == EINTR);               \
		_r;                                                \
	})
#endif

#endif
