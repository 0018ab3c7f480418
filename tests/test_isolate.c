/*
 * test_isolate.c - items in forked children (harness/isolate.h): a crash,
 * a hang, an exit and a failing item each cost that item while the others
 * answer; and samples in forked children (harness/bench.c on it): a
 * crash, a hang and a failing op each become their row while every other
 * benchmark keeps all its samples; --timeout parsing.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "harness/bench.h"
#include "harness/interrupt.h"
#include "harness/isolate.h"

static int ok_run(void *arg, uint64_t n)
{
	volatile uint64_t x = 0;

	(void)arg;
	for (uint64_t i = 0; i < n; i++)
		x += i;
	(void)x; /* the loads and stores are the work */
	return 0;
}

static int segv_run(void *arg, uint64_t n)
{
	(void)arg;
	(void)n;
	signal(SIGSEGV, SIG_DFL); /* not a sanitizer's report: the signal */
	raise(SIGSEGV);
	return 0;
}

static int abort_run(void *arg, uint64_t n)
{
	(void)arg;
	(void)n;
	abort();
}

static int sleep_run(void *arg, uint64_t n)
{
	struct timespec ts = {30, 0};

	(void)arg;
	(void)n;
	nanosleep(&ts, NULL);
	return 0;
}

static int limit_run(void *arg, uint64_t n)
{
	(void)arg;
	(void)n;
	return ENGINE_ERR_LIMIT;
}

static void add(struct plan *p, const char *name, int (*run)(void *, uint64_t))
{
	struct bench b = {0};

	b.name = strdup(name);
	b.suite = "t";
	b.run = run;
	b.extra[0] = (struct bench_metric){"matches", BETTER_EXACT, 7};
	b.nextra = 1;
	cr_assert_eq(plan_add(p, &b), 0);
}

/*
 * An op over 100 items where items 10k..10k+9 cost 30^k units of work
 * for k < 3
 * (a unit: 30 volatile adds; from item 30 on, 9000); its cursor advances in the measuring
 * child and is lost with it.
 */
struct items {
	size_t next;
};

static int items_run(void *arg, uint64_t n)
{
	/* items 30.. cost 9000: the warm-up's rate puts a 10-op run far
	   above BENCH_SHORT_NS, so the samples are not short ones (whose
	   runs start after a lead-in) */
	static const size_t units[10] = {1, 30, 900, 9000, 9000, 9000, 9000,
					 9000, 9000, 9000};
	struct items *it = arg;
	volatile uint64_t x = 0;

	for (uint64_t k = 0; k < n; k++) {
		for (size_t s = 0; s < units[it->next / 10] * 30; s++)
			x += s;
		it->next = (it->next + 1) % 100;
	}
	(void)x; /* the loads and stores are the work */
	return 0;
}

/*
 * Samples of fixed n shorter than a pass start where the one before
 * stopped: sample k times items 10k..10k+9, so three 10x samples of
 * items that get dearer cost more and more, where each would otherwise
 * time items 0..9 again.
 */
Test(isolate, samples_of_few_ops_rotate_through_the_input_set)
{
	struct plan p = {0};
	struct results res;
	struct bench_opts o = {.count = 3, .no_alloc = 1, .isolate = 1,
			       .timeout_ns = 10e9, .fixed_n = 10};
	struct items it = {0};
	struct bench b = {.name = strdup("R/items"), .suite = "t",
			  .run = items_run, .arg = &it, .pass_n = 100};
	const struct metric *ns;

	cr_assert_eq(plan_add(&p, &b), 0);
	results_init(&res);
	cr_assert_eq(harness_run(&p, &o, &res, NULL, NULL), 0);
	ns = result_metric(results_find(&res, "R/items"), "ns/op");
	cr_assert_eq(ns->n, 3);
	/* items 0..9 cost 1 unit each, 10..19 30, 20..29 900: the noise of
	   a loaded machine (an add took 1 to 3.9 ns from one 30 us to the
	   next here) cannot reorder them */
	cr_assert_gt(ns->v[1], 4 * ns->v[0], "%g then %g", ns->v[0], ns->v[1]);
	cr_assert_gt(ns->v[2], 4 * ns->v[1], "%g then %g", ns->v[1], ns->v[2]);
	cr_assert_eq(it.next, 0, "the parent's cursor never moved");
	results_release(&res);
	plan_release(&p);
}

