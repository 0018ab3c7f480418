/*
 * suite.h - a benchmark suite: what is measured, on what input, verified how.
 *
 * A suite is one `const struct suite` in its own file, listed in
 * suites/registry.c.  `rxbench run SUITE` drives it in three steps:
 *   1. set_option() for each --key=value the common options did not take;
 *   2. prepare(): build the inputs (corpora/), compute every engine's
 *      answer and compare it with the others and with a reference; add a
 *      MISMATCH / error / unsupported result for each case that fails and
 *      add a struct bench to ctx->plan only for the cases that passed;
 *   3. after harness_run() has timed the plan, report() may print the
 *      suite's own tables from ctx->results, then cleanup() frees.
 * A suite never reads the clock.
 */
#ifndef RXB_SUITE_H
#define RXB_SUITE_H

#include <stdio.h>

#include "engines/engine.h"
#include "harness/bench.h"
#include "harness/filter.h"
#include "harness/results.h"

struct suite_ctx {
	const struct engine *const *engines; /* selected, in table order */
	size_t nengines;
	const struct bench_opts *opts;
	const struct bench_filter *filter;
	struct plan *plan;        /* prepare() adds benchmarks here */
	struct results *results;  /* verification rows go here */
	int allow_unverified;     /* --allow-unverified (suites/case.h) */
};

/* set_option() answers. */
enum suite_opt_rc {
	SUITE_OPT_OK = 0,
	SUITE_OPT_UNKNOWN = 1,  /* not this suite's option */
	SUITE_OPT_INVALID = -1, /* its option, bad value: message printed */
	SUITE_OPT_NEEDS_VALUE = 2, /* value was NULL: call again with the next argument */
};

struct suite {
	const char *name;
	const char *desc;
	const char *usage; /* its options, one per line, for --help */
	int in_default;    /* run by a plain `rxbench run` */
	/* Time per sample when --benchtime was not given; 0: the common 1s. */
	double default_benchtime_ns;

	/* key without "--"; value is NULL for "--key" without "=value". */
	int (*set_option)(const char *key, const char *value);

	/* 0, or -1 when the input is unusable (message printed, run stops). */
	int (*prepare)(struct suite_ctx *ctx);

	/* Optional: tables after the timings. */
	void (*report)(struct suite_ctx *ctx, FILE *out);
	/* report() prints its own growth-with-size table: skip the generic one. */
	int reports_growth;

	/* Optional: free what prepare() built. */
	void (*cleanup)(void);
};

extern const struct suite *const suite_table[];
extern const size_t suite_count;

/* The suite called name, or NULL. */
const struct suite *suite_find(const char *name);

/* 1 when ctx's --bench filter selects `name` (no "Benchmark" prefix). */
int suite_wants(const struct suite_ctx *ctx, const char *name);

/*
 * Add a non-ok result (mismatch, error, unsupported) for `name`.
 * The message is printed by the writers, not here.
 */
void suite_fail(struct suite_ctx *ctx, const char *suite, const char *name,
		enum result_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
