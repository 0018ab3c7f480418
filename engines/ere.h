/*
 * ere.h - translation of the project's PCRE-style patterns into POSIX
 * extended regular expressions, shared by engines/posix.c (glibc regex)
 * and engines/tre.c (TRE); and the byte sets it, and the Boost
 * translation, hold classes in.
 *
 * Patterns across rxbench are written in PCRE syntax.  An ERE engine given
 * them verbatim would answer wrongly rather than fail: `[^\n]` means "not
 * backslash, not n" in a bracket expression, `(?:` is not ERE, '.' matches
 * '\n' without REG_NEWLINE, and `a*?` parses as (a*)? with greedy meaning.
 * The translator rewrites what ERE can express and refuses the rest:
 *
 *   (?:...)             -> (...), capture numbers of \1..\9 renumbered
 *   .  \d \w \s ...     -> explicit bracket expressions (bytes, C locale)
 *   [...] with escapes  -> a canonical bracket expression of the same bytes
 *   \n \t \xHH \0oo ... -> the literal byte
 *   \b \B, \1..\9       -> passed through when the engine has them
 *   { not starting a valid {m}, {m,} or {m,n} -> a literal "{" (as PCRE)
 *   lazy/possessive quantifiers, (?= (?! (?<= (?<! (?> (?i) (?P<..>,
 *   \A \z \p{..} and other letter escapes -> ENGINE_ERR_UNSUPPORTED
 *
 * Character semantics are bytes in the C locale (no UTF-8 mode).  `$`
 * keeps its ERE meaning: end of data only (PCRE2 also matches before a
 * final newline); callers document this.
 */
#ifndef RXB_ERE_H
#define RXB_ERE_H

#include "engines/engine.h"

#include <stddef.h>

enum ere_option {
	ERE_DOTALL = 1u << 0,        /* '.' also matches '\n' */
	ERE_NEWLINE = 1u << 1,       /* it will be compiled with REG_NEWLINE */
	ERE_BACKREF = 1u << 2,       /* the engine has \1..\9 */
	ERE_WORD_BOUNDARY = 1u << 3, /* the engine has \b \B (GNU) */
	ERE_NUL = 1u << 4,           /* it may hold NUL (length-aware engine) */
	ERE_ANCHOR = 1u << 5,        /* wrap as ^(...) for ENGINE_ANCHORED */
};

/*
 * Translates re[0..len) under `opts` (enum ere_option).  Returns 0 with a
 * malloc'd ERE in *out (NUL-terminated, length in *outlen; the caller
 * frees it), or ENGINE_ERR_UNSUPPORTED for a construct ERE cannot
 * express, ENGINE_ERR_COMPILE for a malformed pattern, ENGINE_ERR_NOMEM;
 * then err is filled with pattern index `index` and the byte offset.
 */
int ere_translate(const char *re, size_t len, unsigned opts, long index,
		  char **out, size_t *outlen, struct engine_error *err);

/*
 * The ERE for pattern i of a set compiled with engine `flags` (enum
 * engine_flag) by an engine whose own abilities are `engine_opts`
 * (ERE_BACKREF, ERE_WORD_BOUNDARY, ERE_NUL): refuses ENGINE_UTF8 (bytes
 * in the C locale only), then ere_translate() with the options the flags
 * ask for.  Same returns and ownership as ere_translate().
 */
int ere_prepare(const struct engine_pattern *p, long index, unsigned flags,
		unsigned engine_opts, char **out, size_t *outlen,
		struct engine_error *err);

/*
 * A set of bytes: how the translators (this one and
 * engines/boost_pattern.c) hold every class, however it was written
 * (`.`, `\w`, `[^\d\n]`, `[[:alpha:]-]`), before each writes it back in
 * its own syntax.  Zero-initialised is empty.
 */
struct ere_set {
	unsigned char bit[32];
};

void ere_set_add(struct ere_set *s, unsigned c);
int ere_set_has(const struct ere_set *s, unsigned c);
void ere_set_add_range(struct ere_set *s, unsigned lo, unsigned hi);
/* Adds t's bytes to s, or with negate the bytes t lacks. */
void ere_set_merge(struct ere_set *s, const struct ere_set *t, int negate);
unsigned ere_set_count(const struct ere_set *s);

/*
 * Adds POSIX class name[0..n) (alpha ... xdigit, word, ascii) to s, as
 * PCRE2's default (C locale) tables define it; -1 for an unknown name.
 */
int ere_set_posix_class(const char *name, size_t n, struct ere_set *s);

/* Adds \d \w \s (c a lower-case letter) or their negations \D \W \S
 * to s; -1 when c is none of them. */
int ere_set_perl_class(unsigned c, struct ere_set *s);

#endif
