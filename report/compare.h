/*
 * compare.h - `rxbench compare A B [C ...]`: per benchmark and metric,
 * the median of each run with its 95% confidence interval and, against
 * the first run, the change and whether it is significant, in benchstat's
 * conventions (report/compare_stats.h).  A column is a run (a file), or
 * with --col KEY a value of a name key (engine) or context key (host,
 * rxbench-version) across every run given: several machines' results
 * merge, each column keeping its run's context (shown above the tables).
 * A benchmark present in two runs is only compared when its recorded
 * inputs (harness/results.h) agree.
 *
 *   - timing metrics (better lower or higher): a change is significant
 *     when the Mann-Whitney U test gives p < alpha (0.05), which needs at
 *     least STATS_UTEST_MIN_N samples on each side; otherwise the change
 *     shows as "~";
 *   - exact metrics (better=exact: matches, domains, rules, line-Mpps),
 *     instruction counts (instr/op, est-cycles/op and the other callgrind
 *     units) and sizes fixed by construction (B/db, B/scratch: what a
 *     compiled set holds) are deterministic, so their medians are
 *     compared directly, no p-value;
 *   - per metric a geomean row over the benchmarks both sides measured.
 *
 * A change measured once is counted once: each benchmark is judged by
 * one metric, its primary (the suite's verdict metric from the layout
 * the results carry: Mpps for payload; else ns/op, or instr/op under
 * --measure=instructions), and the metrics derived from the same
 * measurement (MB/s, Mpps, Gbps, %linerate and cores from one timing;
 * the callgrind units from one count) are shown but neither counted
 * nor gated.  Metrics measured apart (B/op, allocs/op, matches, B/db)
 * count on their own.
 *
 * With a threshold (--threshold=5%), a regression is:
 *   - a benchmark's primary metric worse (respecting its direction) by
 *     more than the threshold with significance;
 *   - an instruction count worse by more than the threshold;
 *   - an exact metric changed by more than the threshold either way (the
 *     answer itself changed);
 *   - a benchmark that was ok and now mismatches, errors or times out.
 * Benchmarks on one side only are listed, never gate.  With --col, the
 * results without a value of its key (payload's scenario=base, fqdn's
 * engine=none: the harness floor, no engine) make columns after every
 * other, so that they are never the one compared against.
 */
#ifndef RXB_COMPARE_H
#define RXB_COMPARE_H

#include <stdio.h>

#include "harness/results.h"
#include "report/compare_stats.h"
#include "report/rtable.h"

struct compare_opts {
	double alpha;      /* significance level, 0.05 */
	double confidence; /* of the median intervals, 0.95 */
	double threshold;  /* fraction (0.05 = 5%) */
	int gate;          /* threshold given: count regressions */
	const char *old_name, *new_name; /* compare_results()' labels */
	/*
	 * What makes a column: NULL, one per file (its label); else a name
	 * key ("engine"), a configuration or context key ("host", "cpu",
	 * "rxbench-version"; "version" is rxbench-version) or "file".
	 */
	const char *col;
	/*
	 * What makes a row: NULL, the benchmark name without the column's
	 * key; else a comma list of such keys ("pattern,file").
	 */
	const char *row;
	/* 0: a pair whose inputs differ is refused (compare_runs() says
	   which); 1: compared, marked, listed and never a regression */
	int show_changed_inputs;
	int report; /* `rxbench report` of several runs: no verdict */
};

/* A run given to compare_runs(): its label (a file name) and results. */
struct compare_input {
	const char *label;
	const struct results *res;
};

/* How a metric is compared. */
enum compare_mode {
	COMPARE_STAT,          /* U test */
	COMPARE_DETERMINISTIC, /* instruction counts: direct, directed */
	COMPARE_EXACT,         /* better=exact: any change */
};

/*
 * One metric of one row, column `col` against the first column: the
 * pairs behind every change shown (old is the first column's cell).
 */
struct compare_row {
	const struct result *old, *new;
	size_t line, col; /* the row (comparison.lines) and column */
	const char *unit;
	enum metric_better better;
	enum compare_mode mode;
	struct stats_summary so, sn; /* n == 0 when the side lacks it */
	double change;   /* new/old - 1; NAN when not computable (a side
			    missing, or a base of 0 or less: no ratio) */
	/* the change's confidence interval (stats_change_ci): -inf/+inf
	   with too few samples, NAN when not computable; a deterministic
	   change's is the change itself */
	double change_lo, change_hi;
	double p;        /* NAN when no test was made */
	int significant; /* a real change (p < alpha, or deterministic) */
	int regression;  /* counts against the threshold */
	int improvement; /* significant and better */
	int primary;     /* the metric its benchmark is judged by */
	int derived;     /* from the primary's measurement: never counted */
	/* show_changed_inputs: an input of `new` that differs from the
	   one in input_from (another cell of the row); NULL when none */
	const char *input_key;
	const struct result *input_from;
};

/* A column: its label and the run its first cell came from. */
struct compare_col {
	char *label;
	size_t input; /* index into comparison.in */
	int keyless;  /* no value of --col's key ("engine=-", "none") */
};

