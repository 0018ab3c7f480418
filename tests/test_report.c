/*
 * test_report.c - the report side: the JSON reader (round trip, hostile
 * input), the Go text reader, the CSV/Markdown/text writers against
 * golden files (tests/golden/report.*, rewrite with RXB_UPDATE_GOLDEN=1),
 * and the statistics compare relies on.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "report/compare.h"
#include "report/compare_stats.h"
#include "report/csv.h"
#include "report/gofmt.h"
#include "report/gotext_read.h"
#include "report/io.h"
#include "report/json.h"
#include "report/json_read.h"
#include "report/layout.h"
#include "report/layout_decl.h"
#include "report/md.h"
#include "report/rtable.h"
#include "report/text.h"

#include "golden.h"
#include "suites/suite.h"

static char *slurp(const char *path, size_t *len)
{
	char *buf = golden_slurp(path, len);

	cr_assert_not_null(buf, "cannot open %s", path);
	return buf;
}

/* Run writer fn on res into a string. */
static char *render(int (*fn)(FILE *, const struct results *),
		    const struct results *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_eq(fn(f, res), 0);
	fclose(f);
	return buf;
}

static int write_json(FILE *f, const struct results *res)
{
	return json_write_results(f, res);
}

static void load(const char *path, struct results *res)
{
	char err[512];

	results_init(res);
	cr_assert_eq(report_load(path, res, err, sizeof(err)), 0, "%s", err);
}

/* --- JSON reader -------------------------------------------------- */

Test(json_read, golden_file_round_trips_byte_for_byte)
{
	struct results res;
	size_t len;
	char *want = slurp("golden/results.json", &len), *got;

	load("golden/results.json", &res);
	got = render(write_json, &res);
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
	results_release(&res);
}

Test(json_read, fixture_round_trips)
{
	struct results a, b;
	char err[256], *first, *second;

	load("data/report/mixed.json", &a);
	first = render(write_json, &a);
	results_init(&b);
	cr_assert_eq(json_read_results(first, strlen(first), "first", &b, err,
				       sizeof(err)), 0, "%s", err);
	second = render(write_json, &b);
	cr_assert_str_eq(first, second);
	cr_assert_eq(a.n, 180);
	cr_assert_str_eq(results_config_get(&a, "cpu"), "Test CPU @ 1.00GHz");
	free(first);
	free(second);
	results_release(&a);
	results_release(&b);
}

Test(json_read, raw_bytes_and_controls_come_back)
{
	struct results a, b;
	struct result *r;
	char err[256], *text;

	results_init(&a);
	results_config_set(&a, "cpu", "caf\xc3\xa9 \xe9");
	r = results_add(&a, "scan", "Scan/engine=x/pattern=\xff\xfe");
	result_set_status(r, RESULT_ERROR, "tab\there\nnl \x01 \"q\" \\ \xe2\x82\xac"
			  " \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80");
	text = render(write_json, &a);
	/* surrogates, overlongs, > U+10FFFF are escaped: the file is UTF-8 */
	cr_assert_eq(engine_utf8_invalid(text, strlen(text)), -1);
	results_init(&b);
	cr_assert_eq(json_read_results(text, strlen(text), "t", &b, err,
				       sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(results_config_get(&b, "cpu"), "caf\xc3\xa9 \xe9");
	cr_assert_str_eq(b.r[0].name, "Scan/engine=x/pattern=\xff\xfe");
	cr_assert_str_eq(b.r[0].message,
			 "tab\there\nnl \x01 \"q\" \\ \xe2\x82\xac"
			 " \xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80");
	cr_assert_eq(b.r[0].status, RESULT_ERROR);
	free(text);
	results_release(&a);
	results_release(&b);
}

/* A run's journal (json.h): a benchmark written after each sample reads
 * back as its last line, a line cut short by a kill is left out, the
 * results are marked interrupted, and a cut head is an error. */
Test(json_read, journal_keeps_the_last_line_of_each_name)
{
	struct results a, b;
	struct result *r, *bad;
	char err[256], *text = NULL;
	size_t len = 0, cut;
	FILE *f = open_memstream(&text, &len);

	results_init(&a);
	results_config_set(&a, "goos", "linux");
	r = results_add(&a, "scan", "Scan/engine=x/pattern=a");
	cr_assert_eq(json_journal_head(f, &a), 0);
	result_sample_begin(r, 10);
	result_metric_add(r, "ns/op", BETTER_LOWER, 5);
	cr_assert_eq(json_journal_add(f, r), 0);
	result_sample_begin(r, 20);
	result_metric_add(r, "ns/op", BETTER_LOWER, 6);
	cr_assert_eq(json_journal_add(f, r), 0);
	bad = results_add(&a, "scan", "Scan/engine=y/pattern=a");
	result_set_status(bad, RESULT_MISMATCH, "count 1, is_match 1;\nexpected 2");
	cr_assert_eq(json_journal_add(f, bad), 0);
	fflush(f);
	cut = len;
	json_journal_add(f, r); /* then killed halfway through a line */
	fclose(f);
	results_init(&b);
	cr_assert_eq(json_read_journal(text, cut + 40, "j", &b, err,
				       sizeof(err)), 0, "%s", err);
	cr_assert_eq(b.n, 2);
	cr_assert(b.interrupted);
	cr_assert_str_eq(results_config_get(&b, "goos"), "linux");
	cr_assert_eq(b.r[0].nsamples, 2);
	cr_assert_eq(b.r[0].iters[1], 20);
	cr_assert_eq(b.r[1].status, RESULT_MISMATCH);
	cr_assert_str_eq(b.r[1].message, "count 1, is_match 1;\nexpected 2");
	results_release(&b);
	/* only the head, or not even that */
	results_init(&b);
	cr_assert_eq(json_read_journal(text, strchr(text, '\n') - text + 1, "j",
				       &b, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(b.n, 0);
	results_release(&b);
	results_init(&b);
	cr_assert_eq(json_read_journal(text, 20, "j", &b, err, sizeof(err)), -1);
	cr_assert(strstr(err, "cut short") != NULL, "%s", err);
	results_release(&b);
	/* left open, a journal is no results file */
	results_init(&b);
	cr_assert_eq(json_read_results(text, len, "j", &b, err, sizeof(err)), -1);
	results_release(&b);
	free(text);
	results_release(&a);
}

/* Parse s; expect failure with `want` in the message. */
static void expect_error(const char *s, const char *want)
{
	struct results res;
	char err[512];

	results_init(&res);
	cr_assert_eq(json_read_results(s, strlen(s), "f.json", &res, err,
				       sizeof(err)), -1, "accepted: %s", s);
	cr_assert(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	cr_assert(strncmp(err, "f.json:", 7) == 0, "no position: %s", err);
	results_release(&res);
}

#define HEAD "{\"format\": \"rxbench-results\", \"version\": 1, "

Test(json_read, errors_name_line_and_column)
{
	expect_error("", "f.json:1:0: '[' or '{' expected");
	expect_error("[]", "f.json: expected a JSON object");
	expect_error("{\"format\": \"other\", \"version\": 1, \"benchmarks\": []}",
		     "not an rxbench results file");
	expect_error(HEAD "\"benchmarks\": [\n {\"name\": \"X\", \"suite\": 3}]}",
		     "f.json: suite: expected a string");
	expect_error(HEAD "\"benchmarks\": []} x", "f.json:1:63: end of file expected");
	expect_error(HEAD "\"version\": 1, \"benchmarks\": []}", "duplicate object key");
	expect_error("{\"format\": \"rxbench-results\", \"version\": 3, "
		     "\"benchmarks\": []}", "version 3; this rxbench reads "
		     "versions 1 to 2");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\", "
		     "\"iterations\": [1, 2], \"metrics\": [{\"unit\": \"ns/op\", "
		     "\"better\": \"lower\", \"samples\": [1]}]}]}",
		     "has 1 samples but there are 2 iterations");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\"},"
		     "{\"name\": \"A\", \"suite\": \"s\"}]}", "given twice");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\", "
		     "\"status\": \"weird\"}]}", "unknown status");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\", "
		     "\"iterations\": [-1]}]}", "non-negative integer");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\", "
		     "\"iterations\": [1], \"metrics\": [{\"unit\": \"x\", "
		     "\"better\": \"lower\", \"samples\": [1e999]}]}]}",
		     "overflow");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\\u0000\"}]}",
		     "\\u0000 is not allowed");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"\\ud800x\"}]}",
		     "invalid Unicode");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"a\nb\"}]}",
		     "unexpected newline");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"\\q\"}]}", "invalid escape");
	expect_error(HEAD "\"benchmarks\": [01]}", "invalid token");
	expect_error(HEAD "\"x\": [1.], \"benchmarks\": []}", "invalid token");
	expect_error(HEAD "\"benchmarks\": [", "f.json:1:59: ']' expected");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A", "premature end of input");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\", "
		     "\"inputs\": {\"pattern\": {\"hex\": \"0g\"}}}]}",
		     "f.json: A: input pattern: expected a string");
	expect_error(HEAD "\"benchmarks\": [{\"name\": \"A\", \"suite\": \"s\", "
		     "\"inputs\": {\"pattern\": {\"hex\": \"61\", \"x\": 1}}}]}",
		     "f.json: A: input pattern: expected a string");
}

