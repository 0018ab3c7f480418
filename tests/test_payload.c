/*
 * test_payload.c - the payload suite's generated inputs and arithmetic:
 * exact and deterministic planted counts, printable filler that never
 * holds a match, HTTP packets whose matching rules are exactly what was
 * planted (checked with PCRE2 rule by rule), line rate, the per-engine
 * tables against tests/golden/payload_table.txt, and real-life
 * verification: per rule and packet, counts per rule, Snort's negated
 * conditions, rules a set refuses, a time limit.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpora/http.h"
#include "corpora/packets.h"
#include "corpora/rules.h"
#include "engines/engine.h"
#include "report/text.h"
#include "suites/suite.h"

extern const struct suite suite_payload;
#include "suites/payload.h"
#include "suites/payload_ruleset.h"

#include "golden.h"

static const size_t sizes[] = {64, 128, 256, 512, 1000, 1500};

/*
 * The scenario table (suites/payload_scenarios.c): today's order (the
 * tables' columns, --help), each found by name, a floor without ops
 * (base's ops are for the engines with a floor of their own, its own
 * cases) and every verified scenario with its op.
 */
Test(payload, scenario_table)
{
	static const char *const names[] = {"base", "literal", "full-scan",
					    "real-life", "per-rule", "touch"};

	cr_assert_eq(payload_nscenarios, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < payload_nscenarios; i++) {
		const struct scenario *sc = payload_scenarios[i];
		cr_expect_str_eq(sc->name, names[i]);
		cr_expect_eq(payload_scenario(names[i]), sc);
		cr_expect_not_null(sc->run, "%s has no op", sc->name);
		cr_expect(sc->title != NULL && sc->help != NULL);
	}
	cr_expect_not_null(payload_scenario("base")->cases);
	cr_expect_null(payload_scenario("touch")->ops);
	cr_expect_not_null(payload_scenario("literal")->threads);
	cr_expect(payload_scenario("per-rule")->per_rule);
	cr_expect(!payload_scenario("per-rule")->in_default);
	cr_expect_null(payload_scenario("nope"));
}

Test(payload, linerate_arithmetic)
{
	/* 100 Gbps of 64-byte frames: 1e11 / (84 * 8) */
	cr_expect_float_eq(packets_linerate_mpps(100, 64), 148.8095, 1e-4);
	cr_expect_float_eq(packets_linerate_mpps(100, 1500), 8.2237, 1e-4);
	cr_expect_float_eq(packets_linerate_mpps(10, 64), 14.88095, 1e-5);
	cr_expect_float_eq(packets_linerate_mpps(400, 1500), 32.8947, 1e-4);
}

Test(payload, default_count)
{
	cr_expect_eq(packets_default_count(64), 65536);
	cr_expect_eq(packets_default_count(1000), 4194);
	cr_expect_eq(packets_default_count(1500), 4096);
}

static size_t count_marked(const struct packets *pk)
{
	size_t n = 0;

	for (size_t i = 0; i < pk->n; i++)
		n += pk->mark[i] != 0;
	return n;
}

Test(payload, planted_counts_are_exact)
{
	const double rates[] = {0, 0.01, 0.013, 0.5, 1};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
			struct packets_spec spec = {sizes[s], 1000, rates[r], 7};
			struct packets pk;
			size_t want = (size_t)llround(rates[r] * 1000);

			cr_assert_eq(packets_generate(&pk, PACKETS_LITERAL, &spec), 0);
			cr_expect_eq(pk.n, 1000);
			cr_expect_eq(pk.nplanted, want, "size %zu rate %g: %zu",
				     sizes[s], rates[r], pk.nplanted);
			cr_expect_eq(count_marked(&pk), want);
			packets_release(&pk);
		}
	}
}

/* Every packet matches the literal / pri.*ate reference iff planted. */
static void check_reference(enum packets_kind kind, size_t size)
{
	struct packets_spec spec = {size, 3000, 0.1, 42};
	struct packets pk;

	cr_assert_eq(packets_generate(&pk, kind, &spec), 0);
	for (size_t i = 0; i < pk.n; i++) {
		const struct packet *p = &pk.pkt[i];
		int lit = memmem(p->p, p->len, "private", 7) != NULL;
		int full = packets_has_pri_ate(p->p, p->len);
		/* a "pri" in its last six bytes is the first half of a plant
		   split across packets (corpora/packets.h) */
		int pri = memmem(p->p, pk.mark[i] ? p->len : p->len - 6, "pri",
				 3) != NULL;

		cr_assert_eq(p->len, size);
		cr_assert_eq(full, (int)pk.mark[i], "size %zu packet %zu", size, i);
		cr_assert_eq(pri, (int)pk.mark[i], "stray \"pri\" in packet %zu", i);
		if (kind == PACKETS_LITERAL)
			cr_assert_eq(lit, (int)pk.mark[i]);
		for (size_t k = 0; k < p->len; k++)
			cr_assert(p->p[k] >= 0x20 && p->p[k] < 0x7f);
	}
	packets_release(&pk);
}

/* check on both printable kinds at every size, and the smallest. */
static void each_printable(void (*check)(enum packets_kind, size_t))
{
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		check(PACKETS_LITERAL, sizes[s]);
		check(PACKETS_FULLSCAN, sizes[s]);
	}
	check(PACKETS_FULLSCAN, PACKETS_MIN_SIZE);
}

Test(payload, filler_never_matches)
{
	each_printable(check_reference);
}

