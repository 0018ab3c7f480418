/*
 * test_rules.c - the payload suite's rule readers: one regex per line,
 * Snort/Suricata rules (pcre and content conditions, negation, line
 * continuations), ModSecurity SecRule @rx (continuations, Apache quoting,
 * negation, skipped operators), flags, names, errors that name FILE:LINE,
 * and how a rule's conditions combine.  Fixtures: tests/data/payload/.
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

/* Rule i is called name and has n patterns; its place is `where`. */
static void expect_rule(size_t i, const char *name, size_t n,
			const char *where)
{
	cr_assert_lt(i, rs.n);
	cr_expect_str_eq(rs.r[i].name, name, "rule %zu", i);
	cr_expect_eq(rs.r[i].n, n, "rule %s: %zu patterns", name, rs.r[i].n);
	if (where != NULL)
		cr_expect_str_eq(rs.r[i].where, where);
	for (size_t k = rs.r[i].first; k < rs.r[i].first + rs.r[i].n; k++)
		cr_expect_eq(rs.p[k].rule, i, "pattern %zu", k);
}

/* Pattern k is re with flags, negated or not. */
static void expect_pattern(size_t k, const char *re, unsigned flags,
			   int negated)
{
	cr_assert_lt(k, rs.np);
	cr_expect_str_eq(rs.p[k].re, re, "pattern %zu", k);
	cr_expect_eq(rs.p[k].len, strlen(re));
	cr_expect_eq(rs.p[k].flags, flags, "pattern %zu flags %#x", k,
		     rs.p[k].flags);
	cr_expect_eq(rs.p[k].negated, negated, "pattern %zu negation", k);
}

/* A rule of one positive pattern: rule i is pattern i. */
static void expect_simple(size_t i, const char *re, unsigned flags,
			  const char *name)
{
	expect_rule(i, name, 1, NULL);
	cr_expect_eq(rs.r[i].first, i);
	expect_pattern(i, re, flags, 0);
}

Test(rules, builtin_set_is_ten_caseless_dotall_rules)
{
	cr_assert_eq(rules_builtin(&rs), 0);
	cr_assert_eq(rs.n, RULE_BUILTIN_COUNT);
	cr_assert_eq(rs.n, 10);
	cr_assert_eq(rs.np, 10, "one pattern per rule: pattern i is rule i");
	for (size_t i = 0; i < rs.n; i++) {
		expect_rule(i, rs.r[i].name, 1, "built-in");
		cr_expect_eq(rs.r[i].first, i);
		cr_expect_eq(rs.p[i].flags, ENGINE_CASELESS | ENGINE_DOTALL);
		cr_expect_eq(rs.p[i].negated, 0);
		/* POSIX ERE engines run them: no Perl-only syntax */
		cr_expect_null(strstr(rs.p[i].re, "(?"), "%s", rs.r[i].name);
		cr_expect_null(strchr(rs.p[i].re, '\\'), "%s", rs.r[i].name);
	}
	cr_expect_eq(rs.p[RULE_BAD_METHOD].re[0], '^');
	cr_expect_eq(rs.p[RULE_ENCODED_REQLINE].re[0], '^');
}

