/*
 * layout.h - the report's tables, built once from the results and drawn
 * by both the Markdown and the HTML writer, so the two always agree.
 *
 * Per suite (report_suite_tables):
 *   - the engine ranking (view_rank), with a column per phase when the
 *     suite has a phase key;
 *   - LAYOUT_FQDN: a table per phase (and per value of any extra key),
 *     one row per strategy x engine, a column per metric (the seed's
 *     layout);
 *   - LAYOUT_PAYLOAD: a table per engine (and extra key), one row per
 *     packet size (largest first), columns line rate and the scenarios,
 *     in Mpps (the seed's layout), then the cores needed to reach line
 *     rate when the suite reports them; a result without an engine key (a
 *     scenario that uses none, such as base) fills every engine's table;
 *   - LAYOUT_GENERIC: one row per benchmark, and when two or more engines
 *     ran, a comparison with a column per engine (rebar's cmp).
 * Cell text is plain (not escaped): each writer escapes it.
 */
#ifndef RXB_LAYOUT_H
#define RXB_LAYOUT_H

#include <stddef.h>

#include "harness/results.h"

enum rtable_kind {
	RTABLE_RANKING,
	RTABLE_FQDN,
	RTABLE_PAYLOAD,
	RTABLE_PAYLOAD_CORES, /* cores to reach line rate, when reported */
	RTABLE_GENERIC,
	RTABLE_COMPARE,
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
	char **cols;
	int *numeric;  /* per column: right-aligned numbers */
	size_t ncols, nrows;
	struct rcell *cells; /* nrows x ncols, row-major */
};

struct rtables {
	struct rtable *t;
	size_t n;
};

/*
 * The tables of one suite, appended to out.  0, or -1 when out of
 * memory (out keeps what was built; release it).
 */
int report_suite_tables(const struct results *res, const char *suite,
			struct rtables *out);

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

#endif
