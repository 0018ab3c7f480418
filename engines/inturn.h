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

#include "engines/engine.h"

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
 * How an adapter compiles its set; inturn_compile() does the rest the
 * same way for every adapter (an empty set refused, the set and its
 * per-pattern array allocated, the struct inturn filled, every pattern
 * compiled in order, the set freed on any failure), so each adapter
 * keeps only what is its own: compiling one pattern.
 */
struct inturn_build {
	size_t set_size;  /* sizeof the adapter's set: struct inturn first */
	size_t slots_at;  /* offsetof the set's per-pattern array pointer */
	size_t slot_size; /* bytes of one element of that array */
	int utf8;         /* honours ENGINE_UTF8 (resume by characters) */
	inturn_try_fn try_one;
	/* Optional: before the first pattern (library set-up, contexts). */
	int (*begin)(void *s, unsigned flags, struct engine_error *err);
	/* Pattern i of the set into slot i: 0 or a negative status. */
	int (*compile_one)(void *s, size_t i, const struct engine_pattern *p,
			   unsigned flags, struct engine_error *err);
	/* Optional: after the last pattern (match data sized from them). */
	int (*finish)(void *s, struct engine_error *err);
	/* Frees what s holds, however far compiling got; accepts NULL. */
	void (*free)(void *s);
};

/*
 * An engine's compile() for a set tried in turn: 0 with the set in *out,
 * or a negative enum engine_status with err filled (begin, compile_one
 * and finish fill it for their own failures).
 */
int inturn_compile(const struct inturn_build *b,
		   const struct engine_pattern *pats, size_t n, unsigned flags,
		   void **out, struct engine_error *err);

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