Test(json_read, deep_nesting_is_refused)
{
	size_t depth = 100000;
	char *s = malloc(depth + 64);
	struct results res;
	char err[256];

	strcpy(s, HEAD "\"x\": ");
	size_t n = strlen(s);
	memset(s + n, '[', depth);
	s[n + depth] = '\0';
	results_init(&res);
	cr_assert_eq(json_read_results(s, strlen(s), "deep", &res, err,
				       sizeof(err)), -1);
	cr_assert(strstr(err, "maximum parsing depth") != NULL, "%s", err);
	results_release(&res);
	free(s);
}

/* A version 1 file (before inputs) still loads; its golden text is kept. */
Test(json_read, version_1_still_loads)
{
	struct results res;

	load("data/report/v1.json", &res);
	cr_assert_eq(res.n, 6);
	cr_assert_str_eq(res.r[2].message, "count 3, majority 4\nsecond line");
	cr_assert_eq(res.r[0].in.n, 0);
	cr_assert_eq(res.r[4].unverified, 1);
	results_release(&res);
}

/* Inputs come back byte for byte: raw bytes and NUL as {"hex"}. */
Test(json_read, inputs_round_trip)
{
	struct results a, b;
	struct result *r;
	const struct result_input *in;
	char err[256], *text;

	results_init(&a);
	r = results_add(&a, "scan", "Scan/engine=x/pattern=a");
	result_inputs_add(&r->in, "pattern", "a\0\xff", 3);
	result_input_addf(r, "seed", "%d", 42);
	text = render(write_json, &a);
	cr_assert(strstr(text, "{\"hex\": \"6100ff\"}") != NULL, "%s", text);
	results_init(&b);
	cr_assert_eq(json_read_results(text, strlen(text), "t", &b, err,
				       sizeof(err)), 0, "%s", err);
	in = result_inputs_get(&b.r[0].in, "pattern");
	cr_assert_not_null(in);
	cr_assert_eq(in->len, 3);
	cr_assert_eq(memcmp(in->value, "a\0\xff", 3), 0);
	cr_assert_str_eq(result_inputs_get(&b.r[0].in, "seed")->value, "42");
	free(text);
	results_release(&a);
	results_release(&b);
}

Test(json_read, every_prefix_and_many_mutations_fail_cleanly)
{
	size_t len;
	char *text = slurp("golden/results.json", &len);
	char err[512];
	unsigned seed = 1;

	for (size_t n = 0; n + 1 < len; n++) { /* all but the last newline */
		struct results res;
		results_init(&res);
		/* a strict prefix is never a complete object */
		cr_assert_eq(json_read_results(text, n, "p", &res, err,
					       sizeof(err)), -1, "prefix %zu", n);
		cr_assert(err[0] != '\0');
		results_release(&res);
	}
	for (int i = 0; i < 20000; i++) {
		char *m = malloc(len);
		struct results res;
		memcpy(m, text, len);
		for (int k = 0; k < 3; k++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % len] = (char)(seed >> 20);
		}
		results_init(&res);
		if (json_read_results(m, len, "m", &res, err, sizeof(err)) != 0)
			cr_assert(err[0] != '\0');
		results_release(&res);
		free(m);
	}
	free(text);
}

/* --- Go text reader ----------------------------------------------- */

static const char seed002[] =
	"goos: linux\n"
	"goarch: amd64\n"
	"pkg: github.com/merbridge/merbridge\n"
	"cpu: AMD Ryzen 9 3900 12-Core Processor             \n"
	"BenchmarkConnect/eBPF-24                1000000000               "
	"0.4532 ns/op\n"
	"BenchmarkConnect/eBPF/mb_sock_connect        108              3203 "
	"ns/op\n"
	"BenchmarkSockops/eBPF-24                1000000000               "
	"0.4327 ns/op\n"
	"PASS\n"
	"ok      github.com/merbridge/merbridge  20.530s\n";

