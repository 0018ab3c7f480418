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
#include "report/table.h"
#include "suites/payload.h"

#include "golden.h"

static const size_t sizes[] = {64, 128, 256, 512, 1000, 1500};

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
		int pri = memmem(p->p, p->len, "pri", 3) != NULL;

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

Test(payload, filler_never_matches)
{
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		check_reference(PACKETS_LITERAL, sizes[s]);
		check_reference(PACKETS_FULLSCAN, sizes[s]);
	}
	check_reference(PACKETS_FULLSCAN, PACKETS_MIN_SIZE);
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

/* PCRE2's answer per rule equals the planted mask on every packet. */
Test(payload, http_marks_are_exact)
{
	const struct engine *e = engine_find("pcre2");
	struct ruleset rs;
	void *h[RULE_BUILTIN_COUNT];
	uint32_t seen = 0;
	size_t planted = 0;

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
			uint32_t got = 0;
			for (size_t r = 0; r < rs.n; r++)
				got |= (uint32_t)(e->is_match(h[r], pk.pkt[i].p,
							      pk.pkt[i].len) == 1) << r;
			cr_assert_eq(got, pk.mark[i], "size %zu packet %zu: "
				     "matched %#x, planted %#x: %.*s", sizes[s], i,
				     got, pk.mark[i], (int)pk.pkt[i].len,
				     pk.pkt[i].p);
			seen |= got;
		}
		planted += pk.nplanted;
		packets_release(&pk);
	}
	cr_expect_eq(seen, (1u << RULE_BUILTIN_COUNT) - 1,
		     "every rule fires somewhere: %#x", seen);
	cr_expect_gt(planted, 0);
	for (size_t r = 0; r < rs.n; r++)
		e->free(h[r]);
	rules_release(&rs);
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

/* ---- the per-engine tables (report/table.c), against a golden file ---- */

static void mpps_sample(struct results *res, const char *name, double mpps)
{
	struct result *r = results_add(res, "payload", name);

	result_sample_begin(r, 1000);
	result_metric_add(r, "Mpps", BETTER_HIGHER, mpps);
}

Test(payload, table_golden)
{
	static const struct table_column cols[] = {
		{"base", "base", 0},
		{"literal", "literal", 1},
		{"full-scan", "full payload scan", 1},
		{"real-life", "real-life", 1},
	};
	const char *sizes[] = {"1500", "64"};
	double lr[] = {packets_linerate_mpps(100, 1500),
		       packets_linerate_mpps(100, 64)};
	struct table_spec spec = {"Payload", "hyperscan", "hyperscan 5.4: test",
				  sizes, lr, 2, cols, 4, "real-life",
				  "* partial: 9 of 10 rules"};
	struct results res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	results_init(&res);
	mpps_sample(&res, "Payload/scenario=base/size=1500", 16.5);
	mpps_sample(&res, "Payload/scenario=base/size=64", 300);
	mpps_sample(&res, "Payload/scenario=literal/size=64/engine=hyperscan", 40);
	/* median of three samples: 10 */
	mpps_sample(&res, "Payload/scenario=literal/size=1500/engine=hyperscan", 12);
	mpps_sample(&res, "Payload/scenario=literal/size=1500/engine=hyperscan", 8);
	mpps_sample(&res, "Payload/scenario=literal/size=1500/engine=hyperscan", 10);
	mpps_sample(&res, "Payload/scenario=real-life/size=64/engine=hyperscan", 0.0512);
	result_set_status(results_add(&res, "payload",
				      "Payload/scenario=full-scan/size=64/engine=hyperscan"),
			  RESULT_MISMATCH, "x");
	mpps_sample(&res, "Payload/scenario=full-scan/size=64/engine=re2", 1);
	table_write_payload(f, &res, &spec);
	fclose(f);
	check_golden("golden/payload_table.txt", buf);
	free(buf);
	results_release(&res);
}

/* ---- real-life verification (suites/payload_rules.c) ---- */

#define MAX_ENGINES 3

/*
 * Engines verified on a rule set over packets (the built-in rules on
 * generated HTTP packets, or a user's rules on packets written here),
 * each answer from a verifying child as in a run.
 */
struct reallife {
	struct payload_rules pr;
	struct peng pes[MAX_ENGINES];
	size_t npes;
	struct size_in in;
	struct packet hand[8]; /* packets written by the test */
	struct packets handpk;
	struct results res;
	struct plan plan;
	struct bench_opts opts;
	struct suite_ctx ctx;
	unsigned char ok[MAX_ENGINES];
	size_t matched[MAX_ENGINES];
	size_t unverified[MAX_ENGINES];
	size_t *rule_matched;
	char by[256];
};

static void reallife_init(struct reallife *t, const struct engine *const *e,
			  size_t n, const char *label, double timeout_ns)
{
	memset(t, 0, sizeof(*t));
	t->npes = n;
	for (size_t i = 0; i < n; i++) {
		cr_assert_not_null(e[i]);
		t->pes[i].e = e[i];
		t->ok[i] = 1;
	}
	snprintf(t->in.label, sizeof(t->in.label), "%s", label);
	t->opts = (struct bench_opts){.isolate = 1, .timeout_ns = timeout_ns};
	t->ctx = (struct suite_ctx){.opts = &t->opts, .plan = &t->plan,
				    .results = &t->res};
	results_init(&t->res);
}