Test(payload, deterministic)
{
	struct packets_spec spec = {256, 500, 0.05, 9};
	struct packets a, b, c;

	cr_assert_eq(packets_generate(&a, PACKETS_HTTP, &spec), 0);
	cr_assert_eq(packets_generate(&b, PACKETS_HTTP, &spec), 0);
	spec.seed = 10;
	cr_assert_eq(packets_generate(&c, PACKETS_HTTP, &spec), 0);
	cr_expect_eq(memcmp(a.buf, b.buf, a.n * a.size), 0);
	cr_expect_eq(memcmp(a.mark, b.mark, a.n * sizeof(*a.mark)), 0);
	cr_expect_neq(memcmp(a.buf, c.buf, a.n * a.size), 0);
	packets_release(&a);
	packets_release(&b);
	packets_release(&c);
}

Test(payload, bad_specs)
{
	struct packets pk;
	struct packets_spec small = {PACKETS_MIN_SIZE - 1, 10, 0.01, 1};
	struct packets_spec rate = {64, 10, 1.5, 1};

	cr_expect_eq(packets_generate(&pk, PACKETS_LITERAL, &small), -1);
	cr_expect_eq(packets_generate(&pk, PACKETS_LITERAL, &rate), -1);
}

/* Compile each built-in rule alone with PCRE2. */
static void compile_rules(const struct engine *e, struct ruleset *rs,
			  void **h)
{
	cr_assert_eq(rules_builtin(rs), 0);
	for (size_t r = 0; r < rs->n; r++) {
		/* a built-in rule is one pattern: pattern r is rule r */
		struct engine_pattern p = {rs->p[r].re, rs->p[r].len};
		struct engine_error err = {0, -1, -1, ""};
		cr_assert_eq(e->compile(&p, 1, rs->p[r].flags, &h[r], &err), 0,
			     "%s: %s", rs->r[r].name, err.msg);
	}
}

/* Does flow f match only as a stream: no packet of it alone does? */
static int split_only(const struct packets *pk, size_t f)
{
	for (size_t i = pk->flow[f]; i < pk->flow[f + 1]; i++)
		if (pk->mark[i] != 0)
			return 0;
	return pk->flow_mark[f] != 0;
}

/* The mask of the rules h[0..n) that match p (bit r: rule r). */
static uint32_t rules_mask(const struct engine *e, void *const *h, size_t n,
			   const struct packet *p)
{
	uint32_t got = 0;

	for (size_t r = 0; r < n; r++)
		got |= (uint32_t)(e->is_match(h[r], p->p, p->len) == 1) << r;
	return got;
}

/* PCRE2 per rule on every reassembled flow = the flow's mark; *split
 * counts the flows no packet of which matches alone. */
static void check_http_flows(const struct engine *e, void *const *h,
			     size_t n, const struct packets *pk, size_t *split)
{
	struct packets view;

	cr_assert_eq(packets_flow_view(pk, &view), 0);
	for (size_t f = 0; f < view.n; f++) {
		uint32_t got = rules_mask(e, h, n, &view.pkt[f]);
		cr_assert_eq(got, view.mark[f], "size %zu flow %zu: matched %#x, "
			     "planted %#x", pk->size, f, got, view.mark[f]);
		*split += (size_t)split_only(pk, f);
	}
	packets_release(&view);
}

/*
 * PCRE2's answer per rule equals the planted mask on every packet, and
 * on every flow reassembled.
 */
Test(payload, http_marks_are_exact)
{
	const struct engine *e = engine_find("pcre2");
	struct ruleset rs;
	void *h[RULE_BUILTIN_COUNT];
	uint32_t seen = 0;
	size_t planted = 0, split = 0;

	cr_assert_not_null(e, "built without PCRE2");
	ruleset_init(&rs);
	compile_rules(e, &rs, h);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct packets_spec spec = {sizes[s], 2000, 0.25, 3};
		struct packets pk;

		cr_assert_eq(packets_generate(&pk, PACKETS_HTTP, &spec), 0);
		cr_expect_eq(pk.nplanted, 500, "size %zu: every rate slot planted",
			     sizes[s]);
		for (size_t i = 0; i < pk.n; i++) {
			uint32_t got = rules_mask(e, h, rs.n, &pk.pkt[i]);
			cr_assert_eq(got, pk.mark[i], "size %zu packet %zu: "
				     "matched %#x, planted %#x: %.*s", sizes[s], i,
				     got, pk.mark[i], (int)pk.pkt[i].len,
				     pk.pkt[i].p);
			seen |= got;
		}
		check_http_flows(e, h, rs.n, &pk, &split);
		planted += pk.nplanted;
		packets_release(&pk);
	}
	cr_expect_eq(seen, (1u << RULE_BUILTIN_COUNT) - 1,
		     "every rule fires somewhere: %#x", seen);
	cr_expect_gt(planted, 0);
	cr_expect_gt(split, 0, "a log4shell split across packets somewhere");
	for (size_t r = 0; r < rs.n; r++)
		e->free(h[r]);
	rules_release(&rs);
}

/* ---- flows: the planted truth per flow, stream against block ---- */

/* The literal / pri.*ate reference on each reassembled flow = flow_mark. */
static void check_flows(enum packets_kind kind, size_t size)
{
	struct packets_spec spec = {size, 3000, 0.1, 42};
	struct packets pk, view;
	size_t split = 0;

	cr_assert_eq(packets_generate(&pk, kind, &spec), 0);
	cr_assert_eq(packets_flow_view(&pk, &view), 0);
	cr_assert_eq(view.n, pk.nflows);
	cr_expect_gt(pk.nflows, pk.n / PACKETS_FLOW_MAX);
	for (size_t f = 0; f < view.n; f++) {
		const struct packet *p = &view.pkt[f];
		int ref = kind == PACKETS_LITERAL
				  ? memmem(p->p, p->len, "private", 7) != NULL
				  : packets_has_pri_ate(p->p, p->len);
		size_t np = pk.flow[f + 1] - pk.flow[f];
		cr_assert(np >= 1 && np <= PACKETS_FLOW_MAX);
		cr_assert_eq(ref, (int)view.mark[f], "size %zu flow %zu", size, f);
		split += (size_t)split_only(&pk, f);
	}
	/* a flow with a split plant may hold a planted packet too */
	cr_expect_gt(split, 0, "size %zu: no flow matches only as a stream",
		     size);
	cr_expect_leq(split, pk.nsplit);
	packets_release(&view);
	packets_release(&pk);
}

