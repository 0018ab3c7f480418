/*
 * test_case.c - the verify-and-plan pipeline (suites/case.h) on a suite of
 * the test's own: answers and references are data, so each rule of
 * verification is shown alone.  A tie is never broken by order, a
 * reference beats any number of engines, a vote needs a strict majority of
 * at least three libraries (pcre2 and pcre2-jit are one), a reference that
 * hangs costs its answer only, and unverified cases are timed only when
 * asked, marked.  Answers in parts (a rule set's, rule by rule) are
 * verified part by part: a part the reference leaves out goes to the vote,
 * a part a case leaves out is not held against it.  A case of no engine
 * (a suite's own matcher) is verified like any other and never votes; a
 * case of several benchmarks plans those --bench selects.  Voters: the
 * engines outside the run vote too, so --engines does not change a
 * verdict, but only those with the capabilities a case needs and that
 * the suite accepts; they are never planned nor reported.  case_answers():
 * verifying children, their phase, and their statuses and texts.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "harness/bench.h"
#include "harness/filter.h"
#include "harness/isolate.h"
#include "suites/case.h"

/* Engines with a name and a library; the pipeline never calls them. */
static struct engine eng(const char *name, const char *library)
{
	return (struct engine){.name = name, .library = library,
			       .semantics = SEM_LEFTMOST_FIRST};
}

/* The test suite's state: each case's answer, the reference's. */
struct fake {
	long answer[8];    /* by case index */
	int ref_rc;        /* what expect() returns */
	long ref;          /* its answer */
	int ref_hangs;     /* expect() sleeps past the timeout */
	int no_handle;     /* compile() gives NULL handles */
	int released;      /* release() calls */
	struct case_table *t;
};

static int fake_compile(void *st, const struct case_item *c, void **h,
			char *why, size_t size)
{
	struct fake *f = st;

	(void)c;
	(void)why;
	(void)size;
	*h = f->no_handle ? NULL : (void *)1;
	return 0;
}

static int fake_answer(void *st, const struct case_item *c, void *out)
{
	struct fake *f = st;

	memcpy(out, &f->answer[c - f->t->c], sizeof(long));
	return 0;
}

static int fake_expect(void *st, const struct case_item *c, void *out,
		       char *by, size_t size)
{
	struct fake *f = st;

	(void)c;
	if (f->ref_hangs)
		sleep(30);
	memcpy(out, &f->ref, sizeof(long));
	snprintf(by, size, f->ref_rc == CASE_REF_OK ? "the test's reference"
						    : "no reference here");
	return f->ref_rc;
}

static void fake_describe(void *st, const struct case_item *c,
			  const void *answer, char *buf, size_t size)
{
	long a;

	(void)st;
	(void)c;
	memcpy(&a, answer, sizeof(a));
	snprintf(buf, size, "count %ld", a);
}

static int fake_run(void *arg, uint64_t n)
{
	(void)arg;
	(void)n;
	return 0;
}

/* A benchmark of several keeps the arg case_add_bench() gave it. */
static int fake_bench(void *st, struct case_item *c, const void *answer,
		      struct bench *b)
{
	(void)st;
	(void)answer;
	b->run = fake_run;
	if (b->arg == NULL)
		b->arg = c;
	return 0;
}

static void fake_release(void *st, struct case_item *c)
{
	struct fake *f = st;

	(void)c;
	f->released++;
}

static const struct case_ops fake_ops = {
	.answer_size = sizeof(long),
	.compile = fake_compile,
	.answer = fake_answer,
	.expect = fake_expect,
	.describe = fake_describe,
	.bench = fake_bench,
	.release = fake_release,
};

struct run {
	struct case_table t;
	struct plan plan;
	struct results res;
	struct bench_opts opts;
	struct suite_ctx ctx;
};

/* One group of cases on engines e[0..n) with f's answers, not run yet. */
/*
 * The time limit of an answer: room for a loaded machine (a 0.3 s limit
 * failed answers under ctest -j2); a test of the limit sets it lower
 * (each test is a process of its own).
 */
static double answer_timeout_ns = 5e9;

