/*
 * layout_growth.c - a `growth` layout line's table (see layout_growth.h).
 */
#include "report/layout_growth.h"

#include "harness/complexity.h"
#include "report/summary.h"
#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROWTH_MAX_SIZES 32

/* The ok results of a series at each size (NULL where none). */
static void series_at(const struct results *res, const char *suite,
		      const char *key, const char *series,
		      const struct strlist *sizes, const struct result **at)
{
	char buf[1024];
	double v;

	for (size_t k = 0; k < sizes->n; k++)
		at[k] = NULL;
	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (strcmp(r->suite, suite) != 0 || r->status != RESULT_OK ||
		    !summary_strip_level(r->name, key, buf, sizeof(buf), &v) ||
		    strcmp(buf, series) != 0)
			continue;
		for (size_t k = 0; k < sizes->n; k++)
			if (strtod(sizes->s[k], NULL) == v)
				at[k] = r;
	}
}

static int growth_fit_cells(struct rtable *t, long row, size_t c,
			    const double *x, const double *y, size_t np)
{
	struct complexity_fit fit;
	char buf[64];
	double k;
	int rc = 0;

	if (np >= 2) {
		snprintf(buf, sizeof(buf), "x%.3g", y[np - 1] / y[0]);
		rc |= rtable_text(t, row, c, buf);
		rtable_cell(t, (size_t)row, c)->v = y[np - 1] / y[0];
	}
	if (complexity_exponent(x, y, np, &k) == 0) {
		snprintf(buf, sizeof(buf), "N^%.2f", k);
		rc |= rtable_text(t, row, c + 1, buf);
		rtable_cell(t, (size_t)row, c + 1)->v = k;
	}
	if (complexity_fit_best(x, y, np, &fit) == 0)
		rc |= rtable_text(t, row, c + 2, complexity_name(fit.model));
	return rc;
}

static int growth_row(struct rtable *t, const struct results *res,
		      const char *suite, const struct ldecl *d,
		      const char *series, const struct strlist *sizes)
{
	const struct result *at[GROWTH_MAX_SIZES];
	double x[GROWTH_MAX_SIZES], y[GROWTH_MAX_SIZES];
	size_t np = 0;
	long row;
	int rc;

	series_at(res, suite, d->size, series, sizes, at);
	for (size_t k = 0; k < sizes->n; k++) {
		double v = at[k] ? ldecl_value(at[k], &d->metric[0]) : NAN;
		if (v > 0) {
			x[np] = strtod(sizes->s[k], NULL);
			y[np++] = v;
		}
	}
	if (np < 2)
		return 0; /* one size: nothing grows */
	row = rtable_row(t);
	if (row < 0)
		return -1;
	rc = rtable_text(t, row, 0, series);
	for (size_t k = 0; k < sizes->n; k++)
		if (at[k] != NULL)
			rc |= rtable_num(t, row, 1 + k,
					 ldecl_value(at[k], &d->metric[0]),
					 d->metric[0].name);
	return rc | growth_fit_cells(t, row, 1 + sizes->n, x, y, np);
}

static int growth_head(struct rtable *t, const struct ldecl *d,
		       const struct strlist *sizes)
{
	char col[LDECL_WORD + 32];
	int rc = rtable_col(t, 0, "benchmark", 0);

	for (size_t k = 0; k < sizes->n; k++) {
		snprintf(col, sizeof(col), "%s=%s", d->size, sizes->s[k]);
		rc |= rtable_col(t, 1 + k, col, 1);
	}
	rc |= rtable_col(t, 1 + sizes->n, "growth", 1);
	rc |= rtable_col(t, 2 + sizes->n, "power law", 1);
	rc |= rtable_col(t, 3 + sizes->n, "best fit", 0);
	return rc | rtable_meta(t, 1, d->size, d->metric[0].name,
				BETTER_LOWER);
}

/* The distinct sizes (ascending) and series of the suite. */
static int growth_axes(const struct results *res, const char *suite,
		       const char *key, struct strlist *sizes,
		       struct strlist *series)
{
	char buf[1024];
	double v;

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (strcmp(r->suite, suite) != 0 || r->status != RESULT_OK ||
		    !summary_strip_level(r->name, key, buf, sizeof(buf), &v))
			continue;
		if (strlist_add(series, buf, strlen(buf)) != 0)
			return -1;
		snprintf(buf, sizeof(buf), "%g", v);
		if (strlist_add(sizes, buf, strlen(buf)) != 0)
			return -1;
	}
	strlist_sort_numeric(sizes, 0);
	return 0;
}

int layout_growth_build(const struct results *res, const char *suite,
			const struct ldecl *d, struct rtables *out)
{
	struct ldecl g = *d;
	struct strlist sizes = {0}, series = {0};
	struct rtable *t;
	char title[256], caption[512];
	int rc = -1;

	if (g.nmetric == 0) {
		g.nmetric = 1;
		snprintf(g.metric[0].name, LDECL_WORD, "%s", VIEW_TIME_UNIT);
		snprintf(g.metric[0].a, LDECL_WORD, "%s", VIEW_TIME_UNIT);
	}
	if (growth_axes(res, suite, g.size, &sizes, &series) != 0)
		goto out;
	rc = 0;
	if (sizes.n < 2 || sizes.n > GROWTH_MAX_SIZES)
		goto out;
	rc = -1;
	snprintf(title, sizeof(title), "growth with %s", g.size);
	snprintf(caption, sizeof(caption), "Median %s per %s; growth: the "
		 "largest size's over the smallest's; power law: k of a "
		 "least-squares fit %s ~ N^k; best fit of O(1), O(log N), "
		 "O(N), O(N log N), O(N^2), O(N^3) by least squares (3 sizes "
		 "or more).", g.metric[0].name, g.size, g.metric[0].name);
	t = rtable_new(out, RTABLE_GROWTH, title, caption, 4 + sizes.n);
	if (t == NULL || growth_head(t, &g, &sizes) != 0)
		goto out;
	snprintf(t->keyunit, sizeof(t->keyunit), "%s", g.keyunit);
	for (size_t s = 0; s < series.n; s++)
		if (growth_row(t, res, suite, &g, series.s[s], &sizes) != 0)
			goto out;
	rc = 0;
out:
	strlist_release(&sizes);
	strlist_release(&series);
	return rc;
}
