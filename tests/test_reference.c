/*
 * test_reference.c - the reference matcher (suites/reference.h) on
 * hand-worked cases per semantics class, on the shared engine case table
 * (tests/engine_cases.h), on the scan suite's built-in benchmarks over
 * its 1 MiB corpus, on its error messages and capability bits, and on
 * random bytes (it must never crash and its answers must stay
 * consistent with each other).
 *
 * Every expected number was worked out by hand; the comment on a case
 * shows the matches when they are not obvious, and PCRE2 10.42 agrees
 * with each (pcre2test, or ref_cli -e pcre2).  The differential run
 * against Python is tests/reference_oracle.py.
 */
#include "corpora/text.h"
#include "suites/reference.h"
#include "tests/engine_cases.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ref_case {
	const char *name;
	struct case_text re;
	unsigned flags;
	struct case_text hay;
	int match;
	long first, longest, ends;
};

#define R(s) .re = CASE_STR(s)
#define H(s) .hay = CASE_STR(s)
#define N(m, f, l, e) .match = (m), .first = (f), .longest = (l), .ends = (e)

static const struct ref_case cases[] = {
	/* From issue 11. */
	/* empty matches at 0..6: ^ at 0, x? elsewhere */
	{"caret_or_empty", R("^|x?"), 0, H("ab\nab\n"), N(1, 7, 7, 7)},
	{"dollar_nul", R("$"), 0, H("a\0b\0c"), N(1, 1, 1, 1)},
	/* ($)? is empty at 0 and 1, $ at 2 */
	{"optional_dollar", R("($)?"), 0, H("ab"), N(1, 3, 3, 3)},
	/* $ does not hold before a '\n' that is not the last byte */
	{"dollar_mid_newline", R("\\bx$\\n|y"), 0, H("x\ny"), N(1, 1, 1, 1)},
	/* "b" at 0; "a" at 2, before the final '\n' */
	{"dollar_final_newline", R("a$|b"), 0, H("b\na\n"), N(1, 2, 2, 2)},
	/* empty at 0, 3, 6, 7: resuming one character, not one byte */
	{"utf8_resume", R("x*"), ENGINE_UTF8, H("\xe6\x97\xa5\xe6\x97\xa5\n"),
	 N(1, 4, 4, 4)},
	{"caseless", R("abc"), ENGINE_CASELESS, H("ABC"), N(1, 1, 1, 1)},

	/* Leftmost-first against leftmost-longest. */
	/* first: "a", then "b"; longest: "ab"; ends 1, 2 */
	{"first_vs_longest", R("a|ab|b"), 0, H("ab"), N(1, 2, 1, 2)},
	/* first "abcd" by a+bcd, longest "abcd"; "abc" (ab+c) ends at 3 */
	{"first_longest_same_span", R("(a|ab)(c|bcd)"), 0, H("abcd"),
	 N(1, 1, 1, 2)},
	/* first: a, a, a; longest: aa, a */
	{"alt_a_aa", R("a|aa"), 0, H("aaa"), N(1, 3, 2, 3)},
	/* first: a, bcd; longest: ab, c, d (more matches) */
	{"longest_counts_more", R("a|ab|bcd|c|d"), 0, H("abcd"),
	 N(1, 2, 3, 4)},

	/* Greedy and lazy. */
	{"greedy", R("a+"), 0, H("aaa"), N(1, 1, 1, 3)},
	{"lazy", R("a+?"), 0, H("aaa"), N(1, 3, 1, 3)},
	/* first: "<a>", "<b>"; longest: "<a><b>"; ends 3, 6 */
	{"lazy_extent", R("<.+?>"), 0, H("<a><b>"), N(1, 2, 1, 2)},
	/* lazy optional copies: "a", "a", "a" first; "aa", "a" longest */
	{"lazy_counted", R("a{1,2}?"), 0, H("aaa"), N(1, 3, 2, 3)},
	/* (?U) swaps greediness; a lazy quantifier under it is greedy */
	{"ungreedy", R("(?U)a+"), 0, H("aaa"), N(1, 3, 1, 3)},
	{"ungreedy_lazy", R("(?U)a+?"), 0, H("aaa"), N(1, 1, 1, 3)},

	/* PCRE2's rule for iterations that match empty. */
	/* first: "" at 0, 1, 2 (the empty branch leaves the loop);
	   longest: "aa", then "" at 2; ends 0, 1, 2 */
	{"empty_iteration", R("(?:|a)*"), 0, H("aa"), N(1, 3, 2, 3)},
	{"empty_iteration_plus", R("(?:|a)+"), 0, H("aa"), N(1, 3, 2, 3)},
	/* the non-empty branch first: "aa", then "" at 2 */
	{"nonempty_iteration", R("(?:a|)*"), 0, H("aa"), N(1, 2, 2, 3)},
	{"empty_iteration_then", R("(?:|a)*b"), 0, H("aab"), N(1, 1, 1, 1)},
	/* the second iteration's empty branch leaves the loop before .{2,3}
	   is tried: first "abc1", "de1"; longest "abc1de1"; ends 4, 7 */
	{"empty_iteration_later", R("(|.{2,3})*1"), 0, H("abc1de1"),
	 N(1, 2, 1, 2)},
	{"empty_iteration_lazy", R("(?:|a)*?b"), 0, H("aab"), N(1, 1, 1, 1)},
	/* iteration 1: "" leaves, 'b' fails at 0, so '.' takes "a";
	   iteration 2: "" leaves and 'b' matches: "ab", then "b" at 2;
	   longest "abb"; ends 2, 3 */
	{"empty_iteration_second", R("(?:|.)+b"), 0, H("abb"), N(1, 2, 1, 2)},
	/* lazy: "" at 0, "a" at 1 (leaving after one iteration), "a" at 2,
	   "" at 3; longest "", "aa", ""; ends 0..3 */
	{"empty_iteration_lazy_plus", R("(?:a|)+?"), 0, H("baa"),
	 N(1, 4, 3, 4)},

	/* All ends. */
	{"ends_plus", R("a+"), 0, H("aaa"), N(1, 1, 1, 3)},
	/* "ab" (end 2) and "b" at 1 (end 2 too): one end */
	{"ends_shared", R("ab|b"), 0, H("ab"), N(1, 1, 1, 1)},
	/* "-0-" ends at 3; "-x " overlaps it and ends at 5 */
	{"ends_overlap", R("-.."), 0, H("-0-x "), N(1, 1, 1, 2)},

	/* Anchored: a match starting at 0 only, counted once. */
	{"anchored", R("a+"), ENGINE_ANCHORED, H("aaa"), N(1, 1, 1, 1)},
	{"anchored_not_at_start", R("b"), ENGINE_ANCHORED, H("ab"),
	 N(0, 0, 0, 0)},
	{"anchored_empty", R("x*"), ENGINE_ANCHORED, H("ab"), N(1, 1, 1, 1)},
	{"anchored_multiline", R("^b"), ENGINE_ANCHORED | ENGINE_MULTILINE,
	 H("a\nb"), N(0, 0, 0, 0)},

	/* Multiline ^ and $. */
	{"caret_multiline", R("^a"), ENGINE_MULTILINE, H("ab\nab\nb"),
	 N(1, 2, 2, 2)},
	/* not after the '\n' that ends the data (Python's ^ is) */
	{"caret_not_after_final_newline", R("^"), ENGINE_MULTILINE, H("a\n"),
	 N(1, 1, 1, 1)},
	{"caret_lines", R("^"), ENGINE_MULTILINE, H("a\nb"), N(1, 2, 2, 2)},
	{"dollar_multiline", R("$"), ENGINE_MULTILINE, H("a\nb"),
	 N(1, 2, 2, 2)},
	/* $ before the final '\n' and at the end */
	{"dollar_twice", R("$"), 0, H("a\n"), N(1, 2, 2, 2)},
	/* the empty line at 2 only: ^ fails at 5, the end */
	{"empty_line", R("(?m)^$"), 0, H("a\n\nb\n"), N(1, 1, 1, 1)},
	{"inline_multiline", R("(?m)^b"), 0, H("a\nb"), N(1, 1, 1, 1)},
	{"Z_final_newline", R("a\\Z"), 0, H("a\n"), N(1, 1, 1, 1)},
	{"z_end_only", R("a\\z"), 0, H("a\n"), N(0, 0, 0, 0)},
	{"A_start_only", R("\\Ab"), ENGINE_MULTILINE, H("a\nb"),
	 N(0, 0, 0, 0)},

	/* Dot and dotall. */
	{"dot_no_newline", R("a.c"), 0, H("a\nc"), N(0, 0, 0, 0)},
	{"dotall", R("a.c"), ENGINE_DOTALL, H("a\nc"), N(1, 1, 1, 1)},
	{"inline_dotall", R("a(?s:.)c|b.d"), 0, H("a\ncb\nd"), N(1, 1, 1, 1)},
	{"N_ignores_dotall", R("a\\Nc"), ENGINE_DOTALL, H("a\nc"),
	 N(0, 0, 0, 0)},

	/* Bytes: NUL, high bytes, UTF-8. */
	/* "\x80\xff" (ends 2, 3) and "\xc3\xa9" (ends 6, 7) */
	{"high_bytes", R("[\\x80-\\xff]+"), 0, H("\0\x80\xff\0a\xc3\xa9"),
	 N(1, 2, 2, 4)},
	{"latin1_escape", R("\\xe9"), 0, H("\xc3\xa9"), N(0, 0, 0, 0)},
	{"utf8_escape", R("\\xe9"), ENGINE_UTF8, H("\xc3\xa9"), N(1, 1, 1, 1)},
	{"utf8_braced", R("\\x{65e5}+"), ENGINE_UTF8,
	 H("\xe6\x97\xa5\xe6\x97\xa5"), N(1, 1, 1, 2)},
	{"utf8_dot", R("a.b"), ENGINE_UTF8, H("a\xf0\x9f\x98\x80" "b"),
	 N(1, 1, 1, 1)},
	{"utf8_negated_class", R("[^a]"), ENGINE_UTF8, H("\xc3\xa9" "a"),
	 N(1, 1, 1, 1)},
	/* empty at 0 and 2: never inside a character */
	{"utf8_empty", R(""), ENGINE_UTF8, H("\xc3\xa9"), N(1, 2, 2, 2)},
	{"escaped_nul", R("a\\x00b"), 0, H("za\0bz"), N(1, 1, 1, 1)},
	{"raw_nul", R("a\0b"), 0, H("xa\0bx a\0c"), N(1, 1, 1, 1)},
	{"octal_nul", R("\\0+"), 0, H("\0\0a"), N(1, 1, 1, 2)},
	{"dot_nul", R("a.b"), 0, H("a\0b"), N(1, 1, 1, 1)},

	/* Case: ASCII only, but Kelvin and long s join k and s in UTF-8. */
	{"caseless_class", R("[a-c]+"), ENGINE_CASELESS, H("xABCx"),
	 N(1, 1, 1, 3)},
	{"caseless_latin1", R("\xe9"), ENGINE_CASELESS, H("\xc9"),
	 N(0, 0, 0, 0)},
	{"kelvin", R("k"), ENGINE_CASELESS | ENGINE_UTF8, H("\xe2\x84\xaa"),
	 N(1, 1, 1, 1)},
	{"kelvin_negated", R("[^k]"), ENGINE_CASELESS | ENGINE_UTF8,
	 H("\xe2\x84\xaa"), N(0, 0, 0, 0)},
	{"long_s_range", R("[a-z]"), ENGINE_CASELESS | ENGINE_UTF8,
	 H("\xc5\xbf"), N(1, 1, 1, 1)},
	{"kelvin_bytes", R("k"), ENGINE_CASELESS, H("\xe2\x84\xaa"),
	 N(0, 0, 0, 0)},
	{"kelvin_not_word_fold", R("\\W"), ENGINE_CASELESS | ENGINE_UTF8,
	 H("k"), N(0, 0, 0, 0)},
	/* caseless [:upper:] is every letter */
	{"caseless_upper", R("[[:upper:]]"), ENGINE_CASELESS, H("a"),
	 N(1, 1, 1, 1)},
	/* (?i) lasts to the end of the group, later branches included */
	{"inline_later_branch", R("a(?i)b|c"), 0, H("aBC"), N(1, 2, 2, 2)},
	{"inline_scoped", R("(?i:a)b"), 0, H("AbAB"), N(1, 1, 1, 1)},

	/* Classes and escapes as PCRE2 reads them. */
	/* \v is vertical space, \h horizontal, \s has VT */
	{"vertical_space", R("\\v+"), 0, H("\n\x0b\x0c\r\x85"),
	 N(1, 1, 1, 5)},
	{"horizontal_space", R("\\h"), 0, H("\t \xa0"), N(1, 3, 3, 3)},
	{"space_vt", R("\\s"), 0, H("\x0b"), N(1, 1, 1, 1)},
	/* the class form of \S next to \v, which PCRE2 gets right: "a\x85"
	   ("\x85" alone ends at 2 too) */
	{"nonspace_class_then_v", R("[^\\s]*\\v"), 0, H("a\x85"),
	 N(1, 1, 1, 1)},
	{"posix_class", R("[[:digit:]x]+"), 0, H("a1x2"), N(1, 1, 1, 3)},
	/* PCRE2 10.42 gets [\W[:blank:]] wrong above U+00FF, not these */
	{"posix_then_negated", R("[[:blank:]\\W]"), ENGINE_UTF8,
	 H("\xf0\x9f\x98\x80"), N(1, 1, 1, 1)},
	{"negated_posix_bytes", R("[\\W[:blank:]]"), 0, H("\xf0"),
	 N(1, 1, 1, 1)},
	{"class_backspace", R("[\\b]"), 0, H("\b"), N(1, 1, 1, 1)},
	{"control_escape", R("\\cA\\e"), 0, H("\x01\x1b"), N(1, 1, 1, 1)},
	{"octal_braced", R("\\o{101}"), 0, H("A"), N(1, 1, 1, 1)},
	{"brace_literal", R("x{,2}"), 0, H("x{,2}"), N(1, 1, 1, 1)},
	/* \Q...\E quotes; the + after \E repeats the last character */
	{"quoted", R("\\Qa.b\\E+"), 0, H("a.bb a.b axb"), N(1, 2, 2, 3)},
	/* a comment between an item and its quantifier is transparent */
	{"comment_quantifier", R("a(?#note)+"), 0, H("aaa"), N(1, 1, 1, 3)},
	{"named_group", R("(?<n>a)(?P<m>b)"), 0, H("ab"), N(1, 1, 1, 1)},
	{"zero_repeat", R("ab{0}c"), 0, H("ac abc"), N(1, 1, 1, 1)},
	{"zero_repeat_group", R("(?:^a){0}c"), 0, H("xc"), N(1, 1, 1, 1)},

	/* Word boundaries (ASCII), also at the ends and in empty data. */
	{"word_boundary", R("\\bfoo\\b"), 0, H("foo food foo."),
	 N(1, 2, 2, 2)},
	/* Python's re does not match \B in empty data; PCRE2 does */
	{"not_boundary_empty", R("\\B"), 0, H(""), N(1, 1, 1, 1)},
	{"boundary_utf8", R("\\b"), ENGINE_UTF8, H("\xc3\xa9"), N(0, 0, 0, 0)},
	/* "a" at 0; \b fails at 1 between two word bytes */
	{"boundary_resume", R("a|\\bb"), 0, H("ab"), N(1, 1, 1, 1)},
};

