/* SPDX-License-Identifier: MIT */
/*
 * The error contract: functions return 0 or -errno and describe the cause in
 * a struct st_error that callers extend with context on the way up; only
 * main.c prints it, once, on one line.
 *
 * The message is a fixed buffer, not heap memory, so that a child between
 * clone() and exec() can send the whole struct through its sync pipe.
 */
#ifndef SANDBOXTIME_ERROR_H
#define SANDBOXTIME_ERROR_H

#include "sandboxtime/compiler.h"

#define ST_ERROR_MSG_MAX 256

/* Exit codes of env(1), timeout(1), docker and podman (docs/DESIGN.md). */
enum st_exit {
	ST_EXIT_OK = 0,
	ST_EXIT_ORPHANS_FOUND = 1,
	ST_EXIT_SLOWER = 1, /* compare --fail-if-slower: a figure is slower by more than PCT */
	ST_EXIT_FAILURE = 125,
	ST_EXIT_CANNOT_EXEC = 126,
	ST_EXIT_NOT_FOUND = 127,
	ST_EXIT_SIGNAL_BASE = 128,
};

struct st_error {
	int errnum;  /* positive errno of the root cause, 0 if none */
	int usage;   /* 1: the user's input was wrong ("Try --help") */
	char msg[ST_ERROR_MSG_MAX];
	char hint[ST_ERROR_MSG_MAX]; /* how to fix it, printed after the cause */
};

/* Sets the cause; returns -errnum (or -EINVAL when errnum is 0). */
int st_error_set(struct st_error *err, int errnum, const char *fmt, ...) _printf_(3, 4);

/* Like st_error_set(), and marks the error as bad usage. */
int st_error_usage(struct st_error *err, const char *fmt, ...) _printf_(2, 3);

/* Prepends context: "ctx: old message". Returns -errnum. */
int st_error_wrap(struct st_error *err, const char *fmt, ...) _printf_(2, 3);

void st_error_clear(struct st_error *err);

/* Attaches advice on how to fix the error (a copy is kept). */
void st_error_hint(struct st_error *err, const char *hint);

/*
 * Formats the one line main.c prints: the message, strerror of the cause
 * and, where the cause is known, advice on how to fix it. Control characters
 * are escaped, so it is always one line.
 */
void st_error_format(const struct st_error *err, char *buf, size_t len);

#endif