Test(gotext_read, seed_002)
{
	struct results res;
	const struct metric *m;
	char err[256];

	results_init(&res);
	cr_assert_eq(gotext_read_results(seed002, strlen(seed002), "s", &res,
					 err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(res.n, 3);
	cr_assert_str_eq(res.r[0].name, "Connect/eBPF");
	cr_assert_str_eq(res.r[0].suite, "github.com/merbridge/merbridge");
	cr_assert_str_eq(res.r[1].name, "Connect/eBPF/mb_sock_connect");
	cr_assert_eq(res.r[1].iters[0], 108);
	m = result_metric(&res.r[1], "ns/op");
	cr_assert_not_null(m);
	cr_assert_float_eq(m->v[0], 3203, 1e-9);
	cr_assert_eq(m->better, BETTER_LOWER);
	cr_assert_str_eq(results_config_get(&res, "cpu"),
			 "AMD Ryzen 9 3900 12-Core Processor");
	results_release(&res);
}

Test(gotext_read, reads_back_what_gofmt_wrote)
{
	struct results res;
	const struct result *r;
	char err[256];

	load("golden/gofmt.txt", &res);
	cr_assert_eq(res.n, 6);
	r = results_find(&res, "Scan/engine=pcre2-jit/pattern=twain");
	cr_assert_not_null(r);
	cr_assert_str_eq(r->suite, "scan");
	cr_assert_eq(r->nsamples, 2);
	cr_assert_eq(result_metric(r, "matches")->better, BETTER_EXACT);
	cr_assert_eq(result_metric(r, "MB/s")->better, BETTER_HIGHER);
	r = results_find(&res, "Scan/engine=tre/pattern=twain");
	cr_assert_eq(r->status, RESULT_MISMATCH);
	cr_assert_str_eq(r->message, "count 3, majority 4\nsecond line");
	r = results_find(&res, "Scan/engine=posix/pattern=<script>\"x\"");
	cr_assert_eq(r->status, RESULT_UNSUPPORTED);
	r = results_find(&res, "FQDN/phase=compile/strategy=baseline/engine=re2");
	cr_assert_str_eq(r->suite, "fqdn");
	/* timed without verification, and not timed for want of it */
	r = results_find(&res, "Scan/engine=onig/pattern=backref");
	cr_assert_eq(r->status, RESULT_OK);
	cr_assert_eq(r->unverified, 1);
	r = results_find(&res, "Scan/engine=re2/pattern=backref");
	cr_assert_eq(r->status, RESULT_UNVERIFIED);
	(void)err;
	results_release(&res);
}

static void gotext_error(const char *s, const char *want)
{
	struct results res;
	char err[256];

	results_init(&res);
	cr_assert_eq(gotext_read_results(s, strlen(s), "g.txt", &res, err,
					 sizeof(err)), -1, "accepted %s", s);
	cr_assert(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
	results_release(&res);
}

Test(gotext_read, errors_name_the_line)
{
	gotext_error("goos: linux\nBenchmarkX 12a 5 ns/op\n",
		     "g.txt:2: iteration count \"12a\"");
	gotext_error("BenchmarkX 10 5\n", "g.txt:1: value \"5\" has no unit");
	gotext_error("\n\nBenchmarkX 10 fast ns/op\n",
		     "g.txt:3: value \"fast\" is not a number");
	gotext_error("BenchmarkX 99999999999999999999999 1 ns/op\n",
		     "not a number in range");
	/* one past Go's int: written to JSON it would read back negative */
	gotext_error("BenchmarkX 9223372036854775808 1 ns/op\n",
		     "not a number in range");
	gotext_error("Unit\n", "Unit line without a unit");
	gotext_error("goos: linux\nk\xc0y: v\n",
		     "g.txt:2: configuration key is not UTF-8");
}

/* A name level whose key is not UTF-8 stays in the name, not in "keys". */
Test(gotext_read, non_utf8_name_keys_still_write_json)
{
	static const char in[] =
		"BenchmarkPayload/s\xc0\xc0" "cenario=base/size=64-8 1 5 ns/op\n";
	struct results res;
	char err[256], *json;

	results_init(&res);
	cr_assert_eq(gotext_read_results(in, strlen(in), "g.txt", &res, err,
					 sizeof(err)), 0, "%s", err);
	json = render(write_json, &res);
	cr_assert(strstr(json, "\"hex\"") != NULL, "%s", json);
	cr_assert(strstr(json, "\"size\": \"64\"") != NULL, "%s", json);
	free(json);
	results_release(&res);
}

Test(gotext_read, procs_suffix)
{
	char a[] = "Foo/bar-8", b[] = "Foo/x-y", c[] = "-12", d[] = "Foo/9";

	gotext_strip_procs(a);
	gotext_strip_procs(b);
	gotext_strip_procs(c);
	gotext_strip_procs(d);
	cr_assert_str_eq(a, "Foo/bar");
	cr_assert_str_eq(b, "Foo/x-y");
	cr_assert_str_eq(c, "-12");
	cr_assert_str_eq(d, "Foo/9");
}

/* --- writers against golden files --------------------------------- */

static int write_text(FILE *f, const struct results *res)
{
	struct gofmt g;

	gofmt_init(&g, f, 60);
	gofmt_write_results(&g, res);
	gofmt_release(&g);
	return 0;
}

/* Markdown with the layouts of the suites the results name, as
 * rxbench report gives a file that does not carry them. */
static int write_md(FILE *f, const struct results *res)
{
	struct results *r = (struct results *)res;

	for (size_t i = 0; i < suite_count; i++)
		suite_layout_fill(suite_table[i], r);
	return report_write_md(f, res, NULL);
}

Test(writers, golden_text_csv_md)
{
	struct results res;
	char *s;

	load("data/report/mixed.json", &res);
	s = render(write_text, &res);
	check_golden("golden/report.txt", s);
	free(s);
	s = render(report_write_csv, &res);
	check_golden("golden/report.csv", s);
	free(s);
	s = render(write_md, &res);
	check_golden("golden/report.md", s);
	free(s);
	results_release(&res);
}

Test(writers, csv_quotes_like_rfc4180)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	csv_field(f, "plain");
	fputc('|', f);
	csv_field(f, "a,\"b\"\nc");
	fclose(f);
	cr_assert_str_eq(buf, "plain|\"a,\"\"b\"\"\nc\"");
	free(buf);
}

/* CSV injection: text a spreadsheet would run gets a leading ' */
Test(writers, csv_defuses_formulas)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	csv_field(f, "=HYPERLINK(\"http://x\")");
	fputc('|', f);
	csv_field(f, "+1");
	fputc('|', f);
	csv_field(f, "@SUM(A1)");
	fputc('|', f);
	csv_field(f, "-2+3");
	fputc('|', f);
	csv_field(f, "a=b");
	fputc('|', f);
	csv_field(f, "");
	fclose(f);
	cr_assert_str_eq(buf, "\"'=HYPERLINK(\"\"http://x\"\")\"|\"'+1\"|"
			      "\"'@SUM(A1)\"|\"'-2+3\"|a=b|");
	free(buf);
}

Test(writers, markdown_escapes_markup)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	md_text(f, "<script>a|b*c_d`e\nf&");
	fclose(f);
	cr_assert_str_eq(buf, "&lt;script&gt;a\\|b\\*c\\_d\\`e f&amp;");
	free(buf);
}

/* A two-column table of kind k: a name and a number, two rows. */
static void two_rows(struct rtables *ts, enum rtable_kind k)
{
	struct rtable *t = rtable_new(ts, k, "ns/op", "lower is better", 2);
	long r;

	cr_assert_not_null(t);
	cr_assert_eq(rtable_col(t, 0, "benchmark", 0), 0);
	cr_assert_eq(rtable_col(t, 1, "old", 1), 0);
	r = rtable_row(t);
	cr_assert_eq(rtable_text(t, r, 0, "Scan/engine=re2"), 0);
	cr_assert_eq(rtable_num(t, r, 1, 1234.5, "ns/op"), 0);
	r = rtable_row(t);
	cr_assert_eq(rtable_text(t, r, 0, "b"), 0);
	cr_assert_eq(rtable_num(t, r, 1, 7, "ns/op"), 0);
	rtable_best_in_column(t, 1, BETTER_LOWER);
}

