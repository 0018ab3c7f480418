/*
 * text.h - the tables of report/layout.h as text, after a suite's Go
 * benchmark lines: what the run prints and `rxbench report
 * --format=text RESULTS.json` prints again from the results file, the
 * same bytes (tests/test_text_report.sh).  No line looks like a Go
 * benchmark or configuration line (none starts with a lower-case word
 * and a colon), so benchstat still reads the whole output.
 */
#ifndef RXB_TEXT_H
#define RXB_TEXT_H

#include <stdio.h>

#include "harness/results.h"
#include "report/opts.h"
#include "report/rtable.h"

/*
 * A table: its title, its caption wrapped, then aligned pipe rows; a
 * table of rxbench compare (RTABLE_CHANGES) as benchstat prints one:
 * "title (caption)", then columns left-aligned two spaces apart and a
 * blank line.
 */
void text_table(FILE *out, const struct rtable *t);

/*
 * The suite's block: its verdict and declared tables, the statistics of
 * repeated samples when a benchmark has several, and the benchmarks
 * timed one op per sample (slower than a sample's budget), between a
 * "Report of suite" and an "End of the report of suite" line.  opts may
 * be NULL.  0, or -1 (a message on stderr: a bad layout line, out of
 * memory).
 */
int text_write_suite(FILE *out, const struct results *res, const char *suite,
		     const struct report_opts *opts);

#endif
