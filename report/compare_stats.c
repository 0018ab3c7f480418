/*
 * compare_stats.c - medians, their confidence intervals and the
 * Mann-Whitney U test (see compare_stats.h).
 */
#include "report/compare_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above this many values in all, the U test uses the normal approximation. */
#define UTEST_EXACT_MAX 50

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The non-NAN values of v, sorted, in a new array (*m of them); NULL on OOM. */
static double *sorted_copy(const double *v, size_t n, size_t *m)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	*m = 0;
	if (s == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[(*m)++] = v[i];
	qsort(s, *m, sizeof(*s), cmp_double);
	return s;
}

static double median_sorted(const double *s, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_median(const double *v, size_t n)
{
	size_t m;
	double *s = sorted_copy(v, n, &m);
	double med;

	if (s == NULL)
		return NAN;
	med = median_sorted(s, m);
	free(s);
	return med;
}

double stats_spread_pct(const double *v, size_t n)
{
	size_t m;
	double *s = sorted_copy(v, n, &m);
	double med, spread;

	if (s == NULL || m == 0) {
		free(s);
		return NAN;
	}
	med = median_sorted(s, m);
	for (size_t i = 0; i < m; i++) {
		double base = s[i] != 0 ? fabs(s[i]) : fabs(med);
		s[i] = base == 0 ? 0 : fabs(s[i] - med) / base;
	}
	qsort(s, m, sizeof(*s), cmp_double);
	spread = 100 * median_sorted(s, m);
	free(s);
	return spread;
}

/* P(B = k) for B ~ Binomial(n, 1/2), through logs so large n is fine. */
static double binom_half_pmf(size_t n, size_t k)
{
	return exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
		   lgamma((double)(n - k) + 1) - (double)n * log(2.0));
}

int stats_median_ci_orders(size_t n, double confidence, size_t *lo,
			   size_t *hi, double *coverage)
{
	double tail = 0; /* P(B < l) = P(B >= n + 1 - l), by symmetry */
	size_t best = 0;
	double best_cov = 0;

	/* widen from the innermost pair outwards: l = 1 is (min, max) */
	for (size_t l = 1; 2 * l <= n; l++) {
		double cov;

		tail += binom_half_pmf(n, l - 1);
		cov = 1 - 2 * tail;
		if (cov + 1e-12 < confidence)
			break;
		best = l;
		best_cov = cov;
	}
	if (best == 0)
		return -1;
	*lo = best;
	*hi = n + 1 - best;
	*coverage = best_cov;
	return 0;
}

size_t stats_ci_min_samples(double confidence)
{
	size_t lo, hi;
	double cov;

	for (size_t n = 2; n < 1000; n++)
		if (stats_median_ci_orders(n, confidence, &lo, &hi, &cov) == 0)
			return n;
	return 1000;
}

int stats_summarize(const double *v, size_t n, double confidence,
		    struct stats_summary *s)
{
	size_t m, lo, hi;
	double cov;
	double *sorted = sorted_copy(v, n, &m);

	memset(s, 0, sizeof(*s));
	s->median = s->min = s->max = NAN;
	s->lo = -INFINITY;
	s->hi = INFINITY;
	if (sorted == NULL)
		return -1;
	s->n = m;
	if (m > 0) {
		s->median = median_sorted(sorted, m);
		s->min = sorted[0];
		s->max = sorted[m - 1];
	}
	if (stats_median_ci_orders(m, confidence, &lo, &hi, &cov) == 0) {
		s->lo = sorted[lo - 1];
		s->hi = sorted[hi - 1];
	}
	free(sorted);
	return 0;
}

struct ranked {
	double v;
	int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v,
			  &((const struct ranked *)b)->v);
}

/*
 * Pool x and y, sort, and give each value twice its mid-rank (an
 * integer).  Returns the pooled array (NULL on OOM); *rank2_x gets the
 * doubled rank sum of x, *ties the tie term sum(t^3 - t).
 */
