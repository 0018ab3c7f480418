/*
 * test_place.c - where a payload row ran (issue 25): an engine's own base
 * row takes its tables' base column before the shared harness floor, the
 * verdict's "where they ran" table (layout word where=engine) splits the
 * contenders by the results' ENGINE-runs-in, and that configuration pair
 * comes back from the JSON file and the Go text.
 */
#include <criterion/criterion.h>

#include "harness/results.h"
#include "report/gofmt.h"
#include "report/gotext_read.h"
#include "report/json.h"
#include "report/json_read.h"
#include "report/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUITE "payload"

/* An ok, verified row: cores from Mpps against line-Mpps. */
static void row(struct results *res, const char *name, double mpps,
		double line)
{
	struct result *r = results_add(res, SUITE, name);

	cr_assert_not_null(r);
	cr_assert_eq(result_sample_begin(r, 1000), 0);
	cr_assert_eq(result_metric_add(r, "ns/op", BETTER_LOWER, 1e3 / mpps),
		     0);
	cr_assert_eq(result_metric_add(r, "Mpps", BETTER_HIGHER, mpps), 0);
	cr_assert_eq(result_metric_add(r, "cores", BETTER_LOWER, line / mpps),
		     0);
	cr_assert_eq(result_metric_add(r, "line-Mpps", BETTER_EXACT, line), 0);
	cr_assert_eq(result_set_verified(r, "reference", 0), 0);
}

/* Two actions of xdp in the kernel, pcre2-jit in user space, and the
 * base floors: the engine-less one and xdp's own. */
static void payload_results(struct results *res, int kernel)
{
	results_init(res);
	if (kernel)
		cr_assert_eq(results_config_set(res, "xdp-runs-in", "kernel"),
			     0);
	cr_assert_eq(results_layout_add(res, SUITE, "verdict by=scenario,size "
		"who=engine metric=Mpps line=line-Mpps where=engine"), 0);
	cr_assert_eq(results_layout_add(res, SUITE, "table title='cores' "
		"split=engine shared=engine rows=size cols=scenario "
		"metrics=cores"), 0);
	row(res, "Payload/scenario=base/size=64", 500, 148.8);
	row(res, "Payload/scenario=base/size=64/engine=xdp,action:drop", 100,
	    148.8);
	row(res, "Payload/scenario=literal/size=64/engine=xdp,action:drop", 16,
	    148.8);
	row(res, "Payload/scenario=literal/size=64/engine=xdp,action:tx", 6,
	    148.8);
	row(res, "Payload/scenario=literal/size=64/engine=pcre2-jit", 64,
	    148.8);
	row(res, "Payload/scenario=literal/size=1500/engine=xdp,action:drop",
	    9, 8.2);
	row(res, "Payload/scenario=literal/size=1500/engine=pcre2-jit", 4, 8.2);
}

static char *report_text(const struct results *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_eq(text_write_suite(f, res, SUITE, NULL), 0);
	fclose(f);
	return buf;
}

/* The line of text that holds `what`, into line. */
static void line_of(const char *text, const char *what, char *line,
		    size_t size)
{
	const char *at = strstr(text, what), *start, *end;

	cr_assert_not_null(at, "no '%s' in:\n%s", what, text);
	start = at;
	while (start > text && start[-1] != '\n')
		start--;
	end = strchr(at, '\n');
	snprintf(line, size, "%.*s", (int)(end ? end - start : (long)strlen(start)),
		 start);
}

