/*
 * summary.h - the tables printed after a suite's Go lines: statistics of
 * repeated samples (--count > 1), and how time grows with input size when
 * a suite ran at several sizes (--domains=100,500,... or --sizes=...).
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

/* The name keys that carry a size: "domains" (FQDN), "size" (payload). */
extern const char *const summary_size_keys[];
extern const size_t summary_nsize_keys;

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

/*
 * Group the ok results of `suite` by their name without the size level
 * (the first of keys found), and for each group of two or more sizes print
 * the median time per size, the ratio to the smallest size, the best
 * complexity fit (model, coefficient, RMS error) and the power-law
 * exponent.  Returns the number of groups printed (0: nothing printed).
 */
int summary_write_complexity(FILE *out, const struct results *res,
			     const char *suite, const char *const *keys,
			     size_t nkeys);

#endif
