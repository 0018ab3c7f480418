/*
 * layout.c - the report's tables from the declared layout (see layout.h).
 */
#include "report/layout.h"

#include "harness/bench.h"
#include "harness/complexity.h"
#include "report/gofmt.h"
#include "report/costliest.h"
#include "report/layout_decl.h"
#include "report/verdict.h"
#include "report/summary.h"
#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rcell *rtable_cell(const struct rtable *t, size_t r, size_t c)
{
	return &t->cells[r * t->ncols + c];
}

static void rtable_release(struct rtable *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cells);
	free(t->cols);
	free(t->numeric);
	free(t->title);
	free(t->caption);
	free(t->colkey);
	free(t->unit);
	free(t->summary);
}

void rtables_release(struct rtables *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		rtable_release(&ts->t[i]);
	free(ts->t);
	ts->t = NULL;
	ts->n = 0;
}

/* A new empty table with ncols unnamed columns, or NULL. */
struct rtable *rtable_new(struct rtables *ts, enum rtable_kind kind,
			  const char *title, const char *caption, size_t ncols)
{
	struct rtable *grown = realloc(ts->t, (ts->n + 1) * sizeof(*grown));
	struct rtable *t;

	if (grown == NULL)
		return NULL;
	ts->t = grown;
	t = &ts->t[ts->n];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->title = strdup(title);
	t->caption = strdup(caption);
	t->cols = calloc(ncols + 1, sizeof(*t->cols));
	t->numeric = calloc(ncols + 1, sizeof(*t->numeric));
	t->ncols = ncols;
	ts->n++; /* counted now, so a failure below is still released */
	if (t->title == NULL || t->caption == NULL || t->cols == NULL ||
	    t->numeric == NULL)
		return NULL;
	return t;
}

int rtable_col(struct rtable *t, size_t c, const char *name, int numeric)
{
	t->cols[c] = strdup(name);
	t->numeric[c] = numeric;
	return t->cols[c] ? 0 : -1;
}

/* Append an empty row; its index, or -1. */
long rtable_row(struct rtable *t)
{
	struct rcell *grown = realloc(t->cells, (t->nrows + 1) * t->ncols *
							sizeof(*grown));

	if (grown == NULL)
		return -1;
	t->cells = grown;
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = (struct rcell){NULL, NAN, 0};
	return (long)t->nrows++;
}

int rtable_text(struct rtable *t, long r, size_t c, const char *text)
{
	struct rcell *cell = rtable_cell(t, (size_t)r, c);

	free(cell->text);
	cell->text = text ? strdup(text) : NULL;
	return text == NULL || cell->text != NULL ? 0 : -1;
}

int rtable_meta(struct rtable *t, size_t nkeys, const char *colkey,
		const char *unit, enum metric_better better)
{
	t->nkeys = nkeys;
	t->better = better;
	t->colkey = colkey ? strdup(colkey) : NULL;
	t->unit = unit ? strdup(unit) : NULL;
	return (colkey && !t->colkey) || (unit && !t->unit) ? -1 : 0;
}

int rtable_num(struct rtable *t, long r, size_t c, double v,
		    const char *unit)
{
	char buf[64];

	if (isnan(v))
		return 0;
	gofmt_number(v, unit, buf, sizeof(buf));
	rtable_cell(t, (size_t)r, c)->v = v;
	return rtable_text(t, r, c, buf);
}

void rtable_best_in_column(struct rtable *t, size_t c, enum metric_better b)
{
	long best = -1;
	int differ = 0;

	if (b == BETTER_EXACT)
		return;
	for (size_t r = 0; r < t->nrows; r++) {
		double v = rtable_cell(t, r, c)->v;
		double bv = best < 0 ? NAN : rtable_cell(t, (size_t)best, c)->v;
		if (isnan(v))
			continue;
		differ |= best >= 0 && v != bv;
		if (best < 0 || (b == BETTER_LOWER ? v < bv : v > bv))
			best = (long)r;
	}
	if (best >= 0 && differ)
		rtable_cell(t, (size_t)best, c)->strong = 1;
}

/* --- declared tables ---------------------------------------------- */

#define TUPLE 1024
#define SEP '\x1f' /* between the values of a tuple */

