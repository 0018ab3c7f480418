/*
 * reference.h - the reference matcher verification trusts.
 *
 * A small, clearly written regex matcher in the project itself, sharing no
 * code with any engine: a parser for the PCRE syntax rxbench documents, a
 * Thompson NFA, and one Pike-VM simulation from which every semantics class
 * falls out.  Suites compare each engine's answer with it, so an answer is
 * never decided by which engines ran or in what order (issue 11).  It is
 * tested against Python's `re` (leftmost-first) and the `regex` module in
 * POSIX mode (leftmost-longest); see tests/test_reference.c and
 * tests/reference_oracle.py.
 *
 * Syntax in reach: literals and escapes (\n \t \r \f \e \a \0 \0dd
 * \xHH \x{H..} \o{..} \cX, \ddd in a class, \. and any escaped
 * punctuation, \Q...\E),
 * `.`, classes ([...], ranges, negation, [:alpha:] and the other POSIX
 * names, \d \w \s \h \v and their negations inside and outside, \N
 * outside), anchors ^ $ \A \z \Z \b \B, groups (...) (?:...) (?|...)
 * (?<name>...) (?P<name>...) and (?flags:...), inline flags (?i) (?s)
 * (?m) (?U) (?J) (?n) (?^) (?-i) ..., comments (?#...), alternation,
 * greedy and lazy quantifiers * + ? {n} {n,} {n,m} and their lazy forms.
 * What is outside (backreferences, lookaround, atomic groups, possessive
 * quantifiers, \p{..}, \K, \G, \R, \X, \C, \N{U+..}, (?x),
 * recursion, conditionals, callouts, (*VERBS), \Q...\E inside a class,
 * {n,m} above 1000, programs above 200,000 instructions) is
 * REF_OUT_OF_REACH: those cases need another kind of verification.
 *
 * Semantics follow PCRE2 10.42 with its defaults: the newline is LF
 * alone; `.` matches any byte (a whole UTF-8 character with ENGINE_UTF8)
 * but '\n' unless ENGINE_DOTALL; `$` and \Z match at the end and before
 * a final '\n' (`$` before every '\n' with ENGINE_MULTILINE), \z only
 * at the end; `^` at the start (and after every '\n' with
 * ENGINE_MULTILINE, but not after a final one); \w \d \s and \b are
 * ASCII (\s is [\t\n\x0b\f\r ]); \h and \v are PCRE2's horizontal and
 * vertical space ([\t \xa0] and [\n\x0b\f\r\x85] on bytes, the
 * Unicode spaces too in UTF-8 mode), not the characters Python reads;
 * ENGINE_CASELESS folds ASCII letters only, and in UTF-8 mode also k and
 * s with U+212A and U+017F as PCRE2 does; a caseless pattern naming a
 * non-ASCII character in UTF-8 mode is REF_OUT_OF_REACH (engines fold
 * those differently), and so is what PCRE2 10.42 itself gets wrong: a
 * class with a POSIX class after \D \S \W or [:^name:] in UTF-8 mode
 * ([\W[:blank:]] misses characters above U+00FF), and \S together with
 * \h or \v outside classes (its auto-possessification takes them for
 * disjoint, so \S*\v does not match "a\x85"), and an alternation
 * repeated {0} (its start-of-match analysis reads the skipped group and
 * compiles (?:a|^){0}c as anchored).  A loop
 * iteration that matched the empty string does not loop again
 * ((?:|a)* matches "" at 0 of "aa").  Where PCRE2 and Python differ,
 * tests/reference_oracle.py says how it accounts for it.
 *
 * In UTF-8 mode matches start and end on character boundaries; the data
 * should be valid UTF-8 (PCRE2 refuses other data; suites check it with
 * engine_utf8_invalid()): bytes outside valid sequences then match
 * nothing, not even `.` or [^a].
 *
 * Speed: one pass over the data per search, sparse-set thread lists,
 * 256-bit byte sets, and a jump (memchr for a single byte) to the next
 * offset that can start a match while no thread is alive.  Counting
 * matches searches again after each match, so a pattern whose
 * higher-priority threads outlive each match (.*x|y with DOTALL) is
 * quadratic; on the scan suite's 1 MiB corpus each built-in pattern
 * takes well under 0.1 s per semantics class.
 *
 * A compiled regex holds its own scratch space, so matching never
 * allocates and never fails, and one regex must not be used by two
 * threads at once.
 *
 * Build: always; no library.
 */
