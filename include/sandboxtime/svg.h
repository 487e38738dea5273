/* SPDX-License-Identifier: MIT */
#ifndef SANDBOXTIME_SVG_H
#define SANDBOXTIME_SVG_H

#include <stddef.h>
#include <stdio.h>

/*
 * SVG without a library: the few elements a bar chart needs, every text
 * through st_xml_escape, every colour a presentation attribute (no CSS), so
 * that a browser, rsvg-based terminal viewers and a printer draw the same.
 */

/* Writes @text with &, <, >, " and ' as entities; control bytes but tab and LF dropped. */
void st_xml_escape(FILE *out, const char *text);

/* <svg> with its size and a <title>; @standalone adds the XML declaration. */
void st_svg_open(FILE *out, double width, double height, const char *title, int standalone);
void st_svg_close(FILE *out);

enum st_svg_anchor { ST_SVG_START, ST_SVG_MIDDLE, ST_SVG_END };

void st_svg_text(FILE *out, double x, double y, enum st_svg_anchor anchor, double size,
		 const char *fill, const char *text);
/* A rectangle; @tip (or NULL) becomes its <title>, which a browser shows on hover. */
void st_svg_rect(FILE *out, const char *cls, double x, double y, double w, double h,
		 const char *fill, const char *tip);
void st_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
		 double width);

/* ---- bar charts (report_svg.c draws documents with them) ---------------- */

#define ST_CHART_MAX_SERIES 8

struct st_chart_bar {
	int present; /* 0: no value in this row (nothing drawn) */
	double v;
	int whisker; /* lo..hi drawn as an interval */
	double lo, hi;
};

struct st_chart_row {
	char label[64];
	struct st_chart_bar bar[ST_CHART_MAX_SERIES];
};

/* A horizontal bar chart: one group of bars per row, one bar per series. */
struct st_chart {
	const char *title;
	const char *axis;     /* the axis title with its unit: "microseconds (µs)" */
	const char *note;     /* below the axis: what the whiskers are, or NULL */
	size_t nseries;
	const char *series[ST_CHART_MAX_SERIES]; /* legend names */
	const char *series_cls[ST_CHART_MAX_SERIES];
	double reference;     /* a vertical line at this value (ratio 1), if has_reference */
	int has_reference;
	size_t nrows;
	struct st_chart_row *rows;
};

/* The size that st_chart_draw will take for @c (the labels' column fits the longest). */
double st_chart_width(const struct st_chart *c);
double st_chart_height(const struct st_chart *c);
/* Draws @c with its top at @y (inside an open <svg>). */
void st_chart_draw(FILE *out, const struct st_chart *c, double y);

/* ---- line plots (a time series: bench churn's backlog) -------------------- */

struct st_plot_line {
	const char *name; /* legend */
	size_t n;
	const double *x, *y;
};

/* Lines over a shared x axis (the legend and colours as the bar chart's). */
struct st_plot {
	const char *title;
	const char *x_axis; /* with their units: "seconds since the first clone3() (s)" */
	const char *y_axis;
	const char *note;
	size_t nlines;
	struct st_plot_line line[ST_CHART_MAX_SERIES];
};

double st_plot_width(const struct st_plot *p);
double st_plot_height(const struct st_plot *p);
/* Draws @p with its top at @y (inside an open <svg>). */
void st_plot_draw(FILE *out, const struct st_plot *p, double y);

#endif
