/*
 * html.h - the HTML report: one self-contained page that opens offline
 * (inline CSS, inline SVG charts drawn by report/svg.c, a few lines of
 * inline script to sort tables and toggle series; no fetch of any kind),
 * and reads in a few screens: what is long is collapsed (<details>,
 * closed until clicked).
 *
 * First the verdicts (report/verdict.h): each suite's answer in a few
 * sentences; a one-line table of contents.  Then per suite its question
 * and answer in full and the charts that answer it, open: the overall
 * ranking, and the charts of the suite's first declared table
 * (report/layout.h) for the groups a row of the answer names (fqdn: a
 * heatmap of strategy x engine per match phase; payload: a chart per
 * scenario of Mpps against packet size, an engine per line, the line
 * rate dashed; scan: a heatmap of pattern x engine).  Collapsed under
 * them: the answer's table, then each declared table (the tables of one
 * declaration split by a key, such as payload's 11 "Mpps per core:
 * engine=...", together) with its other charts, the growth charts, what
 * was not measured, and the configuration.
 *
 * Charts, whatever the suite: a table with a column key over numeric rows
 * is a line chart per column with a series per split table; a table with
 * a column key over named rows, or with two key columns, is a heatmap
 * coloured within each row against its best; a growth table is line
 * charts grouped by their first name levels.  No line chart has more than
 * 12 contenders (more are split over several charts).  The harness alone
 * (results without the key the tables are split by: payload's base
 * scenario, no engine) is no contender: it is drawn as every chart's
 * floor, dotted grey, "floor (harness, no engine)".  A name keeps one
 * colour on the whole page; an axis spanning more than 10x is
 * logarithmic.  Every table sorts by clicking a header.  Every string
 * that came from the results (names, patterns, messages, configuration)
 * is escaped.
 */
#ifndef RXB_HTML_H
#define RXB_HTML_H

#include <stdio.h>

#include "harness/results.h"
#include "report/opts.h"
#include "report/rtable.h"

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