int layout_tuple_of(const struct result *r, const struct ldecl_list *l,
		    char *buf, size_t size)
{
	char v[512];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		int w;
		if (!ldecl_key(r, l->s[i], v, sizeof(v)))
			return 0;
		w = snprintf(buf + used, size - used, "%s%s", i ? "\x1f" : "",
			     v);
		if (w < 0 || (size_t)w >= size - used)
			return 0;
		used += (size_t)w;
	}
	return 1;
}

void layout_tuple_part(const char *tuple, size_t i, char *buf, size_t size)
{
	size_t n;

	for (; i > 0 && tuple != NULL; i--) {
		tuple = strchr(tuple, SEP);
		tuple = tuple ? tuple + 1 : NULL;
	}
	n = tuple ? strcspn(tuple, "\x1f") : 0;
	snprintf(buf, size, "%.*s", (int)n, tuple ? tuple : "");
}

/*
 * 1 when r belongs to the table of split tuple `sig`: it has each split
 * key with that value, or lacks the declared shared key.
 */
static int split_match(const struct result *r, const struct ldecl *d,
		       const char *sig)
{
	char v[512], want[512];

	for (size_t i = 0; i < d->split.n; i++) {
		layout_tuple_part(sig, i, want, sizeof(want));
		if (!ldecl_key(r, d->split.s[i], v, sizeof(v))) {
			if (strcmp(d->split.s[i], d->shared) != 0)
				return 0;
			continue;
		}
		if (strcmp(v, want) != 0)
			return 0;
	}
	return 1;
}

static int in_suite(const struct result *r, const char *suite)
{
	return strcmp(r->suite, suite) == 0;
}

/* "k=v, k=v" of a split tuple, after the declared title. */
static void split_title(const struct ldecl *d, const char *sig, char *buf,
			size_t size)
{
	char v[512];
	int used = snprintf(buf, size, "%s", d->title);

	for (size_t i = 0; i < d->split.n && used >= 0 && (size_t)used < size;
	     i++) {
		char k[LDECL_WORD];
		layout_tuple_part(sig, i, v, sizeof(v));
		ldecl_key_name(d->split.s[i], k, sizeof(k));
		if (v[0] != '\0')
			used += snprintf(buf + used, size - (size_t)used,
					 "%s%s=%s", used ? (i ? ", " : ": ") : "",
					 k, v);
	}
	if (buf[0] == '\0')
		snprintf(buf, size, "all benchmarks");
}

/* Distinct tuples of keys l over the suite's results (those in the
 * table of sig when sig is not NULL), in order of appearance. */
static int tuples(const struct results *res, const char *suite,
		  const struct ldecl *d, const char *sig,
		  const struct ldecl_list *l, struct strlist *out)
{
	char t[TUPLE];

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		if (!in_suite(r, suite) || (sig && !split_match(r, d, sig)) ||
		    !layout_tuple_of(r, l, t, sizeof(t)))
			continue;
		if (strlist_add(out, t, strlen(t)) != 0)
			return -1;
	}
	return 0;
}

static double tuple_num(const char *t)
{
	return strtod(t, NULL);
}

/* Stable insertion sort of tuples by the number of their first value,
 * largest first. */
static void tuples_sort_desc(struct strlist *l)
{
	for (size_t i = 1; i < l->n; i++)
		for (size_t j = i; j > 0 && tuple_num(l->s[j - 1]) <
						    tuple_num(l->s[j]); j--) {
			char *t = l->s[j];
			l->s[j] = l->s[j - 1];
			l->s[j - 1] = t;
		}
}

/* The row's key cells. */
static int key_cells(struct rtable *t, long row, const char *tuple, size_t n)
{
	char v[512];
	int rc = 0;

	for (size_t k = 0; k < n; k++) {
		layout_tuple_part(tuple, k, v, sizeof(v));
		rc |= rtable_text(t, row, k, v);
		rtable_cell(t, (size_t)row, k)->v = strtod(v, NULL);
	}
	return rc;
}

/* A result's value cell: its metric, or its status when not ok. */
static int value_cell(struct rtable *t, long row, size_t c,
		      const struct result *r, const struct ldecl_metric *m)
{
	if (r->status != RESULT_OK)
		return rtable_text(t, row, c, result_status_name(r->status));
	return rtable_num(t, row, c, ldecl_value(r, m), m->name);
}

struct tbuild {
	const struct results *res;
	const char *suite;
	const struct ldecl *d;
	struct strlist colv; /* values of the column key */
};

