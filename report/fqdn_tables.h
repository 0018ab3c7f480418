/*
 * fqdn_tables.h - the FQDN suite's own tables, printed after its Go
 * benchmark lines: a writer, reading only the results.
 *
 *   - the seed's layout: per phase, one row per strategy x engine (and
 *     policy size) with median ns/op, B/op, allocs/op, B(heap)/op and
 *     domains, for people who read the Go benchmark of seed 000;
 *   - when the run has several policy sizes (--domains=100,500,...), the
 *     scaling table: per phase x strategy x engine, the median ns/op at
 *     each size, the growth factor between consecutive sizes and the
 *     exponent k of a least-squares fit of log(ns/op) on log(N), printed
 *     "N^k" (seed 001 describes iptables this way);
 *   - the benchmarks whose one op outlasts the per-sample time budget.
 * Results are found by their name keys phase=, strategy=, engine= and
 * domains= (or the domains metric); results that are not ok are skipped.
 */
#ifndef RXB_FQDN_TABLES_H
#define RXB_FQDN_TABLES_H

#include <stddef.h>
#include <stdio.h>

#include "harness/results.h"

/*
 * Both tables for the results of `suite` (nothing when it has none), then
 * the benchmarks whose single op outlasts benchtime_ns (the time budget
 * of one sample; 0 when the run fixed the iterations): the harness ran
 * them once per sample, which the note says.
 */
void fqdn_tables_write(FILE *out, const struct results *res, const char *suite,
		       double benchtime_ns);


#endif
