// SPDX-License-Identifier: MIT
/*
 * `sandboxtime compare A.json B.json [C.json ...]`: reads the reports
 * (compare_doc.c), compares every later one with A (compare.c) and writes
 * the comparison (report_compare.c) to standard output or -o FILE. It
 * measures nothing, so it needs no privilege and no namespace.
 */
#include <string.h>

#include "sandboxtime/cmd.h"
#include "sandboxtime/compare.h"
#include "sandboxtime/report.h"
#include "sandboxtime/report_compare.h"
#include "sandboxtime/sink.h"

/* The documents, freed together whatever happened. */
struct docs {
	struct st_cmp_doc v[ST_CMP_MAX_FILES];
	size_t n;
};

static void docs_free(struct docs *d)
{
	for (size_t i = 0; i < d->n; i++)
		st_cmp_doc_free(&d->v[i]);
}

static int load_all(const struct st_compare_opts *o, struct docs *d, struct st_error *err)
{
	for (size_t i = 0; i < o->nfiles; i++) {
		int ret = st_cmp_doc_load(&d->v[i], o->files[i], err);

		d->n = i + 1; /* a half-read document is freed too */
		if (ret < 0)
			return ret;
	}
	return 0;
}

int st_cmd_compare(const struct st_compare_opts *o, const struct st_output *out, int *exit_code,
		   struct st_error *err)
{
	struct docs docs __attribute__((cleanup(docs_free))) = { .n = 0 };
	struct st_compare c __attribute__((cleanup(st_compare_free))) = {
		.resamples = o->resamples,
		.seed = o->seed,
		.fail_pct = o->fail_pct,
	};
	struct st_sink s __attribute__((cleanup(st_sink_close)));
	const struct st_sink_writers w = { .format = &st_compare_format, .title = "sandboxtime compare",
					   .what = "compare" };
	int ret;

	*exit_code = ST_EXIT_FAILURE;
	/* Read every file before -o is created: a bad input leaves nothing behind. */
	ret = load_all(o, &docs, err);
	c.docs = docs.v;
	c.ndocs = docs.n;
	if (ret == 0 && !c.seed.given)
		c.seed.value = st_compare_files_seed(c.docs, c.ndocs);
	if (ret == 0)
		ret = st_compare_run(&c, err);
	/* A comparison is the command's answer: standard output, unless -o. */
	if (ret == 0)
		ret = st_sink_open(&s, out, stdout, err);
	else
		memset(&s, 0, sizeof(s));
	if (ret < 0)
		return ret;
	ret = st_sink_emit(&s, &w, &c, err);
	if (ret < 0)
		return ret;
	*exit_code = c.over_limit ? ST_EXIT_SLOWER : ST_EXIT_OK;
	return 0;
}
