/*
 * svg.c - bar and line charts as inline SVG (see svg.h).
 */
#define _GNU_SOURCE
#include "report/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W 820
#define MAX_TICKS 16
#define MAX_GROUPS 64

/* Twelve colours told apart at a glance (a chart has at most twelve
 * contenders); none grey, the floor's. */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#17becf",
	"#bcbd22", "#1f3b73",
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

void xml_text(FILE *out, const char *s)
{
	for (; s != NULL && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* At most max bytes of s, ending in "..." when cut; escaped. */
static void xml_text_cut(FILE *out, const char *s, size_t max)
{
	char buf[256];
	size_t n = strlen(s);

	if (n <= max || max + 4 > sizeof(buf)) {
		xml_text(out, s);
		return;
	}
	/* cut on a UTF-8 character boundary */
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	memcpy(buf, s, max);
	memcpy(buf + max, "...", 4);
	xml_text(out, buf);
}

struct axis {
	double lo, hi;
	int log;
};

/* A 1, 2 or 5 times a power of ten near x. */
static double nice_step(double x)
{
	double p = pow(10, floor(log10(x)));
	double m = x / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void axis_fit(struct axis *a, double min, double max, int log,
		     int from_zero)
{
	a->log = log;
	if (log) {
		a->lo = pow(10, floor(log10(min)));
		a->hi = pow(10, ceil(log10(max)));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
		return;
	}
	if (from_zero && min > 0)
		min = 0;
	if (max <= min)
		max = min + 1;
	{
		double step = nice_step((max - min) / 5);
		a->lo = floor(min / step) * step;
		a->hi = ceil(max / step) * step;
	}
}

/* Where v falls on the axis, 0..1. */
static double axis_pos(const struct axis *a, double v)
{
	if (a->log)
		return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	return (v - a->lo) / (a->hi - a->lo);
}

static size_t axis_ticks(const struct axis *a, double *t)
{
	size_t n = 0;

	if (a->log) {
		double decades = round(log10(a->hi / a->lo));
		double every = ceil(decades / (MAX_TICKS - 1));
		for (double d = 0; d <= decades && n < MAX_TICKS; d += every)
			t[n++] = a->lo * pow(10, d);
		return n;
	}
	{
		double step = nice_step((a->hi - a->lo) / 5);
		for (double v = a->lo; v <= a->hi + step / 2 && n < MAX_TICKS;
		     v += step)
			t[n++] = v;
	}
	return n;
}

/* 1, 10, 1k, 2.5M, 181.7k: short labels (4 significant digits). */
static void tick_label(double v, char *buf, size_t size)
{
	static const char *const sfx[] = {"", "k", "M", "G", "T"};
	size_t i = 0;

	while (fabs(v) >= 1000 && i + 1 < sizeof(sfx) / sizeof(sfx[0])) {
		v /= 1000;
		i++;
	}
	snprintf(buf, size, "%.4g%s", v, sfx[i]);
}

const char *svg_color(struct svg_colors *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->names[i], name) == 0)
			return palette[i % NCOLORS];
	if (c->n < SVG_MAX_COLORS)
		snprintf(c->names[c->n++], sizeof(c->names[0]), "%s", name);
	return palette[(c->n - 1) % NCOLORS];
}

static int drawable(double v, int log)
{
	return !isnan(v) && !isinf(v) && (!log || v > 0);
}

static void svg_open(FILE *out, int h, const char *title, const char *kind)
{
	fprintf(out, "<figure class=\"chart\"><svg class=\"%s\" "
		"xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"", kind,
		CHART_W, h, CHART_W, h);
	xml_text(out, title);
	fputs("\"><text class=\"title\" x=\"8\" y=\"20\">", out);
	xml_text(out, title);
	fputs("</text>\n", out);
}

/* Vertical grid lines and labels of a horizontal value axis. */
static void x_grid(FILE *out, const struct axis *a, int x0, int w, int y0,
		   int y1)
{
	double t[MAX_TICKS];
	size_t n = axis_ticks(a, t);
	char lab[32];

	for (size_t i = 0; i < n; i++) {
		double x = x0 + axis_pos(a, t[i]) * w;
		tick_label(t[i], lab, sizeof(lab));
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" "
			"x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			x, y0, x, y1, x, y1 + 14, lab);
	}
}

static void y_grid(FILE *out, const struct axis *a, int y0, int h, int x0,
		   int x1)
{
	double t[MAX_TICKS];
	size_t n = axis_ticks(a, t);
	char lab[32];

	for (size_t i = 0; i < n; i++) {
		double y = y0 + h - axis_pos(a, t[i]) * h;
		tick_label(t[i], lab, sizeof(lab));
		fprintf(out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%d\" y2=\"%.1f\"/><text class=\"tick\" "
			"x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			x0, y, x1, y, x0 - 4, y + 4, lab);
	}
}

/* The stroke-dasharray attribute of a series' style ("" when solid). */
static const char *line_dashes(enum svg_line style)
{
	return style == SVG_REFERENCE ? " stroke-dasharray=\"6,4\""
	     : style == SVG_FLOOR ? " stroke-dasharray=\"2,3\"" : "";
}

/* A legend entry: a line in the series' style (line), else a square. */
static void legend_entry(FILE *out, int x, int y, const char *color,
			 const char *name, int line, enum svg_line style)
{
	if (line)
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"2\"%s/>", x, y - 4,
			x + 16, y - 4, color, line_dashes(style));
	else
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"10\" "
			"height=\"10\" fill=\"%s\"/>", x, y - 9, color);
	fprintf(out, "<text class=\"legend\" x=\"%d\" y=\"%d\">", x + 20, y);
	xml_text_cut(out, name, 34);
	fputs("</text>\n", out);
}

