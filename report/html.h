/*
 * html.h - the HTML report: one self-contained page that opens offline
 * (inline CSS, inline SVG charts drawn by report/svg.c, a few lines of
 * inline script to sort tables and toggle series; no fetch of any kind).
 *
 * First the verdicts (report/verdict.h): each suite's answer in a few
 * sentences, then its paragraph and table; a table of contents; then per
 * suite the charts drawn from its declared tables (report/layout.h),
 * whatever the suite: a table with a column key over numeric rows is a
 * line chart per column with a series per split table (payload: a chart
 * per scenario, an engine per series, the line rate dashed), over named
 * rows a bar per cell; a table with two key columns a heatmap of its
 * first metric (fqdn: strategy x engine per phase); a growth table a
 * line chart whose series the legend turns on and off; the overall
 * ranking a bar chart.  A name keeps one colour on the whole page; an
 * axis spanning more than 10x is logarithmic.  Then every table, sortable
 * by clicking a header, what was not measured, and the configuration
 * collapsed.  Every string that came from the results (names, patterns,
 * messages, configuration) is escaped.
 */
#ifndef RXB_HTML_H
#define RXB_HTML_H

#include <stdio.h>

#include "harness/results.h"
#include "report/layout.h"

/* Write the page.  0, or -1 on a write error or out of memory. */
int report_write_html(FILE *out, const struct results *res,
		      const struct report_opts *opts);

/*
 * The page's pieces, for the page of several runs (compare_write_html):
 * the head (inline CSS, the title as the <h1>, escaped), the end (the
 * one inline script: sortable tables, series toggles), a table with
 * anchor id "t<id>" under its title and caption, a run's configuration
 * pairs as a two-column table, and whether values span more than 10x (a
 * log axis).
 */
void html_page_open(FILE *out, const char *title);
void html_page_close(FILE *out);
void html_write_table(FILE *out, const struct rtable *t, size_t id);
void html_config_table(FILE *out, const struct results *res); /* key, value */
int html_wants_log(const double *v, size_t n);

#endif
