/*
 * complexity.c - least-squares complexity fits (see complexity.h).
 */
#include "harness/complexity.h"

#include <math.h>

const char *complexity_name(enum complexity_model m)
{
	static const char *const names[BIGO_COUNT] = {
		"O(1)", "O(log N)", "O(N)", "O(N log N)", "O(N^2)", "O(N^3)",
	};

	return (unsigned)m < BIGO_COUNT ? names[m] : "O(?)";
}

double complexity_g(enum complexity_model m, double n)
{
	switch (m) {
	case BIGO_1: return 1;
	case BIGO_LOGN: return log2(n);
	case BIGO_N: return n;
	case BIGO_NLOGN: return n * log2(n);
	case BIGO_N2: return n * n;
	case BIGO_N3: return n * n * n;
	case BIGO_COUNT: break;
	}
	return NAN;
}

/* Points every fit can use: k >= 2, n > 0, t finite. */
static int points_ok(const double *n, const double *t, size_t k)
{
	if (k < 2)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (!(n[i] > 0) || !isfinite(n[i]) || !isfinite(t[i]))
			return 0;
	return 1;
}

int complexity_fit_model(const double *n, const double *t, size_t k,
			 enum complexity_model m, struct complexity_fit *out)
{
	double sgg = 0, stg = 0, st = 0, sse = 0, mean;

	if (!points_ok(n, t, k) || (unsigned)m >= BIGO_COUNT)
		return -1;
	for (size_t i = 0; i < k; i++) {
		double g = complexity_g(m, n[i]);
		sgg += g * g;
		stg += t[i] * g;
		st += t[i];
	}
	mean = st / (double)k;
	if (sgg == 0 || mean == 0)
		return -1;
	out->model = m;
	out->coef = stg / sgg;
	for (size_t i = 0; i < k; i++) {
		double r = t[i] - out->coef * complexity_g(m, n[i]);
		sse += r * r;
	}
	out->rms = sqrt(sse / (double)k) / fabs(mean);
	return 0;
}

int complexity_fit_best(const double *n, const double *t, size_t k,
			struct complexity_fit *out)
{
	int found = 0;

	if (k < COMPLEXITY_MIN_POINTS)
		return -1;
	for (int m = BIGO_1; m < BIGO_COUNT; m++) {
		struct complexity_fit f;
		if (complexity_fit_model(n, t, k, (enum complexity_model)m,
					 &f) != 0)
			continue;
		if (!found || f.rms < out->rms)
			*out = f;
		found = 1;
	}
	return found ? 0 : -1;
}

int complexity_exponent(const double *n, const double *t, size_t k,
			double *exponent)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, d;

	if (k < 2) /* of two points, the log of their ratio: no fit */
		return -1;
	for (size_t i = 0; i < k; i++) {
		double x, y;
		if (!(n[i] > 0) || !(t[i] > 0) || !isfinite(n[i]) ||
		    !isfinite(t[i]))
			return -1;
		x = log(n[i]);
		y = log(t[i]);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	d = (double)k * sxx - sx * sx;
	if (d <= 1e-12 * (double)k * sxx)
		return -1; /* every size the same */
	*exponent = ((double)k * sxy - sx * sy) / d;
	return 0;
}
