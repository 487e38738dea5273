/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_REPORT_H
#define SANDBOXTIME_REPORT_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "sandboxtime/error.h"
#include "sandboxtime/host.h"
#include "sandboxtime/output.h"
#include "sandboxtime/stats.h"

/*
 * What every report document shares: the column table and the machinery of
 * each format. A document (report_layers.c, report_orphans.c,
 * report_netbench.c, report_bench.c) describes its rows once, as an array of
 * struct st_col in the order the columns appear (util-linux lsns's infos[]);
 * the table, CSV, JSON and Prometheus writers here read that array, so that
 * the formats cannot drift apart and a new column is one row. What no table
 * can say (a document's header lines, notes, nested lists) stays in the
 * document's file. A column's formats (.in) and a getter that looks at
 * cell->format cover the places where the formats differ on purpose.
 */

enum st_cell_kind {
	ST_CELL_TEXT,  /* text */
	ST_CELL_UINT,  /* u */
	ST_CELL_INT,   /* i */
	ST_CELL_REAL,  /* d */
	ST_CELL_BOOL,  /* i: JSON true/false, elsewhere 1/0 */
	ST_CELL_STATS, /* stats: JSON a stats object, CSV one field per statistic */
	ST_CELL_JSON,  /* json: a value only JSON shows (lists of objects) */
	ST_CELL_GROUP, /* JSON: the object "KEY" that KEY.x columns go into, or null */
};

/* One column's value in one row, as the column's getter found it. */
struct st_cell {
	enum st_format format; /* set by the writer: lists differ per format */
	enum st_cell_kind kind;
	int empty;  /* no value: CSV leaves the field empty, the table prints "-" */
	int null;   /* JSON null */
	int absent; /* JSON leaves the key out */
	const char *text;
	uint64_t u;
	int64_t i;
	double d;
	const struct st_samples *stats;
	json_t *json;  /* owned: the writer takes it */
	char *owned;   /* text that the writer frees */
	char buf[512]; /* room for text the getter formats */
};

/* Which formats show a column (a table-only figure, a JSON-only detail). */
#define ST_COL_TABLE 0x1u
#define ST_COL_CSV 0x2u
#define ST_COL_JSON 0x4u
#define ST_COL_PROM 0x8u

enum st_col_align {
	ST_ALIGN_RIGHT,
	ST_ALIGN_LEFT,
};

struct st_col;
typedef void (*st_col_get)(const struct st_col *col, const void *row, const void *doc,
			   struct st_cell *cell);

struct st_col {
	const char *name;    /* CSV header before the unit: "throughput" */
	const char *unit;    /* "us", "gbps", "bytes", or NULL: CSV "name_unit", "name_stat_unit" */
	const char *key;     /* JSON key; "group.key" nests it in the object "group" */
	const char *heading; /* table heading */
	int width, prec;     /* table cell: width, digits after the point */
	const char *suffix;  /* table: printed after a number, inside the width ("x") */
	int csv_prec;        /* CSV digits after the point (REAL and STATS) */
	enum st_col_align align;
	unsigned int in;      /* ST_COL_*: the formats that show it */
	int stats;            /* a stats column: the getter gives ST_CELL_STATS */
	const char *prom;     /* Prometheus metric; columns in a row with one name are one family */
	const char *prom_label; /* more labels of its samples: quantile="0.5" */
	const char *help;     /* what it is, for legends and Prometheus HELP */
	st_col_get get;
	int arg;              /* for the getter: one getter serves several rows */
	int (*shown)(const void *doc); /* NULL: always; else whether this document has it */
};

/* A column set: a document's rows described once. */
struct st_cols {
	const struct st_col *v;
	size_t n;
};

#define ST_COLS(array) ((struct st_cols){ .v = (array), .n = sizeof(array) / sizeof((array)[0]) })

/*
 * A document's section as a column table {columns, rows, json, header}: a
 * list of rows of one kind (a run's steps) or one row (its network). One
 * writer per format reads it (report_doc.c), so that a section cannot be in
 * JSON and missing from CSV.
 */
struct st_doc_table {
	const char *name; /* the JSON key; CSV: the "section" field of its rows */
	struct st_cols cols;
	size_t (*rows)(const void *doc);               /* how many rows @doc has (not for .one) */
	const void *(*row)(const void *doc, size_t i); /* row @i (.one: the row, or NULL) */
	int one;        /* one row: JSON an object, not an array */
	int none_null;  /* one row and none: JSON null (else the key is left out) */
	/* NULL: the rows (st_doc_rows_json); else the JSON around them (NULL: no key). */
	json_t *(*json)(const struct st_doc_table *t, const void *doc);
	/* The table: its heading with the blank line before it (NULL: the columns' headings). */
	void (*header)(FILE *out, const void *doc);
	/* The table: text after a row's cells, before its line feed (NULL: none). */
	void (*note)(FILE *out, const void *row);
};

/* @t's rows as JSON: an array, or the one row's object (null or NULL without it). */
json_t *st_doc_rows_json(const struct st_doc_table *t, const void *doc);
/* Sets @t's key in @obj to its JSON, unless that is NULL. */
void st_doc_json_into(json_t *obj, const struct st_doc_table *t, const void *doc);
/*
 * CSV: a blank line, "section," and the header, then "NAME," and each row.
 * Nothing when @doc has no row. A reader splits the sections at blank lines.
 */
void st_doc_csv(FILE *out, const struct st_doc_table *t, const void *doc);
/* The aligned table: the heading, then each row with its note. Nothing without rows. */
void st_doc_table(FILE *out, const struct st_doc_table *t, const void *doc);

