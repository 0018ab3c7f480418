/*
 * test_engines.c - every engine in engine_table against the shared case
 * table (tests/engine_cases.h), plus the contracts every adapter shares:
 * compile errors name the pattern, backtracking is bounded, lookup by
 * name works.  Engines marked CAP_TEST_ONLY are left out.
 *
 * A case needing a capability the engine lacks is skipped without asking
 * the engine: capabilities are the promise that nothing else is asked.
 * Nothing here depends on timing.
 */
#include "engines/engine.h"
#include "suites/reference.h"
#include "tests/engine_cases.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int engine_tested(const struct engine *e)
{
	return !(e->caps & CAP_TEST_ONLY);
}

/* Capabilities a case needs, including those its flags imply. */
static unsigned case_needs(const struct engine_case *c)
{
	return c->needs_caps | ((c->flags & ENGINE_UTF8) ? CAP_UTF8 : 0u);
}

static long case_expected_count(const struct engine_case *c,
				enum engine_semantics s)
{
	switch (s) {
	case SEM_LEFTMOST_FIRST: return c->expect_count_first;
	case SEM_LEFTMOST_LONGEST: return c->expect_count_longest;
	case SEM_ALL_ENDS: return c->expect_count_allends;
	case SEM_NONE: break;
	}
	return CASE_NA;
}

static unsigned case_expected_ids(const struct engine_case *c)
{
	if (c->npats == 1)
		return c->expect_match ? 1u : 0u;
	return c->expect_ids;
}

static void free_params(struct criterion_test_params *p)
{
	cr_free(p->params);
}

/* The haystack: pad copies of pad_byte, then hay.  Caller frees. */
static char *case_haystack(const struct engine_case *c, size_t *len)
{
	char *h = malloc(c->pad + c->hay.len + 1);

	cr_assert_not_null(h);
	memset(h, c->pad_byte, c->pad);
	memcpy(h + c->pad, c->hay.s, c->hay.len);
	*len = c->pad + c->hay.len;
	return h;
}

/* One run per engine, test-only engines left out; cases loop inside. */
ParameterizedTestParameters(engines, cases)
{
	size_t *idx = cr_malloc(sizeof(*idx) * engine_count);
	size_t n = 0;

	for (size_t i = 0; i < engine_count; i++)
		if (engine_tested(engine_table[i]))
			idx[n++] = i;
	return cr_make_param_array(size_t, idx, n, free_params);
}

static void check_ids(const struct engine *e, const struct engine_case *c,
		      void *h, const char *data, size_t len)
{
	unsigned char ids[CASE_MAX_PATS] = {0};
	unsigned want = case_expected_ids(c);
	long got = e->match_ids(h, data, len, ids);
	long want_n = 0;

	for (size_t i = 0; i < c->npats; i++) {
		cr_expect_eq(ids[i], (want >> i) & 1u,
			     "%s / %s: match_ids[%zu] = %u", e->name, c->name,
			     i, ids[i]);
		want_n += (want >> i) & 1u;
	}
	cr_expect_eq(got, want_n, "%s / %s: match_ids returned %ld, want %ld",
		     e->name, c->name, got, want_n);
}

/*
 * What the xdp engine refuses that no capability bit names (issue 25):
 * a payload of at most 3466 bytes (test_run takes frames of at most 3520,
 * 54 of them headers); the suites show a longer one as an unsupported row.
 */
static int kernel_refuses(const struct engine *e, const struct engine_case *c)
{
	return strcmp(e->name, "xdp") == 0 && c->pad + c->hay.len > 3466;
}

/*
 * One case on one engine.  Returns 1 if it ran, 0 if skipped because the
 * engine lacks a capability the case needs (it is then never asked).
 */
static int run_case(const struct engine *e, const struct engine_case *c)
{
	struct engine_error err = {0};
	void *h = NULL;
	size_t len = 0;
	char *data;
	int rc;

	if ((e->caps & case_needs(c)) != case_needs(c) || kernel_refuses(e, c))
		return 0;
	rc = e->compile(c->pats, c->npats, c->flags, &h, &err);
	cr_expect_eq(rc, 0, "%s / %s: compile failed (%s): %s", e->name,
		     c->name, engine_status_name(rc), err.msg);
	if (rc != 0)
		return 1;
	data = case_haystack(c, &len);
	rc = e->is_match(h, data, len);
	cr_expect_eq(rc, c->expect_match, "%s / %s: is_match = %d, want %d",
		     e->name, c->name, rc, c->expect_match);
	long want = case_expected_count(c, engine_semantics(e));
	if (e->count != NULL && want != CASE_NA) {
		long got = e->count(h, data, len);
		cr_expect_eq(got, want, "%s / %s: count = %ld, want %ld",
			     e->name, c->name, got, want);
	}
	if (e->match_ids != NULL)
		check_ids(e, c, h, data, len);
	e->free(h);
	free(data);
	return 1;
}

