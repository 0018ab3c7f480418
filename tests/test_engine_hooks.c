/*
 * test_engine_hooks.c - what a suite asks an engine before anything
 * compiles (engines/engine.c): engine_unavailable(), asked once per hook
 * however many cases and variants ask, and engine_work_refused(), whose
 * reason names the engine and the op it lacks, or what its work_check
 * refuses to time.  On fake engines, and on xdp when it is built (its
 * probe's answer depends on the process: only the shape is checked).
 */
#include <criterion/criterion.h>

#include "engines/engine.h"

#include <stdio.h>
#include <string.h>

static int stub_is_match(void *h, const char *data, size_t len)
{
	(void)h;
	(void)data;
	(void)len;
	return 0;
}

static long stub_count(void *h, const char *data, size_t len)
{
	(void)h;
	(void)data;
	(void)len;
	return 0;
}

static long stub_match_ids(void *h, const char *data, size_t len,
			   unsigned char *ids)
{
	(void)h;
	(void)data;
	(void)len;
	(void)ids;
	return 0;
}

static int probes; /* calls of refused_here() */

static int refused_here(char *why, size_t size)
{
	probes++;
	snprintf(why, size, "no such device here");
	return 1;
}

static int fine_here(char *why, size_t size)
{
	(void)why;
	(void)size;
	return 0;
}

static struct engine_job *stub_work_new(void *h, const struct engine_work *w)
{
	(void)h;
	(void)w;
	return NULL;
}

static int checks; /* calls of every_input_refused() */

static int every_input_refused(const struct engine_work *w, char *why,
			       size_t size)
{
	checks++;
	if (w->each)
		return 0;
	snprintf(why, size, "fake cannot time an op over every input");
	return 1;
}

/* A work of op over one input, each or not. */
static struct engine_work work(enum engine_op op, int each,
			       const struct engine_span *in)
{
	return (struct engine_work){op, each, NULL, 0, in, 1, NULL, 0, 0};
}

static const struct engine_span one_input = {"abc", 3};

Test(unavailable, asked_once_per_hook_even_for_a_copy)
{
	struct engine e = {.name = "fake", .unavailable = refused_here};
	struct engine variant = e; /* an --engine-opt sweep's copy */

	probes = 0;
	cr_assert_str_eq(engine_unavailable(&e), "no such device here");
	cr_assert_str_eq(engine_unavailable(&e), "no such device here");
	cr_assert_str_eq(engine_unavailable(&variant), "no such device here");
	cr_assert_eq(probes, 1);
}

Test(unavailable, none_without_a_hook_or_where_it_can_run)
{
	struct engine bare = {.name = "bare"};
	struct engine fine = {.name = "fine", .unavailable = fine_here};

	cr_assert_null(engine_unavailable(&bare));
	cr_assert_null(engine_unavailable(&fine));
	cr_assert_null(engine_unavailable(&fine));
}

Test(work_refused, names_the_engine_and_the_op_it_lacks)
{
	struct engine e = {.name = "fake", .is_match = stub_is_match,
			   .match_ids = stub_match_ids};
	struct engine_work w = work(ENGINE_OP_COUNT, 0, &one_input);
	char why[200] = "";

	cr_assert_eq(engine_work_refused(&e, &w, why, sizeof(why)), 1);
	cr_assert_str_eq(why, "fake has no count: it answers is_match and "
			      "match_ids only");
	w.op = ENGINE_OP_MATCH_IDS;
	cr_assert_eq(engine_work_refused(&e, &w, why, sizeof(why)), 0);
	w.op = ENGINE_OP_NONE; /* a floor: no op to have */
	cr_assert_eq(engine_work_refused(&e, &w, why, sizeof(why)), 0);
}

Test(work_refused, lists_what_the_engine_answers)
{
	struct engine one = {.name = "one", .is_match = stub_is_match};
	struct engine none = {.name = "none"};
	struct engine all = {.name = "all", .is_match = stub_is_match,
			     .count = stub_count, .match_ids = stub_match_ids};
	struct engine_work w = work(ENGINE_OP_MATCH_IDS, 1, &one_input);
	char why[200] = "";

	cr_assert_eq(engine_work_refused(&one, &w, why, sizeof(why)), 1);
	cr_assert_str_eq(why, "one has no match_ids: it answers is_match only");
	cr_assert_eq(engine_work_refused(&none, &w, why, sizeof(why)), 1);
	cr_assert_str_eq(why, "none has no match_ids: it answers none of the "
			      "ops");
	cr_assert_eq(engine_work_refused(&all, &w, why, sizeof(why)), 0);
}

Test(work_refused, work_check_only_for_an_engine_that_times_itself)
{
	struct engine self = {.name = "fake", .is_match = stub_is_match,
			      .work_new = stub_work_new,
			      .work_check = every_input_refused};
	struct engine clocked = self;
	struct engine_work w = work(ENGINE_OP_IS_MATCH, 0, &one_input);
	char why[200] = "";

	clocked.work_new = NULL; /* the harness's clock times its loop */
	checks = 0;
	cr_assert_eq(engine_work_refused(&self, &w, why, sizeof(why)), 1);
	cr_assert_str_eq(why, "fake cannot time an op over every input");
	w.each = 1;
	cr_assert_eq(engine_work_refused(&self, &w, why, sizeof(why)), 0);
	cr_assert_eq(engine_work_refused(&clocked, &w, why, sizeof(why)), 0);
	w.each = 0;
	cr_assert_eq(engine_work_refused(&clocked, &w, why, sizeof(why)), 0);
	cr_assert_eq(checks, 2);
}

Test(work_refused, xdp_has_no_count_and_times_one_packet_per_op)
{
	const struct engine *e = engine_find("xdp");
	struct engine_work w = work(ENGINE_OP_COUNT, 0, &one_input);
	char why[200] = "";
	const char *na;

	if (e == NULL)
		cr_skip_test("xdp: %s", engine_missing_reason("xdp"));
	cr_assert_eq(engine_work_refused(e, &w, why, sizeof(why)), 1);
	cr_assert_str_eq(why, "xdp has no count: it answers is_match and "
			      "match_ids only");
	w.op = ENGINE_OP_IS_MATCH;
	cr_assert_eq(engine_work_refused(e, &w, why, sizeof(why)), 1);
	cr_assert(strstr(why, "xdp cannot time this op: an op over every "
			      "input") == why, "%s", why);
	w.each = 1;
	cr_assert_eq(engine_work_refused(e, &w, why, sizeof(why)), 0, "%s",
		     why);
	/* where bpf() is refused, the probe's one line; else nothing */
	na = engine_unavailable(e);
	cr_assert(na == NULL || strstr(na, "refused") != NULL ||
		  strstr(na, "JIT") != NULL, "%s", na);
}
