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
int svg_bar_chart(FILE *out, const char *title, const char *unit,
		  const struct svg_bar *bars, size_t n, int log);

struct svg_series {
	const char *name;
	const double *x, *y; /* n points; NAN or (on log axes) <= 0 skipped */
	size_t n;
	int dashed; /* a reference line, such as the line rate */
};

/*
 * A line chart with a legend.  0, or -1 when no point can be drawn.
 */
int svg_line_chart(FILE *out, const char *title, const char *xlabel,
		   const char *ylabel, const struct svg_series *s, size_t n,
		   int xlog, int ylog);

#endif
