/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_OUTPUT_H
#define SANDBOXTIME_OUTPUT_H

/*
 * The options every command that writes a report shares (src/cmd parses
 * them; the report and the session read them). Kept apart from cli.h so that
 * no module below the command line needs the command line's header.
 */
/*
 * The one format enum: what --format chose, and what a column's getter is
 * asked for (st_cell.format; markdown cells are the table's).
 */
enum st_format {
	ST_FORMAT_TABLE,
	ST_FORMAT_JSON,
	ST_FORMAT_CSV,
	ST_FORMAT_PROMETHEUS, /* orphans and netbench only */
	ST_FORMAT_MARKDOWN,   /* the table as GitHub pipe tables */
};

/* --color: ANSI colour in the table; auto: on a terminal, unless NO_COLOR is set. */
enum st_color {
	ST_COLOR_AUTO,
	ST_COLOR_ALWAYS,
	ST_COLOR_NEVER,
};

struct st_output {
	enum st_format format;
	const char *path; /* -o FILE; NULL: the command's default stream */
	int quiet;        /* -q: no report, no progress */
	int verbose;      /* -v: every statistic of every figure */
	int cpu;          /* --cpu: pin to this CPU; -1: not pinned */
	const char *svg;  /* --svg=FILE: the charts, or NULL */
	const char *html; /* --html=FILE: charts and tables on one page, or NULL */
	enum st_color color;
};

#endif