/* One text renderer, two looks: boxed for the report's tables,
 * benchstat's plain one for rxbench compare's (RTABLE_CHANGES). */
Test(writers, text_table_boxed_and_plain)
{
	struct rtables ts = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	two_rows(&ts, RTABLE_TABLE);
	two_rows(&ts, RTABLE_CHANGES);
	cr_assert(rtable_cell(&ts.t[0], 1, 1)->strong);
	cr_assert(rtable_has_number(&ts.t[0], 1));
	cr_assert_not(rtable_has_number(&ts.t[0], 2));
	text_table(f, &ts.t[0]);
	text_table(f, &ts.t[1]);
	fclose(f);
	cr_assert_str_eq(buf,
			 "\nns/op\nlower is better\n\n"
			 "| benchmark       |   old |\n"
			 "|-----------------|-------|\n"
			 "| Scan/engine=re2 |  1234 |\n"
			 "| b               | 7.000 |\n"
			 "ns/op (lower is better)\n"
			 "benchmark        old\n"
			 "Scan/engine=re2  1234\n"
			 "b                7.000\n\n");
	free(buf);
	rtables_drop_last(&ts);
	cr_assert_eq(ts.n, 1);
	rtables_release(&ts);
	cr_assert_eq(ts.n, 0);
}

/* --- statistics and compare --------------------------------------- */

Test(stats, median_and_interval)
{
	double v[] = {5, 1, 4, 2, 3, NAN, 6};
	size_t lo, hi;
	double cov;
	struct stats_summary s;

	cr_assert_float_eq(stats_median(v, 7), 3.5, 1e-12);
	cr_assert_eq(stats_median_ci_orders(5, 0.95, &lo, &hi, &cov), -1);
	cr_assert_eq(stats_median_ci_orders(6, 0.95, &lo, &hi, &cov), 0);
	cr_assert_eq(lo, 1);
	cr_assert_eq(hi, 6);
	cr_assert_float_eq(cov, 0.96875, 1e-12);
	/* n = 10: (2nd, 9th) covers 97.9%; (3rd, 8th) only 89% */
	cr_assert_eq(stats_median_ci_orders(10, 0.95, &lo, &hi, &cov), 0);
	cr_assert_eq(lo, 2);
	cr_assert_eq(hi, 9);
	cr_assert_eq(stats_ci_min_samples(0.95), 6);
	cr_assert_eq(stats_summarize(v, 7, 0.95, &s), 0);
	cr_assert_eq(s.n, 6);
	cr_assert_float_eq(s.lo, 1, 1e-12);
	cr_assert_float_eq(s.hi, 6, 1e-12);
}

Test(stats, mann_whitney_u)
{
	/* R: wilcox.test(x, y) gives p = 0.2544 (exact, no ties) */
	double x[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
	double y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
	double a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}, p;
	double same[] = {7, 7, 7, 7};

	cr_assert_eq(stats_utest(x, 10, y, 5, &p), 0);
	cr_assert_float_eq(p, 0.2544, 1e-4);
	cr_assert_eq(stats_utest(a, 4, b, 4, &p), 0);
	cr_assert_float_eq(p, 2.0 / 70, 1e-12);
	cr_assert_float_eq(stats_utest_min_p(4), 2.0 / 70, 1e-12);
	cr_assert_float_eq(stats_utest_min_p(3), 0.1, 1e-12);
	cr_assert_eq(stats_utest(same, 4, same, 4, &p), 0);
	cr_assert_float_eq(p, 1, 1e-12);
}

Test(stats, mann_whitney_u_normal_approximation)
{
	double x[40], y[40], p;

	for (int i = 0; i < 40; i++) {
		x[i] = i;
		y[i] = i + 20.5;
	}
	cr_assert_eq(stats_utest(x, 40, y, 40, &p), 0);
	/* U = 190 of 1600, no ties: z = (800 - 190 - 0.5) / sqrt(40*40*81/12) */
	cr_assert_float_eq(p, erfc((609.5 / sqrt(1600.0 * 81 / 12)) / sqrt(2)),
			   1e-12);
	cr_assert_float_eq(stats_geomean((double[]){1, 100, 0, NAN}, 4, NULL),
			   10, 1e-12);
}

static void run_compare(const char *a, const char *b, struct results *ra,
			struct results *rb, struct comparison *cmp)
{
	struct compare_opts o;

	compare_opts_init(&o);
	o.gate = 1;
	o.threshold = 0.05;
	o.old_name = a;
	o.new_name = b;
	load(a, ra);
	load(b, rb);
	cr_assert_eq(compare_results(ra, rb, &o, cmp), 0);
}

Test(compare, flags_a_clear_regression)
{
	struct results a, b;
	struct comparison cmp;
	int seen_slow = 0, seen_fast = 0;

	run_compare("data/report/old.json", "data/report/new.json", &a, &b,
		    &cmp);
	cr_assert_eq(cmp.regressions, 1);
	cr_assert(compare_failed(&cmp));
	for (size_t i = 0; i < cmp.nrows; i++) {
		const struct compare_row *r = &cmp.rows[i];
		if (strcmp(r->unit, "ns/op") != 0)
			continue;
		if (strstr(r->old->name, "slow")) {
			seen_slow = 1;
			cr_assert(r->regression);
			cr_assert(r->p < 0.001);
			cr_assert(r->change > 0.15 && r->change < 0.25);
		}
		if (strstr(r->old->name, "fast")) {
			seen_fast = 1;
			cr_assert(r->improvement && !r->regression);
		}
		if (strstr(r->old->name, "same"))
			cr_assert(!r->significant);
	}
	cr_assert(seen_slow && seen_fast);
	comparison_release(&cmp);
	results_release(&a);
	results_release(&b);
}

Test(compare, identical_inputs_pass)
{
	struct results a, b;
	struct comparison cmp;

	run_compare("data/report/old.json", "data/report/old.json", &a, &b,
		    &cmp);
	cr_assert_eq(cmp.regressions, 0);
	cr_assert_eq(cmp.improvements, 0);
	cr_assert(!compare_failed(&cmp));
	comparison_release(&cmp);
	results_release(&a);
	results_release(&b);
}

Test(compare, one_sided_benchmarks_are_listed)
{
	struct results a, b;
	struct comparison cmp;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	run_compare("data/report/old.json", "data/report/new.json", &a, &b,
		    &cmp);
	cr_assert_eq(compare_write_text(f, &cmp), 0);
	fclose(f);
	cr_assert(strstr(buf, "Only in data/report/old.json (1):\n"
			      "  Scan/engine=re2/pattern=gone") != NULL, "%s", buf);
	cr_assert(strstr(buf, "Only in data/report/new.json (1):\n"
			      "  Scan/engine=re2/pattern=added") != NULL, "%s", buf);
	cr_assert(strstr(buf, "FAIL: 1 benchmark regressed beyond 5.0% (1 metric)") != NULL, "%s", buf);
	free(buf);
	comparison_release(&cmp);
	results_release(&a);
	results_release(&b);
}

/* A benchmark whose ns/op and MB/s both regress is one regressed
 * benchmark, and one metric: MB/s comes from the same timing as ns/op,
 * so it shows but is not counted again. */
