/*
 * stats.h - summary statistics of repeated samples (--count=N): median,
 * min, max, a 95% confidence interval of the median and the spread.
 *
 * Pure functions over arrays of doubles; NaN values (a sample that lacks
 * the metric) are skipped.  Writers call them on the samples a result
 * keeps, so the results file stores each sample once and nothing derived.
 *
 * The confidence interval is distribution-free, as benchstat's: the order
 * statistics x(k) and x(n-k+1) with the largest k whose binomial coverage
 * P(k <= B <= n-k), B ~ Binomial(n, 1/2), is still >= 95%.  With fewer than
 * six samples even [min, max] covers the median with less than 95%
 * (1 - 2/2^5 = 93.75%), so no interval is reported.
 *
 * The spread is nanobench's err%: the median absolute percentage error,
 * median(|x_i - median| / x_i) * 100.  Unlike (max-min)/median it is not
 * moved by one outlier; a row is unstable when it is above 5%.
 */
#ifndef RXB_STATS_H
#define RXB_STATS_H

#include <stddef.h>

#include "harness/results.h"

#define STATS_CONFIDENCE 0.95
#define STATS_UNSTABLE_PCT 5.0

struct stats {
	size_t n;          /* values used (NaN skipped) */
	double median, min, max;
	int ci_ok;         /* 0: too few samples for a 95% interval */
	double ci_lo, ci_hi; /* meaningful only when ci_ok */
	double spread_pct; /* median absolute percentage error, in % */
	int unstable;      /* spread_pct > STATS_UNSTABLE_PCT */
};

/*
 * Summarize the n values of v.  0, or -1 when no value is a number or
 * out of memory (*out then has n = 0).  v is not modified.
 */
int stats_summarize(const double *v, size_t n, struct stats *out);

/* Same, for the samples of one metric. */
int stats_metric(const struct metric *m, struct stats *out);

/* The median of n >= 1 sorted values (the mean of the middle two when n is even). */
double stats_median_sorted(const double *sorted, size_t n);

/*
 * The 0-based indices lo <= hi of the sorted sample that bound the median
 * with at least `confidence` (0 < confidence < 1).  0, or -1 when n is too
 * small for that confidence.
 */
int stats_median_ci(size_t n, double confidence, size_t *lo, size_t *hi);

/*
 * Median absolute percentage error of the n values of v around `median`,
 * in percent (a value of 0 is compared with |median| instead).  Uses
 * `scratch` (n doubles).  0 when n is 0.
 */
double stats_mdape(const double *v, size_t n, double median, double *scratch);

#endif