struct comparison {
	struct compare_opts opts;
	const struct compare_input *in;
	size_t nin;
	struct compare_col *cols;
	size_t ncols;
	char **lines;                 /* row labels, first seen first */
	size_t nlines;
	const struct result **cell;   /* nlines x ncols; NULL: missing */
	size_t *cell_in;              /* nlines x ncols: the run of a cell */
	struct compare_row *rows;
	size_t nrows;
	size_t regressions;  /* rows (benchmark x metric) that regressed */
	size_t regressed;    /* benchmarks with a regressed row */
	size_t improvements; /* counted rows (not derived) */
	size_t worse; /* counted significant changes that are not improvements */
	size_t status_regressions; /* ok -> mismatch/error/timeout */
	size_t input_changes;      /* pairs whose inputs differ */
	const struct result *input_from; /* private: the pair being added */
	/* compare_runs()' own copy of two runs (compare_results()) */
	struct compare_input pair[2];
	char err[1024]; /* why compare_runs() refused (-2) */
};

void compare_opts_init(struct compare_opts *o);

/*
 * v into buf with the digits it was given (5.0, 0.05, 0.004, 12.345):
 * at least min decimals, at most nine, else as %g (1e-298); 0 for -0.
 * --threshold's percentage and --alpha, as every writer prints them.
 */
void compare_digits_text(double v, int min, char *buf, size_t size);

/* The mode a unit is compared in (better from the results). */
enum compare_mode compare_mode_of(const char *unit, enum metric_better b);

/*
 * What column c did against the first, benchmark by benchmark, each
 * judged once by its primary metric (compare_row.primary).
 */
struct compare_tally {
	size_t both;      /* benchmarks with a cell in both columns */
	size_t better, worse, same; /* same: tested (or exact), no change */
	size_t untested;  /* too few samples for the U test */
	size_t noratio;   /* a base of 0 or less: no change to judge */
	size_t nmin, nmax; /* the untested ones' fewest and most samples */
	size_t inputs;    /* measured on other inputs: never a change */
	size_t unjudged;  /* no primary metric on a side (failed rows) */
	size_t lacks, extra; /* cells of the first column only, of c only */
	int timed;        /* every primary is a time: faster and slower */
};

/* Tally column c (1 <= c < ncols) against the first column. */
void compare_tally(const struct comparison *cmp, size_t c,
		   struct compare_tally *t);

/*
 * The summary of column c against the first as plain text: a line
 * that counts benchmarks by the metric each is judged by and names
 * those metrics and their suites, then, when there is any, a line on
 * the other metrics that changed (nothing for a keyless column).
 * compare_write_advice: the lines said once for every column, when
 * there is any: what to run when benchmarks were too few to test
 * (STATS_COUNT_ADVICE), and which metrics are derived and not counted.
 * Each line starts with `lead` ("" or "- ").
 */
void compare_write_summary(FILE *out, const struct comparison *cmp,
			   size_t c, const char *lead);
void compare_write_advice(FILE *out, const struct comparison *cmp,
			  const char *lead);

/*
 * Compare n runs, benchstat-style: cells in columns (opts.col) and rows
 * (opts.row), every column against the first.  The inputs and their
 * results must outlive cmp.  0; -1 out of memory; -2 refused, with a
 * one-line reason in cmp->err: a col or row key no result of any run
 * has (the names' keys listed) or an empty one, a col key that puts
 * every result in one column, two benchmarks fall in one cell (both
 * named, and the --row keys that part them), or a pair's inputs differ
 * (the benchmark and the input named; opts.show_changed_inputs lets
 * them through).
 */
int compare_runs(const struct compare_input *in, size_t n,
		 const struct compare_opts *o, struct comparison *cmp);

/* compare_runs() of two runs labelled opts.old_name and opts.new_name. */
int compare_results(const struct results *old, const struct results *new,
		    const struct compare_opts *o, struct comparison *cmp);
void comparison_release(struct comparison *cmp);

/* The comparison as aligned text tables (format=text) or Markdown. */
int compare_write_text(FILE *out, const struct comparison *cmp);
int compare_write_md(FILE *out, const struct comparison *cmp);

/*
 * What the HTML writer (compare_write_html, report/compare_html.c)
 * draws from.  compare_tables: a table per unit as text and Markdown
 * show them (each median cell's v is its median, each change cell's v
 * new/old - 1), appended to out; compare_context_table: a row per
 * column with its file and run context (host, CPU, kernel, rxbench and
 * engine versions).  0 or -1 (out of memory).  compare_write_notes: the
 * lines the text writer prints after its tables (configuration that
 * differs, what a column lacks, status changes, pairs whose inputs
 * differ); compare_write_verdict: compare's --threshold verdict (ok,
 * or FAIL and the regressions; "no verdict" without a threshold).
 */
int compare_tables(const struct comparison *cmp, struct rtables *out);
int compare_context_table(const struct comparison *cmp, struct rtables *out);
void compare_write_notes(FILE *out, const struct comparison *cmp);
void compare_write_verdict(FILE *out, const struct comparison *cmp);

/*
 * The comparison as one offline HTML page (report/html.h's look): the
 * summary of every column against the first (compare_write_summary),
 * the columns' run contexts, then per unit the most changed benchmarks'
 * changes with their intervals (a dot and whisker per column, a colour
 * each, around a line at 0) and the table, collapsed.  0, or -1 on a
 * write error or out of memory.
 */
int compare_write_html(FILE *out, const struct comparison *cmp);

/* True when cmp holds a regression (the exit status of --threshold). */
int compare_failed(const struct comparison *cmp);

#endif
