/*
 * gotext_read.h - read Go benchmark text (golang design 14313, what
 * `go test -bench` and `rxbench run` print) into a struct results, so
 * `rxbench compare` and `rxbench report` take it as well as JSON.
 *
 * Understood lines:
 *   key: value          configuration (a lowercase key without blanks);
 *                       "pkg: rxbench/suites/S" sets the suite of what
 *                       follows to S (another pkg value is kept whole)
 *   BenchmarkNAME-N  ITERS  VALUE UNIT  VALUE UNIT ...
 *                       one sample; the -N (GOMAXPROCS) suffix is
 *                       dropped, repeated names add samples
 *   Unit UNIT better=higher|lower assume=exact|nothing
 *   interrupted: TEXT   a signal stopped the run (res->interrupted)
 *   --- FAIL: BenchmarkNAME / --- SKIP: BenchmarkNAME, then indented
 *                       lines: the status and message rxbench wrote
 *                       ("    mismatch: ..."), else error / unsupported
 * Everything else (PASS, ok, test logs) is ignored.  Without a pkg line
 * the suite is the name's first level in lower case ("FQDN" -> "fqdn").
 * Without a Unit line, units ending in "/s" are better higher, others
 * lower, as benchstat assumes.
 *
 * Malformed benchmark lines are errors "NAME:LINE: what is wrong".
 */
#ifndef RXB_GOTEXT_READ_H
#define RXB_GOTEXT_READ_H

#include <stddef.h>

#include "harness/results.h"

/*
 * Parse `len` bytes of text into res (initialized, empty).  0, or -1
 * with the message in err (release res either way).
 */
int gotext_read_results(const char *text, size_t len, const char *name,
			struct results *res, char *err, size_t errsize);

/* Strip a trailing "-N" (digits) from name in place. */
void gotext_strip_procs(char *name);

#endif
