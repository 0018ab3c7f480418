/*
 * text.h - the built-in prose corpus of the scan suite: generated in
 * process from a seed (nothing is downloaded), English-like lines with
 * names, numbers, dates and e-mail addresses for the default patterns.
 */
#ifndef RXB_TEXT_H
#define RXB_TEXT_H

#include <stdint.h>

#include "corpora/file.h"

/* Fill c with about `size` bytes of lines.  0, or -1 out of memory. */
int text_generate(struct corpus *c, size_t size, uint64_t seed);

#endif
