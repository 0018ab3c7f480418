/*
 * rust_regex.h - the C ABI of engines/rust/ (a Rust static library over
 * the regex crate 1.7), used only by engines/rust_regex.c.
 *
 * A handle is one compiled set: a Regex per pattern and, for two or more
 * patterns, a RegexSet.  Handles are not thread-safe (the set keeps one
 * result buffer).  Nothing panics across this boundary.
 *
 * Build: only when CMake found cargo and the packaged crate
 * (RXB_HAVE_RUST_REGEX).
 */
#ifndef RXB_RUST_REGEX_H
#define RXB_RUST_REGEX_H

#include <stddef.h>

#include "engines/pattern.h"

struct rxb_rust_set;

/* What rxb_rust_compile() returns besides 0. */
enum rxb_rust_status {
	RXB_RUST_SYNTAX = -1,   /* the crate's parser refused the pattern */
	RXB_RUST_TOO_BIG = -2,  /* beyond size_limit */
	RXB_RUST_BAD_UTF8 = -3, /* UTF-8 mode, pattern not UTF-8 */
	RXB_RUST_PANIC = -4,    /* the crate panicked (caught) */
};

/* RegexBuilder::size_limit and dfa_size_limit, in bytes. */
struct rxb_rust_limits {
	size_t size_limit;
	size_t dfa_size_limit;
};

/*
 * Compiles pats[0..n) (n >= 1; struct engine_pattern's layout) with
 * `flags` (enum engine_flag: src/lib.rs knows their values; the crate
 * has no use for ENGINE_SINGLEMATCH).  0 with *out set (free with
 * rxb_rust_free), or an enum rxb_rust_status with the offending
 * pattern's index (-1: the set as a whole) in *err_pattern and the
 * crate's message in msg[0..size).
 */
int rxb_rust_compile(const struct engine_pattern *pats, size_t n,
		     unsigned flags, const struct rxb_rust_limits *lim,
		     struct rxb_rust_set **out, long *err_pattern, char *msg,
		     size_t size);

/*
 * Leftmost-first match of pattern i in data[0..len) at or after `start`
 * (data before it is context): 1 with its extent in *so, *eo (when so is
 * not NULL), or 0.
 */
int rxb_rust_find_at(const struct rxb_rust_set *s, size_t i,
		     const char *data, size_t len, size_t start, size_t *so,
		     size_t *eo);

/* 1 if any pattern matches data[0..len), else 0 (RegexSet when n > 1). */
int rxb_rust_is_match(const struct rxb_rust_set *s, const char *data,
		      size_t len);

/* ids[i] = 1 when pattern i matches (RegexSet); the number that did. */
long rxb_rust_match_ids(struct rxb_rust_set *s, const char *data, size_t len,
			unsigned char *ids);

void rxb_rust_free(struct rxb_rust_set *s);

#endif