static void check_case(const struct ref_case *c)
{
	static const enum engine_semantics sem[] = {
		SEM_LEFTMOST_FIRST, SEM_LEFTMOST_LONGEST, SEM_ALL_ENDS};
	const long want[] = {c->first, c->longest, c->ends};
	struct ref_regex *r;
	char why[256];
	int rc = ref_compile(c->re.s, c->re.len, c->flags, &r, why,
			     sizeof(why));

	cr_assert_eq(rc, REF_OK, "%s: %s", c->name, why);
	cr_expect_eq(ref_is_match(r, c->hay.s, c->hay.len), c->match,
		     "%s: is_match", c->name);
	for (size_t i = 0; i < 3; i++)
		cr_expect_eq(ref_count(r, sem[i], c->hay.s, c->hay.len),
			     want[i], "%s: %s count", c->name,
			     engine_semantics_name(sem[i]));
	ref_free(r);
}

Test(reference, hand_worked)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
}

/* ---- the shared engine case table ---- */

static int needs_other_verification(const struct engine_case *c)
{
	return (c->needs_caps & (CAP_BACKREF | CAP_LOOKAROUND | CAP_ATOMIC)) !=
	       0;
}

/* Sum over the set's patterns, as engine.h defines counts of a set. */
static void check_engine_case(const struct engine_case *c, const char *hay,
			      size_t len)
{
	static const enum engine_semantics sem[] = {
		SEM_LEFTMOST_FIRST, SEM_LEFTMOST_LONGEST, SEM_ALL_ENDS};
	const long want[] = {c->expect_count_first, c->expect_count_longest,
			     c->expect_count_allends};
	long got[3] = {0, 0, 0};
	unsigned ids = 0;

	for (size_t p = 0; p < c->npats; p++) {
		struct ref_regex *r;
		char why[256];
		int rc = ref_compile(c->pats[p].re, c->pats[p].len, c->flags,
				     &r, why, sizeof(why));
		if (needs_other_verification(c)) {
			cr_expect_eq(rc, REF_OUT_OF_REACH, "%s", c->name);
			if (rc == REF_OK)
				ref_free(r);
			return;
		}
		cr_assert_eq(rc, REF_OK, "%s: %s", c->name, why);
		/* the table names every capability its patterns need */
		cr_expect_eq(ref_needs(r) & ~c->needs_caps, 0u,
			     "%s: needs 0x%x beyond the table's", c->name,
			     ref_needs(r) & ~c->needs_caps);
		ids |= (unsigned)ref_is_match(r, hay, len) << p;
		for (size_t i = 0; i < 3; i++)
			got[i] += ref_count(r, sem[i], hay, len);
		ref_free(r);
	}
	cr_expect_eq(ids != 0, c->expect_match, "%s: is_match", c->name);
	if (c->npats > 1)
		cr_expect_eq(ids, c->expect_ids, "%s: ids", c->name);
	for (size_t i = 0; i < 3; i++)
		if (want[i] != CASE_NA)
			cr_expect_eq(got[i], want[i], "%s: %s count %ld",
				     c->name, engine_semantics_name(sem[i]),
				     got[i]);
}

