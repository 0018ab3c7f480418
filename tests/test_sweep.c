/*
 * test_sweep.c - engine option sweeps (--engine-opt ENGINE.KEY=V1,V2,
 * engines/engine_opt.c): an entry per value, each compiling with its own
 * value and naming it, the run's value left as it was, and the one-line
 * refusals.  Uses re2 (longest_match changes what count counts); skips
 * without it.
 */
#include <criterion/criterion.h>

#include "engines/engine.h"

#include <string.h>

/* Matches of pattern on s with engine e (as it compiles now). */
static long count_on(const struct engine *e, const char *pattern,
		     const char *s)
{
	struct engine_pattern p = {pattern, strlen(pattern)};
	struct engine_error err;
	void *h = NULL;
	long n;

	cr_assert_eq(e->compile(&p, 1, 0, &h, &err), 0, "%s", err.msg);
	n = e->count(h, s, strlen(s));
	e->free(h);
	return n;
}

static const struct engine *re2_or_skip(void)
{
	const struct engine *e = engine_find("re2");

	engine_opts_reset();
	if (e == NULL)
		cr_skip_test("re2: %s", engine_missing_reason("re2"));
	return e;
}

Test(sweep, an_entry_per_value_each_compiles_with_its_own)
{
	const struct engine *e = re2_or_skip();
	const struct engine *out[4];
	const struct engine_option *lm = NULL;
	char err[256];

	for (const struct engine_option *o = e->options; o->key; o++)
		if (strcmp(o->key, "longest_match") == 0)
			lm = o;
	cr_assert_not_null(lm);
	cr_assert_eq(engine_opt_set("re2.longest_match=false,true", err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(engine_opt_entries(e, out, 4, err, sizeof(err)), 2, "%s",
		     err);
	cr_expect_str_eq(engine_bench_name(out[0]),
			 "re2,longest_match:false");
	cr_expect_str_eq(engine_bench_name(out[1]), "re2,longest_match:true");
	cr_expect_str_eq(out[1]->name, "re2");
	cr_expect_eq(engine_semantics(out[0]), SEM_LEFTMOST_FIRST);
	cr_expect_eq(engine_semantics(out[1]), SEM_LEFTMOST_LONGEST);
	/* a|aa over "aaa": first a, a, a; longest aa, a */
	cr_expect_eq(count_on(out[0], "a|aa", "aaa"), 3);
	cr_expect_eq(count_on(out[1], "a|aa", "aaa"), 2);
	cr_expect_eq(engine_opt_value(out[1], lm), 1);
	/* the engine itself keeps the run's value */
	cr_expect_eq(*lm->value, 0);
	cr_expect_eq(engine_opt_value(e, lm), 0);
	cr_expect_str_eq(engine_bench_name(e), "re2");
	cr_expect_eq(count_on(e, "a|aa", "aaa"), 3);
	engine_opts_reset();
}

Test(sweep, one_value_is_no_sweep_and_replaces_one)
{
	const struct engine *e = re2_or_skip();
	const struct engine *out[4];
	char err[256];

	cr_assert_eq(engine_opt_set("re2.longest_match=false,true", err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(engine_opt_set("re2.longest_match=true", err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(engine_opt_entries(e, out, 4, err, sizeof(err)), 1);
	cr_expect_eq(out[0], e);
	cr_expect_str_eq(engine_bench_name(e), "re2,longest_match:true");
	engine_opts_reset();
}

Test(sweep, two_options_make_their_product)
{
	const struct engine *e = re2_or_skip();
	const struct engine *out[8];
	char err[256];

	cr_assert_eq(engine_opt_set("re2.max_mem=8M,16M", err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(engine_opt_set("re2.longest_match=false,true", err,
				    sizeof(err)), 0, "%s", err);
	cr_assert_eq(engine_opt_entries(e, out, 8, err, sizeof(err)), 4);
	cr_expect_str_eq(engine_bench_name(out[0]),
			 "re2,max_mem:8M,longest_match:false");
	cr_expect_str_eq(engine_bench_name(out[1]),
			 "re2,max_mem:8M,longest_match:true");
	cr_expect_str_eq(engine_bench_name(out[3]),
			 "re2,max_mem:16M,longest_match:true");
	cr_expect_eq(engine_opt_entries(e, out, 3, err, sizeof(err)), -1);
	cr_expect(strstr(err, "4 entries") != NULL, "%s", err);
	engine_opts_reset();
}

Test(sweep, bad_lists_are_one_line_naming_the_value)
{
	static const struct {
		const char *arg, *says;
	} bad[] = {
		{"re2.longest_match=false,maybe", "'maybe': not true or false"},
		{"re2.max_mem=8M,8M", "'8M': given twice"},
		{"re2.max_mem=8M,,16M", "an empty value"},
		{"re2.max_mem=8M,", "an empty value"},
		{"re2.max_mem=8M,abc", "'abc': not a size"},
	};
	char err[256];

	re2_or_skip();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(engine_opt_set(bad[i].arg, err, sizeof(err)), -1,
			     "%s", bad[i].arg);
		cr_expect(strstr(err, bad[i].says) != NULL, "%s: %s",
			  bad[i].arg, err);
		cr_expect(strchr(err, '\n') == NULL, "%s", err);
	}
	engine_opts_reset();
}
