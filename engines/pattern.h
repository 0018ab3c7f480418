/*
 * pattern.h - the vocabulary every layer shares: a pattern's bytes, its
 * compile flags, the capability bits and semantics classes that say what
 * an engine can answer, the statuses (engines/status.h, with their names),
 * and the UTF-8 checks.  corpora/ and report/ include this, not the
 * adapter interface (engines/engine.h), which builds on it.
 */
#ifndef RXB_PATTERN_H
#define RXB_PATTERN_H

#include <stddef.h>

#include "engines/status.h"

/* Compile flags, applied to every pattern of a set. */
enum engine_flag {
	ENGINE_CASELESS = 1u << 0,     /* ASCII case-insensitive */
	ENGINE_DOTALL = 1u << 1,       /* '.' matches '\n' too */
	ENGINE_ANCHORED = 1u << 2,     /* match only at the start of data */
	ENGINE_SINGLEMATCH = 1u << 3,  /* stop at the first match (Hyperscan H) */
	ENGINE_UTF8 = 1u << 4,         /* UTF-8 mode; the default is Latin-1/bytes */
	ENGINE_MULTILINE = 1u << 5,    /* ^ and $ match at line breaks */
};

/*
 * Capabilities are data: the suites and tests decide "unsupported" from
 * this bitfield before asking the engine, so an engine is never asked for
 * something it would answer wrongly.
 */
enum engine_cap {
	CAP_MULTI_NATIVE = 1u << 0,   /* native multi-pattern set (not a loop) */
	CAP_START_OF_MATCH = 1u << 1, /* reports where a match starts */
	CAP_BACKREF = 1u << 2,        /* \1 */
	CAP_LOOKAROUND = 1u << 3,     /* (?=) (?!) (?<=) (?<!) */
	CAP_LAZY = 1u << 4,           /* *? +? ?? */
	CAP_NONCAPTURE = 1u << 5,     /* (?:...) */
	CAP_PERL_CLASSES = 1u << 6,   /* \d \w \s and their negations */
	CAP_INLINE_FLAGS = 1u << 7,   /* (?i) inside a pattern */
	CAP_NUL_PATTERN = 1u << 8,    /* a NUL byte inside a pattern */
	CAP_UTF8 = 1u << 9,           /* ENGINE_UTF8 mode */
	CAP_MATCH_LIMIT = 1u << 10,   /* bounded backtracking (error, not hang) */
	CAP_COUNTED_REP = 1u << 11,   /* {m,n} */
	CAP_WORD_BOUNDARY = 1u << 12, /* \b \B */
	CAP_EMPTY_MATCH = 1u << 13,   /* patterns that can match the empty string */
	CAP_ATOMIC = 1u << 14,        /* (?>...) and possessive quantifiers */
	CAP_TEST_ONLY = 1u << 15,     /* hidden from default runs (noop, crash) */
	CAP_PERL_DOLLAR = 1u << 16,   /* `$` also matches before a final '\n' (Perl);
					 without it `$` is end of data only */
	CAP_UNICODE_PROPERTY = 1u << 17, /* \p{..} \pL \P.. are Unicode
					    properties, as PCRE2 reads them, in
					    byte mode too (V8 reads \p as 'p'
					    without its u flag, Oniguruma \pL
					    as "pL") */
	CAP_UNICODE_SCRIPT = 1u << 18,   /* \p{Greek}: a script as PCRE2
					    10.40+ reads it, by its
					    Script_Extensions (RE2, Go and
					    Hyperscan read Script: \p{Han}
					    on "中、。" 3 against 1) */
	CAP_EXTENDED_SPACE = 1u << 19,   /* (?x) skips the white space PCRE2
					    skips beyond ASCII (NEL 0x85;
					    U+200E U+200F U+2028 U+2029 in
					    UTF mode); Oniguruma, Python and
					    the regex crate differ */
	/* How the engine is built, not what a pattern may use: */
	CAP_SET_IN_ORDER = 1u << 20, /* a set of n patterns is the n compiled
					each alone, asked in order (is_match
					stops at the first that matches), as
					a proxy's loop over its regexes: a
					suite modelling that loop may use one
					set (every runner) */
	CAP_REQUESTS = 1u << 21,     /* it runs a program of rxbench's own that
					takes a suite's own requests and a
					work's rewrite bits
					(engines/runner.h): a suite whose op
					needs state of its own (fqdn's
					endpoints) builds it there, where the
					engine times the op (every runner) */
	CAP_FLOOR_PROGRAM = 1u << 22, /* compile(NULL, 0) is a floor of its
					own: no search, is_match 1 on every
					input it took whole (xdp's base
					program: parse to the payload, return
					the action), timed as any set; the
					payload suite's base scenario gives
					it a row */
};

/* What count() counts; counts agree only within one class. */
enum engine_semantics {
	SEM_LEFTMOST_FIRST,   /* Perl: PCRE2, RE2, Oniguruma */
	SEM_LEFTMOST_LONGEST, /* POSIX: glibc regex, TRE */
	SEM_ALL_ENDS,         /* every match end offset: Hyperscan */
	SEM_NONE,             /* test-only engines */
};

/* A pattern is bytes, not a C string: it may hold NUL. */
struct engine_pattern {
	const char *re;
	size_t len;
};

/* "leftmost-first" and so on. */
const char *engine_semantics_name(enum engine_semantics s);

/* Names the capability bits set in caps, comma-separated, into buf. */
void engine_caps_format(unsigned caps, char *buf, size_t size);

/*
 * Capabilities pattern re[0..len) needs that its bytes show even where no
 * parser reads it (a pattern out of the reference's reach, which stops at
 * its first construct out of reach): CAP_UNICODE_PROPERTY for a \p or \P
 * escape, in a class or not, outside \Q...\E, and CAP_UNICODE_SCRIPT too
 * when it names anything but a general category (L, Lu, Nd, ..., L&,
 * Any); CAP_EXTENDED_SPACE for an inline x flag ((?x) (?ix: ...) in a
 * pattern holding a byte above 0x7f.
 */
unsigned engine_pattern_needs(const char *re, size_t len);

/*
 * Length (1 to 4) of the valid UTF-8 sequence at s, which has `avail` > 0
 * bytes, or 0 when it is not one: overlong forms, surrogates and code
 * points above U+10FFFF are invalid.
 */
size_t engine_utf8_len(const char *s, size_t avail);

/*
 * Offset of the first byte of s[0..len) that does not start a valid
 * UTF-8 sequence, or -1 when all of s is valid UTF-8.  For adapters whose
 * library trusts its UTF-8 input, for suites that must give them valid
 * UTF-8, and for writers of formats that must be UTF-8 (JSON).
 */
long engine_utf8_invalid(const char *s, size_t len);

#endif
