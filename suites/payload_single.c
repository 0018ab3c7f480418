/*
 * payload_single.c - the payload suite's single-pattern scenarios,
 * literal and full-scan: one pattern compiled per case (an engine at a
 * size), its answer is_match per packet (or per flow in a flow mode),
 * verified against the reference (memmem, "pri" then "ate"), itself held
 * against what the generator planted.  The op is one packet, or one
 * flow through the engine's match_flow.
 */
#define _GNU_SOURCE
#include "suites/payload.h"
#include "suites/payload_threads.h"
#include "suites/cycle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cycled op (suites/cycle.h): is_match of one handle on packet i. */
struct single_cycle {
	const struct engine *e;
	void *h;
	const struct packet *pkt;
};

static inline long single_op(void *arg, size_t i)
{
	const struct single_cycle *sc = arg;

	return sc->e->is_match(sc->h, sc->pkt[i].p, sc->pkt[i].len);
}

/*
 * n ops of is_match on handle h over packets [lo, hi), cycling, from
 * *next; matches added to *sink (cycle_run).  The one-thread op (the
 * whole set) and each thread's (its share).
 */
static inline int single_loop(const struct engine *e, void *h,
			      const struct packet *pkt, size_t lo, size_t hi,
			      size_t *next, uint64_t n, uint64_t *sink)
{
	struct single_cycle sc = {e, h, pkt};

	return cycle_run(lo, hi, next, n, single_op, &sc, sink);
}

/* The cycled op in a flow mode on an engine with match_flow: flow i. */
static inline long flow_op(void *arg, size_t i)
{
	const struct pcase *c = arg;
	size_t np;
	const struct engine_span *sp = payload_flow_spans(c->ss, i, &np);

	return c->e->match_flow(c->h, sp, np, NULL);
}

/* run_single in a flow mode on an engine with match_flow: an op a flow. */
static int run_flow_single(void *arg, uint64_t n)
{
	struct pcase *c = arg;

	return cycle_run(0, c->ss->pk->n, &c->next, n, flow_op, c, &c->sink);
}

static int run_single(void *arg, uint64_t n)
{
	struct pcase *c = arg;

	return single_loop(c->e, c->h, c->ss->pk->pkt, 0, c->ss->pk->n,
			   &c->next, n, &c->sink);
}


/* What a single-pattern scenario keeps in .own: its reference. */
struct single_def {
	const char *ref_name; /* "memmem", for messages */
	int (*reference)(const struct packet *p); /* is_match per packet */
};

static const struct single_def *single_def(const struct scenario *sc)
{
	return sc->own;
}

static int ref_literal(const struct packet *p)
{
	return memmem(p->p, p->len, PACKETS_LITERAL_NEEDLE,
		      strlen(PACKETS_LITERAL_NEEDLE)) != NULL;
}

static int ref_pri_ate(const struct packet *p)
{
	return packets_has_pri_ate(p->p, p->len);
}

/*
 * The generator's own check: its planted marks equal the reference.
 * 0, or 1 after an error row (an rxbench bug, not an engine's).
 */
static int check_generator(struct scen_size *ss, struct suite_ctx *ctx)
{
	const struct scenario *sc = ss->sr->sc;
	const struct packets *pk = ss->pk;
	char name[256];

	for (size_t i = 0; pk->mark != NULL && i < pk->n; i++) {
		int ref = single_def(sc)->reference(&pk->pkt[i]);
		if ((pk->mark[i] != 0) == ref)
			continue;
		payload_case_name(name, sizeof(name), ss, NULL);
		suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_ERROR,
			   "generator: %s %zu planted %u but the reference "
			   "says %d", ss->mode == PMODE_BLOCK ? "packet" : "flow",
			   i, pk->mark[i], ref);
		return 1;
	}
	return 0;
}

/* The table hook: one answer byte per packet, after the generator check. */
static int single_table(struct scen_size *ss, struct suite_ctx *ctx)
{
	ss->ops.answer_size = ss->pk->n ? ss->pk->n : 1;
	return check_generator(ss, ctx);
}

