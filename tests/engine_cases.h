/*
 * engine_cases.h - the one case table every engine adapter is checked
 * against (tests/test_engines.c).  Each case is data: pattern(s) with
 * explicit lengths (so NUL can be in them), flags, a haystack (optionally
 * after `pad` copies of `pad_byte`, for long inputs), the capabilities it
 * needs, and what it expects.
 *
 * Counts follow engine.h: non-overlapping matches, resuming after each
 * match and one byte past an empty one (one character with ENGINE_UTF8,
 * as the reference's ref_count()), summed over a set; with
 * ENGINE_ANCHORED 0 or 1 per pattern.  One count per semantics class:
 *   first   - leftmost-first (PCRE2, RE2, Oniguruma, Boost)
 *   longest - leftmost-longest (POSIX: glibc, TRE; PCRE2's DFA matcher)
 *   ends    - every distinct match end offset per pattern (Hyperscan)
 * CASE_NA marks a count no engine of that class can be asked for (the
 * case needs a capability none of them has).
 *
 * Every number here was worked out by hand; the comment on a case shows
 * the matches when they are not obvious.
 */
#ifndef RXB_TESTS_ENGINE_CASES_H
#define RXB_TESTS_ENGINE_CASES_H

#include "engines/engine.h"

#include <stddef.h>

#define CASE_MAX_PATS 4
#define CASE_NA (-1L)


struct case_text {
	const char *s;
	size_t len;
};

struct engine_case {
	const char *name;
	struct engine_pattern pats[CASE_MAX_PATS];
	size_t npats;
	unsigned flags;          /* enum engine_flag */
	struct case_text hay;
	size_t pad;              /* bytes of pad_byte before hay */
	char pad_byte;
	unsigned needs_caps;     /* enum engine_cap */
	int expect_match;
	long expect_count_first;
	long expect_count_longest;
	long expect_count_allends;
	unsigned expect_ids;     /* bit i: pattern i matches (sets only) */
};

/* A byte string literal with its length (it may hold NUL). */
#define CASE_STR(s) { (s), sizeof(s) - 1 }
#define CASE_RE(s) .pats = { CASE_STR(s) }, .npats = 1
#define CASE_HAY(s) .hay = CASE_STR(s)
#define CASE_COUNTS(f, l, e)                                              \
	.expect_count_first = (f), .expect_count_longest = (l),           \
	.expect_count_allends = (e)

#define MiB ((size_t)1 << 20)