static void run_table(struct run *r, struct fake *f, const struct engine *e,
		      size_t n, int allow_unverified)
{
	memset(r, 0, sizeof(*r));
	results_init(&r->res);
	r->opts = (struct bench_opts){.isolate = 1,
				      .timeout_ns = answer_timeout_ns};
	r->ctx = (struct suite_ctx){.opts = &r->opts, .plan = &r->plan,
				    .results = &r->res,
				    .allow_unverified = allow_unverified};
	case_table_init(&r->t, "test", &fake_ops, f);
	f->t = &r->t;
	for (size_t i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof(name), "Test/engine=%s", e[i].name);
		cr_assert_eq(case_add(&r->t, name, e[i].name, &e[i], 0, NULL, 0,
				      SEM_LEFTMOST_FIRST, NULL),
			     0);
	}
}

/* The same, run through. */
static void run_cases(struct run *r, struct fake *f, const struct engine *e,
		      size_t n, int allow_unverified)
{
	run_table(r, f, e, n, allow_unverified);
	cr_assert_eq(case_run(&r->t, &r->ctx), 0);
}

static void run_release(struct run *r)
{
	case_table_release(&r->t);
	plan_release(&r->plan);
	results_release(&r->res);
}

/* The status of engine e's row; RESULT_OK when it was planned. */
static int status_of(const struct run *r, const char *e)
{
	char name[64];
	const struct result *x;

	snprintf(name, sizeof(name), "Test/engine=%s", e);
	x = results_find(&r->res, name);
	if (x != NULL)
		return (int)x->status;
	for (size_t i = 0; i < r->plan.n; i++)
		if (strcmp(r->plan.b[i].name, name) == 0)
			return RESULT_OK;
	return -1;
}

Test(case_pipeline, a_tie_is_never_broken_by_order)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL)};
	struct fake f = {.answer = {1, 7}, .ref_rc = CASE_REF_NONE};
	struct run r;

	run_cases(&r, &f, e, 2, 0);
	cr_expect_eq(r.plan.n, 0, "nothing is timed");
	cr_expect_eq(status_of(&r, "a"), RESULT_UNVERIFIED);
	cr_expect_eq(status_of(&r, "b"), RESULT_UNVERIFIED);
	run_release(&r);
}

Test(case_pipeline, the_reference_beats_a_majority)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL), eng("c", NULL),
			     eng("d", NULL)};
	struct fake f = {.answer = {1, 1, 1, 7}, .ref_rc = CASE_REF_OK, .ref = 7};
	struct run r;
	const struct result *x;

	run_cases(&r, &f, e, 4, 0);
	cr_expect_eq(status_of(&r, "a"), RESULT_MISMATCH);
	cr_expect_eq(status_of(&r, "c"), RESULT_MISMATCH);
	cr_expect_eq(status_of(&r, "d"), RESULT_OK);
	x = results_find(&r.res, "Test/engine=a");
	cr_assert_not_null(x);
	cr_expect_str_eq(x->message, "a: count 1; expected count 7 (the test's "
				     "reference)");
	cr_assert_eq(r.plan.n, 1);
	cr_expect_str_eq(r.plan.b[0].verified, "the test's reference: count 7");
	run_release(&r);
}

Test(case_pipeline, a_vote_needs_three_libraries)
{
	/* pcre2 and pcre2-jit are one library: 2 of 2 libraries, no vote */
	struct engine e[] = {eng("pcre2", NULL), eng("pcre2-jit", "pcre2"),
			     eng("onig", NULL)};
	struct fake f = {.answer = {3, 3, 3}, .ref_rc = CASE_REF_NONE};
	struct run r;

	run_cases(&r, &f, e, 3, 0);
	cr_expect_eq(r.plan.n, 0);
	cr_expect_eq(status_of(&r, "onig"), RESULT_UNVERIFIED);
	run_release(&r);
}

