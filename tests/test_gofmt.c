/*
 * test_gofmt.c - the Go benchmark text and JSON writers against golden
 * files (tests/golden/), PCRE2-style: a made-up run is written and must
 * match byte for byte.  Set RXB_UPDATE_GOLDEN=1 to rewrite them.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/gofmt.h"
#include "report/json.h"

#include "golden.h"

/* A small run with every kind of row the writers must handle. */
static void sample_run(struct results *res)
{
	struct result *r;

	results_init(res);
	results_config_set(res, "goos", "linux");
	results_config_set(res, "goarch", "amd64");
	results_config_set(res, "cpu", "Test CPU @ 1.00GHz");
	results_config_set(res, "rxbench-version", "0.1.0");
	results_meta_set(res, "date", "2026-01-01T00:00:00Z");

	r = results_add(res, "scan", "Scan/engine=pcre2-jit/pattern=twain");
	result_sample_begin(r, 1000);
	result_metric_add(r, "ns/op", BETTER_LOWER, 568.7);
	result_metric_add(r, "MB/s", BETTER_HIGHER, 120.3456);
	result_metric_add(r, "matches", BETTER_EXACT, 811);
	result_metric_add(r, "B/op", BETTER_LOWER, 0);
	result_metric_add(r, "allocs/op", BETTER_LOWER, 0);
	result_sample_begin(r, 2000);
	result_metric_add(r, "ns/op", BETTER_LOWER, 4746479);
	result_metric_add(r, "MB/s", BETTER_HIGHER, 0.01439);
	result_metric_add(r, "matches", BETTER_EXACT, 811);
	result_metric_add(r, "B/op", BETTER_LOWER, 5219801);
	result_metric_add(r, "allocs/op", BETTER_LOWER, 11175);
	result_set_verified(r, "reference, leftmost-first: count 811, is_match 1", 0);
	result_inputs_add(&r->in, "pattern", "Twain", 5);
	result_inputs_add(&r->in, "flags", "", 0);
	result_inputs_add(&r->in, "corpus-sha256", "c0ffee", 6);

	r = results_add(res, "fqdn", "FQDN/phase=compile/strategy=baseline/engine=re2");
	result_sample_begin(r, 100);
	result_metric_add(r, "ns/op", BETTER_LOWER, 0.4532);
	result_metric_add(r, "B(heap)/op", BETTER_LOWER, 1261568);
	result_metric_add(r, "domains", BETTER_EXACT, 500);

	r = results_add(res, "scan", "Scan/engine=tre/pattern=twain");
	result_set_status(r, RESULT_MISMATCH, "count 3, majority 4\nsecond line");
	r = results_add(res, "scan", "Scan/engine=posix/pattern=<script>\"x\"");
	result_set_status(r, RESULT_UNSUPPORTED, "posix lacks lookaround");
	/* timed although nothing could verify it (--allow-unverified) */
	r = results_add(res, "scan", "Scan/engine=onig/pattern=backref");
	result_sample_begin(r, 10);
	result_metric_add(r, "ns/op", BETTER_LOWER, 90);
	result_metric_add(r, "matches", BETTER_EXACT, 2);
	result_set_verified(r, "count 2, is_match 1; not verified: no reference", 1);
	result_inputs_add(&r->in, "pattern", "(a)\\1\xff", 6); /* raw bytes: hex */
	r = results_add(res, "scan", "Scan/engine=re2/pattern=backref");
	result_set_status(r, RESULT_UNVERIFIED, "re2: pattern backref: not verified");
}

Test(gofmt, golden_text)
{
	struct results res;
	struct gofmt g;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sample_run(&res);
	gofmt_init(&g, f, 50);
	gofmt_write_results(&g, &res);
	gofmt_release(&g);
	fclose(f);
	check_golden("golden/gofmt.txt", buf);
	free(buf);
	results_release(&res);
}

Test(gofmt, golden_json)
{
	struct results res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sample_run(&res);
	cr_assert_eq(json_write_results(f, &res), 0);
	fclose(f);
	check_golden("golden/results.json", buf);
	free(buf);
	results_release(&res);
}

Test(gofmt, numbers_like_go)
{
	char b[64];

	gofmt_number(568.7, "ns/op", b, sizeof(b));
	cr_assert_str_eq(b, "568.7");
	gofmt_number(4746479, "ns/op", b, sizeof(b));
	cr_assert_str_eq(b, "4746479");
	gofmt_number(61.23, "ns/op", b, sizeof(b));
	cr_assert_str_eq(b, "61.23");
	gofmt_number(0.4532, "ns/op", b, sizeof(b));
	cr_assert_str_eq(b, "0.4532");
	gofmt_number(1.5, "ns/op", b, sizeof(b));
	cr_assert_str_eq(b, "1.500");
	gofmt_number(120.3456, "MB/s", b, sizeof(b));
	cr_assert_str_eq(b, "120.35");
	gofmt_number(300, "B/op", b, sizeof(b));
	cr_assert_str_eq(b, "300");
}