ParameterizedTest(size_t *i, engines, cases)
{
	const struct engine *e = engine_table[*i];
	size_t ran = 0;

	for (size_t k = 0; k < engine_case_count; k++)
		ran += (size_t)run_case(e, &engine_cases[k]);
	cr_log_info("%s: %zu of %zu cases run, the rest need capabilities "
		    "it lacks", e->name, ran, engine_case_count);
	cr_expect_gt(ran, engine_case_count / 2, "%s: too few cases ran",
		     e->name);
}

/*
 * A runner that backtracks with no match limit (python-re, v8: it reads
 * backreferences, so it backtracks, and a catastrophic pattern is its
 * timeout row, bounded by the run's --timeout, not by the engine).
 */
static int unbounded_backtracker(const struct engine *e)
{
	return e->kind == ENGINE_RUNNER && (e->caps & CAP_BACKREF) &&
	       !(e->caps & CAP_MATCH_LIMIT);
}

/*
 * (a+)+$ on a run of 'a' and a '!': exponential for naive backtracking.
 * An unbounded backtracker gets 16 a's (2^16 paths, milliseconds): its
 * answer is checked, not a bound it does not have (30 a's took python-re
 * and v8 minutes each: most of test_engines' time).
 */
Test(engines, catastrophic_pattern_is_bounded)
{
	static const char hay[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!";
	static const char short_hay[] = "aaaaaaaaaaaaaaaa!";
	const struct engine_pattern p = {"(a+)+$", 6};

	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		struct engine_error err = {0};
		void *h = NULL;

		if (!engine_tested(e))
			continue;
		cr_assert_eq(e->compile(&p, 1, 0, &h, &err), 0,
			     "%s: compile: %s", e->name, err.msg);
		int rc = unbounded_backtracker(e)
				 ? e->is_match(h, short_hay, sizeof(short_hay) - 1)
				 : e->is_match(h, hay, sizeof(hay) - 1);
		int want = (e->caps & CAP_MATCH_LIMIT) ? ENGINE_ERR_LIMIT : 0;
		cr_expect_eq(rc, want, "%s: is_match = %d (%s), want %d",
			     e->name, rc, engine_status_name(rc), want);
		e->free(h);
	}
}

/* Boost's own bound on backtracking: (a+)+$ over 30 a's and a 'b' is
 * ENGINE_ERR_LIMIT from every operation, not a hang. */
