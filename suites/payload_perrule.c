/*
 * payload_perrule.c - the payload suite's per-rule scenario (--per-rule):
 * the cost of each rule of the real-life set alone over the same
 * packets, as Suricata's rule profiling (rule_perf.log: sid, ticks,
 * checks, matches) and Snort's profile_rules report it.
 *
 * A case is one rule on one engine; the cases of a rule form its group,
 * so a rule's expected answer (the packets it matches: planted, the
 * reference's, else the engines' vote) is computed once and every
 * engine's answer is verified against it before its time counts.  The
 * rule's patterns are compiled alone, each its own handle, and the op is
 * one packet: each pattern's is_match on the packet, or with
 * --rules-target=variables on each value the rule reads (the requests
 * parsed before timing, the transformations inside the op), combined as
 * rules_holds() does.  Benchmarks are Payload/rule=R/bytes=N/engine=E:
 * no scenario or size key, so the suite's tables leave them to the
 * `costliest` table (report/layout_decl.h), which ranks them and puts the
 * whole set's cost (scenario=real-life) beside the sum of the rules'.
 */
#define _GNU_SOURCE
#include "suites/payload_ruleset.h"
#include "suites/cycle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An answer: the number of packets matched, then a bit per packet. */
#define COUNT_AT 0
#define BITS_AT 8

/* One rule compiled for one engine: a handle per pattern. */
struct rule_h {
	size_t rule;
	size_t n;
	struct waf_scratch ws;
	void *h[];
};

static struct payload_rules *cost_rules(const struct scen_size *ss)
{
	return &((struct reallife *)ss->sr->data)->pr;
}

/* The rule of a case: cases are rule-major, an engine each. */
static size_t case_rule(const struct scen_size *ss, const struct pcase *pc)
{
	return (size_t)(pc - ss->pc) / (ss->run->neng ? ss->run->neng : 1);
}

static int cost_table(struct scen_size *ss, struct suite_ctx *ctx)
{
	if (ss->mode != PMODE_BLOCK) {
		char name[256];
		payload_case_name(name, sizeof(name), ss, NULL);
		suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_UNSUPPORTED,
			   "--per-rule times each rule per packet: not planned "
			   "over flows (its rows are block mode's)");
		return 1;
	}
	if (payload_requests(ss, cost_rules(ss)) != 0)
		return -1;
	ss->ops.parts = 0;
	ss->ops.answer_size = BITS_AT + (ss->pk->n + 63) / 64 * 8;
	return 0;
}

/* Rule r of pr in a name ("id942100"). */
static void rule_part_name(const struct payload_rules *pr, size_t r,
			   char *buf, size_t size)
{
	const char *name = pr->rs.r[r].name;

	bench_name_part(name, strlen(name), buf, size);
}

static int cost_cases(struct scen_size *ss, struct suite_ctx *ctx)
{
	const struct payload_rules *pr = cost_rules(ss);
	size_t neng = ss->run->neng;

	(void)ctx;
	if (payload_cases_begin(ss, pr->rs.n * neng, 0) != 0)
		return -1;
	for (size_t r = 0; r < pr->rs.n; r++) {
		char part[64];
		if (pr->skip[r] != NULL)
			continue;
		rule_part_name(pr, r, part, sizeof(part));
		for (size_t e = 0; e < neng; e++) {
			const struct engine *en = ss->run->engines[e];
			struct pcase *pc = &ss->pc[r * neng + e];
			char name[256], label[256];
			*pc = (struct pcase){.ss = ss, .e = en, .ei = r * neng + e};
			snprintf(name, sizeof(name), "%s/rule=%s/bytes=%s/engine=%s",
				 PAYLOAD_PREFIX, part, ss->in->label,
				 engine_bench_name(en));
			snprintf(label, sizeof(label), "%s: rule %s (%s) alone, "
				 "size %s", en->name, pr->rs.r[r].name,
				 pr->rs.r[r].where, ss->in->label);
			if (case_add(&ss->t, name, label, en, payload_rule_needs(pr, r),
				     NULL, r, 0, pc) != 0)
				return -1;
		}
	}
	return 0;
}

static void rule_h_free(const struct engine *e, struct rule_h *rh)
{
	for (size_t j = 0; j < rh->n; j++)
		if (rh->h[j] != NULL)
			e->free(rh->h[j]);
	waf_scratch_release(&rh->ws);
	free(rh);
}

/* Why engine e cannot run rule r alone, into why; 0 when it can. */
static int cost_gate(const struct payload_rules *pr, size_t r,
		     const struct engine *e, char *why, size_t size)
{
	const struct rule *ru = &pr->rs.r[r];

	if (pr->dollar[r] && !(e->caps & CAP_PERL_DOLLAR)) {
		snprintf(why, size, "`$` is the end of data only in %s, PCRE's "
			 "`$` also matches before a final newline (needs "
			 "perl-dollar)", e->name);
		return 1;
	}
	if (engine_self_timed(e) &&
	    (pr->variables || ru->n != 1 || pr->rs.p[ru->first].negated)) {
		snprintf(why, size, "%s times itself (engine.work_new: a "
			 "runner in its own process, xdp in the kernel): one "
			 "positive pattern on whole packets", e->name);
		return 1;
	}
	return 0;
}

