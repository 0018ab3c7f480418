/*
 * csv.h - results as CSV (RFC 4180: comma-separated, CRLF line ends,
 * fields with a comma, quote or line break quoted, quotes doubled) for
 * spreadsheets and pandas.
 *
 * One row per benchmark x metric x sample.  Header:
 *   suite,name,KEY...,metric,unit,better,value,sample,iterations,status,message
 * KEY... are the name keys of all benchmarks (union, in order of first
 * appearance; a key named like a fixed column gets a "key_" prefix), empty
 * where a benchmark lacks one.  metric is the metric as Go names it, by
 * its unit (ns/op, MB/s, domains); unit is what one unit of value is:
 * the metric without its "/op" (ns, B, allocs), or the metric itself
 * (MB/s, Mpps).  better is lower, higher or exact.  value is exact
 * (reads back to the same double), empty for a missing sample.  sample
 * is the 0-based sample index and iterations its iteration count.  A
 * benchmark without samples (mismatch, error, unsupported, timeout) has
 * one row with metric..iterations empty.  message is the status message.
 */
#ifndef RXB_CSV_H
#define RXB_CSV_H

#include <stdio.h>

#include "harness/results.h"

/* Write res as CSV.  0, or -1 on a write error or out of memory. */
int report_write_csv(FILE *out, const struct results *res);

/*
 * One text field, quoted when RFC 4180 needs it.  Text that starts with
 * = + - @ or a tab or CR (a pattern name, an engine's message) would run as
 * a formula in a spreadsheet (CSV injection): it is written quoted with a
 * leading ' (OWASP's advice), which spreadsheets show and do not run.
 * Numbers are not written through here and keep their sign.
 */
void csv_field(FILE *out, const char *s);

#endif