Test(case_pipeline, a_strict_majority_of_three_libraries_decides)
{
	struct engine e[] = {eng("pcre2", NULL), eng("re2", NULL),
			     eng("onig", NULL), eng("tre", NULL)};
	struct fake f = {.answer = {3, 3, 3, 4}, .ref_rc = CASE_REF_NONE};
	struct run r;

	run_cases(&r, &f, e, 4, 0);
	cr_expect_eq(r.plan.n, 3);
	cr_expect_eq(status_of(&r, "tre"), RESULT_MISMATCH);
	cr_expect(strstr(r.plan.b[0].verified, "majority of 3 of 4 libraries") !=
		  NULL, "%s", r.plan.b[0].verified);
	run_release(&r);
}

Test(case_pipeline, a_hanging_reference_costs_its_answer_only)
{
	struct engine e[] = {eng("a", NULL)};
	struct fake f = {.answer = {1}, .ref_rc = CASE_REF_OK, .ref_hangs = 1};
	struct run r;
	const struct result *x;

	answer_timeout_ns = 300e6;
	run_cases(&r, &f, e, 1, 0);
	x = results_find(&r.res, "Test/engine=a");
	cr_assert_not_null(x);
	cr_expect_eq(x->status, RESULT_UNVERIFIED);
	cr_expect(strstr(x->message, "the reference failed: no answer within "
				     "0.3s while verifying") != NULL,
		  "%s", x->message);
	run_release(&r);
}

Test(case_pipeline, allow_unverified_times_and_marks)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL)};
	struct fake f = {.answer = {1, 7}, .ref_rc = CASE_REF_NONE};
	struct run r;

	run_cases(&r, &f, e, 2, 1);
	cr_assert_eq(r.plan.n, 2);
	for (size_t i = 0; i < 2; i++) {
		cr_expect_eq(r.plan.b[i].unverified, 1);
		cr_expect(strstr(r.plan.b[i].verified, "not verified") != NULL);
	}
	run_release(&r);
}

/*
 * A case of no engine (a trie the suite built: no handle either) is
 * compiled, answered and checked against the reference like the others;
 * without a reference it is no library, so two engines and it make no
 * vote of three.
 */
Test(case_pipeline, a_case_of_no_engine_is_verified_and_never_votes)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL)};
	struct fake f = {.answer = {7, 7, 7}, .ref_rc = CASE_REF_OK, .ref = 7,
			 .no_handle = 1};
	struct run r;

	run_table(&r, &f, e, 2, 0);
	cr_assert_eq(case_add(&r.t, "Test/engine=none", "none", NULL, ~0u, NULL,
			      0, SEM_LEFTMOST_FIRST, NULL),
		     0);
	cr_assert_eq(case_run(&r.t, &r.ctx), 0);
	cr_expect_eq(status_of(&r, "none"), RESULT_OK);
	cr_expect_eq(r.plan.n, 3);
	run_release(&r);
	cr_expect_eq(f.released, 0, "NULL handles are not released");

	f.ref_rc = CASE_REF_NONE;
	f.released = 0;
	run_table(&r, &f, e, 2, 0);
	cr_assert_eq(case_add(&r.t, "Test/engine=none", "none", NULL, 0, NULL,
			      0, SEM_LEFTMOST_FIRST, NULL),
		     0);
	cr_assert_eq(case_run(&r.t, &r.ctx), 0);
	cr_expect_eq(r.plan.n, 0, "2 libraries of 2: no vote");
	cr_expect_eq(status_of(&r, "none"), RESULT_UNVERIFIED);
	run_release(&r);
}

/*
 * A case of several benchmarks plans those --bench selects, each with its
 * arg and the case's verification; a case none of whose benchmarks is
 * selected is dropped before it runs (no MISMATCH row for its answer).
 */