Test(payload, flow_marks_are_exact)
{
	each_printable(check_flows);
}

/* e's flow handle of mode for re (dotall), or NULL when e has none. */
static void *flow_compile(const struct engine *e, enum engine_flow mode,
			  const char *re)
{
	struct engine_pattern p = {re, strlen(re)};
	struct engine_error err = {0, -1, -1, ""};
	void *h = NULL;

	cr_assert_eq(e->compile_flow(mode, &p, 1, ENGINE_DOTALL, &h, &err), 0,
		     "%s", err.msg);
	return h;
}

/* A flow of literal spans: is_match (ids NULL) and match_ids forms agree. */
static long flow_match(const struct engine *e, void *h, const char *const *s,
		       size_t n)
{
	struct engine_span sp[8];
	unsigned char id = 9;
	long a, b;

	for (size_t k = 0; k < n; k++)
		sp[k] = (struct engine_span){s[k], strlen(s[k])};
	a = e->match_flow(h, sp, n, NULL);
	b = e->match_flow(h, sp, n, &id);
	cr_assert_eq(a, b, "is_match %ld, match_ids %ld", a, b);
	cr_assert_eq(id, (unsigned char)b);
	return a;
}

/*
 * Hyperscan's stream and vector modes find a match split across packets,
 * and one at the stream's end ($, reported when the stream is reset);
 * block mode, packet by packet, does not; state does not leak from one
 * flow into the next.
 */
Test(payload, stream_finds_what_block_cannot)
{
	const struct engine *e = engine_find("hyperscan");
	static const char *const split[] = {"xxpri", "vatexx"};
	static const char *const halves[] = {"vatexx", "xxpri"};
	static const char *const end[] = {"abc", "pri", "vate"};

	if (e == NULL)
		cr_skip_test("built without Hyperscan");
	for (int m = ENGINE_FLOW_STREAM; m <= ENGINE_FLOW_VECTORED; m++) {
		void *h = flow_compile(e, (enum engine_flow)m, "private");
		void *d = flow_compile(e, (enum engine_flow)m, "ate$");
		struct engine_mem mem;

		cr_expect_eq(flow_match(e, h, split, 2), 1, "mode %d", m);
		cr_expect_eq(flow_match(e, h, halves, 2), 0, "mode %d", m);
		cr_expect_eq(flow_match(e, h, split, 1), 0, "mode %d", m);
		cr_expect_eq(flow_match(e, d, end, 3), 1, "mode %d: $", m);
		cr_expect_eq(flow_match(e, d, split, 1), 0, "mode %d", m);
		e->mem(h, &mem);
		cr_expect_gt(mem.db, 0);
		cr_expect_gt(mem.scratch, 0);
		if (m == ENGINE_FLOW_STREAM)
			cr_expect_gt(mem.stream, 0);
		else
			cr_expect_eq(mem.stream, 0);
		e->free(h);
		e->free(d);
	}
}

/* On the generated flows: Hyperscan's stream answer is the planted one,
 * and a flow planted only across packets is one block mode misses. */
Test(payload, stream_answers_are_the_flow_marks)
{
	const struct engine *e = engine_find("hyperscan");
	struct packets_spec spec = {64, 4096, 0.05, 7};
	struct packets pk;
	struct engine_span *sp;
	struct engine_pattern p = {"private", 7};
	struct engine_error err = {0, -1, -1, ""};
	void *blk = NULL, *h;
	size_t missed = 0;

	if (e == NULL)
		cr_skip_test("built without Hyperscan");
	cr_assert_eq(packets_generate(&pk, PACKETS_LITERAL, &spec), 0);
	sp = calloc(pk.n, sizeof(*sp));
	cr_assert_not_null(sp);
	for (size_t i = 0; i < pk.n; i++)
		sp[i] = (struct engine_span){pk.pkt[i].p, pk.pkt[i].len};
	h = flow_compile(e, ENGINE_FLOW_STREAM, "private");
	cr_assert_eq(e->compile(&p, 1, ENGINE_DOTALL, &blk, &err), 0);
	for (size_t f = 0; f < pk.nflows; f++) {
		size_t first = pk.flow[f], n = pk.flow[f + 1] - first;
		int block = 0;
		cr_assert_eq(e->match_flow(h, sp + first, n, NULL),
			     (long)(pk.flow_mark[f] != 0), "flow %zu", f);
		for (size_t i = first; i < first + n; i++)
			block |= e->is_match(blk, pk.pkt[i].p, pk.pkt[i].len);
		missed += pk.flow_mark[f] && !block;
	}
	cr_expect_leq(missed, pk.nsplit);
	cr_expect_gt(missed, 0);
	e->free(h);
	e->free(blk);
	free(sp);
	packets_release(&pk);
}

Test(payload, http_packets_look_like_http)
{
	struct packets_spec spec = {1500, 200, 0, 5};
	struct packets pk;

	cr_assert_eq(packets_generate(&pk, PACKETS_HTTP, &spec), 0);
	cr_expect_eq(pk.nplanted, 0);
	for (size_t i = 0; i < pk.n; i++) {
		cr_expect_not_null(memmem(pk.pkt[i].p, pk.pkt[i].len,
					  " HTTP/1.1\r\nHost: ", 17));
		cr_expect_not_null(memmem(pk.pkt[i].p, pk.pkt[i].len, "\r\n\r\n", 4));
	}
	packets_release(&pk);
	cr_expect_gt(http_attack_count(), RULE_BUILTIN_COUNT);
}

