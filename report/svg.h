/*
 * svg.h - inline SVG charts for the HTML report, drawn in C: horizontal
 * bar charts (linear or log scale) and line charts (either axis log).
 * No script is needed to show them; each mark carries a <title> tooltip
 * and its value in data-v.  Every string is escaped with xml_text().
 */
#ifndef RXB_SVG_H
#define RXB_SVG_H

#include <stddef.h>
#include <stdio.h>

/* s with & < > " ' escaped, for HTML/SVG text and attribute values. */
void xml_text(FILE *out, const char *s);

/*
 * One colour per name on a whole page: a name keeps the colour it was
 * first given (engines are coloured alike in every chart).
 */
#define SVG_MAX_COLORS 128
struct svg_colors {
	char names[SVG_MAX_COLORS][64];
	size_t n;
};

/* The colour of name (given one on first use). */
const char *svg_color(struct svg_colors *c, const char *name);

struct svg_bar {
	const char *label; /* left of the bar */
	double value;      /* bars with value <= 0 (log) or NAN are left out */
	const char *group; /* bars of one group share a colour (e.g. engine) */
};

/*
 * A horizontal bar chart with a title, values in `unit`.  log: log10
 * axis with a tick per decade.  Returns 0, or -1 when no bar can be
 * drawn (nothing is written then).
 */
int svg_bar_chart(FILE *out, struct svg_colors *pal, const char *title,
		  const char *unit, const struct svg_bar *bars, size_t n,
		  int log);

/* How a series is drawn. */
enum svg_line {
	SVG_LINE,      /* one of the contenders: a palette colour */
	SVG_REFERENCE, /* a reference such as the line rate: dark, dashed */
	SVG_FLOOR,     /* what the harness costs with no contender: grey,
			  dotted, class "series floor"; never a palette
			  colour, so never an engine's */
};

struct svg_series {
	const char *name;
	const double *x, *y; /* n points; NAN or (on log axes) <= 0 skipped */
	size_t n;
	enum svg_line style;
	const char *color_key; /* its colour's name; NULL: its name */
};

/*
 * A line chart with a legend; each series is a <g class="series"
 * data-series=i>, its legend entry a <g class="toggle" data-series=i>
 * the page's script turns on and off.  0, or -1 when no point can be
 * drawn.
 */
int svg_line_chart(FILE *out, struct svg_colors *pal, const char *title,
		   const char *xlabel, const char *ylabel,
		   const struct svg_series *s, size_t n, int xlog, int ylog);

/*
 * A heatmap of nr x nc values (row-major; NAN or <= 0: grey), each row
 * coloured against its own best (green; yellow 10x, red 100x or more
 * worse, on a log scale), so that a row of slow contenders still shows
 * its best; each cell labelled, with its value and ratio on hover and in
 * data-v and data-ratio.  Rows without a value are left out; column
 * labels too long for their cell are slanted, never cut.  0, or -1 when
 * no value can be drawn.
 */
int svg_heatmap(FILE *out, const char *title, const char *unit,
		const char *const *rows, size_t nr, const char *const *cols,
		size_t nc, const double *v, int higher_better);

#endif