static void two_metric_run(struct results *res, double ns)
{
	struct result *r;

	results_init(res);
	r = results_add(res, "scan", "Scan/engine=re2/pattern=x");
	for (int i = 0; i < 8; i++) {
		result_sample_begin(r, 1000);
		result_metric_add(r, "ns/op", BETTER_LOWER, ns + i);
		result_metric_add(r, "MB/s", BETTER_HIGHER, 1e5 / (ns + i));
	}
}

Test(compare, counts_benchmarks_not_metrics)
{
	struct results a, b;
	struct comparison cmp;
	struct compare_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	two_metric_run(&a, 100);
	two_metric_run(&b, 130);
	compare_opts_init(&o);
	o.threshold = 0.05;
	o.gate = 1;
	cr_assert_eq(compare_results(&a, &b, &o, &cmp), 0);
	cr_assert_eq(cmp.regressions, 1);
	cr_assert_eq(cmp.regressed, 1);
	cr_assert(cmp.rows[0].primary && cmp.rows[0].regression);
	cr_assert(cmp.rows[1].derived && cmp.rows[1].significant &&
		  !cmp.rows[1].regression);
	cr_assert_eq(compare_write_text(f, &cmp), 0);
	fclose(f);
	cr_assert(strstr(buf, "FAIL: 1 benchmark regressed beyond 5.0% (1 "
			      "metric)") != NULL, "%s", buf);
	free(buf);
	comparison_release(&cmp);
	results_release(&a);
	results_release(&b);
}

Test(compare, exact_and_counted_metrics_need_no_p_value)
{
	struct results a, b;
	struct result *r;
	struct compare_opts o;
	struct comparison cmp;

	results_init(&a);
	results_init(&b);
	r = results_add(&a, "s", "S/x=1");
	result_sample_begin(r, 1);
	result_metric_add(r, "instr/op", BETTER_LOWER, 1000);
	result_metric_add(r, "matches", BETTER_EXACT, 10);
	r = results_add(&b, "s", "S/x=1");
	result_sample_begin(r, 1);
	result_metric_add(r, "instr/op", BETTER_LOWER, 1100);
	result_metric_add(r, "matches", BETTER_EXACT, 9);
	compare_opts_init(&o);
	o.gate = 1;
	cr_assert_eq(compare_results(&a, &b, &o, &cmp), 0);
	cr_assert_eq(cmp.nrows, 2);
	cr_assert_eq(cmp.rows[0].mode, COMPARE_DETERMINISTIC);
	cr_assert(cmp.rows[0].regression);
	cr_assert_eq(cmp.rows[1].mode, COMPARE_EXACT);
	cr_assert(cmp.rows[1].regression);
	cr_assert_eq(cmp.regressions, 2);
	comparison_release(&cmp);
	results_release(&a);
	results_release(&b);
}

/* --- N-way compare ------------------------------------------------- */

/* A run of one benchmark per engine in engines (ns/op near ns[e]). */
static void engines_run(struct results *res, const char *host,
			const double *ns, const char *flags)
{
	static const char *const engines[] = {"re2", "pcre2", "hyperscan"};

	results_init(res);
	results_meta_set(res, "host", host);
	for (int e = 0; e < 3; e++) {
		char name[64];
		struct result *r;
		snprintf(name, sizeof(name), "Scan/engine=%s/pattern=x", engines[e]);
		r = results_add(res, "scan", name);
		result_inputs_add(&r->in, "pattern", "x", 1);
		result_inputs_add(&r->in, "flags", flags, strlen(flags));
		for (int i = 0; i < 8; i++) {
			result_sample_begin(r, 100);
			result_metric_add(r, "ns/op", BETTER_LOWER, ns[e] + i);
		}
	}
}

static char *compare_text(const struct comparison *cmp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_eq(compare_write_text(f, cmp), 0);
	fclose(f);
	return buf;
}

/* Three runs: one column each, every change against the first. */
Test(compare, three_runs_against_the_first)
{
	struct results r[3];
	struct compare_input in[3] = {{"a", &r[0]}, {"b", &r[1]}, {"c", &r[2]}};
	struct compare_opts o;
	struct comparison cmp;
	char *text;

	engines_run(&r[0], "h", (double[]){100, 200, 50}, "");
	engines_run(&r[1], "h", (double[]){100, 200, 50}, "");
	engines_run(&r[2], "h", (double[]){150, 200, 50}, "");
	compare_opts_init(&o);
	o.gate = 1;
	cr_assert_eq(compare_runs(in, 3, &o, &cmp), 0);
	cr_assert_eq(cmp.ncols, 3);
	cr_assert_eq(cmp.nrows, 6); /* 3 lines x (b, c) */
	cr_assert_eq(cmp.regressions, 1);
	cr_assert(compare_failed(&cmp));
	text = compare_text(&cmp);
	cr_assert(strstr(text, "benchmark                        a           b"
			       "           change  p              c           "
			       "change   p\n") != NULL, "%s", text);
	cr_assert(strstr(text, "153.5 ± 2%  +48.31%  p=0.000 n=8+8") != NULL,
		  "%s", text);
	cr_assert(strstr(text, "Scan/engine=re2/pattern=x in c ns/op: +48.31%")
		  != NULL, "%s", text);
	free(text);
	comparison_release(&cmp);
	for (int i = 0; i < 3; i++)
		results_release(&r[i]);
}

/* A benchmark whose inputs differ is refused, naming it and the input;
 * with show_changed_inputs it is compared, listed, never a regression. */
Test(compare, changed_inputs_are_refused_or_shown)
{
	struct results r[2];
	struct compare_input in[2] = {{"a.json", &r[0]}, {"c.json", &r[1]}};
	struct compare_opts o;
	struct comparison cmp;
	char *text;

	engines_run(&r[0], "h", (double[]){100, 200, 50}, "");
	engines_run(&r[1], "h", (double[]){300, 200, 50}, "i");
	compare_opts_init(&o);
	o.gate = 1;
	cr_assert_eq(compare_runs(in, 2, &o, &cmp), -2);
	cr_assert_str_eq(cmp.err, "Scan/engine=re2/pattern=x: input flags "
			 "differs: \"\" in a.json, \"i\" in c.json "
			 "(--show-changed-inputs compares them anyway)");
	comparison_release(&cmp);
	o.show_changed_inputs = 1;
	cr_assert_eq(compare_runs(in, 2, &o, &cmp), 0);
	cr_assert_eq(cmp.input_changes, 3);
	cr_assert(!compare_failed(&cmp));
	text = compare_text(&cmp);
	cr_assert(strstr(text, "(inputs differ)") != NULL, "%s", text);
	cr_assert(strstr(text, "Scan/engine=re2/pattern=x in c.json: flags "
			       "\"\" -> \"i\"") != NULL, "%s", text);
	free(text);
	comparison_release(&cmp);
	results_release(&r[0]);
	results_release(&r[1]);
}

/* A first run that recorded no inputs (an older file) does not let two
 * later runs of different inputs through: they are checked together. */