Test(engines, boost_match_limit_is_an_error, .timeout = 60)
{
	static const char hay[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
	const struct engine_pattern p = {"(a+)+$", 6};
	const struct engine *e = engine_find("boost");
	struct engine_error err = {0};
	unsigned char ids[1];
	void *h = NULL;

	if (e == NULL)
		cr_skip_test("boost: %s", engine_missing_reason("boost"));
	cr_assert_eq(e->compile(&p, 1, 0, &h, &err), 0, "compile: %s", err.msg);
	cr_expect_eq(e->is_match(h, hay, sizeof(hay) - 1), ENGINE_ERR_LIMIT);
	cr_expect_eq(e->count(h, hay, sizeof(hay) - 1), ENGINE_ERR_LIMIT);
	cr_expect_eq(e->match_ids(h, hay, sizeof(hay) - 1, ids),
		     ENGINE_ERR_LIMIT);
	e->free(h);
}

/* Compiles re on engine e and returns its count over hay (or the status). */
static long count_on(const struct engine *e, const char *re, unsigned flags,
		     const char *hay, size_t len)
{
	const struct engine_pattern p = {re, strlen(re)};
	struct engine_error err = {0};
	void *h = NULL;
	int rc = e->compile(&p, 1, flags, &h, &err);
	long n;

	if (rc != 0)
		return rc;
	n = e->count(h, hay, len);
	e->free(h);
	return n;
}

/* e's count of re over hay in UTF-8 mode against the reference's. */
static void expect_ref_count_utf8(const struct engine *e, const char *re,
				  const struct case_text *hay, size_t k)
{
	struct ref_regex *ref = NULL;
	char why[160];
	long want;

	cr_assert_eq(ref_compile(re, strlen(re), ENGINE_UTF8, &ref, why,
				 sizeof(why)),
		     REF_OK, "%s: %s", re, why);
	want = ref_count(ref, engine_semantics(e), hay->s, hay->len);
	cr_expect_eq(count_on(e, re, ENGINE_UTF8, hay->s, hay->len), want,
		     "%s: %s over hay %zu: want %ld", e->name, re, k, want);
	ref_free(ref);
}

/*
 * In UTF-8 mode a count resumes one character past an empty match, as
 * the reference counts (suites/reference.h), on every engine that takes
 * UTF-8 mode and empty matches, over characters of 2 to 4 bytes (v8
 * stepped one UTF-16 unit into U+1F600 and looped for ever; re2 resumed
 * one byte on and found the empty match inside the character).
 */
Test(engines, utf8_empty_matches_count_as_the_reference, .timeout = 120)
{
	static const char *const res[] = {"x*", "", "a*|b", "[^a]*", "a?"};
	static const struct case_text hays[] = {
		CASE_STR("a\xf0\x9f\x98\x80" "b"),
		CASE_STR("\xc3\xa9"),
		CASE_STR("\xf0\x9f\x98\x80\xf0\x9f\x98\x80"),
		CASE_STR("\xe6\x97\xa5\xe6\x97\xa5\n"),
		CASE_STR("a\xc3\xa9\xf0\x9f\x98\x80" "a\xdf\xbf"),
		CASE_STR(""),
	};
	const unsigned need = CAP_UTF8 | CAP_EMPTY_MATCH;

	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];

		if (!engine_tested(e) || (e->caps & need) != need ||
		    e->count == NULL)
			continue;
		for (size_t r = 0; r < sizeof(res) / sizeof(res[0]); r++)
			for (size_t k = 0; k < sizeof(hays) / sizeof(hays[0]);
			     k++)
				expect_ref_count_utf8(e, res[r], &hays[k], k);
	}
}

/* pcre2-dfa is leftmost-longest: `a|ab` over "ab" is one match, and it
 * is "ab" (length 2): with `b` as a third alternative still one match. */
Test(engines, dfa_takes_the_longest_alternative)
{
	const struct engine *e = engine_find("pcre2-dfa");

	if (e == NULL)
		cr_skip_test("pcre2-dfa: %s", engine_missing_reason("pcre2-dfa"));
	cr_expect_eq(count_on(e, "a|ab", 0, "ab", 2), 1);
	cr_expect_eq(count_on(e, "a|ab|b", 0, "ab", 2), 1);
	cr_expect_eq(count_on(e, "(?:a|ab)(?:c|bcd)", 0, "abcd", 4), 1);
}

/*
 * What an engine would answer otherwise than its class promises is
 * refused (ENGINE_ERR_UNSUPPORTED at compile time, or from the match),
 * never answered: see the headers of engines/pcre2_dfa.c and
 * engines/boost_pattern.h for why each is.
 */