/* text with its lines joined by spaces: a paragraph's words wrap. */
static char *flat(const char *text)
{
	char *s = strdup(text);

	cr_assert_not_null(s);
	for (char *p = s; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	return s;
}

Test(place, verdict_has_the_best_of_each_place)
{
	struct results res;
	char *text, *where, line[512];

	payload_results(&res, 1);
	text = report_text(&res);
	where = strstr(text, "where they ran");
	cr_assert_not_null(where, "%s", text);
	cr_expect(strstr(where, "best in kernel") != NULL, "%s", where);
	cr_expect(strstr(where, "best in user space") != NULL, "%s", where);
	/* literal 64: drop is the kernel's best, pcre2-jit 4x ahead of it */
	line_of(where, "| literal  | 64  ", line, sizeof(line));
	cr_expect(strstr(line, "| xdp,action:drop") != NULL, "%s", line);
	cr_expect(strstr(line, "xdp,action:tx") == NULL, "%s", line);
	cr_expect(strstr(line, "user space x4.00") != NULL, "%s", line);
	/* literal 1500: the kernel ahead and at line rate on one core */
	line_of(where, "| literal  | 1500", line, sizeof(line));
	cr_expect(strstr(line, "kernel x2.25") != NULL, "%s", line);
	/* base is a floor group: no row, no count (issue 25, 6a/6b) */
	cr_expect(strstr(where, "| base") == NULL, "%s", where);
	where = flat(where);
	cr_expect(strstr(where, "kernel: ahead in 1 of the 2 groups both "
			 "places ran, line rate on one core in 1 of the 2 it "
			 "ran in") != NULL, "%s", where);
	cr_expect(strstr(where, "left out, as in the verdict") != NULL, "%s",
		  where);
	/* 6e: what each place's figures leave out */
	cr_expect(strstr(where, "leave out getting the packets to user "
			 "space (AF_XDP, DPDK or a socket's copy)") != NULL,
		  "%s", where);
	free(where);
	free(text);
	results_release(&res);
}

/* 6a: a group where one place alone ran is no lead of that place. */
Test(place, a_group_of_one_place_is_no_lead)
{
	struct results res;
	char *text, *where, line[512];

	payload_results(&res, 1);
	row(&res, "Payload/scenario=full-scan/size=64/engine=xdp,action:drop",
	    200, 148.8);
	text = report_text(&res);
	where = strstr(text, "where they ran");
	cr_assert_not_null(where, "%s", text);
	line_of(where, "| full-scan | 64  ", line, sizeof(line));
	cr_expect(strstr(line, "kernel x") == NULL, "%s", line);
	where = flat(where);
	cr_expect(strstr(where, "kernel: ahead in 1 of the 2 groups both "
			 "places ran, line rate on one core in 2 of the 3 it "
			 "ran in") != NULL, "%s", where);
	cr_expect(strstr(where, "in the other groups one place ran") != NULL,
		  "%s", where);
	free(where);
	free(text);
	results_release(&res);
}

/* 6c: the verdict ranks no floor group (an engine's own base row there
 * was no contender before xdp had one either). */
Test(place, the_verdict_ranks_no_floor_group)
{
	struct results res;
	char *text, *verdict, *end;

	payload_results(&res, 1);
	row(&res, "Payload/scenario=base/size=1500", 40, 8.2);
	row(&res, "Payload/scenario=base/size=1500/engine=xdp,action:drop",
	    100, 8.2);
	text = report_text(&res);
	verdict = strstr(text, "verdict");
	end = strstr(text, "where they ran");
	cr_assert(verdict != NULL && end != NULL, "%s", text);
	*end = '\0';
	cr_expect(strstr(verdict, "| base") == NULL, "%s", verdict);
	verdict = flat(verdict);
	/* literal 64 pcre2-jit, literal 1500 xdp: 2 groups, base none */
	cr_expect(strstr(verdict, " in 1 of 2 groups, ") != NULL, "%s",
		  verdict);
	cr_expect(strstr(verdict, "Not ranked: base 64, base 1500: groups "
			 "with a floor row") != NULL, "%s", verdict);
	free(verdict);
	free(text);
	results_release(&res);
}

/* 6d: a place whose rows are all unsupported ran nowhere: one place of
 * verified rows, no table. */
Test(place, unsupported_rows_are_no_place)
{
	struct results res;
	struct result *r;
	char *text;

	results_init(&res);
	cr_assert_eq(results_config_set(&res, "xdp-runs-in", "kernel"), 0);
	cr_assert_eq(results_layout_add(&res, SUITE, "verdict by=scenario,size "
		"who=engine metric=Mpps line=line-Mpps where=engine"), 0);
	row(&res, "Payload/scenario=literal/size=64/engine=pcre2-jit", 64,
	    148.8);
	r = results_add(&res, SUITE,
			"Payload/scenario=literal/size=64/engine=xdp");
	cr_assert_not_null(r);
	result_set_status(r, RESULT_UNSUPPORTED, "xdp: bpf() refused (EPERM)");
	text = report_text(&res);
	cr_expect(strstr(text, "where they ran") == NULL, "%s", text);
	free(text);
	results_release(&res);
}

Test(place, one_place_no_table)
{
	struct results res;
	char *text;

	payload_results(&res, 0);
	text = report_text(&res);
	cr_expect(strstr(text, "where they ran") == NULL, "%s", text);
	free(text);
	results_release(&res);
}

Test(place, an_engines_own_base_row_before_the_shared_one)
{
	struct results res;
	char *text, *xdp, *pcre;

	payload_results(&res, 1);
	text = report_text(&res);
	xdp = strstr(text, "cores: engine=xdp,action:drop");
	pcre = strstr(text, "cores: engine=pcre2-jit");
	cr_assert(xdp != NULL && pcre != NULL, "%s", text);
	/* base 64: xdp's own 1.488 cores, pcre2-jit the floor's 0.2976 */
	cr_expect(strstr(xdp, "1.488") != NULL && strstr(xdp, "1.488") < pcre,
		  "%s", xdp);
	cr_expect(strstr(pcre, "0.2976") != NULL, "%s", pcre);
	free(text);
	results_release(&res);
}

Test(place, runs_in_round_trips_through_json_and_go_text)
{
	struct results res, back;
	struct gofmt g;
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f;

	payload_results(&res, 1);
	f = open_memstream(&buf, &len);
	cr_assert_eq(json_write_results(f, &res), 0);
	fclose(f);
	results_init(&back);
	cr_assert_eq(json_read_results(buf, len, "t.json", &back, err,
				       sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(results_config_get(&back, "xdp-runs-in"), "kernel");
	results_release(&back);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	gofmt_init(&g, f, 0);
	gofmt_write_results(&g, &res);
	gofmt_release(&g);
	fclose(f);
	results_init(&back);
	cr_assert_eq(gotext_read_results(buf, len, "t.txt", &back, err,
					 sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(results_config_get(&back, "xdp-runs-in"), "kernel");
	results_release(&back);
	free(buf);
	results_release(&res);
}