/* ---- the declared tables and verdict (report/layout.c), golden ---- */

static void mpps_sample(struct results *res, const char *name, double mpps,
			double line)
{
	struct result *r = results_add(res, "payload", name);

	result_sample_begin(r, 1000);
	result_metric_add(r, "Mpps", BETTER_HIGHER, mpps);
	result_metric_add(r, "line-Mpps", BETTER_EXACT, line);
}

Test(payload, tables_and_verdict_golden)
{
	double l1500 = packets_linerate_mpps(100, 1500);
	double l64 = packets_linerate_mpps(100, 64);
	struct results res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	results_init(&res);
	cr_assert_eq(suite_layout_fill(&suite_payload, &res), 0);
	mpps_sample(&res, "Payload/scenario=base/size=1500", 16.5, l1500);
	mpps_sample(&res, "Payload/scenario=base/size=64", 300, l64);
	mpps_sample(&res, "Payload/scenario=literal/size=64/engine=hyperscan", 40, l64);
	/* median of three samples: 10 */
	mpps_sample(&res, "Payload/scenario=literal/size=1500/engine=hyperscan", 12, l1500);
	mpps_sample(&res, "Payload/scenario=literal/size=1500/engine=hyperscan", 8, l1500);
	mpps_sample(&res, "Payload/scenario=literal/size=1500/engine=hyperscan", 10, l1500);
	mpps_sample(&res, "Payload/scenario=literal/size=64/engine=re2", 41, l64);
	mpps_sample(&res, "Payload/scenario=real-life/size=64/engine=hyperscan", 0.0512, l64);
	result_set_status(results_add(&res, "payload",
				      "Payload/scenario=full-scan/size=64/engine=hyperscan"),
			  RESULT_MISMATCH, "x");
	mpps_sample(&res, "Payload/scenario=full-scan/size=64/engine=re2", 1, l64);
	cr_assert_eq(text_write_suite(f, &res, "payload", NULL), 0);
	fclose(f);
	check_golden("golden/payload_table.txt", buf);
	/* re2 is faster at 64 bytes, hyperscan at 1500 (re2 did not run it) */
	cr_expect(strstr(buf, "| literal   | 64   | re2  ") != NULL, "%s", buf);
	cr_expect(strstr(buf, "1 failed") != NULL, "%s", buf);
	free(buf);
	results_release(&res);
}

/* The costliest table: ranked by ns/op, a rule over half the packets
 * flagged even below the top, the sum beside the whole set. */
static void rule_sample(struct results *res, const char *name, double ns,
			double share)
{
	struct result *r = results_add(res, "payload", name);

	result_sample_begin(r, 1000);
	result_metric_add(r, "ns/op", BETTER_LOWER, ns);
	result_metric_add(r, "%packets", BETTER_EXACT, share);
}

Test(payload, costliest_rules_table)
{
	struct results res;
	char *buf = NULL, name[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *first, *second, *flag;

	results_init(&res);
	cr_assert_eq(suite_layout_fill(&suite_payload, &res), 0);
	for (int i = 1; i <= 12; i++) {
		snprintf(name, sizeof(name), "Payload/rule=id%d/bytes=512/"
			 "engine=re2", i);
		rule_sample(&res, name, 100.0 * i, i == 1 ? 100 : 0);
	}
	rule_sample(&res, "Payload/scenario=real-life/size=512/engine=re2",
		    3900, 100);
	cr_assert_eq(text_write_suite(f, &res, "payload", NULL), 0);
	fclose(f);
	first = strstr(buf, "|    1 | id12 ");
	second = strstr(buf, "|    2 | id11 ");
	flag = strstr(buf, "|   12 | id1 ");
	cr_expect(first != NULL && second != NULL && first < second, "%s", buf);
	cr_expect(flag != NULL && strstr(flag, "matches over 50 %packets") != NULL,
		  "id1 (100%% of packets, the cheapest) is flagged: %s", buf);
	cr_expect(strstr(buf, "|    3 | id10 ") != NULL &&
		  strstr(buf, "| id2 ") == NULL, "the top 10, not id2: %s", buf);
	cr_expect(strstr(buf, "sum of the 12") != NULL, "%s", buf);
	cr_expect(strstr(buf, "the sum is 2x the set") != NULL, "7800 / 3900: %s",
		  buf);
	free(buf);
	results_release(&res);
}

/* ---- real-life verification (suites/payload_reallife.c) ---- */

#define MAX_ENGINES 3

/*
 * Engines verified on a rule set over packets (the built-in rules on
 * generated HTTP packets, or a user's rules on packets written here), as
 * in a run: the real-life row of the scenario table at one size, planned
 * through payload_plan().
 */
struct rl_test {
	const struct engine *e[MAX_ENGINES];
	struct reallife rl;
	struct payload_run run;
	struct scen_run sr;
	struct scen_size ss;
	struct packets gen;
	struct packet hand[8]; /* packets written by the test */
	struct packets handpk;
	struct results res;
	struct plan plan;
	struct bench_opts opts;
	struct suite_ctx ctx;
};

/* --threads for the runs below: set by a test, 0 counts without. */
static struct {
	size_t n[1];
	size_t k;
	int cpu[BENCH_MAX_THREADS];
} rl_threads;

static void rl_init(struct rl_test *t, const struct engine *const *e,
		    size_t n, const char *label, double timeout_ns)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		cr_assert_not_null(e[i]);
		t->e[i] = e[i];
	}
	t->run = (struct payload_run){.engines = t->e, .neng = n, .nin = 1,
				      .link_gbps = 100, .sr = &t->sr, .nsr = 1,
				      .ss = &t->ss};
	t->run.threads = rl_threads.n;
	t->run.nthreads = rl_threads.k;
	t->run.cpu = rl_threads.cpu;
	snprintf(t->run.in[0].label, sizeof(t->run.in[0].label), "%s", label);
	t->sr = (struct scen_run){payload_scenario("real-life"), &t->rl};
	cr_assert_not_null(t->sr.sc);
	t->ss = (struct scen_size){.run = &t->run, .sr = &t->sr,
				   .in = &t->run.in[0]};
	t->opts = (struct bench_opts){.isolate = 1, .timeout_ns = timeout_ns};
	t->ctx = (struct suite_ctx){.engines = t->e, .nengines = n,
				    .opts = &t->opts, .plan = &t->plan,
				    .results = &t->res};
	results_init(&t->res);
}

