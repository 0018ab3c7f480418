/*
 * costliest.c - the `costliest` layout line (report/layout_decl.h): per
 * value of the split keys, the items (rules) that cost most, as
 * Suricata's rule profiling and Snort's profile_rules list them, each
 * with its share of the inputs matched and a flag when that share is
 * over the declared bound, then the sum over every item beside the cost
 * of the whole set (the `cost` result) measured on the same inputs.
 */
#include "report/costliest.h"

#include "report/rtable.h"
#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUPLE 1024

/* One item of a table: its result and its cost. */
struct item {
	const struct result *r;
	double cost;
};

static int by_cost_desc(const void *a, const void *b)
{
	double x = ((const struct item *)a)->cost;
	double y = ((const struct item *)b)->cost;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The split tuple of r, into buf: 1, or 0 when r is not an item. */
static int item_split(const struct result *r, const struct ldecl *d,
		      char *buf, size_t size)
{
	char v[512];

	if (r->status != RESULT_OK || !ldecl_key(r, d->rows.s[0], v, sizeof(v)))
		return 0;
	return ldecl_tuple_of(r, &d->split, buf, size);
}

/*
 * The whole set's result of split tuple sig: the suite's result with
 * cost_key = cost_value whose split keys (renamed by `as`) hold sig's
 * values; NULL when none.
 */
static const struct result *whole_of(const struct results *res,
				     const char *suite, const struct ldecl *d,
				     const char *sig)
{
	char v[512], want[512];

	for (size_t i = 0; d->cost_key[0] && i < res->n; i++) {
		const struct result *r = &res->r[i];
		int ok = strcmp(r->suite, suite) == 0 && r->status == RESULT_OK &&
			 result_key(r, d->cost_key, v, sizeof(v)) &&
			 strcmp(v, d->cost_value) == 0;
		for (size_t k = 0; ok && k < d->split.n; k++) {
			const char *key = strcmp(d->split.s[k], d->as_from) == 0
						  ? d->as_to : d->split.s[k];
			ldecl_tuple_part(sig, k, want, sizeof(want));
			ok = result_key(r, key, v, sizeof(v)) && !strcmp(v, want);
		}
		if (ok)
			return r;
	}
	return NULL;
}

static int head(struct rtable *t, const struct ldecl *d)
{
	char name[LDECL_WORD];
	int rc;

	ldecl_key_name(d->rows.s[0], name, sizeof(name));
	rc = rtable_col(t, 0, "rank", 1) | rtable_col(t, 1, name, 0);
	for (size_t m = 0; m < d->nmetric; m++)
		rc |= rtable_col(t, 2 + m, d->metric[m].name, 1);
	rc |= rtable_col(t, 2 + d->nmetric, "% of the sum", 1);
	rc |= rtable_col(t, 3 + d->nmetric, "flag", 0);
	return rc | rtable_meta(t, 2, NULL, NULL, BETTER_LOWER);
}

/* Is r over the flag's bound? */
static int flagged(const struct ldecl *d, const struct result *r)
{
	for (size_t m = 1; d->flag[0] && m < d->nmetric; m++)
		if (!strcmp(d->metric[m].name, d->flag) &&
		    ldecl_value(r, &d->metric[m]) > d->flag_over)
			return 1;
	return 0;
}

/* A row: rank (or ""), label, metrics of r (or just cost), share. */
static int row(struct rtable *t, const struct ldecl *d, const char *rank,
	       const char *label, const struct result *r, double cost,
	       double sum)
{
	long at = rtable_row(t);
	int rc = at < 0 ? -1 : 0;
	char flag[96] = "";

	rc |= rtable_text(t, at, 0, rank) | rtable_text(t, at, 1, label);
	for (size_t m = 0; rc == 0 && m < d->nmetric; m++) {
		double v = m == 0 ? cost : r ? ldecl_value(r, &d->metric[m]) : NAN;
		rc |= rtable_num(t, at, 2 + m, v, d->metric[m].a);
		if (m > 0 && r != NULL && d->flag[0] &&
		    !strcmp(d->metric[m].name, d->flag) && v > d->flag_over)
			snprintf(flag, sizeof(flag), "matches over %g %s",
				 d->flag_over, d->flag);
	}
	if (rc == 0 && sum > 0)
		rc |= rtable_num(t, at, 2 + d->nmetric, 100 * cost / sum, "%");
	return rc | (flag[0] ? rtable_text(t, at, 3 + d->nmetric, flag) : 0);
}

/* The items of sig, costliest first, into *out (*n of them). */
static int items_of(const struct results *res, const char *suite,
		    const struct ldecl *d, const char *sig, struct item **out,
		    size_t *n, double *sum)
{
	char t[TUPLE];
	struct item *it = calloc(res->n + 1, sizeof(*it));

	*n = 0;
	*sum = 0;
	if (it == NULL)
		return -1;
	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		double c;
		if (strcmp(r->suite, suite) != 0 ||
		    !item_split(r, d, t, sizeof(t)) || strcmp(t, sig) != 0)
			continue;
		c = ldecl_value(r, &d->metric[0]);
		if (!isfinite(c))
			continue;
		it[(*n)++] = (struct item){r, c};
		*sum += c;
	}
	qsort(it, *n, sizeof(*it), by_cost_desc);
	*out = it;
	return 0;
}

