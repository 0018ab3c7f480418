/*
 * inturn.h - the honest fallback for sets on engines without a native
 * multi-pattern matcher (pcre2, pcre2-jit, posix, tre, onig): every
 * pattern of the set tried in turn.
 *
 * An adapter embeds a struct inturn in its set, fills it at compile time
 * and supplies one function: try pattern i from a start offset.  This file
 * then gives is_match, count and match_ids with one rule for all of them:
 * non-overlapping matches, resuming at the end of each match and one byte
 * (in UTF-8 mode one character) past an empty one; with ENGINE_ANCHORED
 * at most one match per pattern.
 */
#ifndef RXB_INTURN_H
#define RXB_INTURN_H

#include <stddef.h>

/* Where a match lies: data[so, eo). */
struct inturn_span {
	size_t so;
	size_t eo;
};

/*
 * Try pattern i of set h on data[0, len) from `start` (left context
 * intact).  Returns 1 on a match, filling *span unless span is NULL (the
 * caller only needs a yes or no), 0 when none, or a negative
 * enum engine_status.
 */
typedef int (*inturn_try_fn)(void *h, size_t i, const char *data,
			     size_t len, size_t start,
			     struct inturn_span *span);

struct inturn {
	size_t n;      /* patterns in the set */
	int anchored;  /* ENGINE_ANCHORED: one match at most per pattern */
	int utf8;      /* ENGINE_UTF8: never resume inside a character */
	inturn_try_fn try_one;
};

/*
 * The same three as engine operations, for an adapter whose set struct
 * has its struct inturn as FIRST member: h points at both.
 */
int inturn_op_is_match(void *h, const char *data, size_t len);
long inturn_op_count(void *h, const char *data, size_t len);
long inturn_op_match_ids(void *h, const char *data, size_t len,
			 unsigned char *ids);

/* 1 if any pattern matches, 0 if none, <0 on the first error. */
int inturn_is_match(const struct inturn *t, void *h, const char *data,
		    size_t len);

/* The sum over patterns of their non-overlapping matches, or <0. */
long inturn_count(const struct inturn *t, void *h, const char *data,
		  size_t len);

/* ids[i] = 1 when pattern i matches; returns how many did, or <0. */
long inturn_match_ids(const struct inturn *t, void *h, const char *data,
		      size_t len, unsigned char *ids);

#endif