/* Is every bar's group its own label (a legend would repeat them)? */
static int groups_are_labels(const struct svg_bar *bars, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (bars[i].group == NULL || bars[i].label == NULL ||
		    strcmp(bars[i].group, bars[i].label) != 0)
			return 0;
	return 1;
}

int svg_bar_chart(FILE *out, struct svg_colors *pal, const char *title,
		  const char *unit, const struct svg_bar *bars, size_t n,
		  int log)
{
	const int label_w = 290, right = 150, bar_h = 14, step = 20, top = 40;
	const int plot_w = CHART_W - label_w - right;
	const char *groups[MAX_GROUPS];
	double min = INFINITY, max = -INFINITY;
	size_t ng = 0, shown = 0, g;
	int labelled;
	struct axis a;
	char val[32];
	int h, y;

	for (size_t i = 0; i < n; i++) {
		if (!drawable(bars[i].value, log))
			continue;
		min = fmin(min, bars[i].value);
		max = fmax(max, bars[i].value);
		shown++;
	}
	if (shown == 0)
		return -1;
	labelled = groups_are_labels(bars, n);
	axis_fit(&a, min, max, log, 1);
	h = top + (int)shown * step + 30;
	svg_open(out, h, title, "bars");
	x_grid(out, &a, label_w, plot_w, top - 6, h - 26);
	y = top;
	for (size_t i = 0; i < n; i++) {
		const struct svg_bar *b = &bars[i];
		const char *color;
		double w;
		if (!drawable(b->value, log))
			continue;
		color = svg_color(pal, b->group ? b->group : "");
		for (g = 0; g < ng && strcmp(groups[g], b->group ? b->group : ""); g++)
			;
		if (g == ng && ng < MAX_GROUPS)
			groups[ng++] = b->group ? b->group : "";
		w = fmax(1, axis_pos(&a, b->value) * plot_w);
		fprintf(out, "<text class=\"label\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"end\">", label_w - 6, y + bar_h - 3);
		xml_text_cut(out, b->label, 44);
		fprintf(out, "</text><rect class=\"bar\" x=\"%d\" y=\"%d\" "
			"width=\"%.1f\" height=\"%d\" fill=\"%s\" "
			"data-v=\"%.17g\"><title>", label_w, y, w, bar_h, color,
			b->value);
		xml_text(out, b->label);
		fprintf(out, ": %.6g ", b->value);
		xml_text(out, unit);
		tick_label(b->value, val, sizeof(val));
		fprintf(out, "</title></rect><text class=\"value\" x=\"%.1f\" "
			"y=\"%d\">%s</text>\n", label_w + w + 4,
			y + bar_h - 3, val);
		y += step;
	}
	fprintf(out, "<text class=\"axis\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"middle\">", label_w + plot_w / 2, h - 2);
	xml_text(out, unit);
	fputs(log ? " (log scale)</text>\n" : "</text>\n", out);
	for (g = 0; ng > 1 && !labelled && g < ng && g < 20; g++)
		legend_entry(out, CHART_W - right + 40, top + 6 + (int)g * 16,
			     svg_color(pal, groups[g]), groups[g], 0, SVG_LINE);
	fputs("</svg></figure>\n", out);
	return 0;
}

