// SPDX-License-Identifier: MIT
/*
 * SVG primitives and the one chart every document is drawn with: horizontal
 * bars, one group per row, whiskers for intervals, a labelled axis with
 * round ticks. Numbers are written with %.2f: a tenth of a pixel is
 * invisible, and shorter files parse faster.
 */
#include <math.h>
#include <string.h>

#include "sandboxtime/svg.h"

#define LABEL_MIN 120.0 /* row labels, right-aligned against the plot: at least */
#define LABEL_MAX 420.0 /* and at most (longer labels run off the left edge) */
#define CHAR_W 6.8      /* about one character of the 12 px labels */
#define PLOT_W 520.0
#define RIGHT_W 70.0    /* room for the value printed after the longest bar */
#define BAR_H 13.0
#define ROW_GAP 9.0
#define TITLE_H 34.0
#define LEGEND_H 20.0
#define AXIS_H 46.0
#define NOTE_H 16.0
#define FONT "font-family=\"DejaVu Sans,Verdana,sans-serif\""

/* Colour-blind-safe (Okabe-Ito), dark enough to print in grey. */
static const char *const palette[ST_CHART_MAX_SERIES] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
};

void st_xml_escape(FILE *out, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* XML 1.0 forbids the other C0 controls, even as references. */
			if (*p >= 0x20 || *p == '\t' || *p == '\n')
				fputc(*p, out);
		}
	}
}

void st_svg_open(FILE *out, double width, double height, const char *title, int standalone)
{
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n<title>", width, height, width, height);
	st_xml_escape(out, title);
	fprintf(out, "</title>\n<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" "
		"height=\"%.0f\" fill=\"#ffffff\"/>\n", width, height);
}

void st_svg_close(FILE *out)
{
	fputs("</svg>\n", out);
}

void st_svg_text(FILE *out, double x, double y, enum st_svg_anchor anchor, double size,
		 const char *fill, const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };

	fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%.1f\" " FONT
		" fill=\"%s\">", x, y, anchors[anchor], size, fill);
	st_xml_escape(out, text);
	fputs("</text>\n", out);
}

void st_svg_rect(FILE *out, const char *cls, double x, double y, double w, double h,
		 const char *fill, const char *tip)
{
	fprintf(out, "<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"",
		cls, x, y, w, h, fill);
	if (!tip) {
		fputs("/>\n", out);
		return;
	}
	fputs("><title>", out);
	st_xml_escape(out, tip);
	fputs("</title></rect>\n", out);
}

void st_svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
		 double width)
{
	fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"%.1f\"/>\n", x1, y1, x2, y2, stroke, width);
}

/* ---- the bar chart -------------------------------------------------------- */

static double group_h(const struct st_chart *c)
{
	return (double)c->nseries * BAR_H + ROW_GAP;
}

double st_chart_height(const struct st_chart *c)
{
	return TITLE_H + LEGEND_H + (double)(c->nrows ? c->nrows : 1) * group_h(c) + AXIS_H +
	       (c->note ? NOTE_H : 0);
}

/* The labels' column: as wide as the longest label, so that none is cut. */
static double label_w(const struct st_chart *c)
{
	double w = LABEL_MIN;

	for (size_t r = 0; r < c->nrows; r++) {
		double need = CHAR_W * (double)strlen(c->rows[r].label) + 16;

		w = need > w ? need : w;
	}
	return w < LABEL_MAX ? w : LABEL_MAX;
}

double st_chart_width(const struct st_chart *c)
{
	return label_w(c) + PLOT_W + RIGHT_W;
}

/* The axis' range: 0 and every value and interval end, widened to round ticks. */
struct axis {
	double lo, hi, step;
	double x0; /* where the plot starts: after the labels */
};

