// SPDX-License-Identifier: MIT
/*
 * The output sink: -o FILE, --svg=FILE and --html=FILE opened before any
 * measuring, every report written, emptied, flushed and checked one way,
 * and files that never got their report removed again.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sandboxtime/report.h"
#include "sandboxtime/report_html.h"
#include "sandboxtime/report_svg.h"
#include "sandboxtime/sink.h"

/*
 * Opens @path for writing now, so that a path that cannot be written costs
 * no measuring; it is emptied only when the report is written, and removed
 * if we created it and the run fails, so a failed run leaves nothing behind.
 */
static int open_report_file(const char *path, const char *opt, FILE **fp, int *created,
			    struct st_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return st_error_set(err, errno, "%s: cannot write '%s'", opt, path);
	*fp = fdopen(fd, "w");
	if (!*fp) {
		int e = errno;

		close(fd);
		if (*created)
			unlink(path);
		*created = 0;
		return st_error_set(err, e, "%s: '%s'", opt, path);
	}
	return 0;
}

int st_sink_open(struct st_sink *k, const struct st_output *output, FILE *stream,
		 struct st_error *err)
{
	int ret = 0;

	memset(k, 0, sizeof(*k));
	k->output = output;
	k->out = stream;
	k->name = stream == stdout ? "stdout" : "stderr";
	if (output->path && !output->quiet) {
		ret = open_report_file(output->path, "--output", &k->out, &k->created_output, err);
		if (ret < 0)
			k->out = stream;
		else
			k->name = output->path;
	}
	if (ret == 0 && output->svg)
		ret = open_report_file(output->svg, "--svg", &k->svg, &k->created_svg, err);
	if (ret == 0 && output->html)
		ret = open_report_file(output->html, "--html", &k->html, &k->created_html, err);
	return ret;
}

int st_sink_writes(const struct st_sink *k)
{
	return !k->output->quiet || k->svg || k->html;
}

static int is_regular(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* Empties a regular file before it is written: -o /dev/stdout may be a pipe or a tty. */
static int empty_file(FILE *f, const char *opt, const char *path, struct st_error *err)
{
	if (f != stderr && f != stdout && is_regular(fileno(f)) && ftruncate(fileno(f), 0) < 0)
		return st_error_set(err, errno, "%s: emptying '%s'", opt, path);
	return 0;
}

static int flushed(FILE *f, const char *opt, const char *path, struct st_error *err)
{
	if (fflush(f) == EOF)
		return st_error_set(err, errno, "%s: writing '%s'", opt, path);
	return 0;
}

/* The page's table by default: the document's own, plain (no bars, no colour). */
struct plain {
	const struct st_doc_format *format;
	const void *ctx;
};

static int plain_table(const void *ctx, FILE *out, struct st_error *err)
{
	const struct plain *p = ctx;

	return p->format->text(p->ctx, out, 0, err);
}

static int write_page(FILE *f, const struct st_sink_writers *w, json_t *doc, const void *ctx,
		      struct st_error *err)
{
	const struct plain p = { .format = w->format, .ctx = ctx };

	if (w->table)
		return st_html_write(f, w->title, doc, w->table, ctx, err);
	return st_html_write(f, w->title, doc, plain_table, &p, err);
}

/* --svg and --html: the document's charts, and on the page its tables too. */
static int emit_charts(struct st_sink *k, const struct st_sink_writers *w, const void *ctx,
		       struct st_error *err)
{
	const struct st_output *o = k->output;
	json_t *doc;
	int ret;

	if (!k->svg && !k->html)
		return 0;
	doc = w->format->json(ctx);
	if (!doc)
		return st_error_set(err, ENOMEM, "--svg, --html: the document");
	ret = k->svg ? empty_file(k->svg, "--svg", o->svg, err) : 0;
	if (ret == 0 && k->svg)
		ret = st_svg_write_doc(k->svg, doc, 1, err);
	if (ret == 0 && k->svg)
		ret = flushed(k->svg, "--svg", o->svg, err);
	if (ret == 0 && k->html)
		ret = empty_file(k->html, "--html", o->html, err);
	if (ret == 0 && k->html)
		ret = write_page(k->html, w, doc, ctx, err);
	if (ret == 0 && k->html)
		ret = flushed(k->html, "--html", o->html, err);
	json_decref(doc);
	if (ret == 0)
		k->charts_written = 1;
	return ret;
}

int st_sink_emit(struct st_sink *k, const struct st_sink_writers *w, const void *ctx,
		 struct st_error *err)
{
	int ret = 0;

	if (!k->output->quiet) {
		ret = empty_file(k->out, "--output", k->name, err);
		if (ret == 0)
			ret = st_doc_write(w->format, k->output, ctx, k->out, w->what, err);
		/* Written only once flushed: a full disk shows here, and the file then goes. */
		if (fflush(k->out) == EOF && ret == 0)
			ret = st_error_set(err, errno, "report: writing '%s'", k->name);
		if (ret == 0)
			k->report_written = 1;
	}
	if (ret == 0)
		ret = emit_charts(k, w, ctx, err);
	return ret;
}

static void close_file(FILE **f, int created, int written, const char *path)
{
	if (!*f)
		return;
	fclose(*f);
	if (created && !written)
		unlink(path);
	*f = NULL;
}

void st_sink_close(struct st_sink *k)
{
	const struct st_output *o = k->output;

	close_file(&k->svg, k->created_svg, k->charts_written, o ? o->svg : NULL);
	close_file(&k->html, k->created_html, k->charts_written, o ? o->html : NULL);
	/* The standard streams are main's. */
	if (k->out && k->out != stderr && k->out != stdout)
		close_file(&k->out, k->created_output, k->report_written, o->path);
	k->out = NULL;
}