Test(isolate, failures_become_rows_and_the_run_goes_on)
{
	struct plan p = {0};
	struct results res;
	struct bench_opts o = {.count = 3, .no_alloc = 1, .isolate = 1,
			       .timeout_ns = 300e6};
	const struct result *r;

	cr_assert_eq(bench_parse_benchtime("1000x", &o), 0);
	add(&p, "A/ok", ok_run);
	add(&p, "B/segv", segv_run);
	add(&p, "C/hang", sleep_run);
	add(&p, "D/abort", abort_run);
	add(&p, "E/limit", limit_run);
	add(&p, "F/ok", ok_run);
	results_init(&res);
	cr_assert_eq(harness_run(&p, &o, &res, NULL, NULL), 4);

	r = results_find(&res, "A/ok");
	cr_assert_eq(r->status, RESULT_OK);
	cr_assert_eq(r->nsamples, 3);
	cr_assert_eq(r->iters[2], 1000);
	cr_assert_float_eq(result_metric(r, "matches")->v[2], 7, 0);
	cr_assert_gt(result_metric(r, "ns/op")->v[2], 0);
	r = results_find(&res, "F/ok");
	cr_assert_eq(r->status, RESULT_OK);
	cr_assert_eq(r->nsamples, 3);

	r = results_find(&res, "B/segv");
	cr_assert_eq(r->status, RESULT_ERROR);
	cr_assert_eq(r->nsamples, 0);
	cr_assert(strstr(r->message, "signal 11") != NULL, "%s", r->message);
	cr_assert(strstr(r->message, strsignal(SIGSEGV)) != NULL, "%s",
		  r->message);
	r = results_find(&res, "D/abort");
	cr_assert_eq(r->status, RESULT_ERROR);
	cr_assert(strstr(r->message, strsignal(SIGABRT)) != NULL, "%s",
		  r->message);
	r = results_find(&res, "C/hang");
	cr_assert_eq(r->status, RESULT_TIMEOUT);
	cr_assert(strstr(r->message, "0.3s") != NULL, "%s", r->message);
	r = results_find(&res, "E/limit");
	cr_assert_eq(r->status, RESULT_ERROR);
	cr_assert_str_eq(r->message, "match limit while timing");
	results_release(&res);
	plan_release(&p);
}

/* The child's changes to the op's state are lost; the parent's are not. */
static int count_run(void *arg, uint64_t n)
{
	*(uint64_t *)arg += n;
	return 0;
}

Test(isolate, child_state_stays_in_the_child)
{
	uint64_t calls = 0;
	struct bench b = {.name = strdup("T"), .suite = "t", .run = count_run,
			  .arg = &calls};
	struct bench_opts o = {.count = 1, .no_alloc = 1, .isolate = 1};
	struct plan p = {0};
	struct results res;
	const struct result *r;

	cr_assert_eq(bench_parse_benchtime("50x", &o), 0);
	cr_assert_eq(plan_add(&p, &b), 0);
	results_init(&res);
	cr_assert_eq(harness_run(&p, &o, &res, NULL, NULL), 0);
	r = results_find(&res, "T");
	cr_assert_eq(r->status, RESULT_OK, "%s", r->message);
	cr_assert_eq(r->nsamples, 1);
	cr_assert_eq(r->iters[0], 50);
	cr_assert_eq(calls, 0);
	results_release(&res);
	plan_release(&p);
}

Test(isolate, parse_duration)
{
	double ns = 0;

	cr_assert_eq(bench_parse_duration("60s", &ns), 0);
	cr_assert_float_eq(ns, 60e9, 1);
	cr_assert_eq(bench_parse_duration("250ms", &ns), 0);
	cr_assert_float_eq(ns, 250e6, 1);
	cr_assert_eq(bench_parse_duration("2m", &ns), 0);
	cr_assert_float_eq(ns, 120e9, 1);
	cr_assert_neq(bench_parse_duration("0s", &ns), 0);
	cr_assert_neq(bench_parse_duration("-1s", &ns), 0);
	cr_assert_neq(bench_parse_duration("2h", &ns), 0);
	cr_assert_neq(bench_parse_duration("61m", &ns), 0);
	cr_assert_neq(bench_parse_duration("abc", &ns), 0);
	cr_assert_neq(bench_parse_duration("", &ns), 0);
}

