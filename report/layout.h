/*
 * layout.h - the report's tables, built once from the results and the
 * layout the results carry (report/layout_decl.h), drawn by every writer
 * (the run's text, rxbench report's text, Markdown, HTML), so they all
 * agree.  Nothing here names a suite or guesses from key names: a suite
 * without a declaration gets one table, a row per benchmark and a column
 * per metric.
 *
 * Per suite (report_suite_tables): the verdicts first (report/verdict.h),
 * then each declared table and growth table in the declared order.
 * Cell text is plain (not escaped): each writer escapes it.
 */
#ifndef RXB_LAYOUT_H
#define RXB_LAYOUT_H

#include <stddef.h>

#include "harness/results.h"

enum rtable_kind {
	RTABLE_VERDICT,  /* the answer: a row per group, caption the text */
	RTABLE_TABLE,    /* a declared table */
	RTABLE_GROWTH,   /* a series per row, a column per size */
	RTABLE_FAILURES,
	RTABLE_CHANGES, /* rxbench compare */
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
 * What a reader may set: the verdict budgets (0: the ones the results
 * record, as the configuration pairs below, which `rxbench run
 * --compile-budget=D --heap-budget=B` writes; else the declared ones).
 */
struct report_opts {
	double budget_ns;
	double heap_bytes;
};
#define REPORT_CONFIG_COMPILE_BUDGET "compile-budget" /* "20ms" */
#define REPORT_CONFIG_HEAP_BUDGET "heap-budget"       /* "4MiB" */

/*
 * The tables of one suite, appended to out (opts may be NULL).  0, or -1
 * when out of memory, a layout line or a recorded budget is bad (err
 * says which; out keeps what was built; release it).
 */
int report_suite_tables(const struct results *res, const char *suite,
			const struct report_opts *opts, struct rtables *out,
			char *err, size_t errsize);

/* rtable_col, and set the table's unit and value key (copied). */
int rtable_meta(struct rtable *t, size_t nkeys, const char *colkey,
		const char *unit, enum metric_better better);

/* A number in Go's precision for its unit into cell (r, c); nothing
 * when v is NAN.  0 or -1. */
int rtable_num(struct rtable *t, long r, size_t c, double v,
	       const char *unit);

/* Mark the best number of column c, unless every number ties. */
void rtable_best_in_column(struct rtable *t, size_t c, enum metric_better b);

/* A table of the results that are not ok (name, status, message); none
 * when every result is ok. */
int report_failure_table(const struct results *res, struct rtables *out);

/* The cell at row r, column c. */
struct rcell *rtable_cell(const struct rtable *t, size_t r, size_t c);

/*
 * Building a table (for other writers, e.g. compare): append a table of
 * ncols columns to ts (NULL when out of memory), name column c, append
 * an empty row (its index, or -1), set a cell's text (copied; 0 or -1).
 */
struct rtable *rtable_new(struct rtables *ts, enum rtable_kind kind,
			  const char *title, const char *caption, size_t ncols);
int rtable_col(struct rtable *t, size_t c, const char *name, int numeric);
long rtable_row(struct rtable *t);
int rtable_text(struct rtable *t, long r, size_t c, const char *text);

void rtables_release(struct rtables *ts);

/*
 * A tuple: the values of r's keys l joined by '\x1f' (how tables and
 * verdicts group results), into buf.  1, or 0 when r lacks one of them.
 * layout_tuple_part: value i of a tuple into buf ("" past the end).
 */
struct ldecl_list;
int layout_tuple_of(const struct result *r, const struct ldecl_list *l,
		    char *buf, size_t size);
void layout_tuple_part(const char *tuple, size_t i, char *buf, size_t size);

#endif