Test(case_pipeline, a_case_of_several_benchmarks_plans_those_selected)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL)};
	struct fake f = {.answer = {7, 1}, .ref_rc = CASE_REF_OK, .ref = 7};
	static int arg[3];
	static const char *const phase[] = {"x", "y", "z"};
	struct bench_filter filter;
	struct run r;
	char err[256], name[64];

	cr_assert_eq(filter_init(&filter, "Test/phase=[xz]", err, sizeof(err)),
		     0, "%s", err);
	run_table(&r, &f, e, 0, 0);
	r.ctx.filter = &filter;
	cr_assert_eq(case_add(&r.t, "Test/engine=a", "a", &e[0], 0, NULL, 0,
			      SEM_LEFTMOST_FIRST, NULL),
		     0);
	for (size_t k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "Test/phase=%s/engine=a", phase[k]);
		cr_assert_eq(case_add_bench(&r.t, name, &arg[k]), 0);
	}
	cr_assert_eq(case_add(&r.t, "Test/engine=b", "b", &e[1], 0, NULL, 0,
			      SEM_LEFTMOST_FIRST, NULL),
		     0);
	cr_assert_eq(case_add_bench(&r.t, "Test/phase=y/engine=b", &arg[1]), 0);
	cr_assert_eq(case_run(&r.t, &r.ctx), 0);
	cr_expect_eq(r.res.n, 0, "b is not selected: no row");
	cr_assert_eq(r.plan.n, 2);
	cr_expect_str_eq(r.plan.b[0].name, "Test/phase=x/engine=a");
	cr_expect_str_eq(r.plan.b[1].name, "Test/phase=z/engine=a");
	cr_expect_eq(r.plan.b[0].arg, &arg[0]);
	cr_expect_eq(r.plan.b[1].arg, &arg[2]);
	cr_expect_str_eq(r.plan.b[1].verified, "the test's reference: count 7");
	run_release(&r);
	filter_release(&filter);
}

/* Item 0 records the phase it ran in; item 1 hangs; item 2 crashes. */
static int phase_answer(void *arg, size_t i, void *out)
{
	struct timespec second = {1, 0};
	long phase = engine_phase;

	(void)arg;
	if (i == 1)
		for (;;)
			nanosleep(&second, NULL);
	if (i == 2) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	if (i == 3)
		return ENGINE_ERR_LIMIT;
	memcpy(out, &phase, sizeof(phase));
	return 0;
}

Test(case_answers, verifying_children_their_phase_and_statuses)
{
	struct bench_opts o = {.isolate = 1, .timeout_ns = 300e6};
	long out[4] = {0};
	struct isolate_verdict v[4];
	struct isolate_items it = {4, sizeof(long), phase_answer, NULL, NULL};
	char why[256];

	cr_assert_eq(case_answers(&it, &o, out, v), 0);
	cr_expect_eq(engine_phase, ENGINE_PHASE_PARENT);
	cr_expect_eq(v[0].status, 0);
	cr_expect_eq(out[0], ENGINE_PHASE_VERIFY);
	cr_expect_eq(v[1].status, STATUS_TIMEOUT);
	case_verdict_text(&v[1], &o, why, sizeof(why));
	cr_expect_str_eq(why, "no answer within 0.3s while verifying: the child "
			      "was killed (see --timeout)");
	cr_expect_eq(v[2].status, STATUS_CRASHED);
	case_verdict_text(&v[2], &o, why, sizeof(why));
	cr_expect_str_eq(why, "crashed: signal 11 (Segmentation fault) while "
			      "verifying");
	cr_expect_eq(v[3].status, ENGINE_ERR_LIMIT);
	case_verdict_text(&v[3], &o, why, sizeof(why));
	cr_expect_str_eq(why, "match limit");
	cr_expect_eq(result_status_of(v[1].status), RESULT_TIMEOUT);
	cr_expect_eq(result_status_of(v[2].status), RESULT_ERROR);
}

/* ---- answers in parts (case_ops.parts): each part verified alone ---- */

#define NPARTS 3

/* One part: its enum case_part byte, then a value. */
struct fake_part {
	unsigned char state;
	long value;
};

/* The parted suite's state: per case and part a value, 0 for a part it
 * leaves out; the reference's per part, 0 for one out of its reach. */
struct fake_parts {
	long answer[8][NPARTS];
	long ref[NPARTS];
	int fail;          /* this case's answer fails (index + 1; 0: none) */
	struct case_table *t;
};

