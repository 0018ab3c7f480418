/*
 * compare_stats.h - the statistics `rxbench compare` and the reports use,
 * with benchstat's conventions (golang.org/x/perf, "assume nothing"):
 *
 *   - the centre of a sample is its median;
 *   - its confidence interval is the exact distribution-free interval of
 *     the median from order statistics (the number of values below the
 *     median is Binomial(n, 1/2)); at 95% it needs n >= 6 samples, below
 *     that the interval is (-inf, +inf) and printed as "± ∞";
 *   - two samples differ when the two-sided Mann-Whitney U test gives
 *     p < alpha (0.05); the p-value is exact (all rank-sum arrangements,
 *     ties included) up to 50 values in all, and from the normal
 *     approximation with tie and continuity correction above.
 *
 * NAN values (a sample that lacks the metric) are ignored everywhere.
 * Nothing here allocates except stats_summarize/stats_utest, which free
 * what they take before returning.
 */
#ifndef RXB_COMPARE_STATS_H
#define RXB_COMPARE_STATS_H

#include <stddef.h>

/* A sample summarized. */
struct stats_summary {
	size_t n;      /* values that are not NAN */
	double median; /* NAN when n == 0 */
	double lo, hi; /* confidence interval; -inf/+inf when n is too small */
	double min, max;
};

/*
 * Summarize v[0..n): median, confidence interval at `confidence`
 * (0 < confidence < 1), min and max.  0, or -1 when out of memory.
 */
int stats_summarize(const double *v, size_t n, double confidence,
		    struct stats_summary *s);

/* The median of v (NAN ignored), or NAN when empty or out of memory. */
double stats_median(const double *v, size_t n);

/*
 * The order statistics (1-based, lo < hi, hi = n + 1 - lo) bounding the
 * median of n values at `confidence`: the narrowest symmetric pair whose
 * coverage P(lo <= B < hi), B ~ Binomial(n, 1/2) the number of values
 * below the true median, reaches it.  0 when found, -1 when n is too
 * small (the interval is infinite).  *coverage gets the actual level.
 */
int stats_median_ci_orders(size_t n, double confidence, size_t *lo,
			   size_t *hi, double *coverage);

/* The smallest n for which the median interval at `confidence` is finite. */
size_t stats_ci_min_samples(double confidence);

/*
 * The samples a side the U test is run with: below 4 a side it cannot
 * reach p < 0.05 (stats_utest_min_p(3) = 0.1), so no change could be
 * significant.
 */
#define STATS_UTEST_MIN_N 4

/*
 * How many samples per benchmark rxbench advises, and `make bench`
 * takes: the fewest for which compare gives a verdict (the U test) and
 * a change its interval (stats_change_ci).  Not 6, which the 95%
 * interval of one median needs (stats_ci_min_samples): every sample
 * costs a warm-up pass over the op's whole input and an allocation
 * run, so six would double make bench's time.  Every piece of advice
 * on sample counts (compare, its page, a verdict's doubts) is
 * STATS_COUNT_ADVICE.
 */
#define STATS_ADVISED_COUNT STATS_UTEST_MIN_N
#define STATS_STR_(x) #x
#define STATS_STR(x) STATS_STR_(x)
#define STATS_COUNT_ADVICE "--count=" STATS_STR(STATS_ADVISED_COUNT) " or more"

/* A spread above this (in percent) marks a row unstable, as nanobench does. */
#define STATS_UNSTABLE_PCT 5.0

/*
 * The spread of v in percent: nanobench's err%, the median absolute
 * percentage error median(|x - median| / x) * 100 (a value of 0 is
 * compared with |median| instead).  Unlike (max - min) / median, one wild
 * sample does not move it.  NAN when there is no value or out of memory.
 */
double stats_spread_pct(const double *v, size_t n);

/*
 * Two-sided Mann-Whitney U test of x (nx values) against y (ny values).
 * 0 with *p set, or -1 when a side has no values (then *p = 1) or memory
 * ran out.
 */
int stats_utest(const double *x, size_t nx, const double *y, size_t ny,
		double *p);

/* The smallest p the U test can give with n values on each side. */
double stats_utest_min_p(size_t n);

/*
 * The confidence interval at `confidence` of the change y/x - 1 between
 * two samples of positive values: the Hodges-Lehmann (Moses) interval
 * of the shift of log(y) against log(x), the order statistics of the
 * nx * ny pairwise differences that the U test's distribution bounds,
 * so it leaves 0 out about when the test finds the change significant
 * (exact up to 50 values in all, as stats_utest; the normal
 * approximation above).  0 with *lo and *hi set: -inf and +inf when
 * there are too few values (fewer than STATS_UTEST_MIN_N a side at
 * 95%), NAN when a value is not positive; -1 out of memory.
 */
int stats_change_ci(const double *x, size_t nx, const double *y, size_t ny,
		    double confidence, double *lo, double *hi);

/*
 * The geometric mean of the positive, finite values of v; NAN when there
 * is none.  *used (may be NULL) gets how many values counted.
 */
double stats_geomean(const double *v, size_t n, size_t *used);

#endif
