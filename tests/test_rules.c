/*
 * test_rules.c - the payload suite's rule readers: one regex per line,
 * Snort/Suricata pcre options, ModSecurity SecRule @rx (continuations,
 * Apache quoting, skipped operators), flags, names, and errors that name
 * FILE:LINE.  Fixtures: tests/data/payload/.
 */
#include <criterion/criterion.h>

#include <string.h>
#include <unistd.h>

#include "corpora/rules.h"
#include "engines/engine.h"

#define DATA "data/payload/"

static struct ruleset rs;
static char err[512];

static void setup(void)
{
	ruleset_init(&rs);
	err[0] = '\0';
}

static void teardown(void)
{
	rules_release(&rs);
}

TestSuite(rules, .init = setup, .fini = teardown);

static void expect_rule(size_t i, const char *re, unsigned flags,
			const char *name)
{
	cr_assert_lt(i, rs.n);
	cr_expect_str_eq(rs.r[i].re, re, "rule %zu", i);
	cr_expect_eq(rs.r[i].len, strlen(re));
	cr_expect_eq(rs.r[i].flags, flags, "rule %zu flags %#x", i,
		     rs.r[i].flags);
	cr_expect_str_eq(rs.r[i].name, name);
}

Test(rules, builtin_set_is_ten_caseless_dotall_rules)
{
	cr_assert_eq(rules_builtin(&rs), 0);
	cr_assert_eq(rs.n, RULE_BUILTIN_COUNT);
	cr_assert_eq(rs.n, 10);
	for (size_t i = 0; i < rs.n; i++) {
		cr_expect_eq(rs.r[i].flags, ENGINE_CASELESS | ENGINE_DOTALL);
		/* POSIX ERE engines run them: no Perl-only syntax */
		cr_expect_null(strstr(rs.r[i].re, "(?"), "%s", rs.r[i].name);
		cr_expect_null(strchr(rs.r[i].re, '\\'), "%s", rs.r[i].name);
	}
	cr_expect_eq(rs.r[RULE_BAD_METHOD].re[0], '^');
	cr_expect_eq(rs.r[RULE_ENCODED_REQLINE].re[0], '^');
}