/* Compile pr for every engine (expecting `refused` rows) and verify. */
static void reallife_run(struct reallife *t, size_t refused)
{
	cr_assert_eq(payload_rules_group(&t->pr), 0);
	cr_assert_eq(payload_rules_reference(&t->pr), 0);
	for (size_t e = 0; e < t->npes; e++)
		cr_assert_eq(payload_rules_compile(&t->ctx, &t->pr, &t->pes[e]), 0);
	cr_assert_eq(t->res.n, refused, "%zu rows after compiling", t->res.n);
	t->rule_matched = calloc(t->pr.rs.n, sizeof(*t->rule_matched));
	cr_assert_not_null(t->rule_matched);
	cr_assert_eq(payload_rules_verify(&t->ctx, &t->pr, t->pes, t->npes,
					  &t->in, t->ok, t->unverified,
					  t->matched, t->rule_matched, t->by,
					  sizeof(t->by)),
		     0);
}

/* Engines a and b on the built-in rules over generated HTTP packets. */
static void reallife_verify(struct reallife *t, const struct engine *a,
			    const struct engine *b, const char *label,
			    size_t size, size_t npackets, double timeout_ns)
{
	const struct engine *e[] = {a, b};
	struct packets_spec spec = {size, npackets, 0.2, 5};

	reallife_init(t, e, 2, label, timeout_ns);
	t->in.size = size;
	cr_assert_eq(rules_builtin(&t->pr.rs), 0);
	t->pr.builtin = 1;
	cr_assert_eq(packets_generate(&t->in.gen[2], PACKETS_HTTP, &spec), 0);
	t->in.corpus[SC_REALLIFE] = &t->in.gen[2];
	reallife_run(t, 0);
}