#ifndef RXB_REFERENCE_H
#define RXB_REFERENCE_H

#include <stddef.h>

#include "engines/engine.h"

/* ref_compile() failures. */
enum ref_status {
	REF_OK = 0,
	REF_OUT_OF_REACH = -1, /* valid syntax the reference does not implement */
	REF_INVALID = -2,      /* not a valid pattern */
	REF_NOMEM = -3,
};

/*
 * How a REF_OUT_OF_REACH reason starts when the whole pattern was parsed
 * and only its program is too large (no construct stopped the parser).
 */
#define REF_WHY_TOO_LARGE "pattern too large for the reference"

/* What a pattern uses, found by the parser: for capability gates. */
enum ref_feature {
	REF_USES_DOLLAR = 1u << 0, /* `$` outside multiline mode, or \Z:
				      engines without CAP_PERL_DOLLAR differ
				      where the data ends with '\n' */
	REF_USES_EMPTY = 1u << 1,  /* the pattern can match the empty string
				      somewhere (exact: \b\B cannot) */
};

struct ref_regex;

/*
 * Compile pattern re[0..len) (bytes, may hold NUL) with `flags` (enum
 * engine_flag; ENGINE_SINGLEMATCH is ignored).  Returns REF_OK and a new
 * regex in *out, or a negative enum ref_status with a one-line reason in
 * why[0..size) ("backreference \1 at offset 4").  The caller owns *out
 * and frees it with ref_free().
 */
int ref_compile(const char *re, size_t len, unsigned flags,
		struct ref_regex **out, char *why, size_t size);

/*
 * The capabilities (enum engine_cap) an engine needs for this pattern:
 * CAP_LAZY (a lazy quantifier with min < max, (?U) included),
 * CAP_COUNTED_REP, CAP_WORD_BOUNDARY, CAP_PERL_CLASSES (\d \w \s \h \v
 * \N and negations), CAP_NONCAPTURE ((?:, (?|, (?i:), CAP_INLINE_FLAGS,
 * CAP_NUL_PATTERN (a raw NUL byte, or an escape naming NUL as a
 * character or range end), CAP_EMPTY_MATCH (as REF_USES_EMPTY).
 */
unsigned ref_needs(const struct ref_regex *r);

/* enum ref_feature bits of this pattern. */
unsigned ref_features(const struct ref_regex *r);

/* 1 if the pattern matches anywhere in data[0..len), else 0 (data may be
   NULL when len is 0). */
int ref_is_match(const struct ref_regex *r, const char *data, size_t len);

/*
 * The number of matches in data[0..len) under `sem`, as engine.h's
 * count() defines it: SEM_LEFTMOST_FIRST and SEM_LEFTMOST_LONGEST count
 * non-overlapping matches, searching again from the end of each match, or
 * one byte (one UTF-8 character with ENGINE_UTF8) past an empty one;
 * anchors see the whole data, not the data from the resume point.
 * SEM_ALL_ENDS counts the offsets e in [0, len] at which some match ends
 * (Hyperscan without SOM).  With ENGINE_ANCHORED only matches starting at
 * offset 0 count (0 or 1).  -1 for SEM_NONE (matching itself never
 * fails: the scratch space was made by ref_compile()).
 */
long ref_count(const struct ref_regex *r, enum engine_semantics sem,
	       const char *data, size_t len);

void ref_free(struct ref_regex *r);

#endif