static struct ranked *pool_ranks(const double *x, size_t nx, const double *y,
				 size_t ny, long *rank2, long *rank2_x,
				 double *ties)
{
	size_t n = nx + ny;
	struct ranked *p = malloc(n * sizeof(*p));

	if (p == NULL)
		return NULL;
	for (size_t i = 0; i < nx; i++)
		p[i] = (struct ranked){x[i], 1};
	for (size_t i = 0; i < ny; i++)
		p[nx + i] = (struct ranked){y[i], 0};
	qsort(p, n, sizeof(*p), cmp_ranked);
	*rank2_x = 0;
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && p[j].v == p[i].v)
			j++;
		/* ranks i+1..j share the mid-rank (i+1+j)/2 */
		for (size_t k = i; k < j; k++) {
			rank2[k] = (long)(i + 1 + j);
			if (p[k].from_x)
				*rank2_x += rank2[k];
		}
		*ties += (double)(j - i) * (double)(j - i) * (double)(j - i) -
			 (double)(j - i);
		i = j;
	}
	return p;
}

/*
 * Exact two-sided p-value: of all C(n, k) ways to pick k of the pooled
 * doubled ranks, the share whose sum is as extreme as `obs`.  -1 on OOM.
 */
static int utest_exact(const long *rank2, size_t n, size_t k, long obs,
		       double *p)
{
	long total = 0;
	double *ways, all = 0, le = 0, ge = 0;

	for (size_t i = 0; i < n; i++)
		total += rank2[i];
	ways = calloc((k + 1) * (size_t)(total + 1), sizeof(*ways));
	if (ways == NULL)
		return -1;
	ways[0] = 1; /* ways[j * (total + 1) + s]: j picked, sum s */
	for (size_t i = 0; i < n; i++)
		for (size_t j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (long s = total; s >= rank2[i]; s--)
				ways[j * (size_t)(total + 1) + (size_t)s] +=
					ways[(j - 1) * (size_t)(total + 1) +
					     (size_t)(s - rank2[i])];
	for (long s = 0; s <= total; s++) {
		double w = ways[k * (size_t)(total + 1) + (size_t)s];
		all += w;
		if (s <= obs)
			le += w;
		if (s >= obs)
			ge += w;
	}
	free(ways);
	*p = fmin(1, 2 * fmin(le, ge) / all);
	return 0;
}

/* Normal approximation with tie and continuity correction. */
static double utest_normal(size_t nx, size_t ny, long rank2_x, double ties)
{
	double n = (double)(nx + ny);
	double u = (double)rank2_x / 2 - (double)nx * ((double)nx + 1) / 2;
	double mean = (double)nx * (double)ny / 2;
	double var = (double)nx * (double)ny / 12 *
		     ((n + 1) - ties / (n * (n - 1)));
	double z;

	if (var <= 0)
		return 1;
	z = (fabs(u - mean) - 0.5) / sqrt(var);
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2.0));
}

int stats_utest(const double *x, size_t nx, const double *y, size_t ny,
		double *p)
{
	size_t mx, my;
	double *sx = sorted_copy(x, nx, &mx);
	double *sy = sorted_copy(y, ny, &my);
	long *rank2 = malloc((nx + ny + 1) * sizeof(*rank2));
	struct ranked *pool = NULL;
	long rank2_x;
	double ties;
	int rc = -1;

	*p = 1;
	if (sx == NULL || sy == NULL || rank2 == NULL || mx == 0 || my == 0)
		goto out;
	pool = pool_ranks(sx, mx, sy, my, rank2, &rank2_x, &ties);
	if (pool == NULL)
		goto out;
	if (mx + my <= UTEST_EXACT_MAX) {
		/* the doubled ranks of x's positions are what we summed */
		rc = utest_exact(rank2, mx + my, mx, rank2_x, p);
	} else {
		*p = utest_normal(mx, my, rank2_x, ties);
		rc = 0;
	}
out:
	free(pool);
	free(rank2);
	free(sx);
	free(sy);
	return rc;
}

double stats_utest_min_p(size_t n)
{
	/* 2 / C(2n, n): only the two most extreme arrangements */
	if (n == 0)
		return 1;
	return fmin(1, 2 * exp(lgamma((double)n + 1) * 2 -
			       lgamma(2.0 * (double)n + 1)));
}

