/*
 * rtable.c - the report's table model (see rtable.h).
 */
#include "report/rtable.h"

#include "report/gofmt.h"

#include <math.h>
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

void rtables_drop_last(struct rtables *ts)
{
	if (ts->n == 0)
		return;
	rtable_release(&ts->t[ts->n - 1]);
	ts->n--;
}

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

int rtable_has_number(const struct rtable *t, size_t from)
{
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = from; c < t->ncols; c++)
			if (!isnan(rtable_cell(t, r, c)->v))
				return 1;
	return 0;
}