Test(reference, engine_cases)
{
	for (size_t i = 0; i < engine_case_count; i++) {
		const struct engine_case *c = &engine_cases[i];
		char *h = malloc(c->pad + c->hay.len + 1);
		cr_assert_not_null(h);
		memset(h, c->pad_byte, c->pad);
		memcpy(h + c->pad, c->hay.s, c->hay.len);
		check_engine_case(c, h, c->pad + c->hay.len);
		free(h);
	}
}

/* ---- the scan suite's built-in benchmarks (suites/scan.c) ---- */

Test(reference, scan_builtin_corpus)
{
	/* leftmost-first counts and matching lines on 1 MiB, seed 1, as
	   suites/scan.c's table expects them */
	static const struct {
		const char *re;
		unsigned flags;
		long first, lines;
	} b[] = {
		{"Sherlock", 0, 1730, 1657},
		{"Huckleberry Finn", 0, 14, 14},
		{"sherlock holmes", ENGINE_CASELESS, 10, 10},
		{"Sherlock|Holmes|Watson|Irene|Adler", 0, 8714, 6677},
		{"[a-zA-Z]+ing", 0, 14197, 9344},
		{"[0-9]{4}-[0-9]{2}-[0-9]{2}", 0, 1138, 1110},
		{"[a-z0-9._]+@[a-z0-9]+[.](com|org|net)", 0, 683, 667},
		{"^The ", ENGINE_MULTILINE, 117, 117},
		{"pri[a-z]*ate", 0, 3328, 3011},
		{"zqxj[0-9]+", 0, 0, 0},
	};
	struct corpus c = {0};

	cr_assert_eq(text_generate(&c, 1u << 20, 1), 0);
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		struct ref_regex *r;
		char why[256];
		long lines = 0;
		size_t at = 0;
		cr_assert_eq(ref_compile(b[i].re, strlen(b[i].re), b[i].flags,
					 &r, why, sizeof(why)),
			     REF_OK, "%s: %s", b[i].re, why);
		cr_expect_eq(ref_count(r, SEM_LEFTMOST_FIRST, c.data, c.len),
			     b[i].first, "%s", b[i].re);
		while (at < c.len) {
			const char *nl = memchr(c.data + at, '\n', c.len - at);
			size_t end = nl ? (size_t)(nl - c.data) : c.len;
			lines += ref_is_match(r, c.data + at, end - at);
			at = end + 1;
		}
		cr_expect_eq(lines, b[i].lines, "%s: lines", b[i].re);
		ref_free(r);
	}
	corpus_release(&c);
}

