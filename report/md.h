/*
 * md.h - the Markdown report: per suite its verdict and declared tables
 * (report/layout.h), then what was not measured and why, then the run's
 * configuration.  Every string from the results is escaped, so a
 * pattern such as `<script>` or `a|b` shows as text and keeps the table
 * intact.
 */
#ifndef RXB_MD_H
#define RXB_MD_H

#include <stdio.h>

#include "harness/results.h"
#include "report/opts.h"
#include "report/rtable.h"

/* Write the report (opts may be NULL).  0, or -1 on a write error, out
 * of memory or a bad layout line (a message on stderr). */
int report_write_md(FILE *out, const struct results *res,
		    const struct report_opts *opts);

/* s as Markdown inline text: markup characters escaped, lines joined. */
void md_text(FILE *out, const char *s);

/* A table: "#### title" (level = number of '#'), caption, rows. */
void md_table(FILE *out, const struct rtable *t, int level);

#endif
