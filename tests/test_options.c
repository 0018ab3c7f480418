/*
 * test_options.c - checked number parsing (harness/parse.h) and options
 * as data (suites/options.h): what each accepts and refuses, and the
 * one-line message a refusal prints.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "harness/parse.h"
#include "suites/options.h"
#include "suites/suite.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

Test(parse, u64_takes_decimal_digits_only)
{
	char err[128];
	uint64_t v = 7;

	cr_assert_eq(parse_u64("0", 0, 10, &v, err, sizeof(err)), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(parse_u64("18446744073709551615", 0, UINT64_MAX, &v, err,
			       sizeof(err)), 0);
	cr_assert_eq(v, UINT64_MAX);
	v = 7;
	const char *bad[] = {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0",
			     "12x", "18446744073709551616"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(parse_u64(bad[i], 0, UINT64_MAX, &v, err,
				       sizeof(err)), -1, "%s", bad[i]);
		cr_assert_eq(v, 7, "%s changed the value", bad[i]);
	}
	cr_assert_eq(parse_u64("abc", 0, 9, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "not a whole number");
	cr_assert_eq(parse_u64("17", 1, 16, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "must be from 1 to 16");
	cr_assert_eq(parse_u64("0", 1, 16, &v, err, sizeof(err)), -1);
}

Test(parse, real_is_decimal_and_finite)
{
	char err[128];
	double v = 9;

	cr_assert_eq(parse_real("0.5", 0, 1, &v, err, sizeof(err)), 0);
	cr_assert_float_eq(v, 0.5, 1e-12);
	cr_assert_eq(parse_real(".5", 0, 1, &v, err, sizeof(err)), 0);
	cr_assert_eq(parse_real("1e2", 0, 1000, &v, err, sizeof(err)), 0);
	cr_assert_float_eq(v, 100, 1e-9);
	const char *bad[] = {"", ".", "-1", "0x1p3", "inf", "nan", "1e", "1..2",
			     "1,5", "1e999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(parse_real(bad[i], -1e300, 1e300, &v, err,
					sizeof(err)), -1, "%s", bad[i]);
	cr_assert_eq(parse_real("2", 0, 1, &v, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "must be from 0 to 1");
}

Test(parse, size_list_names_the_bad_item)
{
	char err[128];
	size_t v[4], n = 0;

	cr_assert_eq(parse_size_list("64,128,1500", 1, 2000, v, 4, &n, err,
				     sizeof(err)), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(v[2], 1500);
	cr_assert_eq(parse_size_list("64,12x", 1, 2000, v, 4, &n, err,
				     sizeof(err)), -1);
	cr_assert_str_eq(err, "'12x': not a whole number");
	cr_assert_eq(parse_size_list("64,,1", 1, 2000, v, 4, &n, err,
				     sizeof(err)), -1);
	cr_assert_str_eq(err, "an empty item");
	cr_assert_eq(parse_size_list("1,2,3,4,5", 1, 9, v, 4, &n, err,
				     sizeof(err)), -1);
	cr_assert_str_eq(err, "more than 4 items");
	cr_assert_eq(parse_size_list("", 1, 9, v, 4, &n, err, sizeof(err)), -1);
}

struct cfg {
	int quiet;
	const char *file;
	uint64_t seed;
	size_t n;
	double rate;
	int calls;
};

static int call_opt(void *cfg, const char *value, char *err, size_t size)
{
	if (strcmp(value, "bad") == 0) {
		snprintf(err, size, "use good");
		return -1;
	}
	((struct cfg *)cfg)->calls++;
	return 0;
}

static const struct opt_spec table[] = {
	{"quiet", NULL, "no progress", OPT_FLAG, offsetof(struct cfg, quiet),
	 0, 0, NULL},
	{"file", "FILE", "a file", OPT_TEXT, offsetof(struct cfg, file), 0, 0,
	 NULL},
	{"seed", "N", "seed", OPT_UINT, offsetof(struct cfg, seed), 0, 1e6,
	 NULL},
	{"n", "N", "count", OPT_SIZE, offsetof(struct cfg, n), 1, 16, NULL},
	{"rate", "R", "rate", OPT_REAL, offsetof(struct cfg, rate), 0, 1, NULL},
	{"call", "V", "first line\nsecond line", OPT_CALL, 0, 0, 0, call_opt},
	{NULL, NULL, NULL, OPT_FLAG, 0, 0, 0, NULL},
};

Test(options, each_kind_stores_its_field)
{
	struct cfg c = {0};

	cr_assert_null(opt_find(table, "nope"));
	cr_assert_eq(opt_set(opt_find(table, "quiet"), &c, NULL), 0);
	cr_assert_eq(opt_set(opt_find(table, "file"), &c, "x.txt"), 0);
	cr_assert_eq(opt_set(opt_find(table, "seed"), &c, "42"), 0);
	cr_assert_eq(opt_set(opt_find(table, "n"), &c, "16"), 0);
	cr_assert_eq(opt_set(opt_find(table, "rate"), &c, "0.25"), 0);
	cr_assert_eq(opt_set(opt_find(table, "call"), &c, "ok"), 0);
	cr_assert_eq(c.quiet, 1);
	cr_assert_str_eq(c.file, "x.txt");
	cr_assert_eq(c.seed, 42);
	cr_assert_eq(c.n, 16);
	cr_assert_float_eq(c.rate, 0.25, 1e-12);
	cr_assert_eq(c.calls, 1);
}

Test(options, a_refusal_is_one_line_naming_option_and_value,
     .init = cr_redirect_stderr)
{
	struct cfg c = {0};

	cr_assert_eq(opt_set(opt_find(table, "n"), &c, "17"), -1);
	cr_assert_eq(opt_set(opt_find(table, "call"), &c, "bad"), -1);
	cr_assert_eq(c.n, 0);
	fflush(stderr);
	cr_assert_stderr_eq_str("rxbench: --n=17: must be from 1 to 16\n"
				"rxbench: --call=bad: use good\n");
}

Test(options, usage_aligns_help_and_its_continuations,
     .init = cr_redirect_stdout)
{
	opt_usage(stdout, table + 4);
	fflush(stdout);
	cr_assert_stdout_eq_str("  --rate=R              rate\n"
				"  --call=V              first line\n"
				"                        second line\n");
}

/* A name two suites declare must take a value in both or in neither:
 * the command line gives it once, to every suite that has it. */
Test(options, suites_agree_on_shared_names)
{
	for (size_t i = 0; i < suite_count; i++)
		for (size_t j = i + 1; j < suite_count; j++) {
			const struct opt_spec *a = suite_table[i]->options;
			for (; a != NULL && a->name; a++) {
				const struct opt_spec *b =
					opt_find(suite_table[j]->options, a->name);
				cr_assert(b == NULL ||
						  (a->arg == NULL) == (b->arg == NULL),
					  "--%s", a->name);
			}
		}
}