static const char *series_color(struct svg_colors *pal,
				const struct svg_series *s)
{
	if (s->style == SVG_REFERENCE)
		return "#333";
	if (s->style == SVG_FLOOR)
		return "#8a8a8a";
	return svg_color(pal, s->color_key ? s->color_key : s->name);
}

static int cmp_idx_x(const void *a, const void *b, void *ctx)
{
	const double *x = ctx;
	double u = x[*(const size_t *)a], v = x[*(const size_t *)b];

	return (u > v) - (u < v);
}

/* One series: a path through its points (sorted by x) and its dots. */
static void line_series(FILE *out, const struct svg_series *s,
			const char *color, const struct axis *ax,
			const struct axis *ay, int x0, int y0, int w, int h)
{
	size_t *idx = malloc((s->n + 1) * sizeof(*idx));
	size_t m = 0;

	if (idx == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (drawable(s->x[i], ax->log) && drawable(s->y[i], ay->log))
			idx[m++] = i;
	qsort_r(idx, m, sizeof(*idx), cmp_idx_x, (void *)s->x);
	fprintf(out, "<path class=\"series%s\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\"%s d=\"", s->style == SVG_FLOOR ? " floor" : "",
		color, line_dashes(s->style));
	for (size_t k = 0; k < m; k++)
		fprintf(out, "%s%.1f,%.1f", k ? " L" : "M",
			x0 + axis_pos(ax, s->x[idx[k]]) * w,
			y0 + h - axis_pos(ay, s->y[idx[k]]) * h);
	fputs("\"/>\n", out);
	for (size_t k = 0; k < m; k++) {
		fprintf(out, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"3\" fill=\"%s\" data-v=\"%.17g\"><title>",
			x0 + axis_pos(ax, s->x[idx[k]]) * w,
			y0 + h - axis_pos(ay, s->y[idx[k]]) * h, color,
			s->y[idx[k]]);
		xml_text(out, s->name);
		fprintf(out, ": %.6g at %.6g</title></circle>\n",
			s->y[idx[k]], s->x[idx[k]]);
	}
	free(idx);
}

/* The extent of all drawable points; 0 when there are none. */
static size_t line_extent(const struct svg_series *s, size_t n, int xlog,
			  int ylog, double *ext)
{
	size_t pts = 0;

	ext[0] = ext[2] = INFINITY;
	ext[1] = ext[3] = -INFINITY;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++) {
			if (!drawable(s[i].x[k], xlog) ||
			    !drawable(s[i].y[k], ylog))
				continue;
			ext[0] = fmin(ext[0], s[i].x[k]);
			ext[1] = fmax(ext[1], s[i].x[k]);
			ext[2] = fmin(ext[2], s[i].y[k]);
			ext[3] = fmax(ext[3], s[i].y[k]);
			pts++;
		}
	return pts;
}