/*
 * The number of arrangements of nx x-values and ny y-values (no ties)
 * with U = u pairs (x < y), for u = 0..nx*ny: the coefficients of the
 * Gaussian binomial, prod over i = 1..nx of (1 - q^(ny+i)) / (1 - q^i).
 * Whole numbers below C(50, 25) < 2^53, so doubles hold them exactly.
 * NULL when out of memory.
 */
static double *u_counts(size_t nx, size_t ny)
{
	size_t top = nx * ny + nx + ny + 1;
	double *c = calloc(top, sizeof(*c));

	if (c == NULL)
		return NULL;
	c[0] = 1;
	for (size_t i = 1; i <= nx; i++) {
		size_t k = ny + i;
		for (size_t u = top - 1; u >= k; u--)
			c[u] -= c[u - k]; /* times (1 - q^k), from the top */
		for (size_t u = i; u < top; u++)
			c[u] += c[u - i]; /* over (1 - q^i), from the bottom */
	}
	return c;
}

/*
 * How many of the smallest (and largest) pairwise differences the
 * interval leaves out: the largest k with P(U < k) <= tail, exact from
 * u_counts.  -1 when out of memory.
 */
static long shift_k_exact(size_t nx, size_t ny, double tail)
{
	double *c = u_counts(nx, ny), all = 0, below = 0;
	long k = 0;

	if (c == NULL)
		return -1;
	for (size_t u = 0; u <= nx * ny; u++)
		all += c[u];
	for (size_t u = 0; u <= nx * ny; u++) {
		below += c[u];
		if (below / all > tail + 1e-12)
			break;
		k = (long)u + 1;
	}
	free(c);
	return k;
}

/* The same from the normal approximation of U. */
static long shift_k_normal(size_t nx, size_t ny, double tail)
{
	double m = (double)nx * (double)ny, lo = 0, hi = 40;
	double sd = sqrt(m * ((double)(nx + ny) + 1) / 12);

	for (int i = 0; i < 100; i++) { /* z: P(Z > z) = tail */
		double z = (lo + hi) / 2;
		if (erfc(z / sqrt(2.0)) / 2 > tail)
			lo = z;
		else
			hi = z;
	}
	return (long)floor(m / 2 - hi * sd);
}

/* log(y_j) - log(x_i) for every pair, sorted; NULL when out of memory. */
static double *log_differences(const double *x, size_t nx, const double *y,
			       size_t ny)
{
	double *d = malloc((nx * ny + 1) * sizeof(*d));

	if (d == NULL)
		return NULL;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			d[i * ny + j] = log(y[j]) - log(x[i]);
	qsort(d, nx * ny, sizeof(*d), cmp_double);
	return d;
}

static int all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0) || isinf(v[i]))
			return 0;
	return 1;
}

int stats_change_ci(const double *x, size_t nx, const double *y, size_t ny,
		    double confidence, double *lo, double *hi)
{
	size_t mx, my;
	double *sx = sorted_copy(x, nx, &mx), *sy = sorted_copy(y, ny, &my);
	double *d = NULL, tail = (1 - confidence) / 2;
	long k = 0;
	int rc = -1;

	*lo = -INFINITY;
	*hi = INFINITY;
	if (sx == NULL || sy == NULL)
		goto out;
	rc = 0;
	if (!all_positive(sx, mx) || !all_positive(sy, my)) {
		*lo = *hi = NAN;
		goto out;
	}
	if (mx == 0 || my == 0)
		goto out;
	k = mx + my <= UTEST_EXACT_MAX ? shift_k_exact(mx, my, tail)
				       : shift_k_normal(mx, my, tail);
	d = k > 0 ? log_differences(sx, mx, sy, my) : NULL;
	if (k < 0 || (k > 0 && d == NULL)) {
		rc = -1;
		goto out;
	}
	if (k > 0) {
		*lo = expm1(d[k - 1]);
		*hi = expm1(d[mx * my - (size_t)k]);
	}
out:
	free(d);
	free(sx);
	free(sy);
	return rc;
}

double stats_geomean(const double *v, size_t n, size_t *used)
{
	double sum = 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0) || isinf(v[i]))
			continue;
		sum += log(v[i]);
		m++;
	}
	if (used != NULL)
		*used = m;
	return m ? exp(sum / (double)m) : NAN;
}
