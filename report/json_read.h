/*
 * json_read.h - read a JSON results file (the layout in json.h) back into
 * a struct results, losslessly: json_write_results() of what was read
 * gives back the same bytes for any file json_write_results() wrote.
 *
 * The parser is written for hostile input (it is fuzzed): it never reads
 * outside the buffer, nests at most JSON_READ_MAX_DEPTH levels, checks
 * every length and number, and stops at the first error with a message
 * "NAME:LINE:COL: what is wrong".  Unknown object members are skipped,
 * so a newer writer's extra fields do not break an older reader.
 *
 * Strings: escapes \u0080..\u00ff become the single byte 0x80..0xff.
 * That is how the writer stores bytes that are not UTF-8 (a pattern name
 * made of raw bytes), so they come back unchanged; the writer never
 * escapes valid UTF-8.  \u0000 is refused (names are C strings).
 */
#ifndef RXB_JSON_READ_H
#define RXB_JSON_READ_H

#include <stddef.h>

#include "harness/results.h"

#define JSON_READ_MAX_DEPTH 64

/*
 * Parse `len` bytes of `text` (need not be NUL-terminated) into res,
 * which must be initialized and empty.  `name` is the file name used in
 * messages.  0, or -1 with the message in err (res then holds whatever
 * was read before the error; release it either way).
 */
int json_read_results(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize);

/*
 * Read the journal a run left (json.h) as the results it had finished:
 * a last line cut short is left out, a benchmark written again replaces
 * the earlier line, and res->interrupted is set.  0 or -1 as above.
 */
int json_read_journal(const char *text, size_t len, const char *name,
		      struct results *res, char *err, size_t errsize);

#endif