/* case_ops.voter: e votes where cost_gate() and payload_work_gate() let it
   run (one class). */
static int cost_voter(void *st, const struct case_item *c,
		      const struct engine *e, int *klass)
{
	struct scen_size *ss = st;
	char why[256];

	*klass = 0;
	return cost_gate(cost_rules(ss), case_rule(ss, c->arg), e, why,
			 sizeof(why)) ||
	       payload_work_gate(ss, e, why, sizeof(why)) != 0;
}

static int cost_compile(void *st, const struct case_item *c, void **h,
			char *why, size_t size)
{
	struct scen_size *ss = st;
	const struct payload_rules *pr = cost_rules(ss);
	size_t r = case_rule(ss, c->arg);
	const struct rule *ru = &pr->rs.r[r];
	struct rule_h *rh;
	int rc;

	if (cost_gate(pr, r, c->e, why, size))
		return ENGINE_ERR_UNSUPPORTED;
	rc = payload_work_gate(ss, c->e, why, size);
	if (rc != 0)
		return rc < 0 ? rc : ENGINE_ERR_UNSUPPORTED;
	rh = calloc(1, sizeof(*rh) + ru->n * sizeof(rh->h[0]));
	if (rh == NULL)
		return ENGINE_ERR_NOMEM;
	rh->rule = r;
	for (; rh->n < ru->n; rh->n++) {
		const struct rule_pattern *p = &pr->rs.p[ru->first + rh->n];
		struct engine_pattern ep = {p->re, p->len};
		struct engine_error err = {0, -1, -1, ""};
		rc = c->e->compile(&ep, 1, p->flags, &rh->h[rh->n], &err);
		if (rc == 0)
			continue;
		snprintf(why, size, "condition %zu of %zu: %s", rh->n + 1, ru->n,
			 err.msg);
		rule_h_free(c->e, rh);
		/* as real-life's rows: a user's rule an engine refuses is
		   unsupported there, a built-in one an error */
		if (rc == ENGINE_ERR_NOMEM)
			return rc;
		return pr->builtin ? ENGINE_ERR_COMPILE : ENGINE_ERR_UNSUPPORTED;
	}
	*h = rh;
	return 0;
}

/* is_match on one value (payload_pattern_on's match). */
struct one_match {
	const struct engine *e;
	void *h;
	int rc;
};

static int value_match(void *arg, const char *v, size_t n)
{
	struct one_match *m = arg;
	int rc = m->e->is_match(m->h, v, n);

	if (rc < 0) {
		m->rc = rc;
		return 1;
	}
	return rc;
}

/* Does rh's rule hold on packet p (q its request)?  1, 0, or <0. */
static int rule_on(const struct payload_rules *pr, const struct engine *e,
		   struct rule_h *rh, const struct packet *p,
		   const struct http_req *q)
{
	const struct rule *ru = &pr->rs.r[rh->rule];

	for (size_t j = 0; j < rh->n; j++) {
		size_t k = ru->first + j;
		struct one_match m = {e, rh->h[j], 0};
		int rc = payload_pattern_on(pr, k, p, q, &rh->ws, value_match, &m);
		if (rc < 0)
			return ENGINE_ERR_NOMEM;
		if (m.rc < 0)
			return m.rc;
		/* a positive condition needs a match, a negated one none */
		if ((rc != 0) == (pr->rs.p[k].negated != 0))
			return 0;
	}
	return 1;
}

static size_t answer_count(const void *a)
{
	size_t n;

	memcpy(&n, (const char *)a + COUNT_AT, sizeof(n));
	return n;
}

static int answer_bit(const void *a, size_t i)
{
	return (((const unsigned char *)a)[BITS_AT + i / 8] >> (i % 8)) & 1;
}

static int cost_answer(void *st, const struct case_item *c, void *out)
{
	struct scen_size *ss = st;
	const struct payload_rules *pr = cost_rules(ss);
	const struct pcase *pc = c->arg;
	unsigned char *bits = (unsigned char *)out + BITS_AT;
	size_t count = 0;

	memset(out, 0, ss->ops.answer_size);
	for (size_t i = 0; i < ss->pk->n; i++) {
		int rc;
		ss->at[pc->ei] = i;
		rc = rule_on(pr, c->e, c->h, &ss->pk->pkt[i], payload_req(ss, i));
		if (rc < 0)
			return rc;
		if (rc) {
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
			count++;
		}
	}
	memcpy((char *)out + COUNT_AT, &count, sizeof(count));
	return 0;
}