static const struct engine_case engine_cases[] = {
	/* Literals */
	{ .name = "literal", CASE_RE("abc"), CASE_HAY("xxabcxxabc"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	{ .name = "literal_none", CASE_RE("abd"), CASE_HAY("xxabcxx"),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	{ .name = "empty_haystack", CASE_RE("a"), CASE_HAY(""),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },

	/* Anchors */
	{ .name = "caret_start", CASE_RE("^ab"), CASE_HAY("abab"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "caret_not_mid", CASE_RE("^b"), CASE_HAY("ab"),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	{ .name = "dollar_end", CASE_RE("ab$"), CASE_HAY("abab"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "caret_no_multiline", CASE_RE("^a"), CASE_HAY("b\nab"),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	/* lines start at 0, 3, 6: "a" at 0 and 3 */
	{ .name = "caret_multiline", CASE_RE("^a"), CASE_HAY("ab\nab\nb"),
	  .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* "b" before each "\n" and at the end */
	{ .name = "dollar_multiline", CASE_RE("b$"), CASE_HAY("ab\nab\nb"),
	  .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(3, 3, 3) },
	{ .name = "dollar_multiline_final_nl", CASE_RE("b$"),
	  CASE_HAY("ab\n"), .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* empty matches at 1 (before "\n") and 3 (end) */
	{ .name = "dollar_alone_multiline", CASE_RE("$"), CASE_HAY("a\nb"),
	  .flags = ENGINE_MULTILINE, .needs_caps = CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	{ .name = "dollar_alone", CASE_RE("$"), CASE_HAY("a\nb"),
	  .needs_caps = CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "dollar_before_final_nl", CASE_RE("a$"), CASE_HAY("ba\n"),
	  .needs_caps = CAP_PERL_DOLLAR,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* "a" at 0 by ^, "b" at 1 by $ */
	{ .name = "caret_or_dollar", CASE_RE("^a|b$"), CASE_HAY("ab"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* "\n" at 0, then "a" at 1: ^ must see the "\n" before it */
	{ .name = "caret_after_resume", CASE_RE("\n|^a"), CASE_HAY("\na"),
	  .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },

	/* Alternation: where the classes part */
	/* first: "a" at 0 and 2; longest: "ab" at 0 and 2; ends 1,2,3,4 */
	{ .name = "alt_a_ab", CASE_RE("a|ab"), CASE_HAY("abab"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 4) },
	/* first: a,b,a,b; longest: ab,ab; ends 1,2,3,4 */
	{ .name = "alt_counts_differ", CASE_RE("a|ab|b"), CASE_HAY("abab"),
	  .expect_match = 1, CASE_COUNTS(4, 2, 4) },
	/* first: a,a,a; longest: aa,a; ends 1,2,3 */
	{ .name = "alt_a_aa", CASE_RE("a|aa"), CASE_HAY("aaa"),
	  .expect_match = 1, CASE_COUNTS(3, 2, 3) },
	/* first: ab,ab; longest: abcd,abcd; ends 2,4,7,9 */
	{ .name = "alt_prefix", CASE_RE("ab|abcd"), CASE_HAY("abcd abcd"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 4) },
	/* first: "a" at 0, "b" at 1; longest: "ab" (so length 2); ends 1, 2 */
	{ .name = "alt_longest_covers", CASE_RE("a|ab|b"), CASE_HAY("ab"),
	  .expect_match = 1, CASE_COUNTS(2, 1, 2) },
	/* "abac" and "bc"; ends at each "c" */
	{ .name = "alt_star", CASE_RE("(a|b)*c"), CASE_HAY("abacbc"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },

	/* Classes */
	/* "abc" (ends 2,3,4) and "ca" (ends 6,7) */
	{ .name = "class_range", CASE_RE("[a-c]+"), CASE_HAY("xabcyca"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 5) },
	/* "xyz" (ends 3,4,5) and "d\n" (ends 7,8): [^...] takes "\n" */
	{ .name = "class_negated", CASE_RE("[^a-c]+"), CASE_HAY("abxyzcd\n"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 5) },
	{ .name = "class_negated_multiline", CASE_RE("[^a-c]+"),
	  CASE_HAY("abxyzcd\n"), .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(2, 2, 5) },
	/* "ab" (ends 1,2) and "cd" (ends 4,5) */
	{ .name = "class_not_newline", CASE_RE("[^\\n]+"), CASE_HAY("ab\ncd"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 4) },
	/* one run "]-^\\" at 1..5, ends 2,3,4,5 */
	{ .name = "class_specials", CASE_RE("[\\]\\-^\\\\]+"),
	  CASE_HAY("a]-^\\b"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 4) },
	/* '\t' and ' ': [:blank:] holds no '\v' (Boost's does) */
	{ .name = "class_posix_blank", CASE_RE("[[:blank:]]"),
	  CASE_HAY("\t\v "),
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* "12" (ends 2,3) and "3" (end 5) */
	{ .name = "class_posix", CASE_RE("[[:digit:]]+"), CASE_HAY("a12b3"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 3) },
	/* the whole text ("\n" included); $ holds at 2 and 5: two ends */
	{ .name = "class_negated_multiline_span", CASE_RE("^[^x]+$"),
	  CASE_HAY("ab\ncd"), .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(1, 1, 2) },

	/* Dot and newline */
	{ .name = "dot_no_newline", CASE_RE("a.c"), CASE_HAY("a\nc abc"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "dot_dotall", CASE_RE("a.c"), CASE_HAY("a\nc abc"),
	  .flags = ENGINE_DOTALL,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* "ab" (ends 1,2), "cd" (ends 4,5) */
	{ .name = "dot_plus_lines", CASE_RE(".+"), CASE_HAY("ab\ncd"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 4) },
	{ .name = "dot_plus_dotall", CASE_RE(".+"), CASE_HAY("ab\ncd"),
	  .flags = ENGINE_DOTALL,
	  .expect_match = 1, CASE_COUNTS(1, 1, 5) },
	{ .name = "dot_multiline", CASE_RE("a.b"), CASE_HAY("a\nb"),
	  .flags = ENGINE_MULTILINE,
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	/* whole text; $ holds at 2 and 5, so two ends */
	{ .name = "dot_multiline_dotall", CASE_RE("^.+$"), CASE_HAY("ab\ncd"),
	  .flags = ENGINE_MULTILINE | ENGINE_DOTALL,
	  .expect_match = 1, CASE_COUNTS(1, 1, 2) },
	{ .name = "dot_matches_nul", CASE_RE("a.b"), CASE_HAY("a\0b"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* only '\n' ends a line: '.' takes '\r' and '\f' (Boost's would not) */
	{ .name = "dot_matches_cr_ff", CASE_RE("a.b"), CASE_HAY("a\rb a\fb"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* "b" after the "\n" only, not after '\r' or '\f' */
	{ .name = "caret_multiline_lf_only", CASE_RE("^b"),
	  CASE_HAY("a\rb\fb\nb"), .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* "a" before the "\n" and at the end */
	{ .name = "dollar_multiline_lf_only", CASE_RE("a$"),
	  CASE_HAY("a\ra\fa\na"), .flags = ENGINE_MULTILINE,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },

	/* Case */
	{ .name = "caseless", CASE_RE("abc"), CASE_HAY("ABC aBc abd"),
	  .flags = ENGINE_CASELESS,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	{ .name = "caseless_class", CASE_RE("[a-c]+"), CASE_HAY("xABCx"),
	  .flags = ENGINE_CASELESS,
	  .expect_match = 1, CASE_COUNTS(1, 1, 3) },
	{ .name = "case_sensitive", CASE_RE("abc"), CASE_HAY("ABC"),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },

	/* Empty matches */
	/* empty at 0,1,2,3 */
	{ .name = "empty_star", CASE_RE("x*"), CASE_HAY("abc"),
	  .needs_caps = CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(4, 4, 4) },
	/* empty at 0, "aaa" at 1, empty at 4 and 5; ends 0..5 */
	{ .name = "empty_and_nonempty", CASE_RE("a*"), CASE_HAY("baaac"),
	  .needs_caps = CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(4, 4, 6) },
	{ .name = "empty_pattern", CASE_RE(""), CASE_HAY("ab"),
	  .needs_caps = CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(3, 3, 3) },
	/* UTF-8: one character past an empty match, never into one */
	/* empty at 0 and 2, not 1 (re2 resuming a byte counted 3) */
	{ .name = "utf8_empty_two_bytes", CASE_RE("x*"), CASE_HAY("\xc3\xa9"),
	  .flags = ENGINE_UTF8, .needs_caps = CAP_EMPTY_MATCH | CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* empty at 0, 1, 5, 6: U+1F600 is 4 bytes, and two UTF-16 units
	   to JavaScript (v8 stepping one unit looped for ever) */
	{ .name = "utf8_empty_astral", CASE_RE("x*"),
	  CASE_HAY("a\xf0\x9f\x98\x80" "b"),
	  .flags = ENGINE_UTF8, .needs_caps = CAP_EMPTY_MATCH | CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(4, 4, 4) },
	/* empty at 0, 2, 6 */
	{ .name = "utf8_empty_pattern", CASE_RE(""),
	  CASE_HAY("\xc3\xa9\xf0\x9f\x98\x80"),
	  .flags = ENGINE_UTF8, .needs_caps = CAP_EMPTY_MATCH | CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(3, 3, 3) },
	/* "a" at 0, empty at 1 and 3, "a" at 7, empty at 8; ends 0,1,3,7,8 */
	{ .name = "utf8_empty_and_nonempty", CASE_RE("a*"),
	  CASE_HAY("a\xc3\xa9\xf0\x9f\x98\x80" "a"),
	  .flags = ENGINE_UTF8, .needs_caps = CAP_EMPTY_MATCH | CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(5, 5, 5) },
	/* "b*": empty at 0, "b" at 3, empty at 4 and 7; "x": none */
	{ .name = "utf8_set_with_empty",
	  .pats = { CASE_STR("x"), CASE_STR("b*") }, .npats = 2,
	  CASE_HAY("\xe6\x97\xa5" "b\xe6\x97\xa5"), .flags = ENGINE_UTF8,
	  .needs_caps = CAP_EMPTY_MATCH | CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(4, 4, 4), .expect_ids = 0x2 },

	/* Repetition */
	/* "aaa","aaa", one "a" left; ends 2..7 */
	{ .name = "counted_range", CASE_RE("a{2,3}"), CASE_HAY("aaaaaaa"),
	  .needs_caps = CAP_COUNTED_REP,
	  .expect_match = 1, CASE_COUNTS(2, 2, 6) },
	{ .name = "counted_exact", CASE_RE("\\d{3}"), CASE_HAY("12345678"),
	  .needs_caps = CAP_COUNTED_REP | CAP_PERL_CLASSES,
	  .expect_match = 1, CASE_COUNTS(2, 2, 6) },
	/* PCRE reads "{,2}" literally */
	{ .name = "brace_literal", CASE_RE("a{,2}"), CASE_HAY("xa{,2}"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "lazy", CASE_RE("a+?"), CASE_HAY("aaa"),
	  .needs_caps = CAP_LAZY,
	  .expect_match = 1, CASE_COUNTS(3, 1, 3) },
	/* "<a>" and "<b>"; ends 3 and 6; the longest is all of it */
	{ .name = "lazy_extent", CASE_RE("<.+?>"), CASE_HAY("<a><b>"),
	  .needs_caps = CAP_LAZY,
	  .expect_match = 1, CASE_COUNTS(2, 1, 2) },

	/* Groups, back-references, lookaround, atomic */
	/* "abab" (ends 2,4) and "ab" (end 7) */
	{ .name = "noncapture", CASE_RE("(?:ab)+"), CASE_HAY("ababxab"),
	  .needs_caps = CAP_NONCAPTURE,
	  .expect_match = 1, CASE_COUNTS(2, 2, 3) },
	{ .name = "inline_caseless", CASE_RE("(?i)abc"), CASE_HAY("xABC"),
	  .needs_caps = CAP_INLINE_FLAGS,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* "aa" at 0, "bb" at 2 */
	{ .name = "backref", CASE_RE("(a|b)\\1"), CASE_HAY("aabba"),
	  .needs_caps = CAP_BACKREF,
	  .expect_match = 1, CASE_COUNTS(2, 2, CASE_NA) },
	/* the (?:...) before the group must not shift \1 */
	{ .name = "backref_after_noncapture", CASE_RE("(?:x)(a)\\1"),
	  CASE_HAY("xaa xab"), .needs_caps = CAP_BACKREF | CAP_NONCAPTURE,
	  .expect_match = 1, CASE_COUNTS(1, 1, CASE_NA) },
	{ .name = "lookahead", CASE_RE("a(?=b)"), CASE_HAY("abac"),
	  .needs_caps = CAP_LOOKAROUND,
	  .expect_match = 1, CASE_COUNTS(1, 1, CASE_NA) },
	{ .name = "lookbehind_negative", CASE_RE("(?<!x)b"), CASE_HAY("xbab"),
	  .needs_caps = CAP_LOOKAROUND,
	  .expect_match = 1, CASE_COUNTS(1, 1, CASE_NA) },
	{ .name = "atomic", CASE_RE("(?>a+)a"), CASE_HAY("aaa"),
	  .needs_caps = CAP_ATOMIC,
	  .expect_match = 0, CASE_COUNTS(0, CASE_NA, CASE_NA) },
	{ .name = "possessive", CASE_RE("a++b"), CASE_HAY("aaab"),
	  .needs_caps = CAP_ATOMIC,
	  .expect_match = 1, CASE_COUNTS(1, CASE_NA, CASE_NA) },

	/* Word boundaries and Perl classes */
	/* "foo" at 0 and 9 */
	{ .name = "word_boundary", CASE_RE("\\bfoo\\b"),
	  CASE_HAY("foo food foo."), .needs_caps = CAP_WORD_BOUNDARY,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	/* at 0 and 1: no word byte on either side, the data's ends too */
	{ .name = "not_word_boundary_ends", CASE_RE("\\B"), CASE_HAY(" "),
	  .needs_caps = CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(2, 2, 2) },
	{ .name = "not_word_boundary", CASE_RE("\\Boo"), CASE_HAY("foo oo"),
	  .needs_caps = CAP_WORD_BOUNDARY,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* "a" at 0; \b fails at 1 (word bytes on both sides): left context */
	{ .name = "word_boundary_resume", CASE_RE("a|\\bb"), CASE_HAY("ab"),
	  .needs_caps = CAP_WORD_BOUNDARY,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* "ab_1" (ends 1..4) and "c" (end 6) */
	{ .name = "perl_word", CASE_RE("\\w+"), CASE_HAY("ab_1 c!"),
	  .needs_caps = CAP_PERL_CLASSES,
	  .expect_match = 1, CASE_COUNTS(2, 2, 5) },
	/* " \t " (ends 2,3,4) and "\n" (end 6) */
	{ .name = "perl_space", CASE_RE("\\s+"), CASE_HAY("a \t b\n"),
	  .needs_caps = CAP_PERL_CLASSES,
	  .expect_match = 1, CASE_COUNTS(2, 2, 4) },
	{ .name = "perl_not_digit", CASE_RE("\\D+"), CASE_HAY("a1b22c"),
	  .needs_caps = CAP_PERL_CLASSES,
	  .expect_match = 1, CASE_COUNTS(3, 3, 3) },

	/* Bytes: NUL, >= 0x80, Latin-1 vs UTF-8 */
	/* "\x80\xff" (ends 2,3) and "\xc3\xa9" (ends 6,7) */
	{ .name = "binary_high_bytes", CASE_RE("[\\x80-\\xff]+"),
	  CASE_HAY("\0\x80\xff\0a\xc3\xa9"),
	  .expect_match = 1, CASE_COUNTS(2, 2, 4) },
	{ .name = "escaped_nul", CASE_RE("a\\x00b"), CASE_HAY("za\0bz"),
	  .needs_caps = CAP_NUL_PATTERN,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "raw_nul_pattern", CASE_RE("a\0b"), CASE_HAY("xa\0bx a\0c"),
	  .needs_caps = CAP_NUL_PATTERN,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "latin1_dot_is_byte", CASE_RE("a.b"),
	  CASE_HAY("a\xc3\xa9" "b"),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	{ .name = "latin1_two_dots", CASE_RE("a..b"),
	  CASE_HAY("a\xc3\xa9" "b"),
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "utf8_dot_is_char", CASE_RE("a.b"),
	  CASE_HAY("a\xc3\xa9" "b"),
	  .flags = ENGINE_UTF8, .needs_caps = CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	/* one run of two characters; ends after each */
	{ .name = "utf8_plus", CASE_RE("\xc3\xa9+"),
	  CASE_HAY("a\xc3\xa9\xc3\xa9" "b"),
	  .flags = ENGINE_UTF8, .needs_caps = CAP_UTF8,
	  .expect_match = 1, CASE_COUNTS(1, 1, 2) },

	/* Long haystacks */
	{ .name = "long_match_at_end", CASE_RE("b+c"), CASE_HAY("bbc"),
	  .pad = MiB, .pad_byte = 'a',
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "long_no_match", CASE_RE("b+c"), CASE_HAY("bb"),
	  .pad = MiB, .pad_byte = 'a',
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	/* 65536 / 3 = 21845 matches; ends 3..65536 */
	{ .name = "long_many_matches", CASE_RE("a{3}"), CASE_HAY(""),
	  .pad = 65536, .pad_byte = 'a', .needs_caps = CAP_COUNTED_REP,
	  .expect_match = 1, CASE_COUNTS(21845, 21845, 65534) },

	/* ENGINE_ANCHORED: only at offset 0, count 0 or 1 per pattern */
	{ .name = "anchored", CASE_RE("ab"), CASE_HAY("abab"),
	  .flags = ENGINE_ANCHORED,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "anchored_not_at_start", CASE_RE("b"), CASE_HAY("ab"),
	  .flags = ENGINE_ANCHORED,
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	{ .name = "anchored_repeat", CASE_RE("a+"), CASE_HAY("aaa"),
	  .flags = ENGINE_ANCHORED,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1) },
	{ .name = "anchored_not_at_line", CASE_RE("b"), CASE_HAY("a\nb"),
	  .flags = ENGINE_ANCHORED | ENGINE_MULTILINE,
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },
	/* the wrap must not change the meaning of an alternation */
	{ .name = "anchored_alternation", CASE_RE("x|b"), CASE_HAY("ab"),
	  .flags = ENGINE_ANCHORED,
	  .expect_match = 0, CASE_COUNTS(0, 0, 0) },

	/* Sets */
	{ .name = "set_literals",
	  .pats = { CASE_STR("abc"), CASE_STR("xyz"), CASE_STR("nope") },
	  .npats = 3, CASE_HAY("xyz abc abc"),
	  .expect_match = 1, CASE_COUNTS(3, 3, 3), .expect_ids = 0x3 },
	/* "a": 1; "b*": empty at 0, "b" at 1, empty at 2 (ends 0,1,2) */
	{ .name = "set_with_empty",
	  .pats = { CASE_STR("a"), CASE_STR("b*") }, .npats = 2,
	  CASE_HAY("ab"), .needs_caps = CAP_EMPTY_MATCH,
	  .expect_match = 1, CASE_COUNTS(4, 4, 4), .expect_ids = 0x3 },
	{ .name = "set_anchored",
	  .pats = { CASE_STR("ab"), CASE_STR("b") }, .npats = 2,
	  CASE_HAY("ab"), .flags = ENGINE_ANCHORED,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1), .expect_ids = 0x1 },
	{ .name = "set_caseless",
	  .pats = { CASE_STR("q"), CASE_STR("ABC") }, .npats = 2,
	  CASE_HAY("xabc"), .flags = ENGINE_CASELESS,
	  .expect_match = 1, CASE_COUNTS(1, 1, 1), .expect_ids = 0x2 },
	{ .name = "set_none",
	  .pats = { CASE_STR("q"), CASE_STR("r"), CASE_STR("s"),
		    CASE_STR("t") },
	  .npats = 4, CASE_HAY("abc"),
	  .expect_match = 0, CASE_COUNTS(0, 0, 0), .expect_ids = 0 },
	/* first: a,a + b,b; longest: ab,ab + b,b; ends 1..4 + 2,4 */
	{ .name = "set_overlapping",
	  .pats = { CASE_STR("a|ab"), CASE_STR("b") }, .npats = 2,
	  CASE_HAY("abab"),
	  .expect_match = 1, CASE_COUNTS(4, 4, 6), .expect_ids = 0x3 },
};

static const size_t engine_case_count =
	sizeof(engine_cases) / sizeof(engine_cases[0]);

#endif