Test(isolate, pin_cpu_checks_the_cpu)
{
	char err[128];
	cpu_set_t set;
	int first = 0;

	cr_assert_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	while (!CPU_ISSET(first, &set))
		first++;
	cr_assert_eq(isolate_pin_cpu(-1, err, sizeof(err)), -1);
	cr_assert_eq(isolate_pin_cpu(CPU_SETSIZE, err, sizeof(err)), -1);
	cr_assert_eq(isolate_pin_cpu(CPU_SETSIZE - 1, err, sizeof(err)), -1);
	cr_assert(strstr(err, "not available") != NULL, "%s", err);
	cr_assert_eq(isolate_pin_cpu(first, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	cr_assert_eq(CPU_COUNT(&set), 1);
	cr_assert(CPU_ISSET(first, &set));
}

/* In the child: SIGTERM to the harness (as `kill` would), then hang. */
static int term_parent_run(void *arg, uint64_t n)
{
	struct timespec ts = {30, 0};

	(void)arg;
	(void)n;
	kill(getppid(), SIGTERM);
	nanosleep(&ts, NULL);
	return 0;
}

Test(isolate, a_signal_stops_the_run_and_keeps_what_finished)
{
	struct plan p = {0};
	struct results res;
	struct bench_opts o = {.count = 2, .no_alloc = 1, .isolate = 1,
			       .timeout_ns = 60e9};
	struct timespec t0, t1;

	cr_assert_eq(bench_parse_benchtime("1000x", &o), 0);
	add(&p, "A/ok", ok_run);
	add(&p, "B/term", term_parent_run);
	add(&p, "C/ok", ok_run);
	results_init(&res);
	interrupt_install();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cr_assert_eq(harness_run(&p, &o, &res, NULL, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_expect_eq(interrupt_signal(), SIGTERM);
	interrupt_clear();
	signal(SIGTERM, SIG_DFL);
	/* the hung child was killed at once, not at the 60 s timeout */
	cr_expect_lt(t1.tv_sec - t0.tv_sec, 5);
	cr_assert_eq(res.n, 1, "%zu results", res.n);
	cr_expect_eq(res.r[0].nsamples, 1);
	cr_expect_eq(res.r[0].status, RESULT_OK);
	cr_expect_null(results_find(&res, "B/term"));
	cr_expect_null(results_find(&res, "C/ok"));
	results_release(&res);
	plan_release(&p);
}

/* Set by the child_init hook: in a child only. */
static int child_inited;

static void mark_child(void *arg)
{
	(void)arg;
	child_inited = 1;
}

/* Item 1 crashes, item 3 hangs, item 4 fails, item 6 exits: the others
 * answer. */
static int answer_fn(void *arg, size_t i, void *out)
{
	struct timespec second = {1, 0};
	long a[2];

	*(int *)arg = 1; /* in the child: the parent must not see it */
	if (i == 1) {
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
	}
	if (i == 3)
		for (;;)
			nanosleep(&second, NULL);
	if (i == 4)
		return ENGINE_ERR_LIMIT;
	if (i == 6)
		_exit(5);
	a[0] = (long)i * 10;
	a[1] = child_inited;
	memcpy(out, a, sizeof(a));
	return 0;
}

/* After item 4 fails, go on at 6: item 5 is skipped. */
static size_t skip_one(void *arg, size_t i)
{
	(void)arg;
	return i == 4 ? 6 : i + 1;
}

Test(isolate, items_in_a_child_with_a_time_limit)
{
	struct isolate_limits lim = {1, 200000000};
	long out[8 * 2] = {0};
	struct isolate_verdict v[8];
	int touched = 0;
	struct isolate_items it = {8, 2 * sizeof(long), answer_fn, skip_one,
				   &touched};
	char why[256];

	cr_assert_eq(isolate_run(&it, &lim, mark_child, out, v), 0);
	cr_assert_eq(touched, 0, "answer() ran in the parent");
	cr_assert_eq(child_inited, 0, "child_init() ran in the parent");
	for (size_t i = 0; i < 8; i++) {
		if (i == 1 || i == 3 || i == 4 || i == 5 || i == 6)
			continue;
		cr_assert_eq(v[i].end, ISOLATE_ANSWERED, "item %zu", i);
		cr_assert_eq(v[i].status, 0, "item %zu: status %d", i, v[i].status);
		cr_assert_eq(out[2 * i], (long)i * 10);
		cr_assert_eq(out[2 * i + 1], 1, "item %zu: no child_init", i);
	}
	cr_assert_eq(v[1].end, ISOLATE_KILLED);
	cr_assert_eq(v[1].sig, SIGSEGV);
	isolate_verdict_text(&v[1], &lim, "answer", "verifying", why, sizeof(why));
	cr_assert_str_eq(why, "crashed: signal 11 (Segmentation fault) while "
			      "verifying");
	cr_assert_eq(v[3].end, ISOLATE_LATE);
	isolate_verdict_text(&v[3], &lim, "answer", "verifying", why, sizeof(why));
	cr_assert_str_eq(why, "no answer within 0.2s while verifying: the "
			      "child was killed (see --timeout)");
	cr_assert_eq(v[4].end, ISOLATE_ANSWERED);
	cr_assert_eq(v[4].status, ENGINE_ERR_LIMIT);
	cr_assert_eq(v[5].end, ISOLATE_SKIPPED);
	cr_assert_eq(v[6].end, ISOLATE_EXITED);
	cr_assert_eq(v[6].code, 5);
	isolate_verdict_text(&v[6], &lim, "sample", "timing", why, sizeof(why));
	cr_assert_str_eq(why, "the child exited with status 5 without its sample "
			      "while timing");
}

/* No isolation: the same answers and skips, in this process. */
static int plain_fn(void *arg, size_t i, void *out)
{
	long a = (long)i;

	(void)arg;
	if (i == 4)
		return ENGINE_ERR_LIMIT;
	memcpy(out, &a, sizeof(a));
	return 0;
}

Test(isolate, items_without_isolation)
{
	struct isolate_limits lim = {0, 0};
	long out[8] = {0};
	struct isolate_verdict v[8];
	struct isolate_items it = {8, sizeof(long), plain_fn, skip_one, NULL};

	cr_assert_eq(isolate_run(&it, &lim, mark_child, out, v), 0);
	cr_assert_eq(child_inited, 0, "child_init() without a child");
	cr_assert_eq(v[4].end, ISOLATE_ANSWERED);
	cr_assert_eq(v[4].status, ENGINE_ERR_LIMIT);
	cr_assert_eq(v[5].end, ISOLATE_SKIPPED);
	cr_assert_eq(v[7].end, ISOLATE_ANSWERED);
	cr_assert_eq(v[7].status, 0);
	cr_assert_eq(out[7], 7);
}

/* isolate_run_here() takes on where no child could be made. */
Test(isolate, run_here_goes_on_from_the_first_item_without_a_verdict)
{
	long out[8] = {0};
	struct isolate_verdict v[8] = {{0, ISOLATE_ANSWERED, 0, 0},
				       {0, ISOLATE_ANSWERED, 0, 0},
				       {0, ISOLATE_NO_CHILD, 0, 11}};
	struct isolate_items it = {8, sizeof(long), plain_fn, skip_one, NULL};

	cr_assert_eq(isolate_run_here(&it, out, v), 0);
	cr_assert_eq(out[0], 0);
	cr_assert_eq(out[1], 0, "item 1 had its verdict");
	cr_assert_eq(out[2], 2);
	cr_assert_eq(v[2].end, ISOLATE_ANSWERED);
	cr_assert_eq(v[5].end, ISOLATE_SKIPPED);
	cr_assert_eq(out[7], 7);
}