Test(rules, regex_lines)
{
	cr_assert_eq(rules_load(&rs, DATA "regex.txt", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 4);
	expect_rule(0, "union[ +]select", 0, "regex.txt:2");
	expect_rule(1, "etc/passwd", ENGINE_CASELESS, "regex.txt:4");
	expect_rule(2, "<script", ENGINE_CASELESS, "regex.txt:5");
	expect_rule(3, "abc", 0, "regex.txt:6");
	cr_expect_str_eq(rs.r[0].where, DATA "regex.txt:2");
}

Test(rules, snort_pcre_options)
{
	cr_assert_eq(rules_load(&rs, DATA "snort.rules", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 4);
	expect_rule(0, "union\\s+select", ENGINE_CASELESS, "snort.rules:2");
	expect_rule(1, "^GET\\x20", ENGINE_ANCHORED, "snort.rules:3");
	/* \; is the rule language's escape; \/ stays a regex escape */
	expect_rule(2, "\\/admin;x", ENGINE_CASELESS, "snort.rules:3.2");
	expect_rule(3, "a\"b", ENGINE_DOTALL, "snort.rules:5");
}

Test(rules, modsecurity_secrules)
{
	cr_assert_eq(rules_load(&rs, DATA "modsec.conf", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 4);
	expect_rule(0, "/etc/passwd", ENGINE_CASELESS | ENGINE_DOTALL, "id1001");
	/* continued over five lines; (?i:...) spanning it all became a flag */
	expect_rule(1, "union\\s+select", ENGINE_CASELESS | ENGINE_DOTALL,
		    "id1002");
	cr_expect_str_eq(rs.r[1].where, DATA "modsec.conf:4 (id 1002)");
	/* negated operator; Apache quoting turned \\ into \ */
	expect_rule(2, "^[\\w.]+$", ENGINE_DOTALL, "id1003");
	/* no operator means @rx; \" is a quote */
	expect_rule(3, "a\"b", ENGINE_DOTALL, "id1006");
	cr_expect_eq(rs.skipped, 2, "@pm and the %%{macro} rule");
}

Test(rules, forced_format)
{
	/* the Snort file read as plain regexes: each rule line is a pattern */
	cr_assert_eq(rules_load(&rs, DATA "snort.rules", RULES_REGEX, err,
				sizeof(err)), 0, "%s", err);
	cr_expect_eq(rs.n, 4);
	cr_expect_eq(rules_format_parse("modsec"), RULES_MODSEC);
	cr_expect_eq(rules_format_parse("yara"), -1);
}

static void expect_error(const char *file, const char *want)
{
	int rc = rules_load(&rs, file, RULES_AUTO, err, sizeof(err));

	cr_expect_eq(rc, -1, "%s loaded", file);
	cr_expect_str_eq(err, want);
}

Test(rules, errors_name_file_and_line)
{
	expect_error(DATA "bad_flag.rules",
		     DATA "bad_flag.rules:2: pcre: unsupported flag 'Q'");
	expect_error(DATA "bad_quote.rules",
		     DATA "bad_quote.rules:3: pcre: unterminated quote");
	expect_error(DATA "bad_delim.rules",
		     DATA "bad_delim.rules:1: pcre: expected /regex/flags");
	expect_error(DATA "bad_modsec.conf",
		     DATA "bad_modsec.conf:3: SecRule: expected VARIABLES "
			  "\"OPERATOR\" (unterminated quote or missing operator)");
	expect_error(DATA "empty.txt", DATA "empty.txt: no regex rules found");
	expect_error(DATA "no_regex.conf",
		     DATA "no_regex.conf: no regex rules found (only other "
			  "operators)");
	expect_error(DATA "missing.rules",
		     DATA "missing.rules: No such file or directory");
}

Test(rules, in_memory_text)
{
	const char *t = "alert tcp any any -> any any (pcre:\"/x(?i)y/sm\";)\n";

	cr_assert_eq(rules_parse(&rs, "mem", t, strlen(t), RULES_AUTO, err,
				 sizeof(err)), 0, "%s", err);
	/* an inline flag that is not leading stays in the pattern */
	expect_rule(0, "x(?i)y", ENGINE_DOTALL | ENGINE_MULTILINE, "mem:1");
	cr_expect_eq(rules_parse(&rs, "mem", "SecRule A \"@rx \"", 16,
				 RULES_MODSEC, err, sizeof(err)), -1);
	cr_expect_str_eq(err, "mem:1: empty pattern");
}

Test(rules, extended_mode_keeps_classes_and_escapes)
{
	const char *t = "(?x) a\\ b [ #] # gone\n";

	cr_assert_eq(rules_parse(&rs, "x", t, strlen(t), RULES_REGEX, err,
				 sizeof(err)), 0, "%s", err);
	expect_rule(0, "a\\ b[ #]", 0, "x:1");
}

/* Debian's modsecurity-crs: hundreds of real rules load, none are lost. */
Test(rules, core_rule_set_directory)
{
	const char *dir = "/usr/share/modsecurity-crs/rules";

	if (access(dir, R_OK) != 0)
		cr_skip_test("%s not installed (apt-get install modsecurity-crs)",
			     dir);
	cr_assert_eq(rules_load(&rs, dir, RULES_AUTO, err, sizeof(err)), 0,
		     "%s", err);
	cr_expect_gt(rs.n, 200, "%zu rules", rs.n);
	cr_expect_gt(rs.skipped, 0);
	for (size_t i = 0; i < rs.n; i++)
		cr_expect_gt(rs.r[i].len, 0);
}

/* text does not parse; the message is want. */
static void expect_parse_error(const char *text, enum rules_format fmt,
			       const char *want)
{
	cr_expect_eq(rules_parse(&rs, "f", text, strlen(text), fmt, err,
				 sizeof(err)), -1, "%s parsed", text);
	cr_expect_str_eq(err, want);
}

/* A trailing '\\' joins the next line, as Snort reads rules (issue). */
Test(rules, snort_line_continuation)
{
	const char *t = "alert tcp any any -> any any \\\n"
			"    (msg:\"x\"; \\\r\n"
			"    pcre:\"/ab\\\ncd/\"; sid:9;)\n"
			"alert tcp any any -> any any (pcre:\"/e/\"; sid:10;)\n";

	cr_assert_eq(rules_parse(&rs, "c.rules", t, strlen(t), RULES_AUTO, err,
				 sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 2);
	cr_expect_str_eq(rs.r[0].re, "abcd");
	cr_expect_str_eq(rs.r[0].where, "c.rules:1");
	cr_expect_str_eq(rs.r[1].where, "c.rules:5");
}

/* An error in a continued rule names the rule's first line. */
Test(rules, snort_errors_name_the_first_line)
{
	expect_parse_error("alert tcp any any -> any any (pcre:\"/a/\"; sid:1;)\n"
			   "alert tcp any any -> any any (msg:\"bad\"; \\\n"
			   "    pcre:\"/a/Q\"; sid:2;)\n",
			   RULES_SNORT, "f:2: pcre: unsupported flag 'Q'");
}

/* Inputs the fuzzer (tests/fuzz/fuzz_rules.c) found; each once crashed. */

Test(rules, fuzz_findings)
{
	/* "m" with no delimiter: strrchr() ran past the buffer */
	expect_parse_error("alert tcp any any -> any any (pcre:\"m\";)\n",
			   RULES_SNORT, "f:1: pcre: expected /regex/flags");
}
