/*
 * test_stats.c - the spread of repeated samples (nanobench's err%),
 * complexity fits, the callgrind output parser and cost formula, and the
 * summary tables.  Medians and intervals are tested in test_report.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/callgrind.h"
#include "harness/complexity.h"
#include "report/compare_stats.h"
#include "report/summary.h"
#include "report/layout.h"
#include "report/text.h"

/* nanobench's err%: median of |x - median| / x. */
Test(stats, spread_is_median_absolute_percentage_error)
{
	double v[] = {100, 100, 100, 110, 90};
	double outlier[] = {100, 100, 100, 100, 1000};
	double wide[] = {100, 90, 110, 80, 120};
	double tight[] = {100, 102, 98, 101, 99};
	double gaps[] = {NAN, 100, NAN, 102, 98};

	/* errors 0, 0, 0, 10/110, 10/90: the median is 0 */
	cr_assert_float_eq(stats_spread_pct(v, 5), 0, 1e-12);
	/* one wild sample does not move it either */
	cr_assert_float_eq(stats_spread_pct(outlier, 5), 0, 1e-12);
	/* median 100; errors 0, 10/90, 10/110, 20/80, 20/120 -> 10/90 */
	cr_assert_float_eq(stats_spread_pct(wide, 5), 100.0 * 10 / 90, 1e-9);
	cr_assert_gt(stats_spread_pct(wide, 5), STATS_UNSTABLE_PCT);
	/* errors 0, 2/102, 2/98, 1/101, 1/99 -> 1/99 */
	cr_assert_float_eq(stats_spread_pct(tight, 5), 100.0 / 99, 1e-9);
	/* missing samples are skipped: errors 0, 2/102, 2/98 -> 2/102 */
	cr_assert_float_eq(stats_spread_pct(gaps, 5), 200.0 / 102, 1e-9);
	cr_assert(isnan(stats_spread_pct(gaps, 1)));
}

/*
 * The interval of a change y/x - 1: the order statistics of the pairwise
 * log differences the U distribution bounds (k from it, worked out by
 * enumerating every arrangement: 1 at 4+4, 6 at 6+6 and at 5+7).
 */
