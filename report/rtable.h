/*
 * rtable.h - the report's table model: what every table builder fills
 * (the layout kinds of report/layout.h, the verdicts, costliest, rxbench
 * compare) and every writer draws (report/text.h, report/md.h,
 * report/html.h, report/compare_html.c), so they all agree.  Cell text
 * is plain (not escaped): each writer escapes it.  Nothing here knows a
 * layout or a format.
 */
#ifndef RXB_RTABLE_H
#define RXB_RTABLE_H

#include <stddef.h>

#include "harness/results.h"

enum rtable_kind {
	RTABLE_VERDICT,  /* the answer: a row per group, caption the text */
	RTABLE_TABLE,    /* a declared table */
	RTABLE_GROWTH,   /* a series per row, a column per size */
	RTABLE_FAILURES,
	RTABLE_CHANGES, /* rxbench compare: benchstat's look in text */
};

struct rcell {
	char *text;  /* as shown; NULL for an empty cell */
	double v;    /* the number it shows, for sorting; NAN for text */
	int strong;  /* shown in bold: the best of its row or column, a
			regression */
};

struct rtable {
	enum rtable_kind kind;
	char *title;   /* "phase=match-name", "engine=hyperscan" */
	char *caption; /* a sentence on what the numbers are */
	char *summary; /* a verdict's answer in a few sentences, or NULL */
	char **cols;
	int *numeric;  /* per column: right-aligned numbers */
	size_t ncols, nrows;
	struct rcell *cells; /* nrows x ncols, row-major */
	/* What charts need (0/NULL when not known): the leading columns
	   that hold key values (strategy, engine, size), the key the other
	   columns are values of (scenario; NULL: each column is a metric),
	   the unit of those columns, the better direction of the values. */
	size_t nkeys, nlead; /* nlead: metric columns before colkey's */
	char *colkey, *unit;
	char keyunit[64]; /* the first key's unit ("bytes"), or "" */
	enum metric_better better;
};

struct rtables {
	struct rtable *t;
	size_t n;
};

/*
 * Building a table: append a table of ncols columns to ts (NULL when
 * out of memory; ts still counts it, so rtables_release frees it), name
 * column c, append an empty row (its index, or -1), set a cell's text
 * (copied; 0 or -1).
 */
struct rtable *rtable_new(struct rtables *ts, enum rtable_kind kind,
			  const char *title, const char *caption, size_t ncols);
int rtable_col(struct rtable *t, size_t c, const char *name, int numeric);
long rtable_row(struct rtable *t);
int rtable_text(struct rtable *t, long r, size_t c, const char *text);

/* Set what charts need: the number of key columns, the key the other
 * columns are values of, their unit (both copied; NULL: none) and the
 * better direction.  0, or -1 out of memory. */
int rtable_meta(struct rtable *t, size_t nkeys, const char *colkey,
		const char *unit, enum metric_better better);

/* A number in Go's precision for its unit into cell (r, c); nothing
 * when v is NAN.  0 or -1. */
int rtable_num(struct rtable *t, long r, size_t c, double v,
	       const char *unit);

/* Mark the best number of column c, unless every number ties. */
void rtable_best_in_column(struct rtable *t, size_t c, enum metric_better b);

/* The cell at row r, column c. */
struct rcell *rtable_cell(const struct rtable *t, size_t r, size_t c);

/* Does a cell of t at column `from` or past it hold a number? */
int rtable_has_number(const struct rtable *t, size_t from);

/* Drop the last table of ts (one just built that shows nothing). */
void rtables_drop_last(struct rtables *ts);

/* Free every table of ts; ts is empty after. */
void rtables_release(struct rtables *ts);

#endif
