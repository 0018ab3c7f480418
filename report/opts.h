/*
 * opts.h - what a reader of the results may set for the report's
 * tables (rxbench report's --compile-budget and --heap-budget): the
 * verdict budgets (report/verdict.h), passed through the writers
 * (report/text.h, report/md.h, report/html.h) to the layout
 * (report/layout.h).
 */
#ifndef RXB_OPTS_H
#define RXB_OPTS_H

/*
 * The verdict budgets (0: the ones the results record, as the
 * configuration pairs below, which `rxbench run --compile-budget=D
 * --heap-budget=B` writes; else the declared ones).
 */
struct report_opts {
	double budget_ns;
	double heap_bytes;
};
#define REPORT_CONFIG_COMPILE_BUDGET "compile-budget" /* "20ms" */
#define REPORT_CONFIG_HEAP_BUDGET "heap-budget"       /* "4MiB" */

#endif