Test(rules, regex_lines)
{
	cr_assert_eq(rules_load(&rs, DATA "regex.txt", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 4);
	cr_assert_eq(rs.np, 4);
	expect_simple(0, "union[ +]select", 0, "regex.txt:2");
	expect_simple(1, "etc/passwd", ENGINE_CASELESS, "regex.txt:4");
	expect_simple(2, "<script", ENGINE_CASELESS, "regex.txt:5");
	expect_simple(3, "abc", 0, "regex.txt:6");
	cr_expect_str_eq(rs.r[0].where, DATA "regex.txt:2");
}

Test(rules, snort_rules_are_their_conditions)
{
	cr_assert_eq(rules_load(&rs, DATA "snort.rules", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 5);
	cr_assert_eq(rs.np, 9);
	cr_expect_eq(rs.skipped, 1, "sid 3: content alone");
	/* content and pcre: both are conditions of the rule */
	expect_rule(0, "sid1", 2, DATA "snort.rules:2 (sid 1)");
	expect_pattern(0, "union", 0, 0);
	expect_pattern(1, "union\\s+select", ENGINE_CASELESS, 0);
	/* two pcres, the second negated; \; is the rule language's escape,
	   \/ stays a regex escape */
	expect_rule(1, "sid2", 2, DATA "snort.rules:3 (sid 2)");
	expect_pattern(2, "^GET\\x20", ENGINE_ANCHORED, 0);
	expect_pattern(3, "\\/admin;x", ENGINE_CASELESS, 1);
	expect_rule(2, "sid4", 1, DATA "snort.rules:5 (sid 4)");
	expect_pattern(4, "a\"b", ENGINE_DOTALL, 0);
	/* continued over lines 6-8: named by its first line; a negated
	   content with hex bytes and nocase; Snort 3's inline nocase */
	expect_rule(3, "sid5", 3, DATA "snort.rules:6 (sid 5)");
	expect_pattern(5, "pass:\\x0d", ENGINE_CASELESS, 1);
	expect_pattern(6, "user=\\w+", 0, 0);
	expect_pattern(7, "a\\.b", ENGINE_CASELESS, 0);
	/* no sid: the file and line */
	expect_rule(4, "snort.rules:9", 1, DATA "snort.rules:9");
	expect_pattern(8, "private", 0, 1);
}

/* A trailing '\' joins the next line, as Snort reads rules (issue). */
Test(rules, snort_line_continuation)
{
	const char *t = "alert tcp any any -> any any \\\n"
			"    (msg:\"x\"; \\\r\n"
			"    pcre:\"/ab\\\ncd/\"; sid:9;)\n"
			"alert tcp any any -> any any (pcre:\"/e/\"; sid:10;)\n";

	cr_assert_eq(rules_parse(&rs, "c.rules", t, strlen(t), RULES_AUTO, err,
				 sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 2);
	expect_rule(0, "sid9", 1, "c.rules:1 (sid 9)");
	expect_pattern(0, "abcd", 0, 0);
	expect_rule(1, "sid10", 1, "c.rules:5 (sid 10)");
}

static void expect_parse_error(const char *text, enum rules_format fmt,
			       const char *want);

Test(rules, snort_errors_name_the_first_line)
{
	expect_parse_error("alert tcp any any -> any any (pcre:\"/a/\"; sid:1;)\n"
			   "alert tcp any any -> any any (msg:\"bad\"; \\\n"
			   "    pcre:\"/a/Q\"; sid:2;)\n",
			   RULES_SNORT, "f:2: pcre: unsupported flag 'Q'");
	expect_parse_error("alert tcp any any -> any any (\\\n"
			   "    content:\"a|4|\"; pcre:\"/a/\";)\n",
			   RULES_SNORT, "f:1: content: odd number of hex digits "
					"in |...|");
	expect_parse_error("alert tcp any any -> any any (pcre:\"/a/\"; "
			   "content:\"|41\";)\n", RULES_SNORT,
			   "f:1: content: unterminated |hex| section");
	expect_parse_error("alert tcp any any -> any any (content:\"|4g|\"; "
			   "pcre:\"/a/\";)\n", RULES_SNORT,
			   "f:1: content: 'g' in a |hex| section");
	expect_parse_error("alert tcp any any -> any any (nocase; pcre:\"/a/\";)\n",
			   RULES_SNORT, "f:1: nocase: no content option before it");
	expect_parse_error("alert tcp any any -> any any (content:abc; "
			   "pcre:\"/a/\";)\n", RULES_SNORT,
			   "f:1: content: the value must be quoted");
	/* only sid 1 was read: a half-read rule leaves no pattern behind */
	cr_expect_eq(rs.n, 1);
	cr_expect_eq(rs.np, 1);
}

/* Content bytes become a regex matching exactly them. */
Test(rules, snort_content_is_a_literal)
{
	const char *t = "alert tcp any any -> any any (content:\"a.b*(c)|00 ff|"
			"\\\"\\;\\\\\"; pcre:\"/x/\";)\n"
			"alert tcp any any -> any any (content:\"x\\|y\"; "
			"pcre:\"/x/\";)\n";

	cr_assert_eq(rules_parse(&rs, "f", t, strlen(t), RULES_SNORT, err,
				 sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.np, 4);
	expect_pattern(0, "a\\.b\\*\\(c\\)\\x00\\xff\";\\\\", 0, 0);
	/* an escaped '|' is a byte, not a hex section */
	expect_pattern(2, "x\\|y", 0, 0);
}

/* A rule holds when its positive conditions match and negated ones do not. */
Test(rules, conditions_combine)
{
	const char *t = "alert tcp any any -> any any (pcre:\"/a/\"; "
			"pcre:!\"/b/\"; sid:1;)\n"
			"alert tcp any any -> any any (pcre:!\"/c/\"; sid:2;)\n";
	const unsigned char none[3] = {0, 0, 0}, a[3] = {1, 0, 0},
			    ab[3] = {1, 1, 0}, c[3] = {0, 0, 1};

	cr_assert_eq(rules_parse(&rs, "f", t, strlen(t), RULES_SNORT, err,
				 sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.np, 3);
	cr_expect_eq(rules_holds(&rs, 0, none), 0, "a is needed");
	cr_expect_eq(rules_holds(&rs, 0, a), 1);
	cr_expect_eq(rules_holds(&rs, 0, ab), 0, "b is excluded");
	cr_expect_eq(rules_holds(&rs, 1, none), 1, "not c: holds without c");
	cr_expect_eq(rules_holds(&rs, 1, c), 0);
}

#define V3 (ENGINE_DOTALL | ENGINE_MULTILINE) /* libmodsecurity3's @rx */

Test(rules, modsecurity_secrules)
{
	cr_assert_eq(rules_load(&rs, DATA "modsec.conf", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 4);
	cr_assert_eq(rs.np, 4);
	expect_simple(0, "/etc/passwd", ENGINE_CASELESS | V3, "id1001");
	/* continued over five lines; (?i:...) spanning it all became a flag */
	expect_simple(1, "union\\s+select", ENGINE_CASELESS | V3, "id1002");
	cr_expect_str_eq(rs.r[1].where, DATA "modsec.conf:4 (id 1002)");
	/* negated operator: holds where the regex does not match; v3 keeps
	   \\ as written (a backslash in the class) */
	expect_rule(2, "id1003", 1, NULL);
	expect_pattern(2, "^[\\\\w.]+$", V3, 1);
	/* no operator means @rx; \" is a quote */
	expect_simple(3, "a\"b", V3, "id1006");
	cr_expect_eq(rs.skipped, 2, "@pm and the %%{macro} rule");
}

/*
 * mod_security2 reads the same file through Apache's quoting (\\ is \)
 * and compiles @rx without PCRE_MULTILINE (msre_op_rx_param_init).
 */
Test(rules, modsecurity_secrules_v2)
{
	rs.modsec = MODSEC_V2;
	cr_assert_eq(rules_load(&rs, DATA "modsec.conf", RULES_AUTO, err,
				sizeof(err)), 0, "%s", err);
	cr_assert_eq(rs.n, 4);
	expect_simple(0, "/etc/passwd", ENGINE_CASELESS | ENGINE_DOTALL,
		      "id1001");
	expect_pattern(2, "^[\\w.]+$", ENGINE_DOTALL, 1);
	expect_simple(3, "a\"b", ENGINE_DOTALL, "id1006");
}

/*
 * Backslashes by version (findings M1): v3's scanner hands the operator's
 * text over as written (\\ an escaped backslash for PCRE; \" written ",
 * the same to PCRE); v2's Apache reader turns \\ into \ in quoted and
 * bare words, \" into ".
 */
Test(rules, modsecurity_backslashes_by_version)
{
	static const struct {
		const char *line, *v3, *v2;
	} cases[] = {
		{"SecRule ARGS \"@rx ;?\\\\x00\" \"id:1\"", ";?\\\\x00", ";?\\x00"},
		{"SecRule ARGS \"@rx a\\\\\\\"b\" \"id:1\"", "a\\\\\"b", "a\\\"b"},
		{"SecRule ARGS \"@rx [*?`\\\\']\" \"id:1\"", "[*?`\\\\']", "[*?`\\']"},
		{"SecRule ARGS @rx\\\\d \"id:1\"", NULL, NULL},
		{"SecRule ARGS a\\\\d \"id:1\"", "a\\\\d", "a\\d"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int v = MODSEC_V2; v <= MODSEC_V3; v++) {
			const char *want = v == MODSEC_V2 ? cases[i].v2 : cases[i].v3;
			rules_release(&rs);
			rs.modsec = (enum modsec_version)v;
			rs.skipped = 0;
			int rc = rules_parse(&rs, "f", cases[i].line,
					     strlen(cases[i].line), RULES_MODSEC,
					     err, sizeof(err));
			if (want == NULL) {
				cr_expect(rc != 0 || rs.np == 0, "case %zu", i);
				continue;
			}
			cr_assert_eq(rc, 0, "case %zu v%d: %s", i, v, err);
			cr_assert_eq(rs.np, 1, "case %zu v%d", i, v);
			cr_expect_str_eq(rs.p[0].re, want, "case %zu v%d", i, v);
		}
}

Test(rules, forced_format)
{
	/* the Snort file read as plain regexes: each line is a pattern, and
	   a trailing '\' is a regex byte, not a continuation */
	cr_assert_eq(rules_load(&rs, DATA "snort.rules", RULES_REGEX, err,
				sizeof(err)), 0, "%s", err);
	cr_expect_eq(rs.n, 8);
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
	expect_simple(0, "x(?i)y", ENGINE_DOTALL | ENGINE_MULTILINE, "mem:1");
	cr_expect_eq(rules_parse(&rs, "mem", "SecRule A \"@rx \"", 16,
				 RULES_MODSEC, err, sizeof(err)), -1);
	cr_expect_str_eq(err, "mem:1: empty pattern");
}

Test(rules, extended_mode_keeps_classes_and_escapes)
{
	const char *t = "(?x) a\\ b [ #] # gone\n";

	cr_assert_eq(rules_parse(&rs, "x", t, strlen(t), RULES_REGEX, err,
				 sizeof(err)), 0, "%s", err);
	expect_simple(0, "a\\ b[ #]", 0, "x:1");
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
	for (size_t i = 0; i < rs.np; i++)
		cr_expect_gt(rs.p[i].len, 0);
	for (size_t i = 0; i < rs.n; i++)
		cr_expect_eq(rs.r[i].n, 1, "a SecRule is one condition");
}

/* text does not parse; the message is want. */
static void expect_parse_error(const char *text, enum rules_format fmt,
			       const char *want)
{
	cr_expect_eq(rules_parse(&rs, "f", text, strlen(text), fmt, err,
				 sizeof(err)), -1, "%s parsed", text);
	cr_expect_str_eq(err, want);
}

/* Inputs the fuzzer (tests/fuzz/fuzz_rules.c) found; each once crashed. */
Test(rules, fuzz_findings)
{
	/* "m" with no delimiter: strrchr() ran past the buffer */
	expect_parse_error("alert tcp any any -> any any (pcre:\"m\";)\n",
			   RULES_SNORT, "f:1: pcre: expected /regex/flags");
}