static void extend(double v, double *lo, double *hi)
{
	if (isfinite(v)) {
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

/* [lo, hi] widened to about five ticks of 1, 2 or 5 times a power of ten. */
static void round_range(double *lo, double *hi, double *step)
{
	double raw, mag;

	if (*hi - *lo <= 0)
		*hi = *lo + 1;
	raw = (*hi - *lo) / 5;
	mag = pow(10, floor(log10(raw)));
	*step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
	*lo = floor(*lo / *step) * *step;
	*hi = ceil(*hi / *step) * *step;
}

static struct axis chart_axis(const struct st_chart *c)
{
	struct axis a = { 0, 0, 1, label_w(c) };

	if (c->has_reference)
		extend(c->reference, &a.lo, &a.hi);
	for (size_t r = 0; r < c->nrows; r++)
		for (size_t s = 0; s < c->nseries; s++) {
			const struct st_chart_bar *b = &c->rows[r].bar[s];

			if (!b->present)
				continue;
			extend(b->v, &a.lo, &a.hi);
			if (b->whisker) {
				extend(b->lo, &a.lo, &a.hi);
				extend(b->hi, &a.lo, &a.hi);
			}
		}
	round_range(&a.lo, &a.hi, &a.step);
	return a;
}

static double ax(const struct axis *a, double v)
{
	return a->x0 + (v - a->lo) / (a->hi - a->lo) * PLOT_W;
}

static void fmt_value(char *buf, size_t len, double v)
{
	double m = fabs(v);

	snprintf(buf, len, m >= 100 || m == 0 ? "%.0f" : m >= 10 ? "%.1f" : m >= 1 ? "%.2f" : "%.3g", v);
}

/* A tick: as many decimals as the step needs, the same for every tick. */
static void fmt_tick(char *buf, size_t len, double t, double step)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	snprintf(buf, len, "%.*f", decimals, t);
}

/* The x axis' line, its round ticks with labels, and the grid lines up to @top. */
static void draw_x_ticks(FILE *out, const struct axis *a, double top, double bottom)
{
	char buf[32];

	st_svg_line(out, ax(a, a->lo), bottom, ax(a, a->hi), bottom, "#333333", 1);
	for (double t = a->lo; t <= a->hi + a->step / 2; t += a->step) {
		double v = fabs(t) < a->step / 1e6 ? 0 : t, x = ax(a, v);

		st_svg_line(out, x, top, x, bottom, "#e0e0e0", 0.8);
		st_svg_line(out, x, bottom, x, bottom + 4, "#333333", 1);
		fmt_tick(buf, sizeof(buf), v, a->step);
		st_svg_text(out, x, bottom + 16, ST_SVG_MIDDLE, 11, "#333333", buf);
	}
}

/* The axis' title under the ticks, and the note under it. */
static void draw_axis_title(FILE *out, const struct axis *a, double bottom, const char *title,
			    const char *note)
{
	st_svg_text(out, (ax(a, a->lo) + ax(a, a->hi)) / 2, bottom + 34, ST_SVG_MIDDLE, 12,
		    "#000000", title);
	if (note)
		st_svg_text(out, a->x0, bottom + 34 + NOTE_H, ST_SVG_START, 10.5, "#555555", note);
}

static void draw_axis(FILE *out, const struct st_chart *c, const struct axis *a, double top,
		      double bottom)
{
	draw_x_ticks(out, a, top, bottom);
	draw_axis_title(out, a, bottom, c->axis, c->note);
}

static void draw_legend(FILE *out, const char *const *names, size_t n, double x, double y)
{
	for (size_t s = 0; s < n; s++) {
		st_svg_rect(out, "legend", x, y - 10, 12, 12, palette[s], NULL);
		st_svg_text(out, x + 16, y, ST_SVG_START, 11.5, "#000000", names[s]);
		x += 28 + 7.0 * (double)strlen(names[s]);
	}
}

static void draw_bar(FILE *out, const struct st_chart *c, const struct axis *a, size_t r,
		     size_t s, double y)
{
	const struct st_chart_bar *b = &c->rows[r].bar[s];
	double x0 = ax(a, 0), x1 = ax(a, b->v), mid = y + BAR_H / 2;
	char tip[160], val[32];

	fmt_value(val, sizeof(val), b->v);
	if (b->whisker)
		snprintf(tip, sizeof(tip), "%s, %s: %s (interval %.4g to %.4g)", c->rows[r].label,
			 c->series[s], val, b->lo, b->hi);
	else
		snprintf(tip, sizeof(tip), "%s, %s: %s", c->rows[r].label, c->series[s], val);
	st_svg_rect(out, c->series_cls[s], x1 < x0 ? x1 : x0, y + 1, fabs(x1 - x0), BAR_H - 2,
		    palette[s], tip);
	if (b->whisker && isfinite(b->lo) && isfinite(b->hi)) {
		st_svg_line(out, ax(a, b->lo), mid, ax(a, b->hi), mid, "#000000", 1.2);
		st_svg_line(out, ax(a, b->lo), mid - 4, ax(a, b->lo), mid + 4, "#000000", 1.2);
		st_svg_line(out, ax(a, b->hi), mid - 4, ax(a, b->hi), mid + 4, "#000000", 1.2);
	}
	st_svg_text(out, ax(a, a->hi) + 4, mid + 4, ST_SVG_START, 10.5, "#333333", val);
}

void st_chart_draw(FILE *out, const struct st_chart *c, double y)
{
	struct axis a = chart_axis(c);
	double top = y + TITLE_H + LEGEND_H, bottom = top + (double)(c->nrows ? c->nrows : 1) * group_h(c);

	fputs("<g class=\"chart\">\n", out);
	st_svg_text(out, a.x0 + PLOT_W / 2, y + 22, ST_SVG_MIDDLE, 15, "#000000", c->title);
	draw_legend(out, c->series, c->nseries, a.x0, y + TITLE_H + 6);
	draw_axis(out, c, &a, top, bottom);
	if (!c->nrows)
		st_svg_text(out, (ax(&a, a.lo) + ax(&a, a.hi)) / 2, top + group_h(c) / 2 + 4,
			    ST_SVG_MIDDLE, 12, "#555555", "nothing measured");
	for (size_t r = 0; r < c->nrows; r++) {
		double gy = top + (double)r * group_h(c) + ROW_GAP / 2;

		st_svg_text(out, a.x0 - 8, gy + (double)c->nseries * BAR_H / 2 + 4, ST_SVG_END, 12,
			    "#000000", c->rows[r].label);
		for (size_t s = 0; s < c->nseries; s++)
			if (c->rows[r].bar[s].present)
				draw_bar(out, c, &a, r, s, gy + (double)s * BAR_H);
	}
	if (c->has_reference)
		st_svg_line(out, ax(&a, c->reference), top, ax(&a, c->reference), bottom, "#000000", 1);
	st_svg_line(out, ax(&a, 0), top, ax(&a, 0), bottom, "#333333", 1);
	fputs("</g>\n", out);
}

/* ---- the line plot -------------------------------------------------------- */

#define PLOT_LEFT 70.0  /* the y axis' tick labels */
#define PLOT_H 220.0
#define YTITLE_H 16.0   /* the y axis' title, above the plot: no rotated text */

double st_plot_width(const struct st_plot *p)
{
	(void)p;
	return PLOT_LEFT + PLOT_W + RIGHT_W;
}

double st_plot_height(const struct st_plot *p)
{
	return TITLE_H + LEGEND_H + YTITLE_H + PLOT_H + AXIS_H + (p->note ? NOTE_H : 0);
}

/* The x axis as the bar chart's (starting after the y tick labels), and the y axis. */
struct plot_axes {
	struct axis x;
	double y_lo, y_hi, y_step;
	double top; /* the plot area's upper edge */
};

static struct plot_axes plot_axes(const struct st_plot *p, double top)
{
	struct plot_axes a = { .x = { .x0 = PLOT_LEFT }, .top = top };

	for (size_t l = 0; l < p->nlines; l++)
		for (size_t i = 0; i < p->line[l].n; i++) {
			extend(p->line[l].x[i], &a.x.lo, &a.x.hi);
			extend(p->line[l].y[i], &a.y_lo, &a.y_hi);
		}
	round_range(&a.x.lo, &a.x.hi, &a.x.step);
	round_range(&a.y_lo, &a.y_hi, &a.y_step);
	return a;
}

static double py(const struct plot_axes *a, double y)
{
	return a->top + PLOT_H - (y - a->y_lo) / (a->y_hi - a->y_lo) * PLOT_H;
}

static void draw_plot_axes(FILE *out, const struct st_plot *p, const struct plot_axes *a)
{
	double left = a->x.x0, bottom = a->top + PLOT_H;
	char buf[32];

	draw_x_ticks(out, &a->x, a->top, bottom);
	for (double t = a->y_lo; t <= a->y_hi + a->y_step / 2; t += a->y_step) {
		double v = fabs(t) < a->y_step / 1e6 ? 0 : t;

		st_svg_line(out, left, py(a, v), left + PLOT_W, py(a, v), "#e0e0e0", 0.8);
		st_svg_line(out, left - 4, py(a, v), left, py(a, v), "#333333", 1);
		fmt_tick(buf, sizeof(buf), v, a->y_step);
		st_svg_text(out, left - 7, py(a, v) + 4, ST_SVG_END, 11, "#333333", buf);
	}
	st_svg_line(out, left, a->top, left, bottom, "#333333", 1);
	st_svg_text(out, left, a->top - 6, ST_SVG_START, 12, "#000000", p->y_axis);
	draw_axis_title(out, &a->x, bottom, p->x_axis, p->note);
}

/* One line as a <polyline>, its name the <title> a browser shows on hover. */
static void draw_line(FILE *out, const struct plot_axes *a, const struct st_plot_line *l,
		      const char *stroke)
{
	fprintf(out, "<polyline class=\"plot-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
		"points=\"", stroke);
	for (size_t i = 0; i < l->n; i++)
		if (isfinite(l->x[i]) && isfinite(l->y[i]))
			fprintf(out, "%s%.2f,%.2f", i ? " " : "", ax(&a->x, l->x[i]), py(a, l->y[i]));
	fputs("\"><title>", out);
	st_xml_escape(out, l->name);
	fputs("</title></polyline>\n", out);
}

void st_plot_draw(FILE *out, const struct st_plot *p, double y)
{
	struct plot_axes a = plot_axes(p, y + TITLE_H + LEGEND_H + YTITLE_H);
	const char *names[ST_CHART_MAX_SERIES];
	size_t points = 0;

	for (size_t l = 0; l < p->nlines; l++) {
		names[l] = p->line[l].name;
		points += p->line[l].n;
	}
	fputs("<g class=\"plot\">\n", out);
	st_svg_text(out, a.x.x0 + PLOT_W / 2, y + 22, ST_SVG_MIDDLE, 15, "#000000", p->title);
	draw_legend(out, names, p->nlines, a.x.x0, y + TITLE_H + 6);
	draw_plot_axes(out, p, &a);
	if (!points)
		st_svg_text(out, a.x.x0 + PLOT_W / 2, a.top + PLOT_H / 2, ST_SVG_MIDDLE, 12, "#555555",
			    "nothing measured");
	for (size_t l = 0; l < p->nlines; l++)
		draw_line(out, &a, &p->line[l], palette[l]);
	fputs("</g>\n", out);
}