Test(stats, change_interval_from_the_u_distribution)
{
	double x4[] = {100, 101, 102, 103}, y4[] = {110, 111, 112, 113};
	double x6[] = {100, 101, 102, 103, 104, 105};
	double y6[] = {120, 122.4, 118.8, 126, 123.6, 121.2};
	double x5[] = {10, 11, 12, 13, 14}, y7[] = {9, 10.5, 12.5, 13.5, 15, 16, 17};
	double zero[] = {0, 100, 100, 100}, lo, hi, p;

	/* 4+4: the smallest and largest ratio (coverage 1 - 2/70) */
	cr_assert_eq(stats_change_ci(x4, 4, y4, 4, 0.95, &lo, &hi), 0);
	cr_assert_float_eq(lo, 110.0 / 103 - 1, 1e-12);
	cr_assert_float_eq(hi, 113.0 / 100 - 1, 1e-12);
	/* 6+6: the 6th and 31st of 36; about +20%, 0 left out */
	cr_assert_eq(stats_change_ci(x6, 6, y6, 6, 0.95, &lo, &hi), 0);
	cr_assert_float_eq(lo, 0.1542857142857142, 1e-12);
	cr_assert_float_eq(hi, 0.22376237623762393, 1e-12);
	/* 5+7, no real change: 0 inside, as the U test finds no change */
	cr_assert_eq(stats_change_ci(x5, 5, y7, 7, 0.95, &lo, &hi), 0);
	cr_assert_float_eq(lo, -0.18181818181818177, 1e-12);
	cr_assert_float_eq(hi, 0.41666666666666674, 1e-12);
	cr_assert_eq(stats_utest(x5, 5, y7, 7, &p), 0);
	cr_assert_geq(p, 0.05);
	/* 3+3 cannot reach 95%: no interval; nor from a value of 0 */
	cr_assert_eq(stats_change_ci(x4, 3, y4, 3, 0.95, &lo, &hi), 0);
	cr_assert(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	cr_assert_eq(stats_change_ci(zero, 4, y4, 4, 0.95, &lo, &hi), 0);
	cr_assert(isnan(lo) && isnan(hi));
}

/* Above 50 values the interval's rank comes from the normal
 * approximation: a +10% shift of 30 values each is bracketed. */
Test(stats, change_interval_normal_approximation)
{
	double x[30], y[30], lo, hi;

	for (int i = 0; i < 30; i++) {
		x[i] = 1000 + 7 * ((i * 13) % 30);
		y[i] = 1.1 * (1000 + 7 * ((i * 17) % 30));
	}
	cr_assert_eq(stats_change_ci(x, 30, y, 30, 0.95, &lo, &hi), 0);
	cr_assert(lo > 0.06 && lo < 0.1 && hi > 0.1 && hi < 0.14,
		  "[%g, %g]", lo, hi);
}

/* One number of samples is advised everywhere: the fewest with which
 * the U test can find a change at p < 0.05 and a change has a finite
 * 95% interval. */
Test(stats, one_advised_count)
{
	double x[] = {1, 2, 3, 4}, y[] = {5, 6, 7, 8}, lo, hi;

	cr_assert_lt(stats_utest_min_p(STATS_ADVISED_COUNT), 0.05);
	cr_assert_geq(stats_utest_min_p(STATS_ADVISED_COUNT - 1), 0.05);
	cr_assert_eq(stats_change_ci(x, STATS_ADVISED_COUNT, y,
				     STATS_ADVISED_COUNT, 0.95, &lo, &hi), 0);
	cr_assert(isfinite(lo) && isfinite(hi));
	cr_assert_str_eq(STATS_COUNT_ADVICE, "--count=4 or more");
}

Test(stats, spread_of_zero_values_is_zero)
{
	double zeros[] = {0, 0, 0};
	double some[] = {0, 10, 10};

	cr_assert_float_eq(stats_spread_pct(zeros, 3), 0, 1e-12);
	/* the 0 is compared with the median: errors 1, 0, 0 */
	cr_assert_float_eq(stats_spread_pct(some, 3), 0, 1e-12);
}

/* n = 10..10000, t = exact g(n) * 3: each model must pick itself. */
Test(complexity, exact_data_picks_its_model)
{
	double n[] = {10, 100, 500, 1000, 3000, 10000}, t[6];
	struct complexity_fit f;

	for (int m = BIGO_1; m < BIGO_COUNT; m++) {
		for (int i = 0; i < 6; i++)
			t[i] = 3 * complexity_g((enum complexity_model)m, n[i]);
		cr_assert_eq(complexity_fit_best(n, t, 6, &f), 0);
		cr_assert_eq((int)f.model, m, "%s picked %s",
			     complexity_name((enum complexity_model)m),
			     complexity_name(f.model));
		cr_assert_float_eq(f.coef, 3, 1e-9);
		cr_assert_lt(f.rms, 1e-9);
	}
}

Test(complexity, noisy_quadratic_is_still_quadratic)
{
	double n[] = {100, 500, 1000, 3000, 10000}, t[5];
	const double noise[] = {1.04, 0.97, 1.02, 0.98, 1.03};
	struct complexity_fit f;
	double k;

	for (int i = 0; i < 5; i++)
		t[i] = 0.5 * n[i] * n[i] * noise[i];
	cr_assert_eq(complexity_fit_best(n, t, 5, &f), 0);
	cr_assert_eq(f.model, BIGO_N2, "picked %s", complexity_name(f.model));
	cr_assert_float_eq(f.coef, 0.5, 0.05);
	cr_assert_lt(f.rms, 0.05);
	cr_assert_eq(complexity_exponent(n, t, 5, &k), 0);
	cr_assert_float_eq(k, 2, 0.02);
}

/* Seed 001: iptables 1,000 -> 3,000 rules took 2.7 s -> 31.7 s. */
Test(complexity, exponent_of_two_points)
{
	double n[] = {1000, 3000}, t[] = {2.7, 31.7}, k;

	cr_assert_eq(complexity_exponent(n, t, 2, &k), 0);
	cr_assert_float_eq(k, log(31.7 / 2.7) / log(3), 1e-12);
	cr_assert_float_eq(k, 2.24, 0.01);
}

Test(complexity, rejects_unusable_points)
{
	double n1[] = {100}, t1[] = {5};
	double same[] = {100, 100}, t2[] = {5, 6};
	double neg[] = {-1, 100}, t3[] = {5, 6};
	struct complexity_fit f;
	double k;

	cr_assert_eq(complexity_fit_best(n1, t1, 1, &f), -1);
	cr_assert_eq(complexity_fit_best(neg, t3, 2, &f), -1);
	cr_assert_eq(complexity_exponent(same, t2, 2, &k), -1);
	cr_assert_str_eq(complexity_name(BIGO_NLOGN), "O(N log N)");
	/* two sizes fit every model exactly: no best fit, only the ratio */
	{
		double n2[] = {64, 1500}, t4[] = {100, 2000};
		cr_assert_eq(complexity_fit_best(n2, t4, 2, &f), -1);
		cr_assert_eq(complexity_exponent(n2, t4, 2, &k), 0);
	}
}

Test(callgrind, parses_fixture_and_costs)
{
	struct callgrind_events ev;
	struct callgrind_cost c;
	char trig[256], err[256];

	cr_assert_eq(callgrind_parse_file("data/callgrind.out", &ev, trig,
					  sizeof(trig), err, sizeof(err)),
		     0, "%s", err);
	cr_assert_str_eq(trig, "Client Request: Scan/engine=pcre2/pattern=literal");
	cr_assert_eq(ev.ir, 1000000);
	cr_assert_eq(ev.dr, 300000);
	cr_assert_eq(ev.dw, 200000);
	cr_assert_eq(ev.i1mr, 1000);
	cr_assert_eq(ev.d1mr, 5000);
	cr_assert_eq(ev.d1mw, 2000);
	cr_assert_eq(ev.ilmr, 100);
	cr_assert_eq(ev.dlmr, 400);
	cr_assert_eq(ev.dlmw, 200);
	callgrind_cost(&ev, &c);
	cr_assert_float_eq(c.instr, 1000000, 0);
	cr_assert_float_eq(c.rw, 1500000, 0);
	cr_assert_float_eq(c.l1_hits, 1500000 - 8000, 0);
	cr_assert_float_eq(c.ll_hits, 8000 - 700, 0);
	cr_assert_float_eq(c.ram_hits, 700, 0);
	/* iai-callgrind: L1 + 5 LL + 35 RAM */
	cr_assert_float_eq(c.est_cycles, 1492000 + 5 * 7300 + 35 * 700, 0);
}

/* Parse a file held in a string. */
static int parse_text(const char *text, struct callgrind_events *ev,
		      char *err, size_t esize)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char trig[64];
	int rc;

	cr_assert_not_null(f);
	rc = callgrind_parse(f, "mem", ev, trig, sizeof(trig), err, esize);
	fclose(f);
	return rc;
}

