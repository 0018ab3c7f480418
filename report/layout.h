/*
 * layout.h - a suite's tables, built once from the results and the
 * layout the results carry (report/layout_decl.h), drawn by every writer
 * (the run's text, rxbench report's text, Markdown, HTML), so they all
 * agree.  Nothing here names a suite or guesses from key names: a suite
 * without a declaration gets one table, a row per benchmark and a column
 * per metric.
 *
 * Per suite (report_suite_tables): the verdicts first (report/verdict.h),
 * then each declared table (report/layout_table.h), growth table
 * (report/layout_growth.h) and costliest table (report/costliest.h) in
 * the declared order.  The tables are report/rtable.h's model.
 */
#ifndef RXB_LAYOUT_H
#define RXB_LAYOUT_H

#include <stddef.h>

#include "harness/results.h"
#include "report/opts.h"
#include "report/rtable.h"

/*
 * The tables of one suite, appended to out (opts may be NULL).  0, or -1
 * when out of memory, a layout line or a recorded budget is bad (err
 * says which; out keeps what was built; release it).
 */
int report_suite_tables(const struct results *res, const char *suite,
			const struct report_opts *opts, struct rtables *out,
			char *err, size_t errsize);

/* A table of the results that are not ok (name, status, message); none
 * when every result is ok.  0, or -1 out of memory. */
int report_failure_table(const struct results *res, struct rtables *out);

#endif
