/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_WHERE_PROBE_H
#define SANDBOXTIME_WHERE_PROBE_H

#include <stdint.h>

#include "sandboxtime/bench_guard.h"
#include "sandboxtime/error.h"

/*
 * What sandboxtime-probe (src/probe/where_probe.c) prints, read back: the
 * line "sandboxtime-probe start" as soon as its main runs, then one line of
 * key=value pairs. Each figure comes with a count and the count it should
 * be (calls=, calls_want=; memset_sum=, memset_want=, ...): a figure whose
 * check does not match is refused, not shown.
 */
#define ST_PROBE_START_LINE "sandboxtime-probe start"
#define ST_PROBE_RESULT_PREFIX "sandboxtime-probe v=1 "

enum st_probe_figure {
	ST_PROBE_CALL,     /* ns per function call */
	ST_PROBE_WRITE,    /* ns per write(/dev/null, 1 byte) */
	ST_PROBE_GETPPID,  /* ns per getppid() */
	ST_PROBE_MEMSET,   /* us per memset of 64 MiB */
	ST_PROBE_MEMCPY,   /* us per memcpy of 64 MiB */
	ST_PROBE_FORK,     /* us per fork of a 100 MiB parent, until reaped */
	ST_PROBE_FIGURES,
};

extern const char *const st_probe_figure_keys[ST_PROBE_FIGURES];

struct st_probe_result {
	char arch[16];
	double v[ST_PROBE_FIGURES];
	char refused[ST_PROBE_FIGURES][ST_GUARD_REASON_MAX]; /* "": the check matched */
};

/*
 * Parses a result line (with or without its newline). A line that is not
 * the probe's, or lacks a key, is -EPROTO with the key named; a check that
 * does not match is not an error: refused[] says which and by how much.
 */
int st_probe_parse(const char *line, struct st_probe_result *r, struct st_error *err);

#endif