/* The first result of the table sig with row tuple `row` (and column
 * value col when not NULL), or NULL. */
static const struct result *find_cell(const struct tbuild *b, const char *sig,
				      const char *row, const char *col)
{
	const struct ldecl *d = b->d;
	char t[TUPLE], v[512];

	for (size_t i = 0; i < b->res->n; i++) {
		const struct result *r = &b->res->r[i];
		if (!in_suite(r, b->suite) || !split_match(r, d, sig) ||
		    !layout_tuple_of(r, &d->rows, t, sizeof(t)) || strcmp(t, row) != 0)
			continue;
		if (col == NULL || (ldecl_key(r, d->col, v, sizeof(v)) &&
				    strcmp(v, col) == 0))
			return r;
	}
	return NULL;
}

/* A lead metric of a row: from any ok result of the row. */
static double lead_value(const struct tbuild *b, const char *sig,
			 const char *row, const struct ldecl_metric *m)
{
	char t[TUPLE];

	for (size_t i = 0; i < b->res->n; i++) {
		const struct result *r = &b->res->r[i];
		double v;
		if (!in_suite(r, b->suite) || r->status != RESULT_OK ||
		    !split_match(r, b->d, sig) ||
		    !layout_tuple_of(r, &b->d->rows, t, sizeof(t)) || strcmp(t, row))
			continue;
		v = ldecl_value(r, m);
		if (!isnan(v))
			return v;
	}
	return NAN;
}

/* A row of a table with a column per value of the column key. */
static int col_row(struct rtable *t, const struct tbuild *b, const char *sig,
		   const char *row)
{
	const struct ldecl *d = b->d;
	long r = rtable_row(t);
	size_t c = d->rows.n;
	int rc;

	if (r < 0)
		return -1;
	rc = key_cells(t, r, row, d->rows.n);
	for (size_t l = 0; l < d->nlead; l++, c++)
		rc |= rtable_num(t, r, c, lead_value(b, sig, row, &d->lead[l]),
				 d->lead[l].name);
	for (size_t v = 0; v < b->colv.n; v++, c++) {
		const struct result *x = find_cell(b, sig, row, b->colv.s[v]);
		if (x != NULL)
			rc |= value_cell(t, r, c, x, &d->metric[0]);
	}
	return rc;
}

/* A row per result: its key cells and metrics. */
static int result_row(struct rtable *t, const struct ldecl *d,
		      const struct result *x)
{
	char tup[TUPLE];
	long r = rtable_row(t);
	size_t c = d->rows.n ? d->rows.n : 1;
	int rc;

	if (r < 0)
		return -1;
	if (d->rows.n == 0)
		rc = rtable_text(t, r, 0, x->name);
	else
		rc = layout_tuple_of(x, &d->rows, tup, sizeof(tup)) == 1 ?
			     key_cells(t, r, tup, d->rows.n) : 0;
	if (x->status != RESULT_OK)
		return rc | rtable_text(t, r, c, result_status_name(x->status));
	for (size_t m = 0; m < d->nmetric; m++)
		rc |= rtable_num(t, r, c + m, ldecl_value(x, &d->metric[m]),
				 d->metric[m].name);
	return rc;
}

static int table_head(struct rtable *t, const struct tbuild *b)
{
	const struct ldecl *d = b->d;
	const struct ldecl_metric *vm = d->col[0] ? &d->metric[0] : NULL;
	size_t c = 0;
	int rc = 0;

	if (d->rows.n == 0)
		rc |= rtable_col(t, c++, "benchmark", 0);
	for (size_t k = 0; k < d->rows.n; k++) {
		char name[LDECL_WORD];
		ldecl_key_name(d->rows.s[k], name, sizeof(name));
		rc |= rtable_col(t, c++, name, 0);
	}
	for (size_t l = 0; l < d->nlead; l++)
		rc |= rtable_col(t, c++, d->lead[l].name, 1);
	if (vm != NULL)
		for (size_t v = 0; v < b->colv.n; v++)
			rc |= rtable_col(t, c++, b->colv.s[v], 1);
	else
		for (size_t m = 0; m < d->nmetric; m++)
			rc |= rtable_col(t, c++, d->metric[m].name, 1);
	return rc | rtable_meta(t, d->rows.n ? d->rows.n : 1,
				vm ? d->col : NULL, vm ? vm->name : NULL,
				vm ? ldecl_better(b->res, b->suite, vm)
				   : BETTER_LOWER);
}