static void parts_fill(const long *v, void *out)
{
	struct fake_part *p = out;

	memset(out, 0, NPARTS * sizeof(*p));
	for (size_t k = 0; k < NPARTS; k++) {
		if (v[k] == 0)
			continue;
		p[k].state = CASE_PART_SET; /* fields alone: padding stays 0 */
		p[k].value = v[k];
	}
}

static int parts_answer(void *st, const struct case_item *c, void *out)
{
	struct fake_parts *f = st;
	size_t i = (size_t)(c - f->t->c);

	if (f->fail == (int)i + 1)
		return ENGINE_ERR_MATCH;
	parts_fill(f->answer[i], out);
	return 0;
}

static int parts_expect(void *st, const struct case_item *c, void *out,
			char *by, size_t size)
{
	struct fake_parts *f = st;

	(void)c;
	parts_fill(f->ref, out);
	snprintf(by, size, "the test's reference");
	return CASE_REF_OK;
}

static void parts_describe(void *st, const struct case_item *c,
			   const void *answer, char *buf, size_t size)
{
	const struct fake_part *p = answer;

	(void)st;
	(void)c;
	snprintf(buf, size, "parts %ld %ld %ld", p[0].value, p[1].value,
		 p[2].value);
}

static void parts_failed(void *st, const struct case_item *c, char *buf,
			 size_t size)
{
	(void)st;
	snprintf(buf, size, "on the test's item %s", c->label);
}

static const struct case_ops parts_ops = {
	.answer_size = NPARTS * sizeof(struct fake_part),
	.parts = NPARTS,
	.part_name = "part",
	.compile = fake_compile,
	.answer = parts_answer,
	.expect = parts_expect,
	.describe = parts_describe,
	.bench = fake_bench,
	.release = fake_release,
	.failed = parts_failed,
};

/* run_cases() for the parted suite. */
static void run_parts(struct run *r, struct fake_parts *f,
		      const struct engine *e, size_t n, int allow_unverified)
{
	memset(r, 0, sizeof(*r));
	results_init(&r->res);
	r->opts = (struct bench_opts){.isolate = 1, .timeout_ns = 5e9};
	r->ctx = (struct suite_ctx){.opts = &r->opts, .plan = &r->plan,
				    .results = &r->res,
				    .allow_unverified = allow_unverified};
	case_table_init(&r->t, "test", &parts_ops, f);
	f->t = &r->t;
	for (size_t i = 0; i < n; i++) {
		char name[64];
		snprintf(name, sizeof(name), "Test/engine=%s", e[i].name);
		cr_assert_eq(case_add(&r->t, name, e[i].name, &e[i], 0, NULL, 0,
				      SEM_LEFTMOST_FIRST, NULL),
			     0);
	}
	cr_assert_eq(case_run(&r->t, &r->ctx), 0);
}

/* The planned benchmark of engine e, or NULL. */
static const struct bench *planned(const struct run *r, const char *e)
{
	char name[64];

	snprintf(name, sizeof(name), "Test/engine=%s", e);
	for (size_t i = 0; i < r->plan.n; i++)
		if (strcmp(r->plan.b[i].name, name) == 0)
			return &r->plan.b[i];
	return NULL;
}

/*
 * Part 2 is out of the reference's reach: three libraries of four decide
 * it, so d's 6 is a mismatch; a part a case leaves out (b's part 1) is
 * not held against it; the reference's parts beat any majority (c).
 */
Test(case_parts, each_part_is_verified_alone)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL), eng("c", NULL),
			     eng("d", NULL)};
	struct fake_parts f = {.answer = {{1, 2, 5}, {1, 0, 5}, {1, 2, 5},
					  {1, 2, 6}},
			       .ref = {1, 2, 0}};
	struct run r;
	const struct result *x;
	const struct bench *b;

	run_parts(&r, &f, e, 4, 0);
	cr_expect_eq(status_of(&r, "a"), RESULT_OK);
	cr_expect_eq(status_of(&r, "b"), RESULT_OK, "its part 1 is left out");
	cr_expect_eq(status_of(&r, "c"), RESULT_OK);
	cr_expect_eq(status_of(&r, "d"), RESULT_MISMATCH);
	x = results_find(&r.res, "Test/engine=d");
	cr_assert_not_null(x);
	cr_expect_str_eq(x->message, "d: parts 1 2 6; expected parts 1 2 5 "
				     "(the test's reference; majority of at "
				     "least 3 libraries: 1 part (voting: a, b, "
				     "c, d))");
	b = planned(&r, "b");
	cr_assert_not_null(b);
	cr_expect_eq(b->unverified, 0);
	cr_expect_str_eq(b->verified, "the test's reference; majority of at "
				      "least 3 libraries: 1 part (voting: a, b, "
				      "c, d): parts 1 2 5");
	run_release(&r);
}

