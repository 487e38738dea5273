/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_COMPARE_H
#define SANDBOXTIME_COMPARE_H

/*
 * `sandboxtime compare A B [C ...]`: every figure of A that a later file has
 * too, B over A, with a bootstrap interval of the ratio from the stored raw
 * samples (no re-run), each figure resampled from a stream keyed by its name.
 * Increments, whose samples are each round's paired difference and may be 0
 * or below, are judged on B - A instead, resampled by rounds. Pure: the
 * documents are read by compare_doc.c and the result is written by
 * report_compare.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/compare_doc.h"
#include "sandboxtime/stats.h"

enum st_cmp_verdict {
	ST_CMP_NO_RATIO,    /* A's median is not positive: a ratio says nothing */
	ST_CMP_NO_INTERVAL, /* a side has no raw samples (or one): ratio only */
	ST_CMP_NOISE,       /* the interval contains 1 (increments: 0) */
	ST_CMP_SLOWER,      /* the interval lies on the slower side of 1 (increments: above 0) */
	ST_CMP_FASTER,
};

extern const char *const st_cmp_verdict_names[];

struct st_cmp_row {
	const struct st_cmp_doc *b; /* the later file (A is docs[0]) */
	const struct st_cmp_figure *fa, *fb;
	struct st_ratio r;  /* increments: the medians' ratio only, never an interval */
	struct st_shift s;  /* increments (fa->paired): B - A, with the interval judged */
	enum st_cmp_verdict verdict;
	int over_limit; /* significantly slower by more than --fail-if-slower */
	/* Why it has no ratio or no interval ("A's samples reach 0 ..."), else why it never gates, else "". */
	char why[128];
};

#define ST_CMP_MAX_FACTS 8

struct st_compare {
	/* in */
	struct st_cmp_doc *docs; /* docs[0] is A */
	size_t ndocs;
	size_t resamples;
	struct st_seed seed; /* --seed, else st_compare_files_seed() */
	double fail_pct; /* --fail-if-slower, < 0: not given */
	/* out */
	struct st_cmp_row *rows;
	size_t nrows;
	size_t *unmatched; /* per doc: figures of A it lacks (unmatched[0] is 0) */
	const char *facts[ST_CMP_MAX_FACTS]; /* host facts in which some file differs from A */
	size_t nfacts;
	size_t over_limit; /* rows over --fail-if-slower */
};

/* The host facts compared, in the order they are printed. */
extern const char *const st_cmp_fact_keys[];
extern const size_t st_cmp_nfact_keys;

/*
 * The default seed: from the bytes of every file in order, so that the same
 * files give the same intervals (and byte-identical output) every time.
 */
uint64_t st_compare_files_seed(const struct st_cmp_doc *docs, size_t ndocs);

/*
 * Compares docs[1..] with docs[0]. The documents must be of one kind
 * (-EINVAL otherwise, naming the odd file). Free with st_compare_free().
 */
int st_compare_run(struct st_compare *c, struct st_error *err);
void st_compare_free(struct st_compare *c);

#endif