Test(compare, inputs_checked_between_later_runs)
{
	struct results r[3];
	struct compare_input in[3] = {{"v1.json", &r[0]}, {"b.json", &r[1]},
				      {"c.json", &r[2]}};
	struct compare_opts o;
	struct comparison cmp;
	char *text;

	engines_run(&r[0], "h", (double[]){100, 200, 50}, "");
	for (size_t i = 0; i < r[0].n; i++)
		result_inputs_release(&r[0].r[i].in);
	engines_run(&r[1], "h", (double[]){100, 200, 50}, "");
	engines_run(&r[2], "h", (double[]){100, 200, 50}, "i");
	compare_opts_init(&o);
	cr_assert_eq(compare_runs(in, 3, &o, &cmp), -2);
	cr_assert(strstr(cmp.err, "\"\" in b.json, \"i\" in c.json") != NULL,
		  "%s", cmp.err);
	comparison_release(&cmp);
	cr_assert_eq(compare_runs(in, 2, &o, &cmp), 0);
	text = compare_text(&cmp);
	cr_assert(strstr(text, "note: v1.json records no inputs") != NULL,
		  "%s", text);
	free(text);
	comparison_release(&cmp);
	for (int i = 0; i < 3; i++)
		results_release(&r[i]);
}

/* --col engine inside one run; --col host merges machines, each column
 * keeping its run's context; two cells in one place are refused. */
Test(compare, columns_by_name_key_or_context_key)
{
	struct results r[2];
	struct compare_input in[2] = {{"x.json", &r[0]}, {"y.json", &r[1]}};
	struct compare_opts o;
	struct comparison cmp;
	char *text;

	engines_run(&r[0], "alpha", (double[]){100, 200, 50}, "");
	engines_run(&r[1], "beta", (double[]){100, 400, 50}, "");
	compare_opts_init(&o);
	o.col = "engine";
	cr_assert_eq(compare_runs(in, 1, &o, &cmp), 0);
	cr_assert_eq(cmp.ncols, 3);
	cr_assert_str_eq(cmp.cols[2].label, "hyperscan");
	cr_assert_eq(cmp.nlines, 1);
	cr_assert_str_eq(cmp.lines[0], "Scan/pattern=x");
	comparison_release(&cmp);
	cr_assert_eq(compare_runs(in, 2, &o, &cmp), -2);
	cr_assert(strstr(cmp.err, "two benchmarks in column re2") != NULL,
		  "%s", cmp.err);
	comparison_release(&cmp);
	o.col = "host";
	o.gate = 1;
	cr_assert_eq(compare_runs(in, 2, &o, &cmp), 0);
	cr_assert_str_eq(cmp.cols[0].label, "alpha");
	cr_assert_str_eq(cmp.cols[1].label, "beta");
	cr_assert_eq(cmp.regressions, 1);
	text = compare_text(&cmp);
	cr_assert(strstr(text, "  alpha: x.json, host=alpha\n  beta: y.json, "
			       "host=beta\n") != NULL, "%s", text);
	free(text);
	comparison_release(&cmp);
	o.col = "engine";
	o.row = "host";
	cr_assert_eq(compare_runs(in, 2, &o, &cmp), 0);
	cr_assert_eq(cmp.nlines, 2);
	cr_assert_str_eq(cmp.lines[1], "host=beta");
	comparison_release(&cmp);
	results_release(&r[0]);
	results_release(&r[1]);
}

/* --- verdicts: a cost in several rows, a recommendation in lines --- */

Test(verdict, cost_values_and_line_words_parse)
{
	struct ldecl d;
	char err[256];

	cr_assert_eq(ldecl_parse("verdict by=phase who=strategy metric=ns/op "
				 "cost=phase:compile|combined-compile "
				 "apart=endpoints? hold=B(heap),B(heap)/endpoint "
				 "baseline=engine:go baseline-label='Go regexp' "
				 "floor=strategy:trie op=query",
				 &d, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(d.cost_key, "phase");
	cr_assert_str_eq(d.cost_value, "compile"); /* the name: the first */
	cr_assert_eq(d.costs.n, 2);
	cr_assert_str_eq(d.costs.s[1], "combined-compile");
	cr_assert_str_eq(d.apart.s[0], "endpoints?");
	cr_assert_eq(d.nhold, 2);
	cr_assert_str_eq(d.base_value, "go");
	cr_assert_str_eq(d.base_label, "Go regexp");
	cr_assert_str_eq(d.floor_key, "strategy");
	cr_assert_str_eq(d.op, "query");
	/* one value: as before, for costliest too */
	cr_assert_eq(ldecl_parse("costliest split=x rows=rule metrics=ns/op "
				 "cost=scenario:real-life", &d, err,
				 sizeof(err)), 0);
	cr_assert_str_eq(d.cost_value, "real-life");
	cr_assert_eq(d.costs.n, 1);
	cr_assert_eq(ldecl_parse("verdict cost=phase:", &d, err, sizeof(err)), -1);
	cr_assert(strstr(err, "bad word \"cost\"") != NULL, "%s", err);
	cr_assert_eq(ldecl_parse("verdict cost=phase:a,b", &d, err, sizeof(err)), -1);
	cr_assert_eq(ldecl_parse("verdict cost=phase:a||b", &d, err, sizeof(err)), -1);
	cr_assert_eq(ldecl_parse("verdict floor=strategy", &d, err, sizeof(err)), -1);
	/* except: who is no contender, and what to say of them */
	cr_assert_eq(ldecl_parse("verdict except=strategy:cilium-l3|map+cilium-l3 "
				 "except-label='another component'", &d, err,
				 sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(d.except_key, "strategy");
	cr_assert_eq(d.excepts.n, 2);
	cr_assert_str_eq(d.excepts.s[1], "map+cilium-l3");
	cr_assert_str_eq(d.except_label, "another component");
	cr_assert_eq(ldecl_parse("verdict except=strategy", &d, err, sizeof(err)), -1);
	cr_assert_eq(ldecl_parse("verdict except=strategy:", &d, err, sizeof(err)), -1);
	cr_assert_eq(ldecl_parse("verdict except=strategy:a,b", &d, err,
				 sizeof(err)), -1);
}

/*
 * tests/data/report/fqdn_cilium.txt, made by hand (Go text, 3 equal
 * samples each, 100 selectors): per phase ns/op
 *
 *   strategy / engine              4 match phases  queries  compile (B(heap)/op)
 *   trie / none                    4               4        combined-compile only: 4 us (16 KiB)
 *   map+reverse+sort / pcre2-jit   32              1        100 us (4 KiB); combined 120 us
 *   map+multi / re2                16              512      200 us (8 KiB)
 *   map+reverse+sort / go          128             128      2.004 ms (64 KiB)
 *   reverse+sort / go              64              64       80 ms (128 KiB): over 50 ms
 *
 * so over the five phases (geometric means) pcre2-jit is 2^((4*5+0)/5)
 * = 16 ns and re2 2^((4*4+9)/5) = 32 ns: without the queries phase re2
 * would be best (16 against 32).  With 10 endpoints (B(heap),
 * B(heap)/endpoint on every row, no compile row): trie 8 ns, 100 KiB,
 * 10 KiB; cilium-l7 / go 1024 ns, 1 MiB, 104858 B.
 */
static void cilium_results(struct results *res, const char *drop)
{
	size_t len;
	char *text = slurp("data/report/fqdn_cilium.txt", &len), err[256];
	char *out = text;

	/* the file less the lines naming drop (a run without --queries) */
	for (char *line = text; drop != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line + 1) : strlen(line);
		char *hit = strstr(line, drop);
		if (hit == NULL || hit >= line + n) {
			memmove(out, line, n);
			out += n;
		}
		line += n;
	}
	if (drop != NULL)
		*out = '\0';
	results_init(res);
	cr_assert_eq(gotext_read_results(text, strlen(text), "fqdn_cilium.txt",
					 res, err, sizeof(err)), 0, "%s", err);
	free(text);
}

/* The verdict table of res under the layout lines given (or the fqdn
 * suite's when NULL): caption and summary into *cap and *sum. */
static struct rtables cilium_verdict(struct results *res, const char *line)
{
	struct rtables ts = {0};
	char err[256];

	if (line != NULL)
		cr_assert_eq(results_layout_add(res, "fqdn", line), 0);
	else
		cr_assert_eq(suite_layout_fill(suite_find("fqdn"), res), 0);
	cr_assert_eq(report_suite_tables(res, "fqdn", NULL, &ts, err,
					 sizeof(err)), 0, "%s", err);
	cr_assert_gt(ts.n, 0);
	cr_assert_eq(ts.t[0].kind, RTABLE_VERDICT);
	return ts;
}

#define HAS(s, want) cr_expect(strstr((s), (want)) != NULL, \
			       "wanted \"%s\" in:\n%s", (want), (s))

/* The row of table t whose first columns hold a and b ("": empty;
 * NULL: only a is looked at). */
static size_t row_of(const struct rtable *t, const char *a, const char *b)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const char *x = rtable_cell(t, r, 0)->text;
		const char *y = rtable_cell(t, r, 1)->text;
		if (strcmp(x ? x : "", a) == 0 &&
		    (b == NULL || strcmp(y ? y : "", b) == 0))
			return r;
	}
	cr_assert_fail("no row %s / %s", a, b ? b : "(any)");
	return 0;
}

