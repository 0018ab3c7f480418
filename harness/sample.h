/*
 * sample.h - one sample of a result as bytes: what a measuring child
 * (harness/bench.c, in a child of harness/isolate.h) sends its parent.
 *
 * Host byte order: the reader is the parent on the same machine.  A
 * failed op travels as its status and failure text, without a sample.
 */
#ifndef RXB_SAMPLE_H
#define RXB_SAMPLE_H

#include <stddef.h>

#include "harness/results.h"

/* The largest encoded sample bench.c sends (a few dozen metrics fit). */
#define SAMPLE_MAX_WIRE 16384

/*
 * The wire form of sample `sample` of r and the op's status rc: a magic,
 * rc, the failure text `why` when rc < 0 (may be NULL), the iterations,
 * then each metric's better, unit and value.  Returns the bytes written,
 * or 0 when buf is too small.
 */
size_t sample_encode(const struct result *r, size_t sample, int rc,
		     const char *why, unsigned char *buf, size_t size);

/*
 * Read an encoded sample: *rc gets the op's status and `why` its failure
 * text; when rc is 0 the sample is appended to r.  0, or -1 when buf is
 * malformed or memory ran out (r may then hold a partial sample).
 */
int sample_decode(const unsigned char *buf, size_t len, struct result *r,
		  int *rc, char *why, size_t size);

#endif