/* Compile the rules for every engine (expecting `refused` rows), plan. */
static void rl_run(struct rl_test *t, size_t refused)
{
	cr_assert_eq(payload_rules_group(&t->rl.pr), 0);
	cr_assert_eq(payload_rules_reference(&t->rl.pr), 0);
	cr_assert_eq(payload_rules_setup(&t->rl, &t->run, &t->ctx), 0);
	cr_assert_eq(t->res.n, refused, "%zu rows after compiling", t->res.n);
	cr_assert_eq(payload_plan(&t->ss, &t->ctx), 0);
}

/* Engines a and b on the built-in rules over generated HTTP packets. */
static void rl_builtin(struct rl_test *t, const struct engine *a,
		       const struct engine *b, const char *label, size_t size,
		       size_t npackets, double timeout_ns)
{
	const struct engine *e[] = {a, b};
	struct packets_spec spec = {size, npackets, 0.2, 5};

	rl_init(t, e, 2, label, timeout_ns);
	t->run.in[0].size = size;
	cr_assert_eq(rules_builtin(&t->rl.pr.rs), 0);
	t->rl.pr.builtin = 1;
	cr_assert_eq(packets_generate(&t->gen, PACKETS_HTTP, &spec), 0);
	t->ss.pk = &t->gen;
	rl_run(t, 0);
}

/* Engines e[0..n) on the Snort rules `text` over the packets pkts. */
static void rl_snort(struct rl_test *t, const struct engine *const *e,
		     size_t n, const char *text, const char *const *pkts,
		     size_t npkts, size_t refused)
{
	char err[256];

	cr_assert_leq(npkts, sizeof(t->hand) / sizeof(t->hand[0]));
	rl_init(t, e, n, "hand", 60e9);
	cr_assert_eq(rules_parse(&t->rl.pr.rs, "mem.rules", text, strlen(text),
				 RULES_SNORT, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < npkts; i++)
		t->hand[i] = (struct packet){pkts[i], strlen(pkts[i])};
	t->handpk = (struct packets){.pkt = t->hand, .n = npkts};
	t->ss.pk = &t->handpk;
	rl_run(t, refused);
}

static void rl_release(struct rl_test *t)
{
	payload_size_release(&t->ss);
	payload_rules_teardown(&t->rl);
	packets_release(&t->gen);
	plan_release(&t->plan);
	results_release(&t->res);
}

/* Engine e's real-life benchmark, NULL when it was not planned. */
static const struct bench *rl_bench(const struct rl_test *t, const char *e)
{
	char name[256];

	snprintf(name, sizeof(name), "Payload/scenario=real-life/size=%s/"
		 "engine=%s", t->run.in[0].label, e);
	for (size_t i = 0; i < t->plan.n; i++)
		if (strcmp(t->plan.b[i].name, name) == 0)
			return &t->plan.b[i];
	return NULL;
}

/* Engine e's row, NULL when it has none. */
static const struct result *rl_row(const struct rl_test *t, const char *e)
{
	char name[256];

	snprintf(name, sizeof(name), "Payload/scenario=real-life/size=%s/"
		 "engine=%s", t->run.in[0].label, e);
	return results_find(&t->res, name);
}

/* The matching packets engine e's benchmark records (-1: not planned). */
static double rl_matches(const struct rl_test *t, const char *e)
{
	const struct bench *b = rl_bench(t, e);

	for (size_t i = 0; b != NULL && i < b->nextra; i++)
		if (strcmp(b->extra[i].unit, "matches") == 0)
			return b->extra[i].value;
	return -1;
}

/* PCRE2, except that it never reports rule sqli-union: a broken engine. */
static long blind_match_ids(void *h, const char *data, size_t len,
			    unsigned char *ids)
{
	long n = engine_find("pcre2")->match_ids(h, data, len, ids);

	if (n > 0 && ids[RULE_SQLI_UNION]) {
		ids[RULE_SQLI_UNION] = 0;
		n--;
	}
	return n;
}

/* Packets whose planted mark has bit r: what rule r must match. */
static size_t planted_for(const struct packets *pk, size_t r)
{
	size_t n = 0;

	for (size_t i = 0; i < pk->n; i++)
		n += (pk->mark[i] >> r) & 1;
	return n;
}

/*
 * A wrong rule is a mismatch naming the rule and its count of packets
 * against the expected count; every rule's count is verified.
 */
Test(payload, reallife_verification_catches_a_wrong_rule)
{
	const struct engine *pcre2 = engine_find("pcre2");
	struct engine blind = *pcre2;
	struct rl_test t;
	const struct result *r;
	char want[160];

	blind.name = "blind";
	blind.match_ids = blind_match_ids;
	rl_builtin(&t, pcre2, &blind, "256", 256, 3000, 60e9);
	cr_expect_not_null(rl_bench(&t, "pcre2"));
	cr_expect_null(rl_bench(&t, "blind"));
	cr_expect_eq(rl_matches(&t, "pcre2"), (double)t.gen.nplanted);
	for (size_t k = 0; k < RULE_BUILTIN_COUNT; k++)
		cr_expect_eq(payload_rules_matched(&t.ss, k),
			     planted_for(&t.gen, k), "rule %s",
			     t.rl.pr.rs.r[k].name);
	r = rl_row(&t, "blind");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_MISMATCH);
	snprintf(want, sizeof(want), "rule sqli-union (built-in) matches 0 of "
		 "3000 packets, planted %zu; 1 of 10 rules differ, on %zu "
		 "packets", planted_for(&t.gen, RULE_SQLI_UNION),
		 planted_for(&t.gen, RULE_SQLI_UNION));
	cr_expect_gt(planted_for(&t.gen, RULE_SQLI_UNION), 0);
	cr_expect_not_null(strstr(r->message, want), "%s", r->message);
	cr_expect_not_null(strstr(r->message, "match 0, planted 1"), "%s",
			   r->message);
	rl_release(&t);
}

