/*
 * xdp_time.c - the slope of a user clock over pairs of test runs,
 * checked against the kernel's whole-ns means (see xdp_time.h).
 *
 * Build: always (no bpf(); the xdp engine uses it under RXB_HAVE_XDP).
 */
#include "engines/xdp_time.h"

#include <math.h>

void xdp_fit_pair(struct xdp_fit *f, const struct xdp_pair *p)
{
	double r = (double)p->r;
	double s = (p->t2 - p->t1) / r;

	f->pairs++;
	f->runs += 3 * p->r;
	f->r_sum += r;
	f->dt_sum += p->t2 - p->t1;
	f->k1 += (double)p->d1 * r;
	f->k2 += (double)p->d2 * 2 * r;
	f->kernel_ns += (double)p->d1 * r + (double)p->d2 * 2 * r;
	f->s_sum += s;
	f->s2_sum += s * s;
}

void xdp_fit_single(struct xdp_fit *f, uint64_t runs, uint32_t d)
{
	f->runs += runs;
	f->kernel_ns += (double)d * (double)runs;
}

/* The standard error of the pairs' mean slope; 0 with fewer than 2. */
static double fit_se(const struct xdp_fit *f)
{
	double n = (double)f->pairs, mean, var;

	if (f->pairs < 2)
		return 0;
	mean = f->s_sum / n;
	var = (f->s2_sum - n * mean * mean) / (n - 1);
	return var > 0 ? sqrt(var / n) : 0;
}

enum xdp_fit_how xdp_fit_solve(const struct xdp_fit *f,
			       struct xdp_fit_answer *a)
{
	double d = f->runs > 0 ? f->kernel_ns / (double)f->runs : 0;

	a->kernel_ns_per_op = d;
	a->ns_per_op = d;
	a->slope = f->pairs > 0 ? f->dt_sum / f->r_sum : 0;
	a->se = fit_se(f);
	a->low = f->pairs > 0 ? d : 0;
	a->high = f->pairs > 0 ? f->k2 / (2 * f->r_sum) + 1 : 0;
	if (f->pairs < 2 || a->se > XDP_FIT_SE_MAX)
		a->how = XDP_FIT_SPREAD;
	else if (a->slope <= a->low - XDP_FIT_SLACK ||
		 a->slope >= a->high + XDP_FIT_SLACK)
		a->how = XDP_FIT_OUTSIDE;
	else
		a->how = XDP_FIT_SLOPE;
	/* A slope within the slack but past a bound is the bound: the
	   kernel's means say the run costs no less than low nor more than
	   high, and the version line promises a row within them. */
	if (a->how == XDP_FIT_SLOPE)
		a->ns_per_op = fmin(fmax(a->slope, a->low), a->high);
	return a->how;
}
