// SPDX-License-Identifier: MIT
/*
 * The SVG writer without a run: XML escaping (every text goes through it),
 * a chart's bars and whiskers from fixed values, a layers document drawn
 * into one bar per measured layer, a line plot's points inside its axes,
 * and the text style's colour decision
 * (--color, NO_COLOR, a file is no terminal).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sandboxtime/report.h"
#include "sandboxtime/report_svg.h"
#include "sandboxtime/svg.h"

/*
 * What @fn wrote into a memory stream, NUL-terminated; the caller frees it.
 * Not inlined: inlined, gcc 12 takes the returned buffer for a pointer to
 * the local that open_memstream filled in (a false -Wdangling-pointer).
 */
static __attribute__((noinline)) char *captured(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void escape(FILE *f, const void *arg)
{
	st_xml_escape(f, arg);
}

static void test_xml_escape(void **state)
{
	char *s = captured(escape, "a<b>&\"c'\x01\td\n");

	assert_string_equal(s, "a&lt;b&gt;&amp;&quot;c&#39;\td\n");
	free(s);
	s = captured(escape, "µs");
	assert_string_equal(s, "µs"); /* UTF-8 passes as it is */
	free(s);
}

static void draw(FILE *f, const void *arg)
{
	st_chart_draw(f, arg, 0);
}

static void test_chart_bars(void **state)
{
	struct st_chart_row rows[3] = { { .label = "base" }, { .label = "<net>" }, { .label = "ipc" } };
	struct st_chart c = { .title = "t & t", .axis = "microseconds (µs)", .nseries = 2,
			      .series = { "setup", "teardown" },
			      .series_cls = { "bar-setup", "bar-teardown" }, .nrows = 3, .rows = rows };
	char *s;

	for (int r = 0; r < 3; r++)
		for (int k = 0; k < 2; k++)
			rows[r].bar[k] = (struct st_chart_bar){ .present = r != 2 || k == 0, .v = 10.0 * (r + 1),
								.whisker = 1, .lo = 5.0 * (r + 1), .hi = 15.0 * (r + 1) };
	s = captured(draw, &c);
	assert_int_equal(count(s, "class=\"bar-setup\""), 3);
	assert_int_equal(count(s, "class=\"bar-teardown\""), 2); /* ipc has none */
	assert_non_null(strstr(s, "&lt;net&gt;"));
	assert_non_null(strstr(s, "t &amp; t"));
	assert_non_null(strstr(s, ">microseconds (µs)</text>"));
	assert_null(strstr(s, "nan"));
	assert_null(strstr(s, "width=\"-"));
	free(s);
}

static void plot(FILE *f, const void *arg)
{
	st_plot_draw(f, arg, 0);
}

/* Every "x,y" of a polyline's points inside [x0, x1] x [y0, y1]; returns how many. */
static size_t points_inside(const char *s, double x0, double x1, double y0, double y1)
{
	const char *p = strstr(s, "points=\"");
	size_t n = 0;
	double x, y;
	int used;

	assert_non_null(p);
	for (p += strlen("points=\""); sscanf(p, "%lf,%lf%n", &x, &y, &used) == 2; p += used) {
		assert_true(x >= x0 && x <= x1);
		assert_true(y >= y0 && y <= y1);
		n++;
	}
	return n;
}

static void test_plot_lines(void **state)
{
	const double t[] = { 0, 0.02, 0.04, 0.06 }, a[] = { 0, 30, 12, 0 }, b[] = { 0, 80, 95, 0 };
	struct st_plot p = { .title = "backlog", .x_axis = "seconds (s)", .y_axis = "sandboxes",
			     .nlines = 2, .line = { { "1 creator", 4, t, a }, { "2 creators", 4, t, b } } };
	double w = st_plot_width(&p), h = st_plot_height(&p);
	char *s = captured(plot, &p);
	const char *second;

	assert_int_equal(count(s, "class=\"plot-line\""), 2);
	assert_int_equal(points_inside(s, 0, w, 0, h), 4);
	second = strstr(strstr(s, "class=\"plot-line\"") + 1, "class=\"plot-line\"");
	assert_non_null(second);
	assert_int_equal(points_inside(second, 0, w, 0, h), 4);
	assert_non_null(strstr(s, ">seconds (s)</text>"));
	assert_non_null(strstr(s, ">sandboxes</text>"));
	assert_null(strstr(s, "nothing measured"));
	assert_null(strstr(s, "nan"));
	free(s);
	/* No point at all: the plot says so instead of drawing an empty frame. */
	p.line[0].n = p.line[1].n = 0;
	s = captured(plot, &p);
	assert_non_null(strstr(s, "nothing measured"));
	free(s);
}

static void layers_doc(FILE *f, const void *arg)
{
	struct st_error err = { 0 };
	json_error_t jerr;
	json_t *doc = json_loads(arg, 0, &jerr);

	assert_non_null(doc);
	assert_int_equal(st_svg_write_doc(f, doc, 1, &err), 0);
	json_decref(doc);
}

static void test_layers_document(void **state)
{
	static const char doc[] =
		"{\"schema\": \"sandboxtime/v1\", \"tool\": {\"version\": \"1\"},"
		" \"host\": {\"kernel\": \"6.1\", \"cpus\": 2, \"rootless\": false, \"cgroup\": \"v2\"},"
		" \"layers\": ["
		"  {\"layer\": \"base\", \"available\": true, \"increments\": {"
		"    \"setup_us\": {\"median\": 50, \"ci_low\": 45, \"ci_high\": 55},"
		"    \"teardown_us\": {\"median\": 20, \"ci_low\": 18, \"ci_high\": 22}}},"
		"  {\"layer\": \"net\", \"available\": true, \"increments\": {"
		"    \"setup_us\": {\"median\": -1, \"ci_low\": -3, \"ci_high\": 2},"
		"    \"teardown_us\": null},"
		"   \"deferred_by_type\": {\"net\": {\"median\": 12000, \"min\": 9000, \"p95\": 20000}}},"
		"  {\"layer\": \"time\", \"available\": false, \"reason\": \"no\"}]}";
	char *s = captured(layers_doc, doc);

	assert_int_equal(strncmp(s, "<?xml", 5), 0);
	assert_int_equal(count(s, "class=\"bar-setup\""), 2);
	assert_int_equal(count(s, "class=\"bar-teardown\""), 1); /* net's is null */
	assert_int_equal(count(s, "class=\"bar-deferred\""), 1);
	/* 12000 us is 12 ms: the deferred axis is in milliseconds. */
	assert_non_null(strstr(s, "net, freed: 12.0"));
	assert_non_null(strstr(s, "milliseconds (ms)"));
	assert_int_equal(count(s, "<svg"), 1);
	assert_int_equal(count(s, "</svg>"), 1);
	free(s);
}

static void test_unknown_schema(void **state)
{
	struct st_error err = { 0 };
	json_t *doc = json_pack("{s:s}", "schema", "sandboxtime/orphans/v1");
	FILE *f = fopen("/dev/null", "w");

	assert_true(st_svg_write_doc(f, doc, 1, &err) < 0);
	assert_non_null(strstr(err.msg, "orphans"));
	fclose(f);
	json_decref(doc);
}

static void test_text_style(void **state)
{
	struct st_output o = { .format = ST_FORMAT_TABLE, .color = ST_COLOR_AUTO };
	FILE *f = fopen("/dev/null", "w");

	unsetenv("NO_COLOR");
	/* A file is no terminal: no colour and no bars unless asked. */
	assert_int_equal(st_text_style(&o, f), 0);
	o.color = ST_COLOR_ALWAYS;
	assert_int_equal(st_text_style(&o, f), ST_TEXT_COLOR | ST_TEXT_BARS);
	setenv("NO_COLOR", "1", 1);
	assert_int_equal(st_text_style(&o, f), ST_TEXT_COLOR | ST_TEXT_BARS); /* always wins */
	o.color = ST_COLOR_NEVER;
	assert_int_equal(st_text_style(&o, f) & ST_TEXT_COLOR, 0);
	o.format = ST_FORMAT_MARKDOWN;
	o.color = ST_COLOR_ALWAYS;
	assert_int_equal(st_text_style(&o, f), ST_TEXT_MD); /* no escapes in a pull request */
	unsetenv("NO_COLOR");
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_escape),
		cmocka_unit_test(test_chart_bars),
		cmocka_unit_test(test_plot_lines),
		cmocka_unit_test(test_layers_document),
		cmocka_unit_test(test_unknown_schema),
		cmocka_unit_test(test_text_style),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
