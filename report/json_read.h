/*
 * json_read.h - read a JSON results file (the layout in json.h) back into
 * a struct results, losslessly: json_write_results() of what was read
 * gives back the same bytes for any file json_write_results() wrote.
 *
 * jansson parses (it is fuzzed here too: tests/fuzz/fuzz_json_read.c):
 * the grammar, strict UTF-8, \u0000 refused, duplicate members refused,
 * nesting bounded.  Then every member rxbench knows is type-checked; the
 * first error is one line, "NAME:LINE:COL: what" for the grammar,
 * "NAME: benchmark: what" for a member.  Unknown members are skipped, so
 * a newer writer's extra fields do not break an older reader; a newer
 * format version is refused, naming the versions this one reads.
 */
#ifndef RXB_JSON_READ_H
#define RXB_JSON_READ_H

#include <stddef.h>

#include "harness/results.h"

/*
 * Parse `len` bytes of `text` (need not be NUL-terminated) into res,
 * which must be initialized and empty.  `name` is the file name used in
 * messages.  0, or -1 with the message in err (res then holds whatever
 * was read before the error; release it either way).
 */
int json_read_results(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize);

/*
 * Read the journal a run left (json.h; version 1's open-array journal
 * too) as the results it had finished: a last line cut short is left
 * out, a benchmark written again replaces the earlier line, and
 * res->interrupted is set.  0 or -1 as above ("NAME:LINE: ...").
 */
int json_read_journal(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize);

#endif