/* ---- messages ---- */

struct bad {
	struct case_text re;
	unsigned flags;
	int status;
	const char *why;
};

static const struct bad bad[] = {
	{CASE_STR("abcd\\1"), 0, REF_OUT_OF_REACH,
	 "backreference (or octal escape) \\1 at offset 4"},
	{CASE_STR("(?=a)b"), 0, REF_OUT_OF_REACH,
	 "lookaround assertion at offset 0"},
	{CASE_STR("x(?<!a)"), 0, REF_OUT_OF_REACH,
	 "lookaround assertion at offset 1"},
	{CASE_STR("(?>a)"), 0, REF_OUT_OF_REACH,
	 "atomic group (?> at offset 0"},
	{CASE_STR("a++"), 0, REF_OUT_OF_REACH,
	 "possessive quantifier at offset 2"},
	{CASE_STR("\\p{L}"), 0, REF_OUT_OF_REACH,
	 "Unicode property \\p at offset 0"},
	{CASE_STR("a{1001}"), 0, REF_OUT_OF_REACH,
	 "counted repetition above {1000} at offset 6"},
	{CASE_STR("(?i)\xc3\xa9"), ENGINE_UTF8, REF_OUT_OF_REACH,
	 "caseless non-ASCII character U+00E9 in UTF-8 mode (Unicode case "
	 "folding) at offset 4"},
	{CASE_STR("[\\W[:blank:]]"), ENGINE_UTF8, REF_OUT_OF_REACH,
	 "class with a POSIX class after \\D, \\S, \\W or [:^name:] in "
	 "UTF-8 mode (PCRE2 10.42 drops characters above U+00FF there) at "
	 "offset 0"},
	{CASE_STR("\\S*\\v"), 0, REF_OUT_OF_REACH,
	 "\\S with \\h or \\v outside a class (PCRE2 10.42 takes them for "
	 "disjoint: wrong at U+0085 and U+00A0) at offset 3"},
	{CASE_STR("(?:a|^){0}c"), 0, REF_OUT_OF_REACH,
	 "alternation repeated {0} (PCRE2 10.42 reads the skipped group "
	 "when it optimizes) at offset 9"},
	{CASE_STR("(?x)a b"), 0, REF_OUT_OF_REACH,
	 "extended mode (?x) at offset 2"},
	{CASE_STR("(*UTF)a"), 0, REF_OUT_OF_REACH,
	 "backtracking verb or option (*...) at offset 0"},
	{CASE_STR("a\\G"), 0, REF_OUT_OF_REACH,
	 "start-of-search anchor \\G at offset 1"},
	{CASE_STR("(?:(?:a{1000}){1000}){1000}"), 0, REF_OUT_OF_REACH,
	 "pattern too large for the reference (more than 200000 "
	 "instructions)"},
	{CASE_STR("a)"), 0, REF_INVALID,
	 "unmatched closing parenthesis at offset 1"},
	{CASE_STR("(a"), 0, REF_INVALID,
	 "missing closing parenthesis at offset 2"},
	{CASE_STR("[a"), 0, REF_INVALID,
	 "missing terminating ] for character class at offset 2"},
	{CASE_STR("*a"), 0, REF_INVALID,
	 "quantifier does not follow a repeatable item at offset 0"},
	{CASE_STR("^*"), 0, REF_INVALID,
	 "quantifier does not follow a repeatable item at offset 1"},
	{CASE_STR("a{2,1}"), 0, REF_INVALID,
	 "numbers out of order in {} quantifier at offset 5"},
	{CASE_STR("[z-a]"), 0, REF_INVALID,
	 "range out of order in character class at offset 3"},
	{CASE_STR("[\\d-z]"), 0, REF_INVALID,
	 "invalid range in character class at offset 3"},
	{CASE_STR("\\y"), 0, REF_INVALID,
	 "unrecognized character follows \\ (\\y) at offset 0"},
	{CASE_STR("a\\"), 0, REF_INVALID, "\\ at end of pattern at offset 1"},
	{CASE_STR("\\x{100}"), 0, REF_INVALID,
	 "character code point value in \\x{} or \\o{} is too large at "
	 "offset 0"},
	{CASE_STR("a\xff"), ENGINE_UTF8, REF_INVALID,
	 "invalid UTF-8 in the pattern at offset 1"},
	{CASE_STR("[[:foo:]]"), 0, REF_INVALID,
	 "unknown POSIX class name at offset 1"},
	{CASE_STR("(?<n>a)(?<n>b)"), 0, REF_INVALID,
	 "two named subpatterns have the same name (PCRE2_DUPNAMES not set) "
	 "at offset 12"},
};

