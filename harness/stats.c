/*
 * stats.c - summary statistics of repeated samples (see stats.h).
 */
#include "harness/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median_sorted(const double *sorted, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2 == 1)
		return sorted[n / 2];
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* P(B <= j) for B ~ Binomial(n, 1/2), summed in log space (n may be 1000). */
static double binom_half_cdf(size_t n, size_t j)
{
	double sum = 0, ln_n = lgamma((double)n + 1), ln2n = (double)n * log(2);

	for (size_t i = 0; i <= j && i <= n; i++)
		sum += exp(ln_n - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) - ln2n);
	return sum;
}

int stats_median_ci(size_t n, double confidence, size_t *lo, size_t *hi)
{
	size_t best = 0; /* 1-based order statistic; 0: none reaches it */

	for (size_t k = 1; k <= n / 2; k++) {
		/* [x(k), x(n-k+1)] misses the median when B < k or B > n-k */
		double coverage = 1 - 2 * binom_half_cdf(n, k - 1);
		if (coverage < confidence)
			break;
		best = k;
	}
	if (best == 0)
		return -1;
	*lo = best - 1;
	*hi = n - best;
	return 0;
}

double stats_mdape(const double *v, size_t n, double median, double *scratch)
{
	for (size_t i = 0; i < n; i++) {
		double base = v[i] != 0 ? fabs(v[i]) : fabs(median);
		scratch[i] = base == 0 ? 0 : fabs(v[i] - median) / base;
	}
	qsort(scratch, n, sizeof(*scratch), cmp_double);
	return n ? 100 * stats_median_sorted(scratch, n) : 0;
}

int stats_summarize(const double *v, size_t n, struct stats *out)
{
	double *sorted = malloc((2 * n + 1) * sizeof(*sorted));
	size_t m = 0, lo, hi;

	memset(out, 0, sizeof(*out));
	if (sorted == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			sorted[m++] = v[i];
	if (m == 0) {
		free(sorted);
		return -1;
	}
	qsort(sorted, m, sizeof(*sorted), cmp_double);
	out->n = m;
	out->min = sorted[0];
	out->max = sorted[m - 1];
	out->median = stats_median_sorted(sorted, m);
	out->ci_ok = stats_median_ci(m, STATS_CONFIDENCE, &lo, &hi) == 0;
	if (out->ci_ok) {
		out->ci_lo = sorted[lo];
		out->ci_hi = sorted[hi];
	}
	out->spread_pct = stats_mdape(sorted, m, out->median, sorted + m);
	out->unstable = out->spread_pct > STATS_UNSTABLE_PCT;
	free(sorted);
	return 0;
}

int stats_metric(const struct metric *m, struct stats *out)
{
	return stats_summarize(m->v, m->n, out);
}