/* Packets for the hand-written rules below. */
static const char *const hand_packets[] = {
	"GET /private/a HTTP/1.1",
	"GET /Admin/ HTTP/1.1",
	"POST /x HTTP/1.1",
	"hello",
};

/*
 * Snort's negated options: pcre:! and content:! hold where their regex
 * does not match, and a rule holds when all its conditions do (the issue:
 * pcre:!"/private/" was counted as matching "private").
 */
Test(payload, reallife_negated_conditions)
{
	const char *rules =
		"alert tcp any any -> any any (pcre:!\"/private/\"; sid:7;)\n"
		"alert tcp any any -> any any (content:\"GET\"; "
		"pcre:!\"/admin/i\"; sid:8;)\n"
		"alert tcp any any -> any any (content:!\"x\"; content:!\"y\"; "
		"pcre:\"/./s\"; sid:9;)\n";
	const struct engine *e[] = {engine_find("pcre2"),
				    engine_find("pcre2-jit"),
				    engine_find("posix")};
	struct rl_test t;

	rl_snort(&t, e, 3, rules, hand_packets, 4, 0);
	cr_assert_eq(t.rl.pr.rs.n, 3);
	for (size_t k = 0; k < 3; k++)
		cr_expect_eq(rl_matches(&t, e[k]->name), 4,
			     "%s: every packet matches some rule", e[k]->name);
	cr_expect_eq(payload_rules_matched(&t.ss, 0), 3,
		     "not private: all but packet 0");
	cr_expect_eq(payload_rules_matched(&t.ss, 1), 1,
		     "GET and not admin: packet 0");
	cr_expect_eq(payload_rules_matched(&t.ss, 2), 3,
		     "neither x nor y: all but packet 2");
	cr_expect_eq(t.res.n, 0);
	rl_release(&t);
}

/* PCRE2, except that it never reports a set's pattern 0. */
static long blind0_match_ids(void *h, const char *data, size_t len,
			     unsigned char *ids)
{
	long n = engine_find("pcre2")->match_ids(h, data, len, ids);

	if (n > 0 && ids[0]) {
		ids[0] = 0;
		n--;
	}
	return n;
}

/* An engine wrong on a negated condition: named with its rule's counts. */
Test(payload, reallife_wrong_negation_is_a_mismatch)
{
	const char *rules =
		"alert tcp any any -> any any (pcre:!\"/private/\"; sid:7;)\n"
		"alert tcp any any -> any any (content:\"GET\"; "
		"pcre:!\"/admin/\"; sid:8;)\n";
	struct engine blind = *engine_find("pcre2");
	const struct engine *e[] = {engine_find("pcre2"),
				    engine_find("pcre2-jit"), &blind};
	struct rl_test t;
	const struct result *r;

	blind.name = "blind";
	blind.match_ids = blind0_match_ids;
	rl_snort(&t, e, 3, rules, hand_packets, 4, 0);
	cr_expect_not_null(rl_bench(&t, "pcre2"));
	cr_expect_not_null(rl_bench(&t, "pcre2-jit"));
	cr_expect_null(rl_bench(&t, "blind"));
	cr_expect_eq(payload_rules_matched(&t.ss, 0), 3);
	cr_expect_eq(payload_rules_matched(&t.ss, 1), 2,
		     "/admin/ is case-sensitive here");
	r = rl_row(&t, "blind");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_MISMATCH);
	cr_expect_not_null(strstr(r->message, "rule sid7 (mem.rules:1 (sid 7)) "
				  "matches 4 of 4 packets, reference 3; 1 of 2 "
				  "rules differ, on 1 packets; first: packet 0, "
				  "match 1, reference 0; rule not /private/"),
			   "%s", r->message);
	rl_release(&t);
}

/* PCRE2 whose sets (not single patterns) refuse the pattern "blame". */
static int picky_compile(const struct engine_pattern *pats, size_t n,
			 unsigned flags, void **out, struct engine_error *err)
{
	for (size_t k = 0; n > 1 && k < n; k++)
		if (pats[k].len == 5 && memcmp(pats[k].re, "blame", 5) == 0) {
			engine_error_set(err, ENGINE_ERR_UNSUPPORTED, (long)k, -1,
					 "too picky for a set");
			return ENGINE_ERR_UNSUPPORTED;
		}
	return engine_find("pcre2")->compile(pats, n, flags, out, err);
}

/*
 * A rule whose pattern a set refuses is dropped whole: its other
 * patterns leave the sets built before, and the other rules still run.
 */