Test(reference, messages)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ref_regex *r = (struct ref_regex *)&r;
		char why[256];
		int rc = ref_compile(bad[i].re.s, bad[i].re.len, bad[i].flags,
				     &r, why, sizeof(why));
		cr_expect_eq(rc, bad[i].status, "%s", bad[i].why);
		cr_expect_null(r, "%s", bad[i].why);
		cr_expect_str_eq(why, bad[i].why);
	}
}

Test(reference, nesting_limit)
{
	char re[2 * 221 + 1];
	struct ref_regex *r;
	char why[256];

	/* PCRE2 10.42 takes 220 nested groups and refuses 221 */
	for (int n = 220; n <= 221; n++) {
		memset(re, '(', (size_t)n);
		memset(re + n, ')', (size_t)n);
		cr_expect_eq(ref_compile(re, 2 * (size_t)n, 0, &r, why,
					 sizeof(why)),
			     n == 220 ? REF_OK : REF_INVALID, "%d: %s", n,
			     why);
		ref_free(n == 220 ? r : NULL);
	}
	cr_expect_str_eq(why, "parentheses are too deeply nested at offset "
			      "220");
}

/* ---- what a pattern uses ---- */

static unsigned needs_of(const char *re, unsigned flags, unsigned *features)
{
	struct ref_regex *r;
	char why[256];
	unsigned n;

	cr_assert_eq(ref_compile(re, strlen(re), flags, &r, why, sizeof(why)),
		     REF_OK, "%s: %s", re, why);
	n = ref_needs(r);
	*features = ref_features(r);
	ref_free(r);
	return n;
}