Test(engines, refused_rather_than_misanswered)
{
	static const struct {
		const char *engine, *re;
		unsigned flags;
	} cases[] = {
		{"pcre2-dfa", "(a)\\1", 0},       /* no back-references */
		{"pcre2-dfa", "(?>a|ab)c", 0},     /* would match "abc" */
		{"pcre2-dfa", "a++b", 0},
		{"pcre2-dfa", "a{2}+", 0},
		{"pcre2-dfa", "(*ACCEPT)a", 0},
		{"pcre2-dfa", "a\\Kb", 0},        /* refused by the matcher */
		{"boost", "(?:\\b|a){2}b", 0},    /* Boost finds nothing */
		{"boost", "(?:a?){1,3}b", 0},
		{"boost", "(a*){2,}", 0},
		{"boost", "a", ENGINE_UTF8},
		{"boost", "[\\Qa]\\E]", 0},
		{"boost", "\\p{L}", 0},
		{"boost", "(?x)a b", 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct engine *e = engine_find(cases[i].engine);
		if (e == NULL)
			continue;
		cr_expect_eq(count_on(e, cases[i].re, cases[i].flags, "ab", 2),
			     ENGINE_ERR_UNSUPPORTED, "%s: %s", e->name,
			     cases[i].re);
	}
}

/* Boost's readings of PCRE syntax that the translation corrects
 * (engines/boost_pattern.h), each with PCRE2's count. */
Test(engines, boost_reads_pcre_syntax)
{
	static const struct {
		const char *re, *hay;
		size_t len;
		unsigned flags;
		long want;
	} cases[] = {
		{"[A-a]", "`", 1, ENGINE_CASELESS, 1}, /* '`' is in A..a */
		{"[^a]", "A", 1, ENGINE_CASELESS, 0},
		{"(?i)[[:upper:]]", "a", 1, 0, 1},
		{"\\h", "\xa0", 1, 0, 1},
		{"\\v", "\x85", 1, 0, 1},
		{"\\N+", "a\rb\nc", 5, 0, 2},
		{"a\\Z", "a\r", 2, 0, 0},
		{"a\\Z", "a\n", 2, 0, 1},
		{"\\B", "", 0, 0, 1},
		{"\\0123", "\n3", 2, 0, 1},     /* \012 then '3' */
		{"\\x41a", "Aa", 2, 0, 1},
		{"\\<a\\>", "<a>", 3, 0, 1},   /* literals, not word edges */
		{"(?s:a.)b.", "a\nb\n", 4, 0, 0}, /* (?s) scoped to its group */
		{"(?m)^a", "b\na\fa", 5, 0, 1},
		{"a(?i)b|c", "C", 1, 0, 1},      /* (?i) reaches later branches */
		{"(a)|b\\1", "b", 1, 0, 0},      /* an unset group matches nothing */
		{"x{,2}", "x{,2}", 5, 0, 1},     /* a literal, as in PCRE */
		{"\\_[\\_]", "__", 2, 0, 1},    /* '_' escaped is itself */
		{"(?:|a)*b", "ab", 2, 0, 1},
	};
	const struct engine *e = engine_find("boost");

	if (e == NULL)
		cr_skip_test("boost: %s", engine_missing_reason("boost"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_eq(count_on(e, cases[i].re, cases[i].flags,
				      cases[i].hay, cases[i].len),
			     cases[i].want, "boost: %s", cases[i].re);
}

/* A syntax error is ENGINE_ERR_COMPILE naming the pattern, on every engine. */
Test(engines, invalid_pattern_is_a_compile_error)
{
	const struct engine_pattern pats[] = {{"ok", 2}, {"a(b", 3}};

	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		struct engine_error err = {0};
		void *h = NULL;

		if (!engine_tested(e))
			continue;
		int rc = e->compile(pats, 2, 0, &h, &err);
		cr_expect_eq(rc, ENGINE_ERR_COMPILE, "%s: compile = %d (%s)",
			     e->name, rc, engine_status_name(rc));
		cr_expect_eq(err.status, rc, "%s: err.status", e->name);
		cr_expect_eq(err.pattern, 1, "%s: err.pattern = %ld", e->name,
			     err.pattern);
		cr_expect_gt(strlen(err.msg), 0, "%s: empty message", e->name);
		cr_expect_null(h, "%s: handle left on failure", e->name);
	}
}

/* In UTF-8 mode a pattern that is not UTF-8 is refused, never trusted. */
Test(engines, invalid_utf8_pattern_is_a_compile_error)
{
	const struct engine_pattern p = {"x\xff\xfey", 4};

	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		struct engine_error err = {0};
		void *h = NULL;

		if (!engine_tested(e) || !(e->caps & CAP_UTF8))
			continue;
		int rc = e->compile(&p, 1, ENGINE_UTF8, &h, &err);
		cr_expect_eq(rc, ENGINE_ERR_COMPILE, "%s: compile = %d (%s)",
			     e->name, rc, engine_status_name(rc));
		cr_expect_gt(strlen(err.msg), 0, "%s: empty message", e->name);
		if (h != NULL)
			e->free(h);
	}
}

Test(engines, utf8_check)
{
	cr_expect_eq(engine_utf8_invalid("", 0), -1);
	cr_expect_eq(engine_utf8_invalid("a\xc3\xa9\xf0\x9f\x98\x80", 7), -1);
	cr_expect_eq(engine_utf8_invalid("ab\xff", 3), 2);
	cr_expect_eq(engine_utf8_invalid("a\xc3", 2), 1);       /* cut short */
	cr_expect_eq(engine_utf8_invalid("\xc0\xaf", 2), 0);   /* overlong */
	cr_expect_eq(engine_utf8_invalid("\xed\xa0\x80", 3), 0); /* surrogate */
	cr_expect_eq(engine_utf8_invalid("\xf4\x90\x80\x80", 4), 0); /* > U+10FFFF */
}

Test(engines, find_by_name)
{
	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];

		cr_expect_eq(engine_find(e->name), e, "%s", e->name);
		cr_expect_not_null(e->version, "%s", e->name);
		cr_expect_not_null(e->version(), "%s", e->name);
	}
	cr_expect_null(engine_find("no-such-engine"));
	cr_expect_null(engine_find(""));
}