static const char *cell_by_col(const struct rtable *t, size_t r,
			       const char *col)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (strcmp(t->cols[c], col) == 0)
			return rtable_cell(t, r, c)->text ? rtable_cell(t, r, c)->text : "";
	cr_assert_fail("no column %s", col);
	return NULL;
}

/* The generic recommendation (the policy alone): the trie, with no
 * compile row, is ranked by its combined-compile (before, it was left
 * out for want of one). */
Test(verdict, trie_recommended_by_its_combined_compile)
{
	static const char *const base =
		"verdict by=phase,endpoints? who=strategy,engine metric=ns/op "
		"only=match-name,match-pattern,bad-match-pattern,bad-match-tld "
		"heap=B(heap)/op:16MiB budget=50ms cost=phase:";
	char line[512];
	struct results res;
	struct rtables ts;
	const struct rtable *t;

	cilium_results(&res, "endpoints=");
	snprintf(line, sizeof(line), "%scompile", base);
	ts = cilium_verdict(&res, line);
	HAS(ts.t[0].caption, "): map+multi / re2, 4.00x the best ns/op over the "
			     "4 groups (geometric mean; 3 of 5 combinations "
			     "that completed every group keep within the "
			     "budgets; the compile cost is shown, never "
			     "averaged in). The fastest over the groups, trie / "
			     "none (1.00x), is left out: without a verified "
			     "result of that phase");
	rtables_release(&ts);
	results_release(&res);

	cilium_results(&res, "endpoints=");
	snprintf(line, sizeof(line), "%scompile|combined-compile", base);
	ts = cilium_verdict(&res, line);
	t = &ts.t[0];
	HAS(t->caption, "): trie / none, 1.00x the best ns/op over the 4 groups "
			"(geometric mean; 4 of 5 combinations");
	cr_expect(strstr(t->caption, "left out") == NULL, "%s", t->caption);
	/* its compile columns: the combined-compile's 4000 ns and 16 KiB */
	cr_expect_str_eq(cell_by_col(t, row_of(t, "match-name", NULL),
				     "compile ns/op"), "4000");
	cr_expect_str_eq(cell_by_col(t, row_of(t, "match-name", NULL),
				     "compile B(heap)/op"), "16384");
	rtables_release(&ts);
	results_release(&res);
}

/* fqdn's own declaration: the queries phase counts and shows `allowed`,
 * the lines name the best on go, on any engine, and what the trie saves
 * (hand-worked from the table above cilium_results). */
Test(verdict, fqdn_answers_in_cilium_terms)
{
	struct results res;
	struct rtables ts;
	const struct rtable *t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	cilium_results(&res, NULL);
	ts = cilium_verdict(&res, NULL);
	t = &ts.t[0];
	HAS(t->caption, "Recommendation (budgets: compile within 50 ms, compile "
			"B(heap)/op at most 16 MiB; set them with "
			"--compile-budget and --heap-budget): ns/query is the "
			"geometric mean over the phase groups; one without a "
			"compile row counts its combined-compile as compile.");
	HAS(t->caption, " Best on engine go (Go regexp, what Cilium runs): "
			"map+reverse+sort / go, 128 ns/query, compile 2.00 ms, "
			"B(heap) 64.0 KiB (the fastest, reverse+sort / go, is "
			"left out: over the compile budget).");
	HAS(t->caption, " Best on any engine: map+reverse+sort / pcre2-jit, "
			"16.0 ns/query, compile 100 us, B(heap) 4.00 KiB.");
	HAS(t->caption, " The floor, strategy trie (a purpose-built matcher, "
			"no regex engine): trie / none, 4.00 ns/query, compile "
			"4.00 us, B(heap) 16.0 KiB; against map+reverse+sort / "
			"go: 124 ns/query less (32.0x), compile 2.00 ms less "
			"(501x), B(heap) 48.0 KiB less (4.00x); against "
			"map+reverse+sort / pcre2-jit: 12.0 ns/query less "
			"(4.00x), compile 96.0 us less (25.0x), B(heap) 12.0 "
			"KiB more (4.00x).");
	/* ten endpoints: apart, their heap from their own rows */
	HAS(t->caption, " With endpoints=10 (5 groups; no budget applies, as "
			"none has a cost row): Best on engine go (Go regexp, "
			"what Cilium runs): cilium-l7 / go, 1.02 us/query, "
			"B(heap) 1.00 MiB, B(heap)/endpoint 102 KiB. Best on any "
			"engine: the same. The floor, strategy trie (a "
			"purpose-built matcher, no regex engine): trie / none, "
			"8.00 ns/query, B(heap) 100 KiB, B(heap)/endpoint 10.0 "
			"KiB; against cilium-l7 / go: 1.02 us/query less (128x), "
			"B(heap) 924 KiB less (10.2x), B(heap)/endpoint 92.4 "
			"KiB less (10.2x).");
	HAS(t->summary, "Recommendation: Best on engine go: map+reverse+sort / "
			"go (128 ns/query). Best on any engine: map+reverse+sort "
			"/ pcre2-jit (16.0 ns/query). The floor, strategy trie: "
			"trie / none (4.00 ns/query).");
	/* the queries phase is a group, with how many names are allowed */
	cr_expect_str_eq(cell_by_col(t, row_of(t, "queries", ""),
				     "best strategy / engine"),
			 "map+reverse+sort / pcre2-jit");
	cr_expect_str_eq(cell_by_col(t, row_of(t, "queries", ""), "allowed"),
			 "3");
	cr_expect_str_eq(cell_by_col(t, row_of(t, "match-name", ""), "allowed"),
			 "");
	cr_expect_str_eq(cell_by_col(t, row_of(t, "queries", ""),
				     "compile ns/op"), "100000");
	f = open_memstream(&buf, &len);
	text_table(f, t);
	fclose(f);
	check_golden("golden/fqdn_verdict.txt", buf);
	rtables_release(&ts);
	free(buf);
	results_release(&res);
}

