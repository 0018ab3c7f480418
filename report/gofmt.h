/*
 * gofmt.h - Go benchmark text format (golang design 14313), which
 * benchstat reads unchanged.
 *
 * Configuration lines ("key: value"), then one line per sample:
 *   BenchmarkScan/engine=pcre2-jit/pattern=twain   1000   568.7 ns/op ...
 * A metric whose unit benchstat cannot know gets a "Unit" metadata line
 * before its first use.  Results that are not ok become Go's own
 * "--- FAIL:" / "--- SKIP:" blocks, which benchstat skips.
 */
#ifndef RXB_GOFMT_H
#define RXB_GOFMT_H

/*
 * The line that says a run was stopped early.  Not "key: value": a Go
 * configuration line would file every later result of a concatenated
 * file (cat a.txt b.txt | benchstat -) under a new key; benchstat skips
 * it as it skips "--- FAIL:" blocks, and gotext_read marks the results
 * interrupted.
 */
#define GOFMT_INTERRUPTED "--- INTERRUPTED:"

#include <stdio.h>

#include "harness/results.h"

struct gofmt {
	FILE *out;
	int name_width;   /* pad names to this width (Go aligns columns) */
	char **units;     /* custom units already declared */
	size_t nunits;
	/* gofmt_defer(): header lines not written yet */
	const struct results *pending_cfg;
	const char *pending_pkg;
};

void gofmt_init(struct gofmt *g, FILE *out, int name_width);
void gofmt_release(struct gofmt *g);

/* The configuration lines of res, in order. */
void gofmt_write_config(struct gofmt *g, const struct results *res);

/* One "pkg:" line, before the benchmarks of a suite. */
void gofmt_write_pkg(struct gofmt *g, const char *suite);

/*
 * Hold the configuration lines of res (when cfg is non-NULL) and the
 * "pkg:" line of suite until a line of the suite is written (a sample, a
 * status block, or gofmt_flush()): a suite that has nothing to say (a
 * --bench that selects none of it, an input refused before anything
 * ran) then writes nothing at all.  res and suite must outlive that.
 */
void gofmt_defer(struct gofmt *g, const struct results *cfg,
		 const char *suite);

/* Write the header lines gofmt_defer() holds.  1 when it held some. */
int gofmt_flush(struct gofmt *g);

/* The benchmark line of sample i of r. */
void gofmt_write_sample(struct gofmt *g, const struct result *r, size_t i);

/* The FAIL/SKIP block of a result that is not ok; nothing when ok. */
void gofmt_write_status(struct gofmt *g, const struct result *r);

/* Whole results: config, then per suite its pkg line, samples, statuses;
 * last an "interrupted: ..." line when a signal stopped the run. */
void gofmt_write_results(struct gofmt *g, const struct results *res);

/* Format x the way Go's testing package does for a metric (no padding). */
void gofmt_number(double x, const char *unit, char *buf, size_t size);

#endif
