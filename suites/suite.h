/*
 * suite.h - a benchmark suite: what is measured, on what input, verified how.
 *
 * A suite is one `const struct suite` in its own file, listed in
 * suites/registry.c.  `rxbench run SUITE` drives it in three steps:
 *   1. options: config_init() fills a configuration of config_size bytes
 *      with the defaults, then every --name=value the command line gives
 *      for one of the suite's declared options (suites/options.h) is
 *      applied to it; nothing else writes it;
 *   2. prepare(ctx, cfg): build the inputs (corpora/), generate the case
 *      table and hand it to the one pipeline (suites/case.h), which adds
 *      a MISMATCH / error / unsupported / unverified row for each case
 *      that fails and a struct bench to ctx->plan for each that passed.
 *      It returns the run's state, which the planned benchmarks point
 *      into: everything the run built lives there, none of it in
 *      file-level variables;
 *   3. after harness_run() has timed the plan, cleanup() frees the state
 *      and config_release() the configuration.
 * A suite never reads the clock and never prints a table: it declares
 * its tables and verdict as data (layout, report/layout_decl.h), the
 * results carry them, and report/ draws them for every writer.
 */
#ifndef RXB_SUITE_H
#define RXB_SUITE_H

#include <stdio.h>

#include "engines/engine.h"
#include "harness/bench.h"
#include "harness/filter.h"
#include "harness/results.h"
#include "suites/options.h"
#include "suites/strset.h"

struct suite_ctx {
	const struct engine *const *engines; /* selected, in table order */
	size_t nengines;
	const struct bench_opts *opts;
	struct bench_filter *filter; /* --bench; counts what it was asked */
	struct plan *plan;        /* prepare() adds benchmarks here */
	struct results *results;  /* verification rows go here */
	int allow_unverified;     /* --allow-unverified (suites/case.h) */
	int engines_default;      /* no --engines: the default engines, of
				     which a suite's default run may leave
				     out what it says it does (fqdn) */
	FILE *list;               /* --list: print the chosen names here */
	struct strset *listed;    /* --list: the names printed */
};


struct suite {
	const char *name;
	const char *desc;
	int in_default;    /* run by a plain `rxbench run` */
	/* Time per sample when --benchtime was not given; 0: the common 1s. */
	double default_benchtime_ns;

	/* Its --options, ended by {NULL}; NULL when it has none. */
	const struct opt_spec *options;
	size_t config_size; /* bytes of its configuration (> 0) */
	/* Optional: the defaults into cfg, which comes zeroed. */
	void (*config_init)(void *cfg);
	/* Optional: free what the options stored in cfg. */
	void (*config_release)(void *cfg);

	/*
	 * The run's state (see above), or NULL when the input is unusable
	 * (message printed; the run stops with exit status 2).
	 */
	void *(*prepare)(struct suite_ctx *ctx, const void *cfg);

	/*
	 * Its tables and verdict, one declaration per line, ended by NULL
	 * (report/layout_decl.h); NULL: one table, a row per benchmark.
	 */
	const char *const *layout;

	/* Free the run's state (never NULL when called). */
	void (*cleanup)(void *run);

};

extern const struct suite *const suite_table[];
extern const size_t suite_count;

/* The suite called name, or NULL. */
const struct suite *suite_find(const char *name);

/*
 * Copy s's layout into res (results_layout_add) unless res has one for
 * it already.  0, or -1 out of memory.
 */
int suite_layout_fill(const struct suite *s, struct results *res);

/*
 * 1 when ctx's --bench filter selects `name` (no "Benchmark" prefix).  A
 * suite asks before it builds, compiles or verifies anything for name.
 * Under --list a selected name is printed once and 0 returned: nothing
 * is done for it.
 */
int suite_wants(const struct suite_ctx *ctx, const char *name);

/*
 * Add a non-ok result (mismatch, error, unsupported) for `name`.
 * The message is printed by the writers, not here.
 */
void suite_fail(struct suite_ctx *ctx, const char *suite, const char *name,
		enum result_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
