/*
 * cli.h - the command line: one function per subcommand, and the checked
 * number parsing every option uses (never atoi).
 */
#ifndef RXB_CLI_H
#define RXB_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "harness/bench.h"
#include "harness/results.h"

int cmd_run(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);

/*
 * `rxbench report A B ...` (several files, a directory, --col/--row):
 * the comparison tables of compare without its verdict.  cli_report_runs
 * says whether report's arguments ask for it.
 */
int cmd_report_runs(int argc, char **argv);
int cli_report_runs(int argc, char **argv);

/*
 * --format=F, --format F, -o FILE, --out=FILE at argv[i] (report and
 * compare).  Returns the arguments used (1 or 2), 0 when argv[i] is none
 * of these, -1 after a message when a value is missing.
 */
int cli_output_option(char **argv, int i, int argc, const char **format,
		      const char **out);

/* Whether arg is one of those options spelt with its value apart
 * (-o FILE, --format F, --out FILE). */
int cli_output_takes_next(const char *arg);

/*
 * 0 when out (-o of report or compare; NULL: stdout) can be a file;
 * -1 after one line naming it when it is a directory.  cmd: the command
 * in the message.
 */
int cli_output_not_dir(const char *cmd, const char *out);

/* Exit statuses. */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1, /* a benchmark mismatched or errored */
	EXIT_USAGE = 2,  /* bad command line or unusable input */
};

/*
 * Fill the run context: Go config lines and JSON-only context, all but
 * the engines' (context_fill_engines).
 */
void context_fill(struct results *res, int argc, char **argv);

struct engine;
/*
 * "<engine>-version" (and "<engine>-options" when changed) for each of
 * the n engines, in their order, test-only engines left out.  Asking a
 * runner engine its version starts its runner.
 */
void context_fill_engines(struct results *res,
			  const struct engine *const *engines, size_t n);

/*
 * JSON-only context of how the run measures: count, mode, isolation, the
 * CPU it is pinned to (cpu < 0: none) and that CPU's frequency scaling.
 */
void context_fill_measure(struct results *res, const struct bench_opts *o,
			  int cpu);

#endif