int svg_line_chart(FILE *out, struct svg_colors *pal, const char *title,
		   const char *xlabel, const char *ylabel,
		   const struct svg_series *s, size_t n, int xlog, int ylog)
{
	const int x0 = 70, y0 = 40, w = CHART_W - x0 - 230, h = 330;
	const int H = (int)fmax(y0 + h + 50, y0 + 20 + (double)n * 15);
	struct axis ax, ay;
	double ext[4];

	if (line_extent(s, n, xlog, ylog, ext) == 0)
		return -1;
	axis_fit(&ax, ext[0], ext[1], xlog, 0);
	axis_fit(&ay, ext[2], ext[3], ylog, 1);
	svg_open(out, H, title, "lines");
	x_grid(out, &ax, x0, w, y0, y0 + h);
	y_grid(out, &ay, y0, h, x0, x0 + w);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<g class=\"series\" data-series=\"%zu\">", i);
		line_series(out, &s[i], series_color(pal, &s[i]), &ax, &ay, x0,
			    y0, w, h);
		fputs("</g>\n", out);
	}
	fprintf(out, "<text class=\"axis\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"middle\">", x0 + w / 2, y0 + h + 34);
	xml_text(out, xlabel);
	fputs(xlog ? " (log)" : "", out);
	fprintf(out, "</text><text class=\"axis\" x=\"14\" y=\"%d\" "
		"transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">",
		y0 + h / 2, y0 + h / 2);
	xml_text(out, ylabel);
	fputs(ylog ? " (log)" : "", out);
	fputs("</text>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<g class=\"toggle\" data-series=\"%zu\">", i);
		legend_entry(out, x0 + w + 16, y0 + 8 + (int)i * 15,
			     series_color(pal, &s[i]), s[i].name, 1,
			     s[i].style);
		fputs("</g>", out);
	}
	fputs("</svg></figure>\n", out);
	return 0;
}

/* Red (worst) to green (best) through yellow, for t in [0, 1]. */
static void heat_color(double t, char *buf, size_t size)
{
	double r = t < 0.5 ? 1 : 2 * (1 - t), g = t < 0.5 ? 2 * t : 1;

	snprintf(buf, size, "rgb(%d,%d,%d)", (int)(60 + 180 * r),
		 (int)(60 + 160 * g), 90);
}

/* Average advance of an 11px sans-serif character, for fitting labels. */
#define CHAR_PX 6.5

/* The best drawable value of a row (the lowest, or the highest when
 * higher_better); NAN when the row has none. */
static double row_best(const double *row, size_t nc, int higher_better)
{
	double best = NAN;

	for (size_t c = 0; c < nc; c++)
		if (drawable(row[c], 1) && (isnan(best) ||
		    (higher_better ? row[c] > best : row[c] < best)))
			best = row[c];
	return best;
}

/* How many times worse than best x is: 1 for the best, more otherwise. */
static double worse_by(double x, double best, int higher_better)
{
	return higher_better ? best / x : x / best;
}

struct heat_frame {
	int label_w, cell_w, top, slant; /* slant: column labels at -45deg */
};

/* Row labels up to HEAT_ROW_MAX characters fit (longer ones are cut). */
#define HEAT_ROW_MAX 44

static int row_label_w(const char *const *rows, size_t nr)
{
	size_t longest = 6;

	for (size_t r = 0; r < nr; r++)
		longest = strlen(rows[r]) > longest ? strlen(rows[r]) : longest;
	longest = longest > HEAT_ROW_MAX ? HEAT_ROW_MAX : longest;
	return (int)(longest * CHAR_PX) + 14;
}

/* Where the cells go: a column label too long for its cell is slanted,
 * the header as tall and the right margin as wide as the longest needs. */
static struct heat_frame heat_frame(const char *const *rows, size_t nr,
				    const char *const *cols, size_t nc)
{
	struct heat_frame f = {row_label_w(rows, nr), 0, 0, 0};
	size_t longest = 0;
	int right = 10;

	for (size_t c = 0; c < nc; c++)
		longest = strlen(cols[c]) > longest ? strlen(cols[c]) : longest;
	f.cell_w = (CHART_W - f.label_w - right) / (int)nc;
	f.cell_w = f.cell_w > 110 ? 110 : f.cell_w;
	f.slant = longest * CHAR_PX > f.cell_w - 6;
	if (!f.slant) {
		f.top = 52;
		return f;
	}
	right = (int)(longest * CHAR_PX * 0.71) + 12;
	f.cell_w = (CHART_W - f.label_w - right) / (int)nc;
	f.cell_w = f.cell_w > 110 ? 110 : f.cell_w;
	f.top = 36 + (int)(longest * CHAR_PX * 0.71);
	return f;
}