static void table_caption(const struct ldecl *d, char *buf, size_t size)
{
	if (d->col[0])
		snprintf(buf, size, "Median %s; a row per %s, a column per "
			 "%s.", d->metric[0].name, d->rows.s[0], d->col);
	else
		snprintf(buf, size, "Median of the samples%s.",
			 d->best ? "; the best of each column in bold" : "");
}

/* Does a cell of t at column `from` or past it hold a number? */
static int rtable_has_number(const struct rtable *t, size_t from)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = from; c < t->ncols; c++)
			if (!isnan(rtable_cell(t, r, c)->v))
				return 1;
	return 0;
}

/* The table of split tuple sig. */
static int decl_table_for(struct tbuild *b, const char *sig,
			  struct rtables *out)
{
	const struct ldecl *d = b->d;
	struct strlist rows = {0};
	char title[512], caption[256];
	struct rtable *t;
	size_t nk = d->rows.n ? d->rows.n : 1, nv;
	int rc = -1;

	nv = d->col[0] ? d->nlead + b->colv.n : d->nmetric;
	split_title(d, sig, title, sizeof(title));
	table_caption(d, caption, sizeof(caption));
	t = rtable_new(out, RTABLE_TABLE, title, caption, nk + nv);
	if (t == NULL || table_head(t, b) != 0)
		goto out;
	t->nlead = d->col[0] ? d->nlead : 0;
	snprintf(t->keyunit, sizeof(t->keyunit), "%s", d->keyunit);
	if (d->col[0]) {
		if (tuples(b->res, b->suite, d, sig, &d->rows, &rows) != 0)
			goto out;
		if (d->rows_desc)
			tuples_sort_desc(&rows);
		for (size_t i = 0; i < rows.n; i++)
			if (col_row(t, b, sig, rows.s[i]) != 0)
				goto out;
	} else {
		for (size_t i = 0; i < b->res->n; i++)
			if (in_suite(&b->res->r[i], b->suite) &&
			    split_match(&b->res->r[i], d, sig) &&
			    result_row(t, d, &b->res->r[i]) != 0)
				goto out;
	}
	for (size_t c = nk; d->best && c < t->ncols; c++)
		rtable_best_in_column(t, c, d->col[0] ? t->better :
			ldecl_better(b->res, b->suite, &d->metric[c - nk]));
	if (!rtable_has_number(t, nk + t->nlead)) {
		/* a metric only some results have (B/stream): no table
		   where none has it; their statuses are in other tables */
		rtable_release(t);
		out->n--;
	}
	rc = 0;
out:
	strlist_release(&rows);
	return rc;
}

static int decl_tables(const struct results *res, const char *suite,
		       const struct ldecl *d, struct rtables *out)
{
	struct tbuild b = {res, suite, d, {0}};
	struct strlist sigs = {0};
	int rc = -1;

	if (d->nmetric == 0)
		return 0;
	if (tuples(res, suite, d, NULL, &d->split, &sigs) != 0)
		goto out;
	/* only results without the shared key (payload's base alone): one
	   table of them, its split values empty */
	if (sigs.n == 0 && d->shared[0] &&
	    strlist_add(&sigs, "", 0) != 0)
		goto out;
	if (d->col[0]) {
		struct ldecl_list one = {.n = 1};
		memcpy(one.s[0], d->col, sizeof(one.s[0]));
		if (tuples(res, suite, d, NULL, &one, &b.colv) != 0)
			goto out;
	}
	for (size_t s = 0; s < sigs.n; s++)
		if (decl_table_for(&b, sigs.s[s], out) != 0)
			goto out;
	rc = 0;
out:
	strlist_release(&sigs);
	strlist_release(&b.colv);
	return rc;
}

