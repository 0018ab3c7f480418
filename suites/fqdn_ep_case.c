/*
 * fqdn_ep_case.c - the FQDN suite's endpoint cases (--endpoints, the
 * interface in fqdn_ep.h): per policy size and endpoint count, a case
 * per strategy x engine through the pipeline (suites/case.h), whose
 * handle is a world of endpoints (fqdn_ep.c), verified per endpoint
 * against the reference and timed on policy-update and the query sets.
 */
#define _GNU_SOURCE
#include "suites/fqdn_ep.h"

#include "corpora/rng.h"
#include "engines/runner.h"
#include "harness/results.h"
#include "suites/case.h"
#include "suites/cycle.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_runner.h"
#include "suites/fqdn_size.h"
#include "suites/fqdn_verify.h"
#include "suites/suite.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fqdn_ep_case;

/* One benchmark of an endpoints case: policy-update or a query set. */
struct fqdn_ep_op {
	struct fqdn_ep_case *c;
	enum fqdn_phase phase;
	size_t next;  /* the query the next op takes */
	struct rng r; /* policy-update: the endpoint of the next op */
};

/* One strategy x engine on the endpoints of one size. */
struct fqdn_ep_case {
	struct fqdn_eps *x;
	const struct fqdn_strategy *s;
	const struct engine *e; /* NULL: the trie */
	struct fqdn_ep_world *w; /* once planned: the case's handle */
	const unsigned char *want;
	int warm;
	char *buf;
	struct fqdn_ep_op op[PH_COUNT];
	/* on a runner: every query as it is (the runner's op rewrites it)
	   with its endpoint, and the endpoints policy-update takes in turn */
	struct engine_span *rin;
	uint32_t *rep;
	struct engine_span *upd_in;
	uint32_t *upd_ep;
};

/* Endpoints a runner's policy-update takes in turn (the C engines' first
 * ones: the same seeded sequence). */
#define EP_RUNNER_UPDATES 4096

/*
 * N endpoints of size z's policy: query i of an answer (the size's sets
 * in order) is asked of endpoint ep[i], drawn from the seed, by every
 * case and by the timed ops.
 */
struct fqdn_eps {
	struct fqdn_size *z;
	size_t n;
	size_t *ep;
	struct fqdn_ep_case *cases;
	size_t ncases;
	struct case_ops ops;
	struct case_table table;
};

/* Strategies with endpoints: the proxy's per-selector ones and the trie,
 * of those `strategies` (bit i for fqdn_strategies[i]) names. */
static int ep_strategy(uint32_t strategies, size_t i)
{
	const struct fqdn_strategy *s = &fqdn_strategies[i];

	if (!(s->flags & FQDN_S_TRIE) && s->op != FQDN_OP_FIRST)
		return 0;
	return (strategies & (1u << i)) != 0;
}

/* "FQDN/phase=P/strategy=S/engine=E/endpoints=N[/domains=N]". */
static void ep_case_name(const struct fqdn_ep_case *c, const char *phase,
			 char *buf, size_t size)
{
	char dom[32] = "";

	if (c->x->z->named)
		snprintf(dom, sizeof(dom), "/domains=%zu", c->x->z->domains);
	snprintf(buf, size, "FQDN%s%s/strategy=%s/engine=%s/endpoints=%zu%s",
		 phase ? "/phase=" : "", phase ? phase : "", c->s->name,
		 c->e ? engine_bench_name(c->e) : "none", c->x->n, dom);
}

static int ep_runner_inputs(const struct fqdn_eps *x, struct fqdn_ep_case *c);