/* Where a message's excerpt of p starts: a little before its "pri". */
static size_t excerpt_from(const struct packet *p)
{
	const char *pri = memmem(p->p, p->len, "pri", 3);
	size_t at = pri ? (size_t)(pri - p->p) : 0;

	return at > 16 ? at - 16 : 0;
}

/*
 * Literal and full-scan as cases of the pipeline: a case per engine and
 * size, compiled per case; the answer is is_match per packet (one byte
 * each), the expected answer the reference's, which check_generator()
 * has held against the planted marks.
 */
static int single_compile(void *arg, const struct case_item *c, void **h,
			  char *why, size_t size)
{
	const struct scen_size *ss = arg;
	const struct scenario *sc = ss->sr->sc;
	struct engine_pattern p = {sc->re, strlen(sc->re)};
	struct engine_error err = {0, -1, -1, ""};
	char at[32] = "";
	int rc;

	if (ss->mode == PMODE_VECTORED && !payload_flow_native(ss, c->e)) {
		snprintf(why, size, "%s has no vectored scan (its flows are "
			 "scanned reassembled under --mode=stream)", c->e->name);
		return ENGINE_ERR_UNSUPPORTED;
	}
	rc = payload_flow_native(ss, c->e)
		? c->e->compile_flow((enum engine_flow)ss->mode, &p, 1,
				     sc->flags, h, &err)
		: c->e->compile(&p, 1, sc->flags, h, &err);

	if (rc == 0)
		return 0;
	if (err.offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err.offset);
	snprintf(why, size, "%s%s", err.msg, at);
	return rc == ENGINE_ERR_UNSUPPORTED ? rc : ENGINE_ERR_COMPILE;
}

/* A native flow scan of every flow, each in its own op. */
static int single_answer_flows(struct scen_size *ss,
			       const struct case_item *c, unsigned char *hit)
{
	const struct pcase *pc = c->arg;

	for (size_t i = 0; i < ss->pk->n; i++) {
		size_t n;
		const struct engine_span *sp;
		long rc;
		ss->at[pc->ei] = i;
		sp = payload_flow_spans(ss, i, &n);
		rc = c->e->match_flow(c->h, sp, n, NULL);
		if (rc < 0)
			return (int)rc;
		hit[i] = (unsigned char)rc;
	}
	return 0;
}

static int single_answer(void *arg, const struct case_item *c, void *out)
{
	struct scen_size *ss = arg;

	if (payload_flow_native(ss, c->e))
		return single_answer_flows(ss, c, out);
	return payload_is_match_each(ss, c, out);
}

static int single_expect(void *arg, const struct case_item *c, void *out,
			 char *by, size_t size)
{
	const struct scen_size *ss = arg;
	const struct scenario *sc = ss->sr->sc;
	unsigned char *hit = out;

	(void)c;
	for (size_t i = 0; i < ss->pk->n; i++)
		hit[i] = (unsigned char)single_def(sc)->reference(&ss->pk->pkt[i]);
	snprintf(by, size, "reference (%s) per %s%s", single_def(sc)->ref_name,
		 ss->mode == PMODE_BLOCK ? "packet" : "reassembled flow",
		 ss->pk->mark ? ", = planted" : "");
	return CASE_REF_OK;
}

static void single_describe(void *arg, const struct case_item *c,
			    const void *answer, char *buf, size_t size)
{
	(void)c;
	const struct scen_size *ss = arg;

	snprintf(buf, size, "%zu matching %ss", payload_hits(ss, answer),
		 payload_unit(ss));
}

static void single_explain(void *arg, const struct case_item *c,
			   const void *got, const void *want, char *buf,
			   size_t size)
{
	const struct packets *pk = ((struct scen_size *)arg)->pk;
	const unsigned char *g = got, *w = want;
	size_t differ = 0, first = 0;
	char text[200];

	(void)c;
	for (size_t i = pk->n; i-- > 0;)
		if (g[i] != w[i]) {
			differ++;
			first = i;
		}
	payload_excerpt(pk->pkt[first].p, pk->pkt[first].len,
			excerpt_from(&pk->pkt[first]), 64, text, sizeof(text));
	snprintf(buf, size, "%zu %ss differ, first: %s %zu (is_match "
		 "%d, reference %d) \"%s\"", differ, payload_unit(arg),
		 payload_unit(arg), first, g[first], w[first], text);
}

