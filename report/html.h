/*
 * html.h - the HTML report: one self-contained page that opens offline
 * (inline CSS, inline SVG charts drawn by report/svg.c, a few lines of
 * inline script to sort tables; no fetch of any kind).
 *
 * Per suite: the engine ranking as a bar chart and a table; FQDN-style
 * suites get a bar chart per phase (ns/op, log scale) and, when several
 * policy sizes were run, the scaling plot (ns/op against domains,
 * log-log); payload-style suites get throughput against packet size per
 * engine with the line rate drawn; other suites a bar chart of ns/op.
 * Then every table of report/layout.h, sortable by clicking a header, and
 * what was not measured.  Every string that came from the results
 * (names, patterns, messages, configuration) is escaped.
 */
#ifndef RXB_HTML_H
#define RXB_HTML_H

#include <stdio.h>

#include "harness/results.h"
#include "report/layout.h"

/* Write the page.  0, or -1 on a write error or out of memory. */
int report_write_html(FILE *out, const struct results *res,
		      const struct report_opts *opts);

#endif
