/*
 * json.h - the JSON results file: the lossless record of a run, which
 * every other format is written from (report) and compare reads.
 *
 * Layout (format version 1):
 *   {"format": "rxbench-results", "version": 1, "interrupted": false,
 *    "config": {"goos": "linux", ...},
 *    "benchmarks": [{"name": "Scan/engine=re2/pattern=x", "suite": "scan",
 *      "keys": {"engine": "re2", "pattern": "x"}, "status": "ok",
 *      "message": null, "iterations": [1000, ...],
 *      "metrics": [{"unit": "ns/op", "better": "lower",
 *                   "samples": [568.7, ...]}, ...]}, ...]}
 * A missing sample value is null.  Strings are UTF-8; a byte that is not
 * part of valid UTF-8 is written as \u0080..\u00ff, which json_read.h
 * maps back to the byte, so every file reads back exactly.
 */
#ifndef RXB_JSON_H
#define RXB_JSON_H

#include <stdio.h>

#include "harness/results.h"

/* Write res as JSON to out.  0, or -1 on a write error. */
int json_write_results(FILE *out, const struct results *res);

/*
 * Write res to `path` atomically: a temporary file beside it, flushed,
 * then renamed over path.  0, or -1 with errno set (path untouched).
 */
int json_save_results(const char *path, const struct results *res);

/*
 * The journal: the results file of a run still going, beside its target
 * as TARGET.journal, so that a run killed at any moment (kill -9, a
 * second Ctrl-C) loses at most the sample it was measuring.  It is the
 * results format left open: the head (with "journal": true), then one
 * benchmark object per line, each followed by ",\n" and flushed to the
 * kernel as it is written.  A benchmark is written again after each
 * sample, whole: the last line of a name is the one that counts.  The
 * run removes the journal once the results file is written;
 * json_read_results() reads what a run left (json_read.h).
 */
int json_journal_head(FILE *out, const struct results *res);
int json_journal_add(FILE *out, const struct result *r);

/* Write s (len bytes) as a JSON string literal, escaping as needed. */
void json_write_string(FILE *out, const char *s, size_t len);

/*
 * v as the shortest decimal that reads back to exactly v (%.15g..%.17g),
 * or "null" for NaN and infinities.  size 32 is enough.
 */
void json_format_number(double v, char *buf, size_t size);

#endif