static int ep_compile(void *arg, const struct case_item *c, void **h,
		      char *why, size_t size)
{
	struct fqdn_ep_case *ec = c->arg;
	struct engine_error err = {0, -1, -1, ""};
	struct fqdn_ep_world *w = calloc(1, sizeof(*w));
	int rc;

	(void)arg;
	*h = w;
	if (w == NULL)
		return ENGINE_ERR_NOMEM;
	if (ec->e != NULL && (rc = fqdn_engine_timeable(ec->e, why, size)) != 0) {
		free(w);
		*h = NULL;
		return rc;
	}
	rc = fqdn_ep_build(w, ec->s, ec->e, &ec->x->z->policy, ec->x->n, &err);
	if (rc == 0 && w->runner != NULL && ep_runner_inputs(ec->x, ec) != 0)
		rc = ENGINE_ERR_NOMEM;
	if (rc != 0) { /* the pipeline drops a failed handle: freed here */
		snprintf(why, size, "building the endpoints: %s: %s",
			 engine_status_name(rc), err.msg);
		fqdn_ep_free(w);
		free(w);
		*h = NULL;
	}
	return rc;
}

/* Every query of the answer on its endpoint; *at (when given) the one asked. */
static int ep_verdicts(const struct fqdn_eps *x, const struct fqdn_ep_world *w,
		       char *buf, unsigned char *out)
{
	const struct fqdn_size *z = x->z;

	for (size_t k = 0, i = 0; k < FQDN_NSETS; k++)
		for (size_t j = 0; j < z->q[k].n; j++, i++) {
			int v = fqdn_ep_decide(w, x->ep[i], z->q[k].name[j],
					       z->q[k].len[j], buf);
			if (v < 0)
				return v;
			out[i] = (unsigned char)v;
		}
	return 0;
}

/*
 * What a runner is asked: every query of the sets as it is (the runner
 * rewrites it in its op, as the strategy does), with its endpoint (the
 * answer's order), and the endpoints of policy-update, from the op's
 * seed as the C engines draw them.  0, or -1 out of memory.
 */
static int ep_runner_inputs(const struct fqdn_eps *x, struct fqdn_ep_case *c)
{
	size_t total = fqdn_total(x->z->sets, FQDN_NSETS);
	struct rng r = c->op[PH_UPDATE].r;

	if (c->rin != NULL)
		return 0;
	free(c->rep); /* after a failure */
	free(c->upd_in);
	free(c->upd_ep);
	c->rep = calloc(total + 1, sizeof(*c->rep));
	c->upd_in = calloc(EP_RUNNER_UPDATES, sizeof(*c->upd_in));
	c->upd_ep = calloc(EP_RUNNER_UPDATES, sizeof(*c->upd_ep));
	if (!c->rep || !c->upd_in || !c->upd_ep ||
	    fqdn_queries_all(x->z, &c->rin) != 0)
		return -1;
	for (size_t j = 0; j < total; j++)
		c->rep[j] = (uint32_t)x->ep[j];
	for (size_t i = 0; i < EP_RUNNER_UPDATES; i++)
		c->upd_ep[i] = (uint32_t)rng_below(&r, x->n);
	return 0;
}

static int ep_answer(void *arg, const struct case_item *c, void *out)
{
	const struct fqdn_eps *x = arg;
	const struct fqdn_ep_case *ec = c->arg;
	const struct fqdn_ep_world *w = c->h;

	if (w->runner != NULL)
		return fqdn_ep_runner_answers(w, fqdn_runner_rewrite(ec->s),
					      ec->rep, ec->rin,
					      fqdn_total(x->z->sets, FQDN_NSETS),
					      out);
	return ep_verdicts(x, w, ec->buf, out);
}

/*
 * The reference's verdicts: a policy allows a name when any selector
 * does, so endpoint ep's is the base policy's or that of its extras
 * (fqdn_ep_policy() of an empty base).
 */