/* A reference part beats a majority of every library. */
Test(case_parts, the_reference_part_beats_a_majority)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL), eng("c", NULL)};
	struct fake_parts f = {.answer = {{1, 3, 0}, {1, 3, 0}, {1, 3, 0}},
			       .ref = {1, 2, 0}};
	struct run r;

	run_parts(&r, &f, e, 3, 0);
	cr_expect_eq(r.plan.n, 0);
	for (size_t i = 0; i < 3; i++)
		cr_expect_eq(status_of(&r, e[i].name), RESULT_MISMATCH);
	run_release(&r);
}

/*
 * A part nothing decides leaves its cases unverified (never the odd one
 * out a mismatch), unless a part the reference knows differs; with
 * --allow-unverified they are timed, marked.
 */
Test(case_parts, an_undecided_part_is_unverified)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL), eng("c", NULL)};
	struct fake_parts f = {.answer = {{1, 0, 5}, {1, 0, 6}, {9, 0, 5}},
			       .ref = {1, 0, 0}};
	struct run r;
	const struct result *x;

	run_parts(&r, &f, e, 3, 0);
	cr_expect_eq(r.plan.n, 0);
	cr_expect_eq(status_of(&r, "a"), RESULT_UNVERIFIED);
	cr_expect_eq(status_of(&r, "b"), RESULT_UNVERIFIED);
	cr_expect_eq(status_of(&r, "c"), RESULT_MISMATCH);
	x = results_find(&r.res, "Test/engine=a");
	cr_assert_not_null(x);
	cr_expect_str_eq(x->message, "a: parts 1 0 5; not verified: 1 of its 2 "
				     "parts: the test's reference; no strict "
				     "majority of at least 3 libraries: 1 part "
				     "(voting: a, b, c) (--allow-unverified "
				     "times it anyway)");
	run_release(&r);
	run_parts(&r, &f, e, 3, 1);
	cr_assert_eq(r.plan.n, 2);
	cr_expect_eq(planned(&r, "a")->unverified, 1);
	cr_expect_eq(r.t.c[0].unverified, 1);
	run_release(&r);
}

/* A failed answer's row says where, as the suite knows it. */
Test(case_parts, a_failed_answer_says_where)
{
	struct engine e[] = {eng("a", NULL), eng("b", NULL)};
	struct fake_parts f = {.answer = {{1, 2, 3}, {1, 2, 3}},
			       .ref = {1, 2, 3}, .fail = 2};
	struct run r;
	const struct result *x;

	run_parts(&r, &f, e, 2, 0);
	cr_expect_eq(status_of(&r, "a"), RESULT_OK);
	x = results_find(&r.res, "Test/engine=b");
	cr_assert_not_null(x);
	cr_expect_eq(x->status, RESULT_ERROR);
	cr_expect(strstr(x->message, "; on the test's item b") != NULL, "%s",
		  x->message);
	run_release(&r);
}

/*
 * Voters (issue 22): where no reference reaches a group, every engine of
 * case_table.voters that is not in the group, has the capabilities the
 * case needs and that the suite accepts votes too, so the verdict does
 * not depend on --engines.  An engine's answer is its name's in `vote`.
 */
struct vote {
	struct fake f;
	const char *name[8];
	long answer[8];
	const char *refused; /* the suite's voter hook refuses this engine */
	int asked;           /* voter hook calls */
};