static int cost_expect(void *st, const struct case_item *c, void *out,
		       char *by, size_t size)
{
	struct scen_size *ss = st;
	struct payload_rules *pr = cost_rules(ss);
	size_t r = case_rule(ss, c->arg), count;
	static const char *const what[] = {
		[PAYLOAD_BY_PLANTED] = "planted",
		[PAYLOAD_BY_REFERENCE] = "reference",
		[PAYLOAD_BY_VOTE] = "out of the reference's reach",
	};
	int src;

	memset(out, 0, ss->ops.answer_size);
	src = payload_rule_expect(pr, ss, r, (unsigned char *)out + BITS_AT,
				  &count);
	if (src < 0)
		return CASE_REF_ERROR;
	memcpy((char *)out + COUNT_AT, &count, sizeof(count));
	snprintf(by, size, "rule %s per packet: %s%s", pr->rs.r[r].name,
		 what[src], pr->variables ? ", on its variables" : "");
	return src == PAYLOAD_BY_VOTE ? CASE_REF_NONE : CASE_REF_OK;
}

static void cost_describe(void *st, const struct case_item *c,
			  const void *answer, char *buf, size_t size)
{
	const struct scen_size *ss = st;

	(void)c;
	snprintf(buf, size, "%zu of %zu packets match", answer_count(answer),
		 ss->pk->n);
}

static void cost_explain(void *st, const struct case_item *c, const void *got,
			 const void *want, char *buf, size_t size)
{
	const struct scen_size *ss = st;
	const struct packets *pk = ss->pk;
	char text[200];
	size_t i = 0;

	(void)c;
	while (i < pk->n && answer_bit(got, i) == answer_bit(want, i))
		i++;
	if (i == pk->n) {
		snprintf(buf, size, "no packet differs");
		return;
	}
	payload_excerpt(pk->pkt[i].p, pk->pkt[i].len, 0, 64, text, sizeof(text));
	snprintf(buf, size, "first: packet %zu, match %d, expected %d; "
		 "packet \"%s\"", i, answer_bit(got, i), answer_bit(want, i),
		 text);
}

/* The cycled op (suites/cycle.h): case c's rule on packet i. */
static inline long cost_op(void *arg, size_t i)
{
	struct pcase *c = arg;

	return rule_on(cost_rules(c->ss), c->e, c->h, &c->ss->pk->pkt[i],
		       payload_req(c->ss, i));
}

/* The timed op: the rule on the next packet. */
static int cost_run(void *arg, uint64_t n)
{
	struct pcase *c = arg;

	return cycle_run(0, c->ss->pk->n, &c->next, n, cost_op, c, &c->sink);
}

static int cost_bench(void *st, struct case_item *c, const void *answer,
		      struct bench *b)
{
	struct scen_size *ss = st;
	struct pcase *pc = c->arg;
	struct rule_h *rh = c->h;
	size_t count = answer_count(answer);

	pc->h = c->h;
	payload_bench_fill(pc, count, b);
	b->extra[b->nextra++] = (struct bench_metric){
		"%packets", BETTER_EXACT,
		ss->pk->n ? 100.0 * (double)count / (double)ss->pk->n : 0};
	return payload_work_fill(pc, c->e, ENGINE_OP_IS_MATCH, rh->h, 1, b);
}

static void cost_release(void *st, struct case_item *c)
{
	(void)st;
	rule_h_free(c->e, c->h);
}

static const struct case_ops cost_ops = {
	.part_name = "rule",
	.compile = cost_compile,
	.answer = cost_answer,
	.expect = cost_expect,
	.describe = cost_describe,
	.explain = cost_explain,
	.bench = cost_bench,
	.release = cost_release,
	.failed = payload_case_failed,
	.voter = cost_voter,
};

/* ---- the scenario ---- */

/* The same rules as real-life's, each compiled alone per case. */
static int perrule_setup(struct payload_run *r, struct scen_run *sr,
			 struct suite_ctx *ctx)
{
	if (payload_rules_scen_new(sr, r->cfg) != 0)
		return -1;
	payload_rules_skipped(ctx, &((struct reallife *)sr->data)->pr,
			      PAYLOAD_PREFIX "/rule=%s");
	return 0;
}

/* Its rows record how the rules are read (not real-life's digest). */
static int perrule_inputs(const struct scen_size *ss, struct result_inputs *in,
			  int options)
{
	const struct reallife *rl = ss->sr->data;

	return rl != NULL && options ? payload_rules_inputs(&rl->pr, in, 1) : 0;
}

const struct scenario scenario_per_rule = {
	.name = "per-rule", .title = "per rule", .in_default = 0,
	.per_rule = 1,
	.help = "each rule alone (--per-rule): ns per packet, share\n"
		"               of packets it matches, the costliest",
	.plant = PACKETS_HTTP,
	.ops = &cost_ops, .run = cost_run,
	.setup = perrule_setup, .table = cost_table,
	.teardown = payload_rules_scen_free, .cases = cost_cases,
	.inputs = perrule_inputs,
};
