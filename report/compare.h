/*
 * compare.h - `rxbench compare OLD NEW`: per benchmark and metric, old
 * and new medians with their 95% confidence intervals, the change, and
 * whether it is significant, in benchstat's conventions
 * (report/compare_stats.h):
 *
 *   - timing metrics (better lower or higher): a change is significant
 *     when the Mann-Whitney U test gives p < alpha (0.05), which needs at
 *     least 4 samples on each side; otherwise the change shows as "~";
 *   - exact metrics (better=exact: matches, domains) and instruction
 *     counts (instr/op, est-cycles/op and the other callgrind units) are
 *     deterministic, so their medians are compared directly, no p-value;
 *   - per metric a geomean row over the benchmarks both sides measured.
 *
 * With a threshold (--threshold=5%), a regression is:
 *   - a timing metric worse (respecting its direction) by more than the
 *     threshold with significance;
 *   - an instruction count worse by more than the threshold;
 *   - an exact metric changed by more than the threshold either way (the
 *     answer itself changed);
 *   - a benchmark that was ok and now mismatches, errors or times out.
 * Benchmarks on one side only are listed, never gate.
 */
#ifndef RXB_COMPARE_H
#define RXB_COMPARE_H

#include <stdio.h>

#include "harness/results.h"
#include "report/compare_stats.h"
#include "report/layout.h"

struct compare_opts {
	double alpha;      /* significance level, 0.05 */
	double confidence; /* of the median intervals, 0.95 */
	double threshold;  /* fraction (0.05 = 5%) */
	int gate;          /* threshold given: count regressions */
	const char *old_name, *new_name; /* labels, e.g. the file names */
};

/* How a metric is compared. */
enum compare_mode {
	COMPARE_STAT,          /* U test */
	COMPARE_DETERMINISTIC, /* instruction counts: direct, directed */
	COMPARE_EXACT,         /* better=exact: any change */
};

/* The comparison of one metric of one benchmark present on both sides. */
struct compare_row {
	const struct result *old, *new;
	const char *unit;
	enum metric_better better;
	enum compare_mode mode;
	struct stats_summary so, sn; /* n == 0 when the side lacks it */
	double change;   /* new/old - 1; NAN when not computable */
	double p;        /* NAN when no test was made */
	int significant; /* a real change (p < alpha, or deterministic) */
	int regression;  /* counts against the threshold */
	int improvement; /* significant and better */
};

struct comparison {
	struct compare_opts opts;
	const struct results *old, *new;
	struct compare_row *rows;
	size_t nrows;
	size_t regressions;  /* rows (benchmark x metric) that regressed */
	size_t regressed;    /* benchmarks with a regressed row */
	size_t improvements;
	size_t worse; /* significant changes that are not improvements */
	size_t status_regressions; /* ok -> mismatch/error/timeout */
};

void compare_opts_init(struct compare_opts *o);

/* The mode a unit is compared in (better from the results). */
enum compare_mode compare_mode_of(const char *unit, enum metric_better b);

/*
 * Compare old against new.  The results must outlive cmp.  0, or -1 when
 * out of memory.
 */
int compare_results(const struct results *old, const struct results *new,
		    const struct compare_opts *o, struct comparison *cmp);
void comparison_release(struct comparison *cmp);

/* The comparison as aligned text tables (format=text) or Markdown. */
int compare_write_text(FILE *out, const struct comparison *cmp);
int compare_write_md(FILE *out, const struct comparison *cmp);

/* True when cmp holds a regression (the exit status of --threshold). */
int compare_failed(const struct comparison *cmp);

#endif