static int vote_answer(void *st, const struct case_item *c, void *out)
{
	struct vote *v = st;

	for (size_t i = 0; i < 8 && v->name[i] != NULL; i++)
		if (strcmp(v->name[i], c->e->name) == 0) {
			memcpy(out, &v->answer[i], sizeof(long));
			return 0;
		}
	return ENGINE_ERR_UNSUPPORTED;
}

static int vote_voter(void *st, const struct case_item *c,
		      const struct engine *e, int *klass)
{
	struct vote *v = st;

	v->asked++;
	*klass = c->klass;
	return v->refused != NULL && strcmp(v->refused, e->name) == 0;
}

static const struct case_ops vote_ops = {
	.answer_size = sizeof(long),
	.compile = fake_compile,
	.answer = vote_answer,
	.expect = fake_expect,
	.describe = fake_describe,
	.bench = fake_bench,
	.release = fake_release,
	.voter = vote_voter,
};

/* The cases on e[0..n) that need `needs`, voters from all[0..nall). */
static void run_vote(struct run *r, struct vote *v, const struct engine *e,
		     size_t n, unsigned needs, const struct engine *const *all,
		     size_t nall)
{
	run_table(r, &v->f, e, n, 0);
	r->t.ops = &vote_ops;
	r->t.st = v;
	for (size_t i = 0; i < r->t.n; i++) {
		r->t.c[i].needs = needs;
		r->t.c[i].st = v;
	}
	r->t.voters = all;
	r->t.nvoters = nall;
	cr_assert_eq(case_run(&r->t, &r->ctx), 0);
}

/* The verification pcre2's benchmark records, copied into buf. */
static void verified_of(const struct run *r, const char *e, char *buf,
			size_t size)
{
	char name[64];

	snprintf(name, sizeof(name), "Test/engine=%s", e);
	buf[0] = '\0';
	for (size_t i = 0; i < r->plan.n; i++)
		if (strcmp(r->plan.b[i].name, name) == 0)
			snprintf(buf, size, "%s", r->plan.b[i].verified);
}

Test(case_voters, the_verdict_does_not_depend_on_the_engines_run)
{
	struct engine e[] = {eng("pcre2", NULL), eng("onig", NULL),
			     eng("boost", NULL), eng("pcre2-jit", "pcre2")};
	const struct engine *all[] = {&e[0], &e[1], &e[2], &e[3]};
	struct vote v = {.f = {.ref_rc = CASE_REF_NONE},
			 .name = {"pcre2", "onig", "boost", "pcre2-jit"},
			 .answer = {5, 5, 5, 5}};
	char alone[512], three[512];
	struct run r;

	/* --engines=pcre2: onig and boost vote; pcre2-jit is pcre2 again */
	run_vote(&r, &v, e, 1, 0, all, 4);
	cr_expect_eq(r.t.nv, 2, "voters: onig, boost (not pcre2-jit)");
	cr_assert_eq(r.plan.n, 1, "a voter is never planned");
	cr_expect_eq(r.res.n, 0, "nor reported");
	cr_expect_eq(status_of(&r, "onig"), -1);
	verified_of(&r, "pcre2", alone, sizeof(alone));
	run_release(&r);
	/* --engines=pcre2,onig,boost: no voter, the same verdict */
	run_vote(&r, &v, e, 3, 0, all, 4);
	cr_expect_eq(r.t.nv, 0);
	cr_expect_eq(r.plan.n, 3);
	verified_of(&r, "pcre2", three, sizeof(three));
	run_release(&r);
	cr_expect_str_eq(alone, three);
	cr_expect_str_eq(alone, "no reference here; majority of 3 of 3 "
				"libraries (boost, onig, pcre2): count 5");
}