/* Without --queries the four generated phases alone decide (re2's
 * map+multi), and no `allowed` column is drawn. */
Test(verdict, fqdn_without_queries)
{
	struct results res;
	struct rtables ts;
	const struct rtable *t;

	cilium_results(&res, "phase=queries");
	ts = cilium_verdict(&res, NULL);
	t = &ts.t[0];
	HAS(t->caption, " Best on any engine: map+multi / re2, 16.0 ns/query, "
			"compile 200 us, B(heap) 8.00 KiB.");
	for (size_t c = 0; c < t->ncols; c++)
		cr_expect_str_neq(t->cols[c], "allowed");
	rtables_release(&ts);
	results_release(&res);
}

/*
 * tests/data/report/fqdn_name_manager.txt, made by hand (Go text, one
 * sample each, 100 selectors; match-name and match-pattern, ns/op):
 *
 *   strategy / engine              match   compile (B(heap)/op)
 *   trie / none                    4       combined-compile only: 4 us (16 KiB)
 *   map+reverse+sort / pcre2-jit   32      100 us (4 KiB)
 *   map+reverse+sort / go          128     2.004 ms (64 KiB)
 *   cilium-l3 / pcre2-jit          2       50 us (2 KiB)
 *   map+cilium-l3 / go             16      1 ms (32 KiB)
 *
 * The name manager's strategies would win every group and both lines;
 * the DNS proxy's verdict leaves them out (except=).
 */
static void name_manager_results(struct results *res)
{
	size_t len;
	char *text = slurp("data/report/fqdn_name_manager.txt", &len), err[256];

	results_init(res);
	cr_assert_eq(gotext_read_results(text, len, "fqdn_name_manager.txt",
					 res, err, sizeof(err)), 0, "%s", err);
	free(text);
}

/* Does a table other than the first hold a cell whose text is s? */
static int in_tables(const struct rtables *ts, const char *s)
{
	for (size_t i = 1; i < ts->n; i++)
		for (size_t r = 0; r < ts->t[i].nrows; r++)
			for (size_t c = 0; c < ts->t[i].ncols; c++) {
				const char *x = rtable_cell(&ts->t[i], r, c)->text;
				if (x != NULL && strcmp(x, s) == 0)
					return 1;
			}
	return 0;
}

static void no_except_note(const char *caption)
{
	cr_expect(strstr(caption, "Left out of the ranking") == NULL, "%s",
		  caption);
}

/* Without except the name manager's cilium-l3 wins (what the tester saw). */
Test(verdict, name_manager_wins_without_except)
{
	struct results res;
	struct rtables ts;
	char line[1024];

	name_manager_results(&res);
	snprintf(line, sizeof(line), "%s", suite_find("fqdn")->layout[0]);
	*strstr(line, "except=") = '\0';
	ts = cilium_verdict(&res, line);
	HAS(ts.t[0].caption, " Best: cilium-l3 / pcre2-jit in 2 of 2 groups.");
	HAS(ts.t[0].caption, " Best on engine go (Go regexp, what Cilium runs): "
			     "map+cilium-l3 / go, 16.0 ns/query");
	HAS(ts.t[0].caption, " Best on any engine: cilium-l3 / pcre2-jit, 2.00 "
			     "ns/query");
	no_except_note(ts.t[0].caption);
	rtables_release(&ts);
	results_release(&res);
}

/* fqdn's declaration: the name manager's strategies are no contenders
 * (never best, runner-up nor recommended), the paragraph says so, and
 * their rows stay in the tables. */
Test(verdict, fqdn_leaves_the_name_manager_out)
{
	struct results res;
	struct rtables ts;
	const struct rtable *t;
	const char *cap;

	name_manager_results(&res);
	ts = cilium_verdict(&res, NULL);
	t = &ts.t[0];
	cap = t->caption;
	cr_assert_eq(t->nrows, 2);
	for (size_t r = 0; r < t->nrows; r++) {
		cr_expect_str_eq(cell_by_col(t, r, "best strategy / engine"),
				 "trie / none");
		cr_expect_str_eq(cell_by_col(t, r, "runner-up"),
				 "map+reverse+sort / pcre2-jit");
	}
	HAS(cap, " Left out of the ranking (their rows stay in the tables): "
		 "cilium-l3 and map+cilium-l3 model the name manager, another "
		 "Cilium component, on the toFQDNs selectors.");
	HAS(cap, " Best: trie / none in 2 of 2 groups.");
	HAS(cap, " Best on engine go (Go regexp, what Cilium runs): "
		 "map+reverse+sort / go, 128 ns/query, compile 2.00 ms, B(heap) "
		 "64.0 KiB.");
	HAS(cap, " Best on any engine: map+reverse+sort / pcre2-jit, 32.0 "
		 "ns/query, compile 100 us, B(heap) 4.00 KiB.");
	HAS(t->summary, "Recommendation: Best on engine go: map+reverse+sort / "
			"go (128 ns/query). Best on any engine: map+reverse+sort "
			"/ pcre2-jit (32.0 ns/query).");
	cr_expect(strstr(cap, "cilium-l3 /") == NULL, "%s", cap);
	cr_expect(strstr(t->summary, "cilium-l3") == NULL, "%s", t->summary);
	cr_expect(in_tables(&ts, "cilium-l3"), "cilium-l3's rows left the tables");
	cr_expect(in_tables(&ts, "map+cilium-l3"));
	rtables_release(&ts);
	results_release(&res);

	/* no such row, no note */
	cilium_results(&res, NULL);
	ts = cilium_verdict(&res, NULL);
	no_except_note(ts.t[0].caption);
	rtables_release(&ts);
	results_release(&res);
}

/* Without a label the note names the key and its values. */
Test(verdict, except_without_label_names_the_values)
{
	struct results res;
	struct rtables ts;

	name_manager_results(&res);
	ts = cilium_verdict(&res, "verdict by=phase who=strategy,engine "
			    "metric=ns/op only=match-name,match-pattern "
			    "except=strategy:cilium-l3|map+cilium-l3");
	HAS(ts.t[0].caption, " Left out of the ranking (their rows stay in the "
			     "tables): strategy cilium-l3, map+cilium-l3.");
	HAS(ts.t[0].caption, " Best: trie / none in 2 of 2 groups.");
	rtables_release(&ts);
	results_release(&res);
}