/* --- growth with size --------------------------------------------- */

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
		if (!in_suite(r, suite) || r->status != RESULT_OK ||
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
		if (!in_suite(r, suite) || r->status != RESULT_OK ||
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

static int growth_table(const struct results *res, const char *suite,
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

/* --- a suite's tables ---------------------------------------------- */

/* The layout of a suite without a declaration: a row per benchmark, a
 * column per metric. */
static int default_decl(const struct results *res, const char *suite,
			struct ldecl *d)
{
	struct strlist units = {0};

	memset(d, 0, sizeof(*d));
	d->kind = LDECL_TABLE;
	if (view_units(res, suite, &units) != 0)
		return -1;
	for (size_t u = 0; u < units.n && d->nmetric < LDECL_MAX; u++) {
		struct ldecl_metric *m = &d->metric[d->nmetric++];
		snprintf(m->name, LDECL_WORD, "%s", units.s[u]);
		snprintf(m->a, LDECL_WORD, "%s", units.s[u]);
	}
	strlist_release(&units);
	return 0;
}

static int one_decl(const struct results *res, const char *suite,
		    const struct ldecl *d, const struct report_opts *opts,
		    struct rtables *out)
{
	switch (d->kind) {
	case LDECL_VERDICT: return verdict_build(res, suite, d, opts, out);
	case LDECL_GROWTH: return growth_table(res, suite, d, out);
	case LDECL_TABLE: return decl_tables(res, suite, d, out);
	case LDECL_COSTLIEST: return costliest_tables(res, suite, d, out);
	}
	return 0;
}

/*
 * The budgets the reader set, else those the results record (the run's
 * --compile-budget, --heap-budget) into eff.  0, or -1 when a recorded
 * one does not parse (err names it).
 */
static int budgets_of(const struct results *res, const struct report_opts *opts,
		      struct report_opts *eff, char *err, size_t errsize)
{
	const char *cb = results_config_get(res, REPORT_CONFIG_COMPILE_BUDGET);
	const char *hb = results_config_get(res, REPORT_CONFIG_HEAP_BUDGET);

	*eff = opts != NULL ? *opts : (struct report_opts){0};
	if (eff->budget_ns <= 0 && cb != NULL &&
	    bench_parse_duration(cb, &eff->budget_ns) != 0) {
		snprintf(err, errsize, "configuration %s: '%.64s' is not a "
			 "duration such as 50ms", REPORT_CONFIG_COMPILE_BUDGET, cb);
		return -1;
	}
	if (eff->heap_bytes <= 0 && hb != NULL &&
	    ldecl_bytes(hb, &eff->heap_bytes) != 0) {
		snprintf(err, errsize, "configuration %s: '%.64s' is not a "
			 "size such as 16MiB", REPORT_CONFIG_HEAP_BUDGET, hb);
		return -1;
	}
	return 0;
}

int report_suite_tables(const struct results *res, const char *suite,
			const struct report_opts *opts, struct rtables *out,
			char *err, size_t errsize)
{
	struct report_opts eff;
	struct ldecl d;

	err[0] = '\0';
	if (budgets_of(res, opts, &eff, err, errsize) != 0)
		return -1;
	opts = &eff;
	if (!results_layout_has(res, suite))
		return default_decl(res, suite, &d) ||
		       decl_tables(res, suite, &d, out) ? -1 : 0;
	/* verdicts first, then the tables in the declared order */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < res->nlayout; i++) {
			if (strcmp(res->layout[i].suite, suite) != 0)
				continue;
			if (ldecl_parse(res->layout[i].line, &d, err,
					errsize) != 0)
				return -1;
			if ((d.kind == LDECL_VERDICT) != (pass == 0))
				continue;
			if (one_decl(res, suite, &d, opts, out) != 0)
				return -1;
		}
	return 0;
}
int report_failure_table(const struct results *res, struct rtables *out)
{
	struct rtable *t = NULL;

	for (size_t i = 0; i < res->n; i++) {
		const struct result *r = &res->r[i];
		long row;
		if (r->status == RESULT_OK)
			continue;
		if (t == NULL) {
			t = rtable_new(out, RTABLE_FAILURES, "not measured",
				      "Benchmarks that got no time: their "
				      "answers disagreed (mismatch), they "
				      "failed, timed out, or the engine lacks "
				      "what the case needs.", 3);
			if (t == NULL || rtable_col(t, 0, "benchmark", 0) != 0 ||
			    rtable_col(t, 1, "status", 0) != 0 ||
			    rtable_col(t, 2, "message", 0) != 0)
				return -1;
		}
		row = rtable_row(t);
		if (row < 0 || rtable_text(t, row, 0, r->name) != 0 ||
		    rtable_text(t, row, 1, result_status_name(r->status)) != 0 ||
		    rtable_text(t, row, 2, r->message) != 0)
			return -1;
	}
	return 0;
}