Test(reference, needs_and_features)
{
	static const struct {
		const char *re;
		unsigned flags, needs, features;
	} t[] = {
		{"abc", 0, 0, 0},
		{"a+?", 0, CAP_LAZY, 0},
		{"a{2}?", 0, CAP_COUNTED_REP, 0}, /* exact: nothing lazy */
		{"(?U)a+", 0, CAP_LAZY | CAP_INLINE_FLAGS, 0},
		{"\\bfoo\\d", 0, CAP_WORD_BOUNDARY | CAP_PERL_CLASSES, 0},
		{"[\\s]x", 0, CAP_PERL_CLASSES, 0},
		{"(?:ab)+", 0, CAP_NONCAPTURE, 0},
		{"(?i:a)", 0, CAP_NONCAPTURE | CAP_INLINE_FLAGS, 0},
		{"(?i)a", 0, CAP_INLINE_FLAGS, 0},
		{"a\\x00", 0, CAP_NUL_PATTERN, 0},
		{"[\\0-\\x1f]", 0, CAP_NUL_PATTERN, 0},
		{"a*", 0, CAP_EMPTY_MATCH, REF_USES_EMPTY},
		{"^$", 0, CAP_EMPTY_MATCH, REF_USES_EMPTY | REF_USES_DOLLAR},
		{"\\b\\B", 0, CAP_WORD_BOUNDARY, 0}, /* never holds */
		{"\\b$", 0, CAP_WORD_BOUNDARY | CAP_EMPTY_MATCH,
		 REF_USES_EMPTY | REF_USES_DOLLAR}, /* "a|" at 1 */
		{"\\b$", ENGINE_ANCHORED, CAP_WORD_BOUNDARY, REF_USES_DOLLAR},
		{"a$", 0, 0, REF_USES_DOLLAR},
		{"a$", ENGINE_MULTILINE, 0, 0},
		{"(?m)a$", 0, CAP_INLINE_FLAGS, 0},
		/* \Z keeps the Perl meaning in multiline mode too */
		{"a\\Z", ENGINE_MULTILINE, 0, REF_USES_DOLLAR},
		{"a\\z", 0, 0, 0},
	};
	unsigned f;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cr_expect_eq(needs_of(t[i].re, t[i].flags, &f), t[i].needs,
			     "%s: needs", t[i].re);
		cr_expect_eq(f, t[i].features, "%s: features", t[i].re);
	}
}

