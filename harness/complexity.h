/*
 * complexity.h - how a benchmark's time grows with its input size.
 *
 * Google Benchmark's fit: for each model g(N) in {1, log N, N, N log N,
 * N^2, N^3} the least-squares coefficient c = sum(t g) / sum(g^2) of
 * t ~ c g(N), and its RMS error normalized by the mean time; the model
 * with the smallest error wins (ties go to the slower-growing model).
 * log is log2, as there.  Beside it, the power-law exponent k of t ~ a N^k
 * from a least-squares line through (log N, log t), the figure seed 001
 * quotes ("N^2.3").  Pure functions; report/summary.c prints them.
 */
#ifndef RXB_COMPLEXITY_H
#define RXB_COMPLEXITY_H

#include <stddef.h>

enum complexity_model {
	BIGO_1,
	BIGO_LOGN,
	BIGO_N,
	BIGO_NLOGN,
	BIGO_N2,
	BIGO_N3,
	BIGO_COUNT,
};

struct complexity_fit {
	enum complexity_model model;
	double coef; /* t ~ coef * g(N), in the time's unit */
	double rms;  /* RMS of the residuals / mean time (0.05 = 5%) */
};

/* "O(1)", "O(log N)", "O(N)", "O(N log N)", "O(N^2)", "O(N^3)". */
const char *complexity_name(enum complexity_model m);

/* g(n) of the model. */
double complexity_g(enum complexity_model m, double n);

/*
 * Fit one model to k points (n[i], t[i]).  0, or -1 when k < 2, an n is
 * not positive, a time is not finite, the mean time is 0 or every g(n)
 * is 0.
 */
int complexity_fit_model(const double *n, const double *t, size_t k,
			 enum complexity_model m, struct complexity_fit *out);

/*
 * Points a fit needs: through two points every model passes with a zero
 * residual, so two cannot tell O(N) from O(N^2).
 */
#define COMPLEXITY_MIN_POINTS 3

/*
 * The best of all models as above.  0, or -1 (as complexity_fit_model,
 * and when k < COMPLEXITY_MIN_POINTS).
 */
int complexity_fit_best(const double *n, const double *t, size_t k,
			struct complexity_fit *out);

/*
 * The exponent of t ~ a N^k by least squares in log-log space.  0, or -1
 * when fewer than two distinct sizes or a value is not positive (two
 * points give the log of their ratio, a measure rather than a fit).
 */
int complexity_exponent(const double *n, const double *t, size_t k,
			double *exponent);

#endif