Test(callgrind, columns_follow_the_events_header)
{
	struct callgrind_events ev;
	char err[256];

	/* another order, no totals: the summary line counts */
	cr_assert_eq(parse_text("events: Dw Ir DLmw Dr I1mr D1mr D1mw ILmr DLmr\n"
				"summary: 3 1 9 2 4 5 6 7 8\n", &ev, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(ev.ir, 1);
	cr_assert_eq(ev.dr, 2);
	cr_assert_eq(ev.dw, 3);
	cr_assert_eq(ev.dlmw, 9);
	cr_assert_eq(ev.dlmr, 8);
	/* trailing zero columns may be left out */
	cr_assert_eq(parse_text("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
				"summary: 0\ntotals: 77\n", &ev, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(ev.ir, 77);
	cr_assert_eq(ev.dlmw, 0);
}

Test(callgrind, rejects_incomplete_files)
{
	struct callgrind_events ev;
	char err[256];

	cr_assert_eq(parse_text("events: Ir\ntotals: 5\n", &ev, err,
				sizeof(err)), -1);
	cr_assert(strstr(err, "--cache-sim=yes") != NULL, "%s", err);
	cr_assert_eq(parse_text("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n",
				&ev, err, sizeof(err)), -1);
	cr_assert(strstr(err, "totals") != NULL, "%s", err);
	cr_assert_eq(parse_text("totals: 5\n", &ev, err, sizeof(err)), -1);
	cr_assert(strstr(err, "events:") != NULL, "%s", err);
	cr_assert_eq(parse_text("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
				"totals: 5 x\n", &ev, err, sizeof(err)), -1);
	cr_assert(strstr(err, "mem:2:") != NULL, "%s", err);
	cr_assert_eq(callgrind_parse_file("data/no-such-file", &ev, NULL, 0,
					  err, sizeof(err)), -1);
	cr_assert(strstr(err, "No such file") != NULL, "%s", err);
}

Test(callgrind, exact_units)
{
	cr_assert(metric_unit_exact("instr/op"));
	cr_assert(metric_unit_exact("est-cycles/op"));
	cr_assert(metric_unit_exact("RAM-hits/op"));
	cr_assert_not(metric_unit_exact("ns/op"));
	cr_assert_not(metric_unit_exact("matches"));
}

Test(summary, strip_size_level)
{
	char buf[128];
	double v = 0;

	cr_assert(summary_strip_level("FQDN/phase=match-name/domains=500/engine=re2",
				      "domains", buf, sizeof(buf), &v));
	cr_assert_str_eq(buf, "FQDN/phase=match-name/engine=re2");
	cr_assert_float_eq(v, 500, 0);
	cr_assert(summary_strip_level("Payload/size=1500", "size", buf,
				      sizeof(buf), &v));
	cr_assert_str_eq(buf, "Payload");
	cr_assert_not(summary_strip_level("Payload/size=big", "size", buf,
					  sizeof(buf), &v));
	cr_assert_not(summary_strip_level("Payload/xsize=15", "size", buf,
					  sizeof(buf), &v));
}

/* Results at three sizes, growing as N^2, in one group; one other row. */
Test(summary, growth_table_groups_by_name_without_size)
{
	struct results res;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	const double sizes[] = {100, 1000, 300};

	results_init(&res);
	for (int i = 0; i < 3; i++) {
		char name[128];
		struct result *r;
		snprintf(name, sizeof(name), "FQDN/phase=compile/domains=%g/engine=re2",
			 sizes[i]);
		r = results_add(&res, "fqdn", name);
		for (int k = 0; k < 3; k++) {
			result_sample_begin(r, 10);
			result_metric_add(r, "ns/op", BETTER_LOWER,
					  2 * sizes[i] * sizes[i] + k);
		}
	}
	result_sample_begin(results_add(&res, "fqdn", "FQDN/phase=generate/domains=100"), 1);
	cr_assert_eq(results_layout_add(&res, "fqdn", "growth size=domains"), 0);
	{
		struct rtables ts = {0};
		char err[128];
		cr_assert_eq(report_suite_tables(&res, "fqdn", NULL, &ts, err,
						 sizeof(err)), 0, "%s", err);
		cr_assert_eq(ts.n, 1);
		text_table(out, &ts.t[0]);
		rtables_release(&ts);
	}
	fclose(out);
	cr_assert(strstr(text, "| FQDN/phase=compile/engine=re2 |") != NULL, "%s", text);
	cr_assert(strstr(text, "O(N^2)") != NULL, "%s", text);
	cr_assert(strstr(text, "x100") != NULL, "ratio 1000 vs 100: %s", text);
	cr_assert(strstr(text, "N^2.00") != NULL, "%s", text);
	cr_assert(strstr(text, "generate") == NULL, "one size is no group");
	free(text);
	results_release(&res);
}

Test(summary, stats_table_marks_unstable_rows)
{
	struct results res;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	const double steady[] = {100, 101, 99, 100, 100, 101};
	const double shaky[] = {100, 150, 60, 130, 80, 100};
	struct result *a, *b;

	results_init(&res);
	results_add(&res, "scan", "Scan/engine=a");
	b = results_add(&res, "scan", "Scan/engine=b");
	a = results_find(&res, "Scan/engine=a"); /* the add may have moved it */
	for (int i = 0; i < 6; i++) {
		result_sample_begin(a, 1);
		result_metric_add(a, "ns/op", BETTER_LOWER, steady[i]);
		result_sample_begin(b, 1);
		result_metric_add(b, "ns/op", BETTER_LOWER, shaky[i]);
	}
	summary_write_stats(out, &res, "scan");
	fclose(out);
	cr_assert(strstr(text, "Statistics of ns/op for suite scan") != NULL);
	cr_assert(strstr(text, "[99.00, 101.0]") != NULL, "%s", text);
	cr_assert(strstr(strstr(text, "Scan/engine=b"), "unstable") != NULL, "%s", text);
	cr_assert(strstr(strstr(text, "Scan/engine=a"), "unstable") ==
		  strstr(strstr(text, "Scan/engine=b"), "unstable"), "%s", text);
	free(text);
	results_release(&res);
}