Test(payload, reallife_set_refusal_drops_the_whole_rule)
{
	const char *rules =
		"alert tcp any any -> any any (pcre:\"/GET/\"; pcre:\"/blame/i\"; "
		"sid:1;)\n"
		"alert tcp any any -> any any (pcre:\"/hello/i\"; sid:2;)\n";
	struct engine picky = *engine_find("pcre2");
	const struct engine *e[] = {&picky};
	struct rl_test t;
	const struct result *r;
	const struct peng *pe;

	picky.name = "picky";
	picky.compile = picky_compile;
	rl_snort(&t, e, 1, rules, hand_packets, 4, 1);
	r = results_find(&t.res, "Payload/scenario=real-life/engine=picky/rule=sid1");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_UNSUPPORTED);
	cr_expect_not_null(strstr(r->message, "picky cannot compile rule sid1 "
				  "(mem.rules:1 (sid 1)), condition 2 of 2 "
				  "/blame/: too picky for a set"),
			   "%s", r->message);
	pe = &t.rl.eng[0];
	cr_expect_eq(pe->nok, 1);
	cr_expect_eq(pe->ok[0], 0);
	cr_expect_eq(pe->ok[1], 1);
	cr_assert_eq(t.rl.pr.ngroups, 2);
	cr_expect_null(pe->sets[0].h, "GET went with its rule");
	cr_expect_eq(pe->sets[1].n, 1, "hello alone");
	cr_expect_not_null(rl_bench(&t, "picky"), "the reference verifies it");
	cr_expect_eq(payload_rules_matched(&t.ss, 1), 1);
	rl_release(&t);
}

/* PCRE2, except that it never answers while verifying: a stuck engine. */
static long stuck_match_ids(void *h, const char *data, size_t len,
			    unsigned char *ids)
{
	struct timespec second = {1, 0};

	while (engine_phase == ENGINE_PHASE_VERIFY)
		nanosleep(&second, NULL);
	return engine_find("pcre2")->match_ids(h, data, len, ids);
}

/* A stuck engine is a timeout row after --timeout; the others verify. */
Test(payload, reallife_verification_has_a_time_limit)
{
	const struct engine *pcre2 = engine_find("pcre2");
	struct engine stuck = *pcre2;
	struct rl_test t;
	const struct result *r;

	stuck.name = "stuck";
	stuck.match_ids = stuck_match_ids;
	rl_builtin(&t, &stuck, pcre2, "64", 64, 600, 200e6);
	cr_expect_null(rl_bench(&t, "stuck"));
	cr_expect_eq(rl_matches(&t, "pcre2"), (double)t.gen.nplanted);
	r = rl_row(&t, "stuck");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_TIMEOUT);
	cr_expect_not_null(strstr(r->message, "stuck: real-life, size 64: no "
					      "answer within 0.2s while "
					      "verifying"),
			   "%s", r->message);
	cr_expect_not_null(strstr(r->message, "on packet 0 "), "%s", r->message);
	cr_expect_eq(t.res.n, 1, "one row: the stuck engine's");
	rl_release(&t);
}

/*
 * Verification that cannot be outvoted: a rule out of the reference's
 * reach (a backreference) is decided only by a strict majority of at
 * least three libraries of every engine built (not only the run's);
 * pcre2 and pcre2-jit are one library, so with onig beside them boost's
 * vote makes the third.  A rule in reach is checked against
 * the reference even when two engines agree on a wrong answer.
 */
Test(payload, reallife_out_of_reach_needs_three_libraries)
{
	const char *rules =
		"alert tcp any any -> any any (pcre:\"/(T)\\1/\"; sid:1;)\n";
	static const char *const pkts[] = {"GET /aTTb", "GET /x", "TT"};
	const struct engine *e[] = {engine_find("pcre2"),
				    engine_find("pcre2-jit"),
				    engine_find("onig")};
	struct rl_test t;

	if (e[2] == NULL || engine_find("boost") == NULL)
		cr_skip_test("onig or boost not built");
	rl_snort(&t, e, 3, rules, pkts, 3, 0);
	cr_expect_eq(t.rl.pr.by_ref[0], 0, "a backreference is out of reach");
	/* pcre2 and pcre2-jit are one library, but every engine built votes
	   (suites/case.h): boost makes the third */
	cr_expect_eq(t.res.n, 0, "no unverified row, no mismatch");
	cr_assert_eq(t.plan.n, 3, "every engine verified and timed");
	for (size_t i = 0; i < t.plan.n; i++)
		cr_expect(strstr(t.plan.b[i].verified, "majority of at least 3 "
				 "libraries: 1 rule (voting: boost, ") != NULL,
			  "%s", t.plan.b[i].verified);
	rl_release(&t);
}

/* Two engines that agree on a wrong answer are still a mismatch. */
static long wrong_match_ids(void *h, const char *data, size_t len,
			    unsigned char *ids)
{
	long n = engine_find("pcre2")->match_ids(h, data, len, ids);

	ids[0] = !ids[0];
	return ids[0] ? n + 1 : n - 1;
}

Test(payload, reallife_reference_beats_a_majority)
{
	const char *rules = "alert tcp any any -> any any (pcre:\"/admin/\"; sid:3;)\n";
	struct engine w1 = *engine_find("pcre2"), w2 = *engine_find("pcre2");
	const struct engine *e[] = {&w1, &w2, engine_find("pcre2-jit")};
	struct rl_test t;

	w1.name = "wrong1";
	w1.library = "wrong1";
	w1.match_ids = wrong_match_ids;
	w2.name = "wrong2";
	w2.library = "wrong2";
	w2.match_ids = wrong_match_ids;
	rl_snort(&t, e, 3, rules, hand_packets, 4, 0);
	cr_expect_eq(t.rl.pr.by_ref[0], 1);
	cr_expect_null(rl_bench(&t, "wrong1"));
	cr_expect_null(rl_bench(&t, "wrong2"));
	cr_expect_not_null(rl_bench(&t, "pcre2-jit"), "the one right engine is timed");
	cr_expect_eq(payload_rules_matched(&t.ss, 0), 0, "/admin/ matches no packet");
	rl_release(&t);
}

/* ---- on threads (--threads, suites/payload_threads.c) ---- */

