/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_COMPARE_DOC_H
#define SANDBOXTIME_COMPARE_DOC_H

/*
 * A report that sandboxtime wrote, read back as a flat list of figures for
 * `sandboxtime compare`. A figure is every object that carries a median (a
 * stats object, an increment, a latency summary), named by its path in the
 * document, with array elements named by what they are about:
 * "layers[user].setup_us", "paths[veth].throughput_gbps",
 * "rows[getppid/sandbox].us". Documents of one schema thus name the same
 * figure the same way, whatever order their arrays are in.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "sandboxtime/error.h"
#include "sandboxtime/stats.h"

struct st_cmp_figure {
	char *name;       /* path in the document (owned) */
	double median;    /* as the document states it */
	struct st_samples samples; /* the raw samples, empty when it has none */
	int higher_better; /* throughput: a larger B is faster, not slower */
	const char *no_gate; /* why it never fails --fail-if-slower (not a cost), or NULL */
	int paired;       /* an increment: samples are within-round differences, compared by B - A */
};

struct st_cmp_doc {
	const char *path;  /* as given on the command line */
	const char *kind;  /* "layers", "netbench", "bench" */
	json_t *root;      /* owned: schema, tool and host are read from it */
	uint64_t digest;   /* of the file's bytes: compare's default seed */
	struct st_cmp_figure *fig;
	size_t nfig, cap;
};

/*
 * Reads @path: JSON with one of the measuring schemas (sandboxtime/v1,
 * sandboxtime/netbench/v1, sandboxtime/bench/v1). Anything else is -EINVAL
 * with @err naming the file and why. Free @d with st_cmp_doc_free() in
 * every case.
 */
int st_cmp_doc_load(struct st_cmp_doc *d, const char *path, struct st_error *err);
void st_cmp_doc_free(struct st_cmp_doc *d);

/* The figure named @name, or NULL; @hint is where to look first (same order). */
const struct st_cmp_figure *st_cmp_doc_find(const struct st_cmp_doc *d, const char *name,
					    size_t hint);

/* The document's host fact @key as text ("6.1.0", "2", "true"); "-" when absent. */
void st_cmp_doc_host_fact(const struct st_cmp_doc *d, const char *key, char *buf, size_t len);

#endif