/*
 * How a document goes out in each format: the one format switch
 * (st_doc_write) calls these, so that no document repeats it. A format
 * without a writer (NULL) gets the table, as --format's default.
 */
struct st_doc_format {
	json_t *(*json)(const void *doc); /* the document, or NULL on ENOMEM */
	int (*csv)(const void *doc, FILE *out, struct st_error *err);
	int (*prom)(const void *doc, FILE *out, struct st_error *err);
	/* The table, and markdown (@style: st_text_style's, ST_TEXT_MD for markdown). */
	int (*text)(const void *doc, FILE *out, unsigned int style, struct st_error *err);
};

/*
 * Writes @doc in @o's format through @f; a stream error after a text, CSV
 * or Prometheus writer is "report: writing @what".
 */
int st_doc_write(const struct st_doc_format *f, const struct st_output *o, const void *doc,
		 FILE *out, const char *what, struct st_error *err);

/* Fills @cell for @col at @row; frees nothing (see st_cell_release). */
void st_cell_get(const struct st_col *col, const void *row, const void *doc,
		 enum st_format format, struct st_cell *cell);
void st_cell_release(struct st_cell *cell);
/* Whether document @doc has column @col in format @in (ST_COL_*). */
int st_col_shown(const struct st_col *col, const void *doc, unsigned int in);

/* Table (report_table.c): headings and one row, no line feed (a bar may follow). */
void st_table_header(FILE *out, struct st_cols cols, const void *doc);
void st_table_row(FILE *out, struct st_cols cols, const void *row, const void *doc);

/* CSV (report_csv.c): RFC 4180 quoting, units in the header only. */
void st_csv_field(FILE *out, const char *text);
void st_csv_header(FILE *out, struct st_cols cols, const void *doc);
void st_csv_row(FILE *out, struct st_cols cols, const void *row, const void *doc);

/* Markdown (report_markdown.c): the table's columns as a pipe table, to paste into a PR. */
void st_md_header(FILE *out, struct st_cols cols, const void *doc);
/* One row, without its line feed (like st_table_row). */
void st_md_row(FILE *out, struct st_cols cols, const void *row, const void *doc);

/*
 * How a text report looks: every command's table writer takes these, so
 * that --format=markdown and --color are one decision each (st_text_style).
 */
#define ST_TEXT_MD 0x1u    /* pipe tables; other text in fenced blocks */
#define ST_TEXT_BARS 0x2u  /* the bar column: a terminal, or --color=always */
#define ST_TEXT_COLOR 0x4u /* ANSI colour: --color, NO_COLOR and the terminal decide */

/* The style of @o's report on @out (the format, --color, NO_COLOR, isatty). */
unsigned int st_text_style(const struct st_output *o, FILE *out);
/* Headings with their line feed (markdown: and the delimiter row). */
void st_text_header(FILE *out, unsigned int style, struct st_cols cols, const void *doc);
/* One row, without its line feed (a bar may follow). */
void st_text_row(FILE *out, unsigned int style, struct st_cols cols, const void *row,
		 const void *doc);
/* In markdown, opens (@open) or closes a ```text block around aligned text; else nothing. */
void st_text_fence(FILE *out, unsigned int style, int open);
/* An SGR colour ("36") when the style has colour, "" else; st_text_reset ends it. */
const char *st_text_sgr(unsigned int style, const char *sgr, char *buf, size_t len);
const char *st_text_reset(unsigned int style);

/* JSON (report_json.c): @row's columns as an object, in the table's order. */
json_t *st_json_row(struct st_cols cols, const void *row, const void *doc);
/* Writes @doc as every document goes out (indented, keys in order, 9 digits); NULL: ENOMEM. */
int st_json_write(json_t *doc, FILE *out, struct st_error *err);
/* {"name": "sandboxtime", "version": ...} */
json_t *st_report_tool_json(void);
/* A stats object {min, median, p95, mean, stddev, n, samples}, or null when empty. */
json_t *st_report_stats_json(const struct st_samples *s);
json_t *st_report_host_json(const struct st_host *h);
/* The names of the layers in @mask (ST_LAYER_BIT()s), in the fixed order. */
json_t *st_report_layer_names_json(unsigned int mask);

/* Prometheus text (report_prom.c): "# HELP" and "# TYPE NAME gauge". */
void st_prom_family(FILE *out, const char *name, const char *help);
/*
 * The metrics of @cols: one family for each run of columns with the same
 * .prom name, then a sample per row and column whose cell is not empty,
 * labelled name="text" by column @label (NULL: no label).
 */
void st_prom_rows(FILE *out, struct st_cols cols, const struct st_col *label,
		  const void *const *rows, size_t nrows, const void *doc);

/*
 * Escapes @in as a Prometheus label value (text exposition format: backslash,
 * double quote and line feed become \\, \" and \n). Returns the length it
 * needs; the output is cut to @len - 1 characters like snprintf.
 */
size_t st_prom_escape_label(const char *in, char *out, size_t len);

/* A table's first line (tool, kernel, CPUs, rootless, pinning), and a second without clone3. */
void st_report_host_line(FILE *out, const struct st_host *h);
/* "STEAL: ..." when the run had more than ST_STEAL_FLAG_SHARE steal; nothing otherwise. */
void st_report_steal_line(FILE *out, const struct st_steal *s);

/* Progress on standard error, for st_measure_config.progress (tty only). */
void st_report_progress(void *ctx, const char *phase, unsigned int done, unsigned int total);
void st_report_progress_done(void);

#endif
