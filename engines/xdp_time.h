/*
 * xdp_time.h - an XDP program's ns per run below the kernel's whole ns
 * (issue 25).  BPF_PROG_TEST_RUN reports the mean of its `repeat` runs
 * as time_spent / repeat in a u32, rounded down: a program of 8.7 ns
 * reads 8, whatever the repeat.  Its clock stays the truth's bound (the
 * mean is in [d, d+1)), and a user clock around the system call gives
 * the fraction: test runs of r and of 2r runs on the same frame differ
 * by r runs and nothing else, so the fixed cost of a test run (the
 * system call, the copy of the frame, the program swapped into the XDP
 * dispatcher) cancels, and the slope (t2 - t1) / r is the cost of a run
 * in ns with a fraction.
 *
 * The kernel's figures bound the slope: its clock counts the runs and
 * its own costs, so a run costs less than d2 + 1 (d2 the mean of the
 * longer run, which its costs weigh least in); and when those costs are
 * nothing to the runs (the program held in the dispatcher: a test run
 * then swaps nothing, engines/xdp_live.h), at least the mean d.  A
 * sample sums its pairs into a struct xdp_fit; xdp_fit_solve() says what
 * its ns/op is: the slope when the pairs agree to within XDP_FIT_SE_MAX
 * and the slope lies within XDP_FIT_SLACK of those bounds (taken into
 * them: a slope a little past a bound is the bound), else the kernel's
 * mean over the same runs.  (A program not held has its
 * kernel's means raised by the swap, the slope not: the slope is then
 * below the bound, and the kernel's mean stands, as before.)
 * Pure arithmetic, no bpf(): engines/xdp.c feeds it, tests/test_xdp.c
 * checks it on figures of its own and on real test runs.
 */
#ifndef RXB_XDP_TIME_H
#define RXB_XDP_TIME_H

#include <stdint.h>

/*
 * The slope counts when it lies in (D - XDP_FIT_SLACK, D2 + 1 +
 * XDP_FIT_SLACK), D the kernel's mean over the sample's runs and D2 over
 * the second runs of its pairs; outside that it is noise or a clock that
 * does not follow the kernel's: the sample is made again, then the
 * kernel's figure stands.
 */
#define XDP_FIT_SLACK 0.5
/*
 * The slope counts only when its standard error (the spread of the
 * pairs' slopes over the square root of their number) is at most this:
 * the kernel's whole ns is a uniform error of 0.29 ns, so a slope less
 * sure than that tells less than the kernel's mean does (a program of
 * microseconds makes few runs a pair, each slope jitters by tens of ns).
 */
#define XDP_FIT_SE_MAX 0.25

/* Two test runs of one frame, one after the other. */
struct xdp_pair {
	uint64_t r;      /* runs of the first; the second made 2r */
	double t1, t2;   /* the user clock around each, ns */
	uint32_t d1, d2; /* the kernel's mean of each, whole ns */
};

/* A sample's test runs, summed.  A zeroed struct is empty. */
struct xdp_fit {
	uint64_t pairs;
	uint64_t runs;        /* every run, the pairs' (3r) and single ones */
	double r_sum;         /* sum of the pairs' r */
	double dt_sum;        /* sum of the pairs' t2 - t1 */
	double k1, k2;        /* sums of the pairs' d1 r and d2 2r */
	double kernel_ns;     /* sum of d x runs: the kernel's figures */
	double s_sum, s2_sum; /* sums of the pairs' slopes and squares */
};

enum xdp_fit_how {
	XDP_FIT_SLOPE,   /* ns/op is the slope */
	XDP_FIT_OUTSIDE, /* the slope is outside the kernel's bound */
	XDP_FIT_SPREAD,  /* the slope is less sure than XDP_FIT_SE_MAX, or
			    fewer than 2 pairs */
};

struct xdp_fit_answer {
	enum xdp_fit_how how;
	double ns_per_op;        /* the slope (XDP_FIT_SLOPE), else the
				    kernel's mean */
	double kernel_ns_per_op; /* the kernel's mean over every run */
	double slope, se;        /* the pairs' slope and its standard
				    error; 0 with fewer than 2 pairs */
	double low, high;        /* the kernel's bounds of the slope (no
				    slack); 0 without pairs */
};

/* Add pair p (p->r >= 1) to f. */
void xdp_fit_pair(struct xdp_fit *f, const struct xdp_pair *p);

/* Add a test run of `runs` runs that is no pair's (too few runs left
   for one): the kernel's mean d counts, no clock. */
void xdp_fit_single(struct xdp_fit *f, uint64_t runs, uint32_t d);

/* f's ns/op and how it was chosen into *a (f->runs > 0); returns a->how. */
enum xdp_fit_how xdp_fit_solve(const struct xdp_fit *f,
			       struct xdp_fit_answer *a);

#endif
