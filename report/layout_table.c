/*
 * layout_table.c - a `table` layout line's tables (see layout_table.h).
 */
#include "report/layout_table.h"

#include "report/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUPLE 1024

/*
 * 1 when r belongs to the table of split tuple `sig`: it has each split
 * key with that value, or lacks the declared shared key.
 */
static int split_match(const struct result *r, const struct ldecl *d,
		       const char *sig)
{
	char v[512], want[512];

	for (size_t i = 0; i < d->split.n; i++) {
		ldecl_tuple_part(sig, i, want, sizeof(want));
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
		ldecl_tuple_part(sig, i, v, sizeof(v));
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
		    !ldecl_tuple_of(r, l, t, sizeof(t)))
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
		ldecl_tuple_part(tuple, k, v, sizeof(v));
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
 * value col when not NULL), one of the table's own before one shared
 * (payload's base of no engine, where an engine has a base row of its
 * own: xdp's in the kernel), or NULL. */
static const struct result *find_cell(const struct tbuild *b, const char *sig,
				      const char *row, const char *col)
{
	const struct ldecl *d = b->d;
	const struct result *shared = NULL;
	char t[TUPLE], v[512];

	for (size_t i = 0; i < b->res->n; i++) {
		const struct result *r = &b->res->r[i];
		if (!in_suite(r, b->suite) || !split_match(r, d, sig) ||
		    !ldecl_tuple_of(r, &d->rows, t, sizeof(t)) || strcmp(t, row) != 0)
			continue;
		if (col != NULL && !(ldecl_key(r, d->col, v, sizeof(v)) &&
				     strcmp(v, col) == 0))
			continue;
		if (!d->shared[0] || ldecl_key(r, d->shared, v, sizeof(v)))
			return r;
		if (shared == NULL)
			shared = r;
	}
	return shared;
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
		    !ldecl_tuple_of(r, &b->d->rows, t, sizeof(t)) || strcmp(t, row))
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
		rc = ldecl_tuple_of(x, &d->rows, tup, sizeof(tup)) == 1 ?
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
		rtables_drop_last(out);
	}
	rc = 0;
out:
	strlist_release(&rows);
	return rc;
}

int layout_table_build(const struct results *res, const char *suite,
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