static int ep_expect(void *arg, const struct case_item *c, void *out,
		     char *by, size_t size)
{
	const struct fqdn_eps *x = arg;
	const struct fqdn_size *z = x->z;
	unsigned char *v = out;
	struct fqdn_policy none = {.cilium = z->policy.cilium};
	struct fqdn_ref base;
	int rc = 0;

	(void)c;
	snprintf(by, size, "reference, Cilium v%s's rules, per endpoint",
		 fqdn_cilium_name(z->policy.cilium));
	if (fqdn_ref_init(&base, &z->policy) != 0 ||
	    fqdn_expect(&base, z->sets, FQDN_NSETS, v) != 0)
		return CASE_REF_ERROR;
	for (size_t k = 0, i = 0; k < FQDN_NSETS && rc == 0; k++)
		for (size_t j = 0; j < z->q[k].n && rc == 0; j++, i++) {
			struct fqdn_policy p;
			struct fqdn_ref r;
			char ex[FQDN_EP_EXTRA];
			int a = 0;
			if (v[i] != 0)
				continue;
			rc = fqdn_ep_policy(&none, x->ep[i], &p, ex);
			if (rc == 0 && (rc = fqdn_ref_init(&r, &p)) == 0) {
				a = fqdn_ref_allows(&r, z->q[k].name[j],
						    z->q[k].len[j]);
				fqdn_ref_release(&r);
			}
			fqdn_ep_policy_release(&p);
			rc = rc != 0 || a < 0 ? -1 : 0;
			v[i] = (unsigned char)a;
		}
	fqdn_ref_release(&base);
	return rc == 0 ? CASE_REF_OK : CASE_REF_ERROR;
}

static void ep_describe(void *arg, const struct case_item *c,
			const void *answer, char *buf, size_t size)
{
	const struct fqdn_eps *x = arg;

	fqdn_size_describe(x->z, c, answer, buf, size);
	snprintf(buf + strlen(buf), size - strlen(buf), " (each on a random "
		 "one of %zu endpoints)", x->n);
}

static void ep_explain(void *arg, const struct case_item *c, const void *got,
		       const void *want, char *buf, size_t size)
{
	const struct fqdn_eps *x = arg;

	fqdn_size_explain(x->z, c, got, want, buf, size);
}

/* What an endpoint match op reads: the case, the query set, the endpoint
 * each query is asked of and their verdicts. */
struct ep_match_arg {
	struct fqdn_ep_case *c;
	const struct fqdn_queries *q;
	const size_t *ep;
	const unsigned char *want;
};

/* Query j of the set on its endpoint: 0, or ENGINE_ERR_MATCH when its
 * verdict differs from the verified one, or a negative engine status. */
static long ep_match_op(void *arg, size_t j)
{
	const struct ep_match_arg *m = arg;
	int v = fqdn_ep_decide(m->c->w, m->ep[j], m->q->name[j], m->q->len[j],
			       m->c->buf);

	if (v < 0)
		return v;
	return v != m->want[j] ? ENGINE_ERR_MATCH : 0;
}

/* One query per op on its endpoint, cycling over the set (suites/cycle.h). */
static int run_ep_match(void *arg, uint64_t n)
{
	struct fqdn_ep_op *op = arg;
	struct fqdn_ep_case *c = op->c;
	const struct fqdn_size *z = c->x->z;
	size_t k = (size_t)(op->phase - PH_MATCH_FIRST);
	struct ep_match_arg m = {c, &z->q[k], c->x->ep + z->off[k],
				 c->want + z->off[k]};

	return cycle_run(0, m.q->n, &op->next, n, ep_match_op, &m, NULL);
}

