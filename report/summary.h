/*
 * summary.h - statistics of repeated samples (--count > 1), printed
 * after a suite's tables (report/text.h).
 *
 * Computed from the samples the results keep (report/compare_stats.h,
 * harness/complexity.h), so nothing derived is stored.  No line looks
 * like a Go benchmark or configuration line (each is indented or starts
 * with an upper-case word), so benchstat still reads the whole output.
 */
#ifndef RXB_SUMMARY_H
#define RXB_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "harness/results.h"

/*
 * The metric a summary is about: "ns/op" when r has it, else "instr/op"
 * (instruction-count mode), else NULL.
 */
const char *summary_unit(const struct result *r);

/*
 * One row per result of `suite` that has samples: median, min, max, the
 * 95% confidence interval of the median, the spread (±%) and an
 * "unstable" mark (a non-ok status is shown instead when there is one).
 */
void summary_write_stats(FILE *out, const struct results *res,
			 const char *suite);

/*
 * If `name` has a level "key=NUMBER", copy the name without that level to
 * buf, set *value and return 1; else 0.
 */
int summary_strip_level(const char *name, const char *key, char *buf,
			size_t size, double *value);

#endif
