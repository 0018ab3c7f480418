/*
 * run_args.h - the command line of `rxbench run` and `rxbench scan`:
 * what it chose, parsed with getopt_long from the declared option tables
 * (the common ones here, each suite's in its struct suite).
 */
#ifndef RXB_RUN_ARGS_H
#define RXB_RUN_ARGS_H

#include <stdio.h>

#include "harness/bench.h"
#include "suites/suite.h"

#define RUN_DEFAULT_DIR "results"
#define RUN_DEFAULT_OUT RUN_DEFAULT_DIR "/latest.json"
#define RUN_PREVIOUS_OUT RUN_DEFAULT_DIR "/previous.json"
#define RUN_MAX_SUITES 16
#define RUN_MAX_ENGINES 32

struct run_args {
	const struct suite *suites[RUN_MAX_SUITES];
	void *cfg[RUN_MAX_SUITES]; /* suites[i]'s configuration (suite.h) */
	size_t nsuites;
	const struct engine *engines[RUN_MAX_ENGINES];
	size_t nengines;
	const char *engines_arg;
	const char *bench;
	const char *out;
	struct bench_opts opts;
	int benchtime_given; /* else a suite's default_benchtime_ns applies */
	int quiet;
	int no_results; /* --no-results: no JSON file at all */
	int cpu;           /* --cpu: -1 when not pinned */
	int timeout_given; /* --timeout was on the command line */
	int allow_unverified; /* time answers nothing could verify, marked */
	const char *list;     /* --list: print the names it selects */
	/* --compile-budget, --heap-budget as given (checked), or NULL: the
	   run's verdict uses them and the results record them */
	const char *compile_budget, *heap_budget;
	int scan_only;        /* `rxbench scan` */
	/* the run's, not the command line's */
	FILE *journal;        /* out's journal (report/json.h), or NULL */
	char journal_path[4096];
	int rotate; /* out is the default: keep the last one as previous */
	int load_checked; /* load_check() ran */
	int context_done; /* engine versions, budgets, journal: recorded */
};

/* The defaults: every engine built, 1s samples, isolated, 60s timeout. */
void run_args_init(struct run_args *a);

/*
 * Parse argv[1..argc) (argv[0] is the command: "run" or "scan"; scan_only
 * takes no suite names) into a: the suites named (or the default ones),
 * each one's configuration with its options applied, the engines.  argv
 * is not reordered.  0; 1 after printing --help; -1 after a one-line
 * message on stderr.
 */
int run_args_parse(struct run_args *a, int argc, char **argv, int scan_only);

/* Free the suites' configurations. */
void run_args_release(struct run_args *a);

#endif