/* Replace a random endpoint's rules per op (its verdicts on the sets stay). */
static int run_ep_update(void *arg, uint64_t n)
{
	struct fqdn_ep_op *op = arg;
	struct fqdn_ep_world *w = op->c->w;

	for (uint64_t i = 0; i < n; i++) {
		int rc = fqdn_ep_update(w, (size_t)rng_below(&op->r, w->n));
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The memory metrics of world w (none without the allocation hooks). */
static void ep_metrics(const struct fqdn_ep_world *w, struct bench *b)
{
	const double n = (double)w->n;

	b->extra[b->nextra++] = (struct bench_metric){"endpoints", BETTER_EXACT,
						      n};
	if (w->heap < 0)
		return;
	b->extra[b->nextra++] = (struct bench_metric){
		"B(heap)", BETTER_LOWER, (double)w->heap};
	b->extra[b->nextra++] = (struct bench_metric){
		"B(heap)/endpoint", BETTER_LOWER, (double)w->heap / n};
	b->extra[b->nextra++] = (struct bench_metric){
		"nocache-B(heap)", BETTER_LOWER, (double)w->heap_nocache};
	b->extra[b->nextra++] = (struct bench_metric){
		"nocache-B(heap)/endpoint", BETTER_LOWER,
		(double)w->heap_nocache / n};
}

static int ep_bench(void *arg, struct case_item *c, const void *answer,
		    struct bench *b)
{
	const struct fqdn_eps *x = arg;
	struct fqdn_ep_op *op = b->arg;
	struct fqdn_ep_case *ec = op->c;

	ec->w = c->h;
	ec->want = answer;
	if (ec->w->runner != NULL) /* warmed by the runner's own warm-up */
		ec->warm = 1;
	if (!ec->warm) { /* as case_warm(): what engines learn lazily */
		unsigned char *tmp = malloc(fqdn_total(x->z->sets, FQDN_NSETS) + 1);
		engine_phase = ENGINE_PHASE_WARM;
		if (tmp != NULL)
			(void)ep_verdicts(x, ec->w, ec->buf, tmp);
		engine_phase = ENGINE_PHASE_PARENT;
		free(tmp);
		ec->warm = 1;
	}
	b->run = op->phase == PH_UPDATE ? run_ep_update : run_ep_match;
	b->arg = op;
	if (op->phase != PH_UPDATE)
		b->pass_n = x->z->q[op->phase - PH_MATCH_FIRST].n;
	b->extra[0] = (struct bench_metric){"domains", BETTER_EXACT,
					   (double)x->z->domains};
	b->nextra = 1;
	ep_metrics(ec->w, b);
	if (op->phase == PH_QUERIES) /* each on the endpoint it was asked of */
		b->extra[b->nextra++] = (struct bench_metric){
			"allowed", BETTER_EXACT,
			(double)fqdn_answer_allowed(x->z, answer, FQDN_Q_COUNT)};
	if (ec->w->runner != NULL && op->phase == PH_UPDATE)
		return case_bench_job(b, fqdn_runner_ep_add_work(
			ec->w->runner, FQDN_RUNNER_EP_UPDATE,
			FQDN_RUNNER_REWRITE_NONE,
			ec->upd_ep, ec->upd_in, EP_RUNNER_UPDATES));
	if (ec->w->runner != NULL) {
		size_t k = (size_t)(op->phase - PH_MATCH_FIRST);
		size_t at = x->z->off[k];
		return case_bench_job(b, fqdn_runner_ep_add_work(
			ec->w->runner, FQDN_RUNNER_EP_MATCH,
			fqdn_runner_rewrite(ec->s), ec->rep + at,
			ec->rin + at, x->z->q[k].n));
	}
	return 0;
}

static void ep_release(void *arg, struct case_item *c)
{
	(void)arg;
	fqdn_ep_free(c->h);
	free(c->h);
}

static const struct case_ops fqdn_ep_ops = {
	.compile = ep_compile,
	.answer = ep_answer,
	.expect = ep_expect,
	.describe = ep_describe,
	.explain = ep_explain,
	.bench = ep_bench,
	.release = ep_release,
};

/* Case c into x's table: policy-update and every query set it has. */
static int ep_add_case(struct fqdn_eps *x, struct fqdn_ep_case *c,
		       uint64_t seed)
{
	const char *gate = NULL;
	char name[256], label[160];

	ep_case_name(c, NULL, name, sizeof(name));
	snprintf(label, sizeof(label), "%s: strategy %s, %zu domains, %zu "
		 "endpoints", c->e ? c->e->name : "none", c->s->name,
		 x->z->domains, x->n);
	if (case_add(&x->table, name, label, c->e, 0, gate, 0, 0, c) != 0)
		return -1;
	for (int ph = PH_MATCH_FIRST; ph <= PH_UPDATE; ph++) {
		if (ph != PH_UPDATE && x->z->q[ph - PH_MATCH_FIRST].n == 0)
			continue;
		c->op[ph] = (struct fqdn_ep_op){c, (enum fqdn_phase)ph, 0, {0}};
		rng_init(&c->op[ph].r, seed ^ 0x5eed);
		ep_case_name(c, fqdn_phase_name((enum fqdn_phase)ph), name,
			     sizeof(name));
		if (case_add_bench(&x->table, name, &c->op[ph]) != 0)
			return -1;
	}
	return 0;
}

/* The endpoint each query of z's sets is asked of, from the seed. */
static int eps_draw(struct fqdn_eps *x, uint64_t seed)
{
	size_t total = fqdn_total(x->z->sets, FQDN_NSETS);
	struct rng r;

	x->ep = malloc((total ? total : 1) * sizeof(*x->ep));
	if (x->ep == NULL)
		return -1;
	rng_init(&r, seed ^ x->n);
	for (size_t i = 0; i < total; i++)
		x->ep[i] = (size_t)rng_below(&r, x->n);
	return 0;
}

/* The endpoints cases of size z with n endpoints, through the pipeline. */
static int eps_plan(struct suite_ctx *ctx, struct fqdn_size *z,
		    struct fqdn_eps *x, size_t n, uint64_t seed,
		    uint32_t strategies)
{
	char v[32];

	x->z = z;
	x->n = n;
	x->ops = fqdn_ep_ops;
	x->ops.answer_size = z->ops.answer_size;
	case_table_init(&x->table, "fqdn", &x->ops, x);
	snprintf(v, sizeof(v), "%zu", n);
	if (eps_draw(x, seed) != 0 ||
	    result_inputs_merge(&x->table.in, &z->table.in) != 0 ||
	    case_table_input(&x->table, "endpoints", v, strlen(v)) != 0)
		return -1;
	x->cases = calloc(fqdn_nstrategies * (ctx->nengines + 1),
			  sizeof(*x->cases));
	if (x->cases == NULL)
		return -1;
	for (size_t i = 0; i < fqdn_nstrategies; i++) {
		const struct fqdn_strategy *s = &fqdn_strategies[i];
		size_t ne = (s->flags & FQDN_S_TRIE) ? 0 : ctx->nengines;
		for (size_t j = (s->flags & FQDN_S_TRIE) ? 0 : 1;
		     ep_strategy(strategies, i) && j <= ne; j++) {
			struct fqdn_ep_case *c = &x->cases[x->ncases++];
			*c = (struct fqdn_ep_case){.x = x, .s = s,
						   .e = j ? ctx->engines[j - 1]
							  : NULL};
			c->buf = malloc(fqdn_size_maxq(z) + 2);
			if (c->buf == NULL || ep_add_case(x, c, seed))
				return -1;
		}
	}
	return case_run(&x->table, ctx);
}

static void eps_release(struct fqdn_eps *x)
{
	case_table_release(&x->table); /* the worlds */
	for (size_t i = 0; i < x->ncases; i++) {
		struct fqdn_ep_case *c = &x->cases[i];
		free(c->buf);
		free(c->rin);
		free(c->rep);
		free(c->upd_in);
		free(c->upd_ep);
	}
	free(x->cases);
	free(x->ep);
}

void fqdn_eps_release_all(struct fqdn_size *z)
{
	for (size_t i = 0; i < z->neps; i++)
		eps_release(&z->eps[i]);
	free(z->eps);
}

int fqdn_eps_plan_all(struct suite_ctx *ctx, struct fqdn_size *z,
		      const size_t *counts, size_t ncounts, uint64_t seed,
		      uint32_t strategies)
{
	if (ncounts == 0)
		return 0;
	z->eps = calloc(ncounts, sizeof(*z->eps));
	if (z->eps == NULL)
		return -1;
	for (size_t i = 0; i < ncounts; i++) {
		int rc = eps_plan(ctx, z, &z->eps[z->neps++], counts[i], seed,
				  strategies);
		if (rc != 0)
			return rc;
	}
	return 0;
}