/* Two threads on the CPUs of the affinity mask; 0, or -1 with fewer. */
static int rl_two_threads(void)
{
	memset(&rl_threads, 0, sizeof(rl_threads));
	if (bench_cpus(rl_threads.cpu, BENCH_MAX_THREADS) < 2)
		return -1;
	rl_threads.n[0] = 2;
	rl_threads.k = 1;
	return 0;
}

/* Time the plan's benchmarks (a few ops each, isolated) into t->res. */
static void rl_time(struct rl_test *t)
{
	struct bench_opts o = {.fixed_n = 200, .count = 1, .isolate = 1,
			       .timeout_ns = 60e9, .no_alloc = 1};

	harness_run(&t->plan, &o, &t->res, NULL, NULL);
}

static double row_metric(const struct result *r, const char *unit)
{
	for (size_t i = 0; r != NULL && i < r->nm; i++)
		if (strcmp(r->m[i].unit, unit) == 0)
			return r->m[i].v[0];
	return NAN;
}

/*
 * --threads=2: the case's answer verified once, its one-thread benchmark
 * as before and one on two threads whose shares' verified answers add up
 * to the case's; timed, every thread's answer equals its share's; an
 * engine without per-thread state is unsupported on two threads.
 */
Test(payload, threads_give_the_verified_answers)
{
	const struct engine *pcre2 = engine_find("pcre2");
	const struct engine *dfa = engine_find("pcre2-dfa");
	const struct bench *b;
	const struct result *r;
	struct rl_test t;
	uint64_t sum = 0;

	if (rl_two_threads() != 0)
		cr_skip_test("fewer than 2 CPUs in the affinity mask");
	cr_assert_null(dfa->thread_new, "pcre2-dfa gained thread_new: pick "
		       "another engine without it");
	rl_builtin(&t, pcre2, dfa, "256", 256, 3000, 60e9);
	cr_assert_not_null(rl_bench(&t, "pcre2"));
	b = rl_bench(&t, "pcre2/threads=2");
	cr_assert_not_null(b);
	cr_assert_not_null(b->threads);
	cr_expect_eq(b->threads->n, 2);
	cr_expect_eq(b->threads->pass[0] + b->threads->pass[1], 3000);
	for (size_t k = 0; k < RULE_BUILTIN_COUNT; k++)
		sum += planted_for(&t.gen, k);
	cr_expect_eq(b->threads->want[0] + b->threads->want[1], sum);
	cr_expect_eq(rl_matches(&t, "pcre2/threads=2"), rl_matches(&t, "pcre2"));
	r = rl_row(&t, "pcre2-dfa/threads=2");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_UNSUPPORTED);
	cr_expect_not_null(strstr(r->message, "no per-thread matching state"),
			   "%s", r->message);
	cr_expect_null(rl_bench(&t, "pcre2-dfa/threads=2"));
	cr_expect_not_null(rl_bench(&t, "pcre2-dfa"));
	rl_time(&t);
	r = rl_row(&t, "pcre2/threads=2");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_OK, "%s", r->message);
	cr_expect_eq(row_metric(r, "threads"), 2);
	cr_expect_gt(row_metric(r, "agg-Mpps"), 0);
	cr_expect_gt(row_metric(r, "efficiency"), 0);
	cr_expect(!isnan(row_metric(r, "threads-line")) ||
		  !isnan(row_metric(r, "threads-line-computed")));
	cr_expect(isnan(row_metric(r, "Mpps")), "a one-core unit on threads");
	cr_expect_eq(rl_row(&t, "pcre2")->status, RESULT_OK);
	rl_release(&t);
	memset(&rl_threads, 0, sizeof(rl_threads));
}

/* The thread states handed out by buggy_thread_new, to recognise them. */
static void *buggy_states[8];

static void *buggy_thread_new(void *h)
{
	void *t = engine_find("pcre2")->thread_new(h);

	for (size_t i = 0; t != NULL && i < 8; i++)
		if (__sync_bool_compare_and_swap(&buggy_states[i], NULL, t))
			break;
	return t;
}

static void buggy_thread_free(void *t)
{
	for (size_t i = 0; i < 8; i++)
		__sync_bool_compare_and_swap(&buggy_states[i], t, NULL);
	engine_find("pcre2")->thread_free(t);
}

/* PCRE2, blind to rule sqli-union on a thread's state only. */
static long buggy_match_ids(void *h, const char *data, size_t len,
			    unsigned char *ids)
{
	for (size_t i = 0; i < 8; i++)
		if (buggy_states[i] == h)
			return blind_match_ids(h, data, len, ids);
	return engine_find("pcre2")->match_ids(h, data, len, ids);
}

/* An engine right on one thread and wrong on two: a failed row, no time. */
Test(payload, threads_wrong_answer_is_a_mismatch_row)
{
	const struct engine *pcre2 = engine_find("pcre2");
	struct engine buggy = *pcre2;
	const struct result *r;
	struct rl_test t;

	if (rl_two_threads() != 0)
		cr_skip_test("fewer than 2 CPUs in the affinity mask");
	buggy.name = "buggy";
	buggy.thread_new = buggy_thread_new;
	buggy.thread_free = buggy_thread_free;
	buggy.match_ids = buggy_match_ids;
	rl_builtin(&t, pcre2, &buggy, "256", 256, 3000, 60e9);
	cr_assert_not_null(rl_bench(&t, "buggy"));
	cr_assert_not_null(rl_bench(&t, "buggy/threads=2"));
	rl_time(&t);
	cr_expect_eq(rl_row(&t, "buggy")->status, RESULT_OK);
	r = rl_row(&t, "buggy/threads=2");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_MISMATCH, "%s", r->message);
	cr_expect_not_null(strstr(r->message, "(rule, packet) matches over its "
				  "share, verified"), "%s", r->message);
	cr_expect_eq(r->nsamples, 0);
	rl_release(&t);
	memset(&rl_threads, 0, sizeof(rl_threads));
}