static void caption_of(const struct ldecl *d, const struct result *whole,
		       size_t n, double sum, char *buf, size_t size)
{
	const char *unit = d->metric[0].name;
	int o = snprintf(buf, size, "Each %s alone over the same inputs, "
			 "costliest first (median %s)%s%s; %zu timed, their sum "
			 "%.4g %s", d->rows.s[0], unit,
			 d->nmetric > 1 ? ", with the " : "",
			 d->nmetric > 1 ? d->metric[1].name : "", n, sum, unit);

	if (o < 0 || (size_t)o >= size)
		return;
	if (whole != NULL)
		o += snprintf(buf + o, size - (size_t)o, "; the whole set "
			      "(%s=%s) %.4g %s: the sum is %.3gx the set", 
			      d->cost_key, d->cost_value,
			      ldecl_value(whole, &d->metric[0]), unit,
			      sum / ldecl_value(whole, &d->metric[0]));
	if (o > 0 && (size_t)o < size && d->flag[0])
		snprintf(buf + o, size - (size_t)o, ". Flagged, and listed "
			 "below the top %zu too: over %g %s, so it tells little "
			 "alone.", d->top ? d->top : 10, d->flag_over, d->flag);
}

static int table_for(const struct results *res, const char *suite,
		     const struct ldecl *d, const char *sig, struct rtables *out)
{
	struct item *it = NULL;
	size_t n, top = d->top ? d->top : 10;
	double sum;
	const struct result *whole = whole_of(res, suite, d, sig);
	char title[1200], caption[1024], label[512], rank[24];
	struct rtable *t;
	int rc = -1;

	if (items_of(res, suite, d, sig, &it, &n, &sum) != 0)
		return -1;
	snprintf(title, sizeof(title), "%s", d->title[0] ? d->title
						       : "the costliest");
	for (size_t k = 0; k < d->split.n; k++) {
		char v[512], key[LDECL_WORD];
		size_t o = strlen(title);
		ldecl_tuple_part(sig, k, v, sizeof(v));
		ldecl_key_name(d->split.s[k], key, sizeof(key));
		snprintf(title + o, sizeof(title) - o, "%s%s=%s",
			 k ? ", " : ": ", key, v);
	}
	caption_of(d, whole, n, sum, caption, sizeof(caption));
	t = rtable_new(out, RTABLE_TABLE, title, caption, 4 + d->nmetric);
	if (t == NULL || head(t, d) != 0)
		goto out;
	/* the top ones, then any flagged one below them */
	for (size_t i = 0; i < n; i++) {
		if (i >= top && !flagged(d, it[i].r))
			continue;
		snprintf(rank, sizeof(rank), "%zu", i + 1);
		if (!ldecl_key(it[i].r, d->rows.s[0], label, sizeof(label)) ||
		    row(t, d, rank, label, it[i].r, it[i].cost, sum) != 0)
			goto out;
	}
	snprintf(label, sizeof(label), "sum of the %zu", n);
	if (row(t, d, "", label, NULL, sum, sum) != 0)
		goto out;
	snprintf(label, sizeof(label), "whole set (%s=%s)", d->cost_key,
		 d->cost_value);
	if (whole != NULL && row(t, d, "", label, whole,
				 ldecl_value(whole, &d->metric[0]), sum) != 0)
		goto out;
	rc = 0;
out:
	free(it);
	return rc;
}

int costliest_tables(const struct results *res, const char *suite,
		     const struct ldecl *d, struct rtables *out)
{
	struct strlist sigs = {0};
	char t[TUPLE];
	int rc = 0;

	if (d->rows.n == 0 || d->nmetric == 0)
		return 0;
	for (size_t i = 0; i < res->n; i++)
		if (strcmp(res->r[i].suite, suite) == 0 &&
		    item_split(&res->r[i], d, t, sizeof(t)) &&
		    strlist_add(&sigs, t, strlen(t)) != 0)
			rc = -1;
	for (size_t s = 0; rc == 0 && s < sigs.n; s++)
		rc = table_for(res, suite, d, sigs.s[s], out);
	strlist_release(&sigs);
	return rc;
}