/* Every adapter rxbench has is either built or left out with the reason
 * (`rxbench list`, --engines=NAME), never both, never neither. */
Test(engines, each_adapter_built_or_missing_with_a_reason)
{
	static const char *const all[] = {"re2", "pcre2", "pcre2-jit",
					  "pcre2-dfa", "hyperscan", "tre",
					  "posix", "onig", "boost",
					  "rust-regex"};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const char *why = engine_missing_reason(all[i]);
		cr_expect((engine_find(all[i]) != NULL) != (why != NULL), "%s",
			  all[i]);
		cr_expect(why == NULL || strstr(why, "not found when configured "
						    "(install ") != NULL,
			  "%s: %s", all[i], why);
	}
	cr_expect_null(engine_missing_reason("no-such-engine"));
}

/* size() reports something for a compiled pattern where it is provided. */
Test(engines, size_when_provided)
{
	const struct engine_pattern p = {"abc[0-9]+", 9};

	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		struct engine_error err = {0};
		void *h = NULL;

		if (!engine_tested(e) || e->size == NULL)
			continue;
		cr_assert_eq(e->compile(&p, 1, 0, &h, &err), 0,
			     "%s: compile: %s", e->name, err.msg);
		cr_expect_gt(e->size(h), 0, "%s: size 0", e->name);
		e->free(h);
	}
}

/* Every case runs somewhere, unless it waits for a capability (see table). */
Test(engines, no_case_is_dead)
{
	for (size_t k = 0; k < engine_case_count; k++) {
		const struct engine_case *c = &engine_cases[k];
		size_t takers = 0;

		for (size_t i = 0; i < engine_count; i++) {
			const struct engine *e = engine_table[i];
			if (engine_tested(e) &&
			    (e->caps & case_needs(c)) == case_needs(c))
				takers++;
		}
		cr_expect_gt(takers, 0, "case %s runs on no engine", c->name);
	}
}

/* Every option's declared default is what its adapter starts with, and
 * spells back the same: nothing differs from the defaults at start. */
Test(engine_opts, defaults_are_the_starting_values)
{
	char buf[256], v[64];

	for (size_t i = 0; i < engine_count; i++) {
		const struct engine *e = engine_table[i];
		cr_expect_eq(engine_opts_changed(e, buf, sizeof(buf)), 0,
			     "%s starts with %s", e->name, buf);
		cr_expect_str_eq(engine_bench_name(e), e->name);
		for (const struct engine_option *o = e->options; o && o->key;
		     o++) {
			engine_opt_format(o, *o->value, v, sizeof(v));
			cr_expect_str_eq(v, o->def, "%s.%s", e->name, o->key);
		}
	}
}

/* One line per refusal, naming what to write instead. */
Test(engine_opts, bad_values_are_refused_with_a_reason)
{
	static const struct {
		const char *arg, *says;
	} bad[] = {
		{"re2.max_mem=abc", "not a size"},
		{"re2.max_mem=64X", "not a size"},
		{"re2.max_mem=", "not a size"},
		{"re2.max_mem=-1", "not a size"},
		{"re2.foo=1", "re2 has no option 'foo' (options: max_mem"},
		{"re2.longest_match=maybe", "not true or false"},
		{"pcre2.match_limit=0", "must be from 1 to"},
		{"pcre2.match_limit=0x10", "not a whole number"},
		{"hyperscan.mode=streaming", "only mode=block"},
		{"hyperscan.mode=bogus", "use one of block, vectored"},
		{"onig.syntax=perl5", "use one of perl,"},
		{"no-such.x=1", "no engine 'no-such'"},
		{"re2max_mem=1", "write ENGINE.KEY=VALUE"},
		{"re2.max_mem", "write ENGINE.KEY=VALUE"},
	};
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[32];
		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(bad[i].arg, "."), bad[i].arg);
		if (engine_missing_reason(name) != NULL)
			continue; /* not built here: another message */
		err[0] = '\0';
		cr_expect_eq(engine_opt_set(bad[i].arg, err, sizeof(err)), -1,
			     "%s", bad[i].arg);
		cr_expect(strstr(err, bad[i].says) != NULL, "%s: %s",
			  bad[i].arg, err);
	}
	engine_opts_reset();
}