static void heat_col_labels(FILE *out, const struct heat_frame *f,
			    const char *const *cols, size_t nc)
{
	for (size_t c = 0; c < nc; c++) {
		int x = f->label_w + (int)c * f->cell_w + f->cell_w / 2;
		if (f->slant)
			fprintf(out, "<text class=\"label col\" x=\"%d\" y=\"%d\" "
				"transform=\"rotate(-45 %d %d)\">", x - 2,
				f->top - 6, x - 2, f->top - 6);
		else
			fprintf(out, "<text class=\"label col\" x=\"%d\" y=\"%d\" "
				"text-anchor=\"middle\">", x, f->top - 8);
		xml_text(out, cols[c]);
		fputs("</text>\n", out);
	}
}

/* One cell of row label `row`, column `col`, at (cx, cy). */
static void heat_cell(FILE *out, const struct heat_frame *f, int cx, int cy,
		      double x, double best, int higher_better,
		      const char *row, const char *col, const char *unit)
{
	char color[32], num[32];
	double ratio;

	if (!drawable(x, 1)) {
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"19\" "
			"fill=\"#eee\"/>\n", cx, cy, f->cell_w - 1);
		return;
	}
	ratio = worse_by(x, best, higher_better);
	heat_color(1 - fmin(1, log10(ratio) / 2), color, sizeof(color));
	tick_label(x, num, sizeof(num));
	fprintf(out, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"19\" fill=\"%s\" data-v=\"%.17g\" data-ratio=\"%.6g\">"
		"<title>", cx, cy, f->cell_w - 1, color, x, ratio);
	xml_text(out, row);
	fputs(" x ", out);
	xml_text(out, col);
	fprintf(out, ": %.6g ", x);
	xml_text(out, unit);
	fprintf(out, ", %.3gx its row's best</title></rect><text class=\"value\" "
		"x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", ratio,
		cx + f->cell_w / 2, cy + 14, num);
}

int svg_heatmap(FILE *out, const char *title, const char *unit,
		const char *const *rows, size_t nr, const char *const *cols,
		size_t nc, const double *v, int higher_better)
{
	struct heat_frame f;
	size_t shown = 0;
	int y, H;

	for (size_t r = 0; nc > 0 && r < nr; r++)
		shown += !isnan(row_best(v + r * nc, nc, higher_better));
	if (shown == 0)
		return -1;
	f = heat_frame(rows, nr, cols, nc);
	H = f.top + (int)shown * 20 + 30;
	svg_open(out, H, title, "heatmap");
	heat_col_labels(out, &f, cols, nc);
	y = f.top;
	for (size_t r = 0; r < nr; r++) {
		double best = row_best(v + r * nc, nc, higher_better);
		if (isnan(best))
			continue;
		fprintf(out, "<text class=\"label\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"end\">", f.label_w - 6, y + 14);
		xml_text_cut(out, rows[r], HEAT_ROW_MAX);
		fputs("</text>\n", out);
		for (size_t c = 0; c < nc; c++)
			heat_cell(out, &f, f.label_w + (int)c * f.cell_w, y,
				  v[r * nc + c], best, higher_better, rows[r],
				  cols[c], unit);
		y += 20;
	}
	fprintf(out, "<text class=\"axis\" x=\"8\" y=\"%d\">", H - 8);
	xml_text(out, unit);
	fprintf(out, " (%s is better); colour: each cell against the best of "
		"its row: green the best, yellow 10x, red 100x or more worse; "
		"grey: not measured</text>\n", higher_better ? "higher" : "lower");
	fputs("</svg></figure>\n", out);
	return 0;
}
