/*
 * json.h - the JSON results file: the lossless record of a run, which
 * every other format is written from (report) and compare reads.  Written
 * and read with jansson; the schema is docs/results.schema.json.
 *
 * Layout (format version 2; one benchmark per line):
 *   {"format": "rxbench-results", "version": 2, "interrupted": false,
 *    "config": {"goos": "linux", ...}, "context": {"host": ...},
 *    "argv": ["rxbench", ...],
 *   "benchmarks": [
 *    {"name": "Scan/engine=re2/pattern=x", "suite": "scan",
 *     "keys": {"engine": "re2", "pattern": "x"},
 *     "inputs": {"pattern": "x", "flags": "i", "corpus-sha256": ...},
 *     "status": "ok", "message": null, "verified": "...",
 *     "iterations": [1000, ...],
 *     "metrics": [{"unit": "ns/op", "better": "lower",
 *                  "samples": [568.7, ...]}, ...]}, ...]}
 * A missing sample value is null; numbers have 15 significant digits
 * (integers are written as integers).  A text that is not UTF-8, or holds
 * a NUL (a pattern's raw bytes), is written {"hex": "6162ff"} where a
 * string would stand, so every text reads back byte for byte.
 *
 * Version 1 (rxbench before inputs were recorded) is read too: it had no
 * "inputs" and wrote a non-UTF-8 byte as \u0080..\u00ff, which now reads
 * as that code point in UTF-8 (the only difference).
 */
#ifndef RXB_JSON_H
#define RXB_JSON_H

#include <stdio.h>

#include "harness/results.h"

#define JSON_RESULTS_VERSION 2

/* Write res as JSON to out.  0, or -1 on a write error or out of memory. */
int json_write_results(FILE *out, const struct results *res);

/*
 * Write res to `path` atomically: a temporary file beside it, flushed,
 * then renamed over path.  0, or -1 with errno set (path untouched).
 */
int json_save_results(const char *path, const struct results *res);

/*
 * The journal: the results of a run still going, beside its target as
 * TARGET.journal, so that a run killed at any moment (kill -9, a second
 * Ctrl-C) loses at most the sample it was measuring.  JSON lines: the
 * head (the results file's members but "benchmarks", with "journal":
 * true), then one benchmark object per line, each flushed to the kernel
 * as it is written.  A benchmark is written again after each sample,
 * whole: the last line of a name is the one that counts.  The run removes
 * the journal once the results file is written; json_read_journal()
 * reads what a run left (json_read.h).  0, or -1 on a write error.
 */
int json_journal_head(FILE *out, const struct results *res);
int json_journal_add(FILE *out, const struct result *r);

/*
 * v as the shortest decimal that reads back to exactly v (%.15g..%.17g),
 * or "null" for NaN and infinities.  size 32 is enough.  (The CSV writer's.)
 */
void json_format_number(double v, char *buf, size_t size);

#endif