Test(reference, no_data)
{
	struct ref_regex *r;
	char why[64];

	cr_assert_eq(ref_compile(NULL, 0, 0, &r, why, sizeof(why)), REF_OK);
	cr_expect_eq(ref_is_match(r, NULL, 0), 1);
	cr_expect_eq(ref_count(r, SEM_LEFTMOST_FIRST, NULL, 0), 1);
	cr_expect_eq(ref_count(r, SEM_NONE, "a", 1), -1);
	ref_free(r);
	ref_free(NULL);
}

/* ---- UTF-8 classes: the byte-range sequences cover exactly the set ---- */

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static size_t utf8_put(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Is cp in [lo0,hi0] or [lo1,hi1], negated if neg? */
static int in_ranges(uint32_t cp, const uint32_t r[4], int neg)
{
	int in = (cp >= r[0] && cp <= r[1]) || (cp >= r[2] && cp <= r[3]);

	return in != neg;
}

static void check_utf8_class(const uint32_t r[4], int neg)
{
	static const uint32_t edges[] = {0x7f,   0x7ff,  0xfff,   0xd7ff,
					 0xdfff, 0xffff, 0x3ffff, 0x10ffff};
	char re[64], buf[4], why[128];
	struct ref_regex *x;
	uint64_t s = 42;

	snprintf(re, sizeof(re), "^[%s\\x{%x}-\\x{%x}\\x{%x}-\\x{%x}]$",
		 neg ? "^" : "", r[0], r[1], r[2], r[3]);
	cr_assert_eq(ref_compile(re, strlen(re), ENGINE_UTF8, &x, why,
				 sizeof(why)),
		     REF_OK, "%s: %s", re, why);
	for (int i = 0; i < 20000; i++) {
		/* near each encoding edge and each range end, then anywhere */
		uint32_t base = i < 4000 ? (i < 2000 ? edges[i % 8] :
						       r[i % 4]) :
					   (uint32_t)(rng_next(&s) % 0x110000);
		uint32_t cp = base + (uint32_t)(i % 7) - 3;
		if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			continue;
		cr_assert_eq(ref_is_match(x, buf, utf8_put(cp, buf)),
			     in_ranges(cp, r, neg), "%s on U+%04X", re,
			     (unsigned)cp);
	}
	/* never a surrogate, an overlong form or a lone continuation byte */
	cr_expect_eq(ref_is_match(x, "\xed\xa0\x80", 3), 0, "%s", re);
	cr_expect_eq(ref_is_match(x, "\xc0\xaf", 2), 0, "%s", re);
	cr_expect_eq(ref_is_match(x, "\x80", 1), 0, "%s", re);
	ref_free(x);
}

Test(reference, utf8_classes)
{
	static const uint32_t sets[][4] = {
		{0x41, 0x41, 0x80, 0x10ffff}, /* everything non-ASCII */
		{0x7f, 0x800, 0xd7fe, 0xe001},
		{0x3a9, 0x3a9, 0xfffd, 0x10000},
		{0x1000, 0x1fff, 0x10fffe, 0x10ffff},
		{0x0, 0x7e, 0x40000, 0x7ffff},
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		check_utf8_class(sets[i], 0);
		check_utf8_class(sets[i], 1);
	}
}

/* ---- random bytes ---- */

/* What any answer must satisfy, whatever the pattern. */
static void check_consistent(const struct ref_regex *r, unsigned flags,
			     const char *d, size_t n, const char *re, size_t rl)
{
	int m = ref_is_match(r, d, n);
	long f = ref_count(r, SEM_LEFTMOST_FIRST, d, n);
	long l = ref_count(r, SEM_LEFTMOST_LONGEST, d, n);
	long e = ref_count(r, SEM_ALL_ENDS, d, n);
	long most = (flags & ENGINE_ANCHORED) ? 1 : (long)n + 1;

	cr_assert((f > 0) == m && (l > 0) == m && (e > 0) == m,
		  "pattern %.*s: match %d, counts %ld %ld %ld", (int)rl, re, m,
		  f, l, e);
	/* longest may count more than first: a|ab|bcd|c|d on "abcd" */
	cr_assert(f <= most && l <= most && e <= most,
		  "pattern %.*s: %ld %ld %ld", (int)rl, re, f, l, e);
}

Test(reference, random_bytes)
{
	static const char alphabet[] = "()[]{}|*+?.^$\\-:=!<>#,PRCQEbBdDwWsShH"
				       "vVNxoc019aAzZkKimsuUxXJn_ \n\xc3\xa9";
	/* data bytes: lines, NUL, UTF-8 (Kelvin too) and broken UTF-8 */
	static const char bytes[] = "ab\n\r\0 AK\xc3\xa9\xe2\x84\xaa";
	uint64_t s = 0x9e3779b97f4a7c15u;
	char re[24], data[32], why[256];

	for (int i = 0; i < 30000; i++) {
		size_t rl = rng_next(&s) % sizeof(re);
		size_t dl = rng_next(&s) % sizeof(data);
		unsigned flags = (unsigned)(rng_next(&s) & 0x3f);
		struct ref_regex *r;
		int rc;
		for (size_t k = 0; k < rl; k++)
			re[k] = rng_next(&s) % 8 == 0 ?
					(char)rng_next(&s) :
					alphabet[rng_next(&s) %
						 (sizeof(alphabet) - 1)];
		for (size_t k = 0; k < dl; k++)
			data[k] = bytes[rng_next(&s) % (sizeof(bytes) - 1)];
		rc = ref_compile(re, rl, flags, &r, why, sizeof(why));
		cr_assert(rc == REF_OK || rc == REF_INVALID ||
			  rc == REF_OUT_OF_REACH,
			  "%d", rc);
		if (rc != REF_OK) {
			cr_assert(why[0] != '\0' && strchr(why, '\n') == NULL);
			continue;
		}
		check_consistent(r, flags, data, dl, re, rl);
		ref_free(r);
	}
}