/* Engines e[0..n) on the Snort rules `text` over the packets pkts. */
static void reallife_snort(struct reallife *t, const struct engine *const *e,
			   size_t n, const char *text, const char *const *pkts,
			   size_t npkts, size_t refused)
{
	char err[256];

	cr_assert_leq(npkts, sizeof(t->hand) / sizeof(t->hand[0]));
	reallife_init(t, e, n, "hand", 60e9);
	cr_assert_eq(rules_parse(&t->pr.rs, "mem.rules", text, strlen(text),
				 RULES_SNORT, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < npkts; i++)
		t->hand[i] = (struct packet){pkts[i], strlen(pkts[i])};
	t->handpk = (struct packets){.pkt = t->hand, .n = npkts};
	t->in.corpus[SC_REALLIFE] = &t->handpk;
	reallife_run(t, refused);
}

static void reallife_release(struct reallife *t)
{
	for (size_t e = 0; e < t->npes; e++)
		payload_rules_free(&t->pr, &t->pes[e]);
	packets_release(&t->in.gen[2]);
	payload_rules_release(&t->pr);
	results_release(&t->res);
	free(t->rule_matched);
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
	struct reallife t;
	const struct result *r;
	char want[160];

	blind.name = "blind";
	blind.match_ids = blind_match_ids;
	reallife_verify(&t, pcre2, &blind, "256", 256, 3000, 60e9);
	cr_expect_eq(t.ok[0], 1);
	cr_expect_eq(t.ok[1], 0);
	cr_expect_eq(t.matched[0], t.in.gen[2].nplanted);
	for (size_t k = 0; k < RULE_BUILTIN_COUNT; k++)
		cr_expect_eq(t.rule_matched[k], planted_for(&t.in.gen[2], k),
			     "rule %s", t.pr.rs.r[k].name);
	r = results_find(&t.res, "Payload/scenario=real-life/size=256/engine=blind");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_MISMATCH);
	snprintf(want, sizeof(want), "rule sqli-union (built-in) matches 0 of "
		 "3000 packets, planted %zu; 1 of 10 rules differ, on %zu "
		 "packets", planted_for(&t.in.gen[2], RULE_SQLI_UNION),
		 planted_for(&t.in.gen[2], RULE_SQLI_UNION));
	cr_expect_gt(planted_for(&t.in.gen[2], RULE_SQLI_UNION), 0);
	cr_expect_not_null(strstr(r->message, want), "%s", r->message);
	cr_expect_not_null(strstr(r->message, "match 0, planted 1"), "%s",
			   r->message);
	reallife_release(&t);
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
	struct reallife t;

	reallife_snort(&t, e, 3, rules, hand_packets, 4, 0);
	cr_assert_eq(t.pr.rs.n, 3);
	for (size_t k = 0; k < 3; k++) {
		cr_expect_eq(t.ok[k], 1, "%s verifies", e[k]->name);
		cr_expect_eq(t.matched[k], 4, "every packet matches some rule");
	}
	cr_expect_eq(t.rule_matched[0], 3, "not private: all but packet 0");
	cr_expect_eq(t.rule_matched[1], 1, "GET and not admin: packet 0");
	cr_expect_eq(t.rule_matched[2], 3, "neither x nor y: all but packet 2");
	cr_expect_eq(t.res.n, 0);
	reallife_release(&t);
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
	struct reallife t;
	const struct result *r;

	blind.name = "blind";
	blind.match_ids = blind0_match_ids;
	reallife_snort(&t, e, 3, rules, hand_packets, 4, 0);
	cr_expect_eq(t.ok[0], 1);
	cr_expect_eq(t.ok[1], 1);
	cr_expect_eq(t.ok[2], 0);
	cr_expect_eq(t.rule_matched[0], 3);
	cr_expect_eq(t.rule_matched[1], 2, "/admin/ is case-sensitive here");
	r = results_find(&t.res, "Payload/scenario=real-life/size=hand/engine=blind");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_MISMATCH);
	cr_expect_not_null(strstr(r->message, "rule sid7 (mem.rules:1 (sid 7)) "
				  "matches 4 of 4 packets, reference 3; 1 of 2 "
				  "rules differ, on 1 packets; first: packet 0, "
				  "match 1, reference 0; rule not /private/"),
			   "%s", r->message);
	reallife_release(&t);
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
	struct reallife t;
	const struct result *r;

	picky.name = "picky";
	picky.compile = picky_compile;
	reallife_snort(&t, e, 1, rules, hand_packets, 4, 1);
	r = results_find(&t.res, "Payload/scenario=real-life/engine=picky/rule=sid1");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_UNSUPPORTED);
	cr_expect_not_null(strstr(r->message, "picky cannot compile rule sid1 "
				  "(mem.rules:1 (sid 1)), condition 2 of 2 "
				  "/blame/: too picky for a set"),
			   "%s", r->message);
	cr_expect_eq(t.pes[0].nok, 1);
	cr_expect_eq(t.pes[0].ok[0], 0);
	cr_expect_eq(t.pes[0].ok[1], 1);
	cr_assert_eq(t.pr.ngroups, 2);
	cr_expect_null(t.pes[0].sets[0].h, "GET went with its rule");
	cr_expect_eq(t.pes[0].sets[1].n, 1, "hello alone");
	cr_expect_eq(t.ok[0], 1, "one engine: its own majority");
	cr_expect_eq(t.rule_matched[1], 1);
	reallife_release(&t);
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
	struct reallife t;
	const struct result *r;

	stuck.name = "stuck";
	stuck.match_ids = stuck_match_ids;
	reallife_verify(&t, &stuck, pcre2, "64", 64, 600, 200e6);
	cr_expect_eq(t.ok[0], 0);
	cr_expect_eq(t.ok[1], 1);
	cr_expect_eq(t.matched[1], t.in.gen[2].nplanted);
	r = results_find(&t.res, "Payload/scenario=real-life/size=64/engine=stuck");
	cr_assert_not_null(r);
	cr_expect_eq(r->status, RESULT_TIMEOUT);
	cr_expect_not_null(strstr(r->message, "stuck: real-life: no answer "
					      "within 0.2s while verifying"),
			   "%s", r->message);
	cr_expect_not_null(strstr(r->message, "on packet 0 "), "%s", r->message);
	cr_expect_eq(t.res.n, 1, "one row: the stuck engine's");
	reallife_release(&t);
}

/*
 * Verification that cannot be outvoted: a rule out of the reference's
 * reach (a backreference) is decided only by a strict majority of at
 * least three libraries; pcre2 and pcre2-jit are one library, so with onig
 * beside them nothing decides it and every engine's rule is unverified,
 * never a mismatch of the odd one out.  A rule in reach is checked against
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
	struct reallife t;

	if (e[2] == NULL)
		cr_skip_test("onig not built");
	reallife_snort(&t, e, 3, rules, pkts, 3, 0);
	cr_expect_eq(t.pr.by_ref[0], 0, "a backreference is out of reach");
	for (size_t i = 0; i < 3; i++) {
		cr_expect_eq(t.ok[i], 1, "%s: no mismatch", e[i]->name);
		cr_expect_eq(t.unverified[i], 1, "%s: its rule is unverified",
			     e[i]->name);
	}
	cr_expect_eq(t.res.n, 0, "no rows: the suite decides (unverified)");
	reallife_release(&t);
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
	struct reallife t;

	w1.name = "wrong1";
	w1.library = "wrong1";
	w1.match_ids = wrong_match_ids;
	w2.name = "wrong2";
	w2.library = "wrong2";
	w2.match_ids = wrong_match_ids;
	reallife_snort(&t, e, 3, rules, hand_packets, 4, 0);
	cr_expect_eq(t.pr.by_ref[0], 1);
	cr_expect_eq(t.ok[0], 0);
	cr_expect_eq(t.ok[1], 0);
	cr_expect_eq(t.ok[2], 1, "the one right engine is timed");
	cr_expect_eq(t.rule_matched[0], 0, "/admin/ matches no packet");
	reallife_release(&t);
}