/* A changed option is in the engine's benchmark name and back to none
 * after a reset; sizes spell in K, M, G. */
Test(engine_opts, changed_options_name_the_engine)
{
	const struct engine *e = engine_find("re2");
	char err[256], buf[256];

	if (e == NULL)
		cr_skip_test("re2: %s", engine_missing_reason("re2"));
	cr_assert_eq(engine_opt_set("re2.max_mem=65536k", err, sizeof(err)), 0,
		     "%s", err);
	cr_assert_eq(engine_opt_set("re2.longest_match=on", err, sizeof(err)),
		     0, "%s", err);
	cr_expect_str_eq(engine_bench_name(e),
			 "re2,max_mem:64M,longest_match:true");
	cr_expect_gt(engine_opts_changed(e, buf, sizeof(buf)), 0);
	cr_expect_eq(engine_semantics(e), SEM_LEFTMOST_LONGEST);
	/* RE2 leftmost-longest: a|ab over "ab" is one match, "ab" */
	cr_expect_eq(count_on(e, "a|ab|b", 0, "ab", 2), 1);
	engine_opts_reset();
	cr_expect_str_eq(engine_bench_name(e), "re2");
	cr_expect_eq(engine_semantics(e), SEM_LEFTMOST_FIRST);
	cr_expect_eq(count_on(e, "a|ab|b", 0, "ab", 2), 2);
}

/* PCRE2's match limit is the option's: 10 calls stop even a plain match. */
Test(engine_opts, pcre2_match_limit_applies_at_compile)
{
	const struct engine *e = engine_find("pcre2");
	char err[256];

	if (e == NULL)
		cr_skip_test("pcre2: %s", engine_missing_reason("pcre2"));
	cr_assert_eq(engine_opt_set("pcre2.match_limit=5", err, sizeof(err)), 0);
	cr_expect_eq(count_on(e, "(a+)+$", 0, "aaaaaaaaaaaaaaaaaab", 19),
		     ENGINE_ERR_LIMIT);
	engine_opts_reset();
	cr_expect_eq(count_on(e, "(a+)+$", 0, "aaaaaaaab", 9), 0);
}

/* RE2 with a tiny budget: its DFA gives up on a large alternation, and
 * engine.note says so after a search in ENGINE_PHASE_WARM (only then). */
Test(engine_opts, re2_dfa_out_of_memory_is_noted)
{
	const struct engine *e = engine_find("re2");
	char err[256], msg[256] = "", *re, *hay;
	size_t n = 0;
	struct engine_pattern p;
	struct engine_error ee = {0};
	void *h = NULL;

	if (e == NULL)
		cr_skip_test("re2: %s", engine_missing_reason("re2"));
	re = malloc(64 * 1000);
	hay = malloc(1 << 16);
	cr_assert(re != NULL && hay != NULL);
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(re + n, 64 * 1000 - n, "%sx%dy[a-z]*z%d", i ? "|" : "",
				     i * 7919, i);
	for (size_t i = 0; i < (1 << 16); i++)
		hay[i] = "xyz0123456789abcdefgh"[(i * 2654435761u) % 21];
	p = (struct engine_pattern){re, n};
	cr_assert_eq(engine_opt_set("re2.max_mem=300K", err, sizeof(err)), 0);
	cr_assert_eq(e->compile(&p, 1, 0, &h, &ee), 0, "%s", ee.msg);
	cr_expect_geq(e->is_match(h, hay, 1 << 16), 0);
	cr_expect_eq(e->note(h, msg, sizeof(msg)), 0, "noted outside WARM");
	engine_phase = ENGINE_PHASE_WARM;
	cr_expect_geq(e->is_match(h, hay, 1 << 16), 0);
	engine_phase = ENGINE_PHASE_PARENT;
	cr_expect_eq(e->note(h, msg, sizeof(msg)), 1);
	cr_expect(strstr(msg, "DFA out of memory (max_mem 300K)") != NULL &&
		  strstr(msg, "--engine-opt re2.max_mem") != NULL, "%s", msg);
	e->free(h);
	engine_opts_reset();
	free(re);
	free(hay);
}

