// SPDX-License-Identifier: MIT
/*
 * The writers of a document's sections (struct st_doc_table): JSON, CSV and
 * the aligned table all walk the same rows through the same columns. And
 * st_doc_write, the one format switch every document goes out through.
 */
#include <errno.h>
#include <string.h>

#include "sandboxtime/report.h"

/* A one-row section has its row or not; a list says how many. */
static size_t count(const struct st_doc_table *t, const void *doc)
{
	return t->one ? t->row(doc, 0) != NULL : t->rows(doc);
}

json_t *st_doc_rows_json(const struct st_doc_table *t, const void *doc)
{
	size_t n = count(t, doc);
	json_t *a;

	if (t->one)
		return n ? st_json_row(t->cols, t->row(doc, 0), doc) : t->none_null ? json_null() : NULL;
	a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, st_json_row(t->cols, t->row(doc, i), doc));
	return a;
}

void st_doc_json_into(json_t *obj, const struct st_doc_table *t, const void *doc)
{
	json_t *v = t->json ? t->json(t, doc) : st_doc_rows_json(t, doc);

	if (v)
		json_object_set_new(obj, t->name, v);
}

void st_doc_csv(FILE *out, const struct st_doc_table *t, const void *doc)
{
	size_t n = count(t, doc);

	if (!n)
		return;
	fputs("\nsection,", out);
	st_csv_header(out, t->cols, doc);
	for (size_t i = 0; i < n; i++) {
		st_csv_field(out, t->name);
		fputc(',', out);
		st_csv_row(out, t->cols, t->row(doc, i), doc);
	}
}

void st_doc_table(FILE *out, const struct st_doc_table *t, const void *doc)
{
	size_t n = count(t, doc);

	if (!n)
		return;
	if (t->header) {
		t->header(out, doc);
	} else {
		fputc('\n', out);
		st_table_header(out, t->cols, doc);
		fputc('\n', out);
	}
	for (size_t i = 0; i < n; i++) {
		const void *row = t->row(doc, i);

		st_table_row(out, t->cols, row, doc);
		if (t->note)
			t->note(out, row);
		fputc('\n', out);
	}
}

/* CSV and Prometheus by their writers where the document has them, else the table. */
static int write_text(const struct st_doc_format *f, const struct st_output *o, const void *doc,
		      FILE *out, struct st_error *err)
{
	if (o->format == ST_FORMAT_CSV && f->csv)
		return f->csv(doc, out, err);
	if (o->format == ST_FORMAT_PROMETHEUS && f->prom)
		return f->prom(doc, out, err);
	return f->text(doc, out, st_text_style(o, out), err);
}

int st_doc_write(const struct st_doc_format *f, const struct st_output *o, const void *doc,
		 FILE *out, const char *what, struct st_error *err)
{
	int ret;

	if (o->format == ST_FORMAT_JSON) {
		json_auto_t *json = f->json(doc);

		return st_json_write(json, out, err);
	}
	ret = write_text(f, o, doc, out, err);
	if (ret == 0 && ferror(out))
		return st_error_set(err, errno ? errno : EIO, "report: writing %s", what);
	return ret;
}
