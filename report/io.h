/*
 * io.h - files in and out for the report commands: load a results file
 * whatever its format, and write an output file atomically.
 */
#ifndef RXB_IO_H
#define RXB_IO_H

#include <stdio.h>

#include "harness/results.h"

/* Larger inputs are refused: a results file is a few megabytes. */
#define REPORT_MAX_INPUT (256u << 20)

/*
 * Read `path` ("-" for standard input) into res (initialized, empty).
 * A file whose first non-blank byte is '{' is a JSON results file
 * (json_read.h), anything else Go benchmark text (gotext_read.h).  A
 * name ending in ".journal" is a run's journal (json.h); and where
 * PATH.journal exists beside path, the run writing path never ended:
 * the journal is read instead, with a note on stderr saying so.
 * 0, or -1 with a one-line message naming the file (and line) in err.
 */
int report_load(const char *path, struct results *res, char *err,
		size_t errsize);

/* Writes the output to f; 0, or -1 on error. */
typedef int (*report_write_fn)(FILE *f, const void *arg);

/*
 * Run write() into a temporary file beside `path`, flush it to disk and
 * rename it over path, so readers never see a half-written file.
 * "-" writes to standard output, and a path that exists but is not a
 * regular file or directory (/dev/null, a FIFO) is written in place.
 * 0, or -1 with errno set (path untouched).
 */
int report_save_atomic(const char *path, report_write_fn write,
		       const void *arg);

#endif