/* rust-regex reads PCRE syntax where the crate reads it otherwise or not
 * at all: Latin-1 bytes, ASCII classes in UTF-8 mode, a literal '{'. */
Test(engines, rust_regex_reads_pcre_syntax)
{
	static const struct {
		const char *re, *hay;
		unsigned flags;
		long count;
	} cases[] = {
		{"\xe9+", "a\xe9\xe9" "b\xe9", 0, 2},      /* Latin-1 bytes */
		{"[\xe0-\xef]", "\xe0\xe9\xf0", 0, 2},
		{"\\\xe9", "\xe9", 0, 1},                  /* \é is é */
		{"\\w+", "a\xc3\xa9" "b", ENGINE_UTF8, 2},  /* ASCII \w */
		{"[\\w]+", "a\xc3\xa9" "b", ENGINE_UTF8, 2},
		{"\\W", "a\xc3\xa9" "b", ENGINE_UTF8, 1},   /* é whole */
		{"\\bb", "\xc3\xa9" "b", ENGINE_UTF8, 1},   /* é is no word */
		{"\xc3\xa9", "\xc3\xa9\xc3\xa9", ENGINE_UTF8, 2},
		{"a{", "a{a{", 0, 2},
		{"a{1,2", "a{1,2", 0, 1},
		{"a{2}", "aaaa", 0, 2},
		{"[{]", "{", 0, 1},
		{"(?i)\xc9", "\xe9\xc9", 0, 1},            /* ASCII caseless */
		/* an escaped punctuation character the crate refuses as an
		   escape is itself, as in PCRE: Snort's \/ in pcre:"/.../" */
		{"\\/a\\/", "/a/ /a", 0, 1},
		{"[\\/]+", "a//b/", 0, 2},
		{"[^\\/]+", "ab/cd", 0, 2},
		{"\\/\xe9", "/\xe9", 0, 1},
		{"\\/\xc3\xa9", "/\xc3\xa9", ENGINE_UTF8, 1},
		{"\\\"\\'", "\"'", 0, 1},
		{"\\<a\\>", "<a>", 0, 1},                /* no word edges */
		{"\\:\\=\\@\\%\\,\\!\\_\\;\\`", ":=@%,!_;`", 0, 1},
		{"a\\ b", "a b", 0, 1},
		{"(?x)a\\ b", "a b ab", 0, 1},             /* \  kept under x */
		{"a\\\tb", "a\tb", 0, 1},                /* backslash, tab */
		{"\\-\\~\\&\\#\\.", "-~&#.", 0, 1},     /* the crate's own */
	};
	const struct engine *e = engine_find("rust-regex");

	if (e == NULL)
		cr_skip_test("rust-regex: %s", engine_missing_reason("rust-regex"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_eq(count_on(e, cases[i].re, cases[i].flags,
				      cases[i].hay, strlen(cases[i].hay)),
			     cases[i].count, "rust-regex: %s", cases[i].re);
	/* \Q...\E is not translated: the crate refuses \Q, an error row */
	cr_expect_eq(count_on(e, "\\Qa/b\\E", 0, "a/b", 3),
		     ENGINE_ERR_COMPILE);
}

/*
 * re2 in UTF-8 mode counts as the reference over bytes that are no valid
 * UTF-8 too: past an empty match it steps a byte and the continuation
 * bytes after it, and an empty match RE2 finds inside a character (\B
 * between the bytes of é) is none.
 */
Test(engines, re2_utf8_steps_as_the_reference)
{
	static const char *const res[] = {"x*", "", "a*", "\\B"};
	static const struct case_text hays[] = {
		CASE_STR("\x80"),
		CASE_STR("a\x80" "b\xc3\xa9\xff\xa9"),
		CASE_STR("\xc3" "a\xe6\x97"),
		CASE_STR("\xa9\xa9\xc3\xa9\xa9"),
		CASE_STR("a\xc3\xa9" "a"),
	};
	const struct engine *e = engine_find("re2");

	if (e == NULL)
		cr_skip_test("re2: %s", engine_missing_reason("re2"));
	for (size_t r = 0; r < sizeof(res) / sizeof(res[0]); r++)
		for (size_t k = 0; k < sizeof(hays) / sizeof(hays[0]); k++)
			expect_ref_count_utf8(e, res[r], &hays[k], k);
}