static int single_bench(void *arg, struct case_item *c, const void *answer,
			struct bench *b)
{
	struct pcase *pc = c->arg;
	struct pthreads *pt = b->arg; /* NULL: the one-thread benchmark */

	pc->h = c->h;
	payload_bench_fill(pc, payload_hits(arg, answer), b);
	if (payload_flow_native(arg, c->e))
		b->run = run_flow_single;
	payload_mem_fill(c->e, &c->h, 1, b);
	if (pt != NULL)
		return payload_threads_fill(pt, c, answer, b);
	return payload_work_fill(pc, c->e, ENGINE_OP_IS_MATCH, &c->h, 1, b);
}

static void single_release(void *arg, struct case_item *c)
{
	(void)arg;
	c->e->free(c->h);
}

/* ---- the single-pattern scenarios on threads ---- */

static int single_thread_begin(struct pslot *s)
{
	s->st = s->pc->e->thread_new(s->pc->h);
	return s->st != NULL ? 0 : ENGINE_ERR_NOMEM;
}

static void single_thread_end(struct pslot *s)
{
	if (s->st != NULL)
		s->pc->e->thread_free(s->st);
	s->st = NULL;
}

static int single_thread_run(struct pslot *s, uint64_t n)
{
	return single_loop(s->pc->e, s->st, s->pc->ss->pk->pkt, s->lo, s->hi,
			   &s->next, n, &s->sink);
}

/* Matching packets of the slot's share, on its own state. */
static int single_thread_check(struct pslot *s, uint64_t *got)
{
	size_t at = s->lo;

	*got = 0;
	return single_loop(s->pc->e, s->st, s->pc->ss->pk->pkt, s->lo, s->hi,
			   &at, s->hi - s->lo, got);
}

static uint64_t single_thread_want(const struct scen_size *ss,
				   const struct case_item *c,
				   const void *answer, size_t lo, size_t hi)
{
	const unsigned char *hit = answer;
	uint64_t n = 0;

	(void)ss;
	(void)c;
	for (size_t i = lo; i < hi; i++)
		n += hit[i];
	return n;
}

static const struct payload_thread_ops single_threads = {
	.begin = single_thread_begin,
	.end = single_thread_end,
	.run = single_thread_run,
	.check = single_thread_check,
	.want = single_thread_want,
	.answer = "matching packets",
};

static const struct case_ops single_ops = {
	.compile = single_compile,
	.answer = single_answer,
	.expect = single_expect,
	.describe = single_describe,
	.explain = single_explain,
	.bench = single_bench,
	.release = single_release,
	.failed = payload_case_failed,
};

static const struct single_def literal_def = {"memmem", ref_literal};
static const struct single_def fullscan_def = {"pri then ate", ref_pri_ate};

const struct scenario scenario_literal = {
	.name = "literal", .title = "literal", .in_default = 1,
	.help = "\"" PACKETS_LITERAL_NEEDLE "\", dotall (printable packets)",
	.plant = PACKETS_LITERAL,
	.re = PACKETS_LITERAL_NEEDLE, .flags = ENGINE_DOTALL,
	.own = &literal_def,
	.ops = &single_ops, .run = run_single, .table = single_table,
	.threads = &single_threads,
};

const struct scenario scenario_full_scan = {
	.name = "full-scan", .title = "full payload scan", .in_default = 1,
	.help = "\"pri.*ate\", dotall, single match",
	.plant = PACKETS_FULLSCAN,
	.re = "pri.*ate", .flags = ENGINE_DOTALL | ENGINE_SINGLEMATCH,
	.own = &fullscan_def,
	.ops = &single_ops, .run = run_single, .table = single_table,
	.threads = &single_threads,
};