Test(case_voters, an_engine_lacking_a_capability_neither_runs_nor_votes)
{
	/* v8 reads \p{..} as text in byte mode: it lacks the capability */
	struct engine e[] = {eng("pcre2", NULL), eng("re2", NULL),
			     eng("go", "go-regexp"), eng("v8", NULL),
			     eng("onig", NULL), eng("python-re", NULL),
			     eng("hyperscan", NULL)};
	const struct engine *all[] = {&e[0], &e[1], &e[2], &e[3],
				      &e[4], &e[5], &e[6]};
	struct vote v = {.f = {.ref_rc = CASE_REF_NONE},
			 .name = {"pcre2", "re2", "go", "v8", "onig",
				  "python-re", "hyperscan"},
			 .answer = {0, 0, 0, 1, 1, 1, 1},
			 .refused = "hyperscan"}; /* the suite's gate */
	char by[512];
	struct run r;

	for (size_t i = 0; i < 3; i++)
		e[i].caps = CAP_UNICODE_PROPERTY;
	e[6].caps = CAP_UNICODE_PROPERTY;
	/* with every engine voting, 3 of 6 would be no strict majority */
	run_vote(&r, &v, e, 1, CAP_UNICODE_PROPERTY, all, 7);
	cr_expect_eq(r.t.nv, 2, "re2 and go vote");
	cr_expect_eq(v.asked, 3, "the suite is asked of re2, go, hyperscan");
	verified_of(&r, "pcre2", by, sizeof(by));
	cr_expect_str_eq(by, "no reference here; majority of 3 of 3 libraries "
			     "(go-regexp, pcre2, re2): count 0");
	run_release(&r);
	/* in the run, v8 gets an unsupported row and no vote */
	run_vote(&r, &v, e, 4, CAP_UNICODE_PROPERTY, all, 7);
	cr_expect_eq(status_of(&r, "v8"), RESULT_UNSUPPORTED);
	cr_expect_eq(status_of(&r, "pcre2"), RESULT_OK);
	run_release(&r);
}

Test(case_voters, no_voter_where_the_reference_decides)
{
	struct engine e[] = {eng("pcre2", NULL), eng("onig", NULL)};
	const struct engine *all[] = {&e[0], &e[1]};
	struct vote v = {.f = {.ref_rc = CASE_REF_OK, .ref = 2},
			 .name = {"pcre2", "onig"}, .answer = {2, 3}};
	struct run r;

	run_vote(&r, &v, e, 1, 0, all, 2);
	cr_expect_eq(r.t.nv, 0);
	cr_expect_eq(v.asked, 0);
	cr_expect_eq(status_of(&r, "pcre2"), RESULT_OK);
	run_release(&r);
}

/* What a pattern's bytes say it needs where no parser reads it: a
 * script (read by Script_Extensions in PCRE2 only) is more than a
 * general category, and (?x) with a byte above 0x7f needs PCRE2's
 * extended white space (an adversarial run found onig, python-re and
 * the regex crate outvoting PCRE2 on (?x)a\x85b: 1 match where PCRE2
 * and Perl count 2). */
Test(case_voters, pattern_bytes_name_what_voters_must_read_alike)
{
	struct {
		const char *re;
		unsigned needs;
	} t[] = {
		{"\\pL", CAP_UNICODE_PROPERTY},
		{"\\p{Lu}\\P{^Nd}", CAP_UNICODE_PROPERTY},
		{"\\p{L&}[\\p{Any}]", CAP_UNICODE_PROPERTY},
		{"\\p{Han}", CAP_UNICODE_PROPERTY | CAP_UNICODE_SCRIPT},
		{"[\\P{Greek}x]", CAP_UNICODE_PROPERTY | CAP_UNICODE_SCRIPT},
		{"\\Q\\p{Han}\\E", 0},
		{"(?x)a\x85" "b", CAP_EXTENDED_SPACE},
		{"(?ix:a \xc3\xa9)", CAP_EXTENDED_SPACE},
		{"(?x)a b", 0},
		{"(?i-x)a\x85" "b", 0},
		{"\\(?x)\x85", 0},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_expect_eq(engine_pattern_needs(t[i].re, strlen(t[i].re)),
			     t[i].needs, "%s: needs %#x, want %#x", t[i].re,
			     engine_pattern_needs(t[i].re, strlen(t[i].re)),
			     t[i].needs);
	cr_expect(!(engine_find("re2")->caps & CAP_UNICODE_SCRIPT));
	cr_expect(engine_find("pcre2")->caps & CAP_UNICODE_SCRIPT);
	cr_expect(!(engine_find("onig")->caps & CAP_EXTENDED_SPACE));
}
