/*
 * payload_reallife.c - the payload suite's real-life scenario: a rule set
 * compiled per engine (native sets where the engine has them, the
 * adapter's loop otherwise; suites/payload_ruleset.h) and verified rule
 * by rule, packet by packet, as cases of the one pipeline (suites/case.h).
 *
 * A case is one engine at one size; its answer is in parts, one per
 * rule: the number of packets the rule matches and which ones.  The
 * expected answer of a rule is what the generator planted (built-in rules
 * on the generated HTTP packets), else the reference's (a rule whose
 * conditions are all in its reach), else the pipeline's vote of at least
 * three libraries, else the rule is unverified.  The op is one packet (or
 * flow): every group's set on it, by match_ids.
 *
 * An engine that cannot compile some of a user's rules runs the others:
 * each refused rule (any of its patterns refused) is an unsupported row
 * naming the engine and the rule, and the engine's real-life rows carry
 * the number of rules it ran.
 */
#define _GNU_SOURCE
#include "suites/payload_ruleset.h"
#include "suites/payload_threads.h"
#include "suites/cycle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct scenario scenario_real_life;

/* How an explanation names what decided a rule's expected answers. */
static const char *const by_name[] = {
	[PAYLOAD_BY_PLANTED] = "planted", [PAYLOAD_BY_REFERENCE] = "reference",
	[PAYLOAD_BY_VOTE] = "majority",
};

/*
 * A user's rule set that no selected engine runs: the real-life scenario
 * it was given for measures nothing, which is an error row, not only the
 * engines' unsupported rows.
 */
static void check_rules_run(const struct reallife *rl,
			    const struct payload_run *r, struct suite_ctx *ctx)
{
	const struct scenario *sc = &scenario_real_life;
	int selected = 0;

	if (rl->pr.builtin)
		return;
	for (size_t i = 0; i < r->nin; i++)
		for (size_t e = 0; e < r->neng; e++) {
			char name[256];
			payload_name(name, sizeof(name), sc, r->in[i].label,
				     r->engines[e]);
			selected |= suite_wants(ctx, name);
		}
	for (size_t e = 0; e < rl->neng; e++)
		if (rl->eng[e].status == RESULT_OK)
			return;
	if (selected)
		suite_fail(ctx, PAYLOAD_SUITE, PAYLOAD_PREFIX "/scenario=real-life",
			   RESULT_ERROR, "real-life: none of the %zu selected "
			   "engines runs any of the %zu rules of --rules (see "
			   "the rows above): nothing to measure", r->neng,
			   rl->pr.rs.n);
}



/* The engine's rule sets of a case. */
static struct peng *case_engine(const struct pcase *pc)
{
	struct reallife *rl = pc->ss->sr->data;

	return &rl->eng[pc->ei];
}

/* match_ids of one set on each value, ORed into acc (waf_each's fn). */
struct on_values {
	const struct engine *e;
	void *h;
	size_t n;
	unsigned char *ids, *acc;
	long rc;
};

static int set_on_value(void *arg, const char *v, size_t n)
{
	struct on_values *o = arg;
	long rc = o->e->match_ids(o->h, v, n, o->ids);

	if (rc < 0) {
		o->rc = rc;
		return 1;
	}
	for (size_t k = 0; k < o->n; k++)
		o->acc[k] |= o->ids[k];
	return 0;
}

/*
 * Group g's set of pe on the values its variables name in request q
 * (NULL: none): pe->ids per pattern of the set.  The number of its
 * patterns that matched, <0.
 */
static long group_values(const struct payload_rules *pr, struct peng *pe,
			 size_t g, const struct http_req *q)
{
	const struct eset *es = &pe->sets[g];
	struct on_values o = {pe->e, es->h, es->n, pe->vids, pe->ids, 0};
	long hits = 0;

	memset(pe->ids, 0, es->n);
	if (q == NULL)
		return 0;
	if (waf_each(pr->groups[g].spec, q, &pe->ws, set_on_value, &o) < 0)
		return ENGINE_ERR_NOMEM;
	if (o.rc < 0)
		return o.rc;
	for (size_t k = 0; k < es->n; k++)
		hits += pe->ids[k];
	return hits;
}

/*
 * Group g's set on unit i of ss (a packet, or a flow; a group on
 * variables reads packet i's request, block mode only): as match_ids.
 */
static long group_ids(const struct scen_size *ss, struct peng *pe,
		      size_t g, size_t i)
{
	const struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	void *const *fh = pe->fh[ss->mode];
	const struct packet *p = &ss->pk->pkt[i];
	const struct engine_span *sp;
	size_t n;

	if (pr->groups[g].spec != NULL)
		return group_values(pr, pe, g, payload_req(ss, i));
	if (fh == NULL || !payload_flow_native(ss, pe->e))
		return pe->e->match_ids(pe->sets[g].h, p->p, p->len, pe->ids);
	sp = payload_flow_spans(ss, i, &n);
	return pe->e->match_flow(fh[g], sp, n, pe->ids);
}

/* All rule sets of the engine on unit i: matches, or <0. */
static long rules_once(const struct scen_size *ss, struct peng *pe,
		       size_t i)
{
	const struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	long hits = 0;

	for (size_t g = 0; g < pr->ngroups; g++) {
		long rc;
		if (pe->sets[g].h == NULL)
			continue;
		rc = group_ids(ss, pe, g, i);
		if (rc < 0)
			return rc;
		hits += rc;
	}
	return hits;
}

/* The cycled op (suites/cycle.h): all of a cycle's rule sets on unit i. */
struct rules_cycle {
	const struct scen_size *ss;
	struct peng *pe;
};

static inline long rules_op(void *arg, size_t i)
{
	const struct rules_cycle *rc = arg;

	return rules_once(rc->ss, rc->pe, i);
}

/*
 * n ops of pe's rule sets over packets [lo, hi) of ss, cycling, from
 * *next; matches added to *sink (cycle_run).  The one-thread op (the
 * whole set, pe the engine's) and each thread's (its share, pe its own).
 */
static inline int rules_loop(const struct scen_size *ss,
			     struct peng *pe, size_t lo, size_t hi,
			     size_t *next, uint64_t n, uint64_t *sink)
{
	struct rules_cycle rc = {ss, pe};

	return cycle_run(lo, hi, next, n, rules_op, &rc, sink);
}

static int rules_run(void *arg, uint64_t n)
{
	struct pcase *c = arg;

	return rules_loop(c->ss, case_engine(c), 0, c->ss->pk->n, &c->next, n,
			  &c->sink);
}

/* ---- verifying: the pipeline's operations (suites/case.h) ---- */

/*
 * An answer's part for rule r (case_ops.parts): its enum case_part byte,
 * at PART_COUNT the number of packets the rule matches, at PART_BITS a
 * bit per packet.  An engine's answer leaves out the rules it does not
 * run; the expected answer the rules neither planted nor in the
 * reference's reach, which the pipeline puts to the vote.
 */
#define PART_COUNT 8
#define PART_BITS 16

static size_t part_size(const struct scen_size *ss)
{
	return ss->ops.answer_size / ss->ops.parts;
}

static unsigned char *rule_part(const struct scen_size *ss, const void *a,
				size_t r)
{
	return (unsigned char *)a + r * part_size(ss);
}

static size_t part_count(const unsigned char *p)
{
	size_t n;

	memcpy(&n, p + PART_COUNT, sizeof(n));
	return n;
}

static int part_bit(const unsigned char *p, size_t i)
{
	return (p[PART_BITS + i / 8] >> (i % 8)) & 1;
}

/* Packet i matches the rule of part p. */
static void part_mark(unsigned char *p, size_t i)
{
	size_t n = part_count(p) + 1;

	p[PART_BITS + i / 8] |= (unsigned char)(1u << (i % 8));
	memcpy(p + PART_COUNT, &n, sizeof(n));
}

/* Bytes of the packet bits of a part. */
static size_t part_bytes(const struct scen_size *ss)
{
	return part_size(ss) - PART_BITS;
}

static int check_flow_marks(struct scen_size *ss, struct suite_ctx *ctx);

/* The table hook: a part per rule, a bit per packet (flow) in each. */
static int rules_table(struct scen_size *ss, struct suite_ctx *ctx)
{
	const struct reallife *rl = ss->sr->data;

	if (rl->pr.variables && ss->mode != PMODE_BLOCK) {
		char name[256];
		payload_case_name(name, sizeof(name), ss, NULL);
		suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_UNSUPPORTED,
			   "--rules-target=variables parses one request per "
			   "packet: not planned over flows (--rules-target=raw "
			   "runs them on the flow)");
		return 1;
	}
	if (payload_requests(ss, &rl->pr) != 0)
		return -1;
	ss->ops.parts = rl->pr.rs.n;
	ss->ops.answer_size = rl->pr.rs.n *
			      (PART_BITS + (ss->pk->n + 63) / 64 * 8);
	if (ss->mode != PMODE_BLOCK && rl->pr.builtin && ss->pk->mark != NULL)
		return check_flow_marks(ss, ctx);
	return 0;
}

/* A voter's own rule sets (suites/case.h), freed by rules_free(); the
 * rules its engine cannot run are left out of its answer, with no row. */
static int voter_compile(const struct scen_size *ss,
			 const struct case_item *c, void **h)
{
	const struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	struct peng *pe = calloc(1, sizeof(*pe));

	if (pe == NULL)
		return ENGINE_ERR_NOMEM;
	pe->e = c->e;
	if (payload_rules_compile(NULL, pr, pe) != 0 ||
	    pe->status != RESULT_OK) {
		payload_rules_free(pr, pe);
		free(pe);
		return ENGINE_ERR_UNSUPPORTED;
	}
	*h = pe; /* it answers on whole (or reassembled) packets */
	return 0;
}

static int rules_compile(void *arg, const struct case_item *c, void **h,
			 char *why, size_t size)
{
	const struct scen_size *ss = arg;
	struct peng *pe = case_engine(c->arg);

	if (c->voter)
		return voter_compile(ss, c, h);

	if (pe->status == RESULT_OK && ss->mode == PMODE_VECTORED &&
	    !payload_flow_native(ss, pe->e)) {
		snprintf(why, size, "%s has no vectored scan (its flows are "
			 "scanned reassembled under --mode=stream)", pe->e->name);
		return ENGINE_ERR_UNSUPPORTED;
	}
	if (pe->status == RESULT_OK && payload_flow_native(ss, pe->e) &&
	    pe->fh[ss->mode] == NULL) {
		snprintf(why, size, "%s", pe->fwhy[ss->mode]);
		return ENGINE_ERR_UNSUPPORTED;
	}
	if (pe->status == RESULT_OK) {
		*h = pe;
		return 0;
	}
	snprintf(why, size, "%s", pe->why);
	return pe->status == RESULT_UNSUPPORTED ? ENGINE_ERR_UNSUPPORTED
						: ENGINE_ERR_COMPILE;
}

/* pe's answer per pattern on unit i of ss into pe->hit.  0 or <0. */
static int packet_hits(const struct scen_size *ss,
		       const struct payload_rules *pr, struct peng *pe, size_t i)
{
	memset(pe->hit, 0, pr->rs.np);
	for (size_t g = 0; g < pr->ngroups; g++) {
		const struct eset *es = &pe->sets[g];
		long rc;

		if (es->h == NULL)
			continue;
		rc = group_ids(ss, pe, g, i);
		if (rc < 0)
			return (int)rc;
		for (size_t k = 0; k < es->n; k++)
			pe->hit[es->map[k]] = pe->ids[k] != 0;
	}
	return 0;
}

/* packet_hits() of packet i from the answers of every packet (all_ids()). */
static void packet_hits_from(const struct payload_rules *pr, struct peng *pe,
			     unsigned char *const *ids, size_t i)
{
	memset(pe->hit, 0, pr->rs.np);
	for (size_t g = 0; g < pr->ngroups; g++) {
		const struct eset *es = &pe->sets[g];
		for (size_t k = 0; ids[g] != NULL && k < es->n; k++)
			pe->hit[es->map[k]] = ids[g][i * es->n + k] != 0;
	}
}

/*
 * match_ids of every group on every packet, asked a group at a time (a
 * runner's in one request): ids[g] gets es->n bytes per packet, NULL
 * for a group it has none of; free them with ids_free().  *at: the
 * packet asked (engine_answers).  0 or <0.
 */
static int all_ids(const struct payload_rules *pr, const struct peng *pe,
		   const struct packets *pk, unsigned char **ids, size_t *at)
{
	struct engine_span *in = payload_spans(pk);
	long *v = calloc(pk->n ? pk->n : 1, sizeof(*v));
	int rc = in == NULL || v == NULL ? ENGINE_ERR_NOMEM : 0;

	for (size_t g = 0; rc == 0 && g < pr->ngroups; g++) {
		const struct eset *es = &pe->sets[g];
		if (es->h == NULL)
			continue;
		ids[g] = malloc(pk->n * es->n + 1);
		rc = ids[g] == NULL ? ENGINE_ERR_NOMEM
				    : engine_answers(pe->e, es->h,
						     ENGINE_OP_MATCH_IDS, in,
						     pk->n, es->n, v, ids[g],
						     at);
	}
	free(in);
	free(v);
	return rc;
}

static void ids_free(unsigned char **ids, size_t n)
{
	for (size_t g = 0; ids != NULL && g < n; g++)
		free(ids[g]);
	free(ids);
}

/*
 * Whether every op of pe's answer is match_ids of a set on a whole
 * packet (no group matches a request's variables, no flow is scanned
 * natively): its packets can then be asked a set at a time.
 */
static int rules_each_packet(const struct scen_size *ss,
			     const struct payload_rules *pr,
			     const struct peng *pe)
{
	for (size_t g = 0; g < pr->ngroups; g++)
		if (pr->groups[g].spec != NULL && pe->sets[g].h != NULL)
			return 0;
	return pe->fh[ss->mode] == NULL || !payload_flow_native(ss, pe->e);
}

/*
 * The engine's answer: per rule it runs, the packets where the rule
 * holds, combined from match_ids over its sets (what the op runs).
 * Where the ops are match_ids on whole packets, every packet of a set
 * is asked at once (a runner's in one request).
 */
static int rules_answer(void *arg, const struct case_item *c, void *out)
{
	struct scen_size *ss = arg;
	const struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	const struct pcase *pc = c->arg;
	struct peng *pe = c->h;
	unsigned char **ids = NULL;

	memset(out, 0, ss->ops.answer_size);
	for (size_t r = 0; r < pr->rs.n; r++)
		if (pe->ok[r])
			rule_part(ss, out, r)[0] = CASE_PART_SET;
	if (rules_each_packet(ss, pr, pe)) {
		int rc;
		ids = calloc(pr->ngroups + 1, sizeof(*ids));
		rc = ids == NULL ? ENGINE_ERR_NOMEM
				 : all_ids(pr, pe, ss->pk, ids,
					   &ss->at[pc->ei]);
		if (rc != 0) {
			ids_free(ids, pr->ngroups);
			return rc;
		}
	}
	for (size_t i = 0; i < ss->pk->n; i++) {
		int rc = 0;
		ss->at[pc->ei] = i;
		if (ids != NULL)
			packet_hits_from(pr, pe, ids, i);
		else
			rc = packet_hits(ss, pr, pe, i);
		if (rc < 0)
			return rc;
		for (size_t r = 0; r < pr->rs.n; r++)
			if (pe->ok[r] && rules_holds(&pr->rs, r, pe->hit))
				part_mark(rule_part(ss, out, r), i);
	}
	ids_free(ids, pr->ngroups);
	return 0;
}

/*
 * In a flow mode the planted truth per flow (corpora/packets.h) is held
 * against the reference on each reassembled flow, rule by rule, before
 * any engine is: the expected answer is both.  0, or 1 after an error
 * row (an rxbench bug, not an engine's).
 */
static int check_flow_marks(struct scen_size *ss, struct suite_ctx *ctx)
{
	struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	const struct packets *pk = ss->pk;
	char name[256];

	for (size_t r = 0; r < pr->rs.n; r++)
		for (size_t i = 0; pr->by_ref[r] && i < pk->n; i++) {
			int want = (int)((pk->mark[i] >> r) & 1);
			int ref = payload_rule_ref(pr, r, &pk->pkt[i], NULL);
			if (want == ref)
				continue;
			payload_case_name(name, sizeof(name), ss, NULL);
			suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_ERROR,
				   "generator: flow %zu planted rule %s %d but "
				   "the reference says %d", i, pr->rs.r[r].name,
				   want, ref);
			return 1;
		}
	return 0;
}


/* "per rule and packet: reference 9 rules, out of its reach 1 rule". */
static void sources_text(const size_t *n, const char *unit, char *buf,
			 size_t size)
{
	static const char *const what[] = {
		[PAYLOAD_BY_PLANTED] = "planted", [PAYLOAD_BY_REFERENCE] = "reference",
		[PAYLOAD_BY_VOTE] = "out of the reference's reach",
	};
	int o = snprintf(buf, size, "per rule and %s:", unit);
	const char *sep = " ";

	for (int k = 0; k < 3 && o > 0 && (size_t)o < size; k++) {
		if (n[k] == 0)
			continue;
		o += snprintf(buf + o, size - (size_t)o, "%s%s %zu rule%s", sep,
			      what[k], n[k], n[k] == 1 ? "" : "s");
		sep = ", ";
	}
}

/* "; 16384 of 16384 packets are whole HTTP requests" (variables), and
 * why the others are not ("; the others: 12 (JSON bodies are not
 * parsed ...)"):
 * the rules read no variable of those, so the user sees what was left
 * out and why. */
static void requests_text(const struct payload_rules *pr,
			  const struct scen_size *ss, char *buf, size_t size)
{
	int o;

	buf[0] = '\0';
	if (!pr->variables)
		return;
	o = snprintf(buf, size, "; rules on their variables: %zu of %zu "
		     "packets are whole HTTP requests", ss->nreq, ss->pk->n);
	for (size_t k = 0; k < PAYLOAD_NOTREQ && ss->notreq[k].n > 0 &&
			   o > 0 && (size_t)o < size; k++)
		o += snprintf(buf + o, size - (size_t)o, "%s %zu (%s)",
			      k == 0 ? "; the others:" : ",", ss->notreq[k].n,
			      ss->notreq[k].why);
}

/* The expected answer: planted or the reference's, rule by rule. */
static int rules_expect(void *arg, const struct case_item *c, void *out,
			char *by, size_t size)
{
	struct scen_size *ss = arg;
	struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	size_t n[3] = {0, 0, 0}, runs = 0, len;

	(void)c;
	memset(out, 0, ss->ops.answer_size);
	for (size_t r = 0; r < pr->rs.n; r++) {
		unsigned char *p = rule_part(ss, out, r);
		size_t count;
		int src;
		if (pr->skip != NULL && pr->skip[r] != NULL)
			continue;
		runs++;
		src = payload_rule_expect(pr, ss, r, p + PART_BITS, &count);
		if (src < 0)
			return CASE_REF_ERROR;
		n[src]++;
		if (src == PAYLOAD_BY_VOTE)
			continue;
		p[0] = CASE_PART_SET;
		memcpy(p + PART_COUNT, &count, sizeof(count));
	}
	sources_text(n, ss->mode == PMODE_BLOCK ? "packet" : "reassembled flow",
		     by, size);
	len = strlen(by);
	requests_text(pr, ss, by + len, size - len);
	return n[PAYLOAD_BY_VOTE] == runs ? CASE_REF_NONE : CASE_REF_OK;
}

/*
 * Packets where some rule of the case's engine matches in answer a (its
 * parts that a holds), into *matched; *rules gets how many rules that is.
 * 0, or -1 out of memory.
 */
static int packets_matched(const struct scen_size *ss,
			   const struct case_item *c, const void *a,
			   size_t *matched, size_t *rules)
{
	const struct peng *pe = case_engine(c->arg);
	size_t nb = part_bytes(ss);
	unsigned char *any = calloc(nb ? nb : 1, 1);

	*matched = *rules = 0;
	if (any == NULL)
		return -1;
	for (size_t r = 0; r < ss->ops.parts; r++) {
		const unsigned char *p = rule_part(ss, a, r);
		if (!pe->ok[r] || p[0] != CASE_PART_SET)
			continue;
		(*rules)++;
		for (size_t b = 0; b < nb; b++)
			any[b] |= p[PART_BITS + b];
	}
	for (size_t b = 0; b < nb; b++)
		*matched += (size_t)__builtin_popcount(any[b]);
	free(any);
	return 0;
}

static void rules_describe(void *arg, const struct case_item *c,
			   const void *answer, char *buf, size_t size)
{
	const struct scen_size *ss = arg;
	size_t matched, rules;

	if (packets_matched(ss, c, answer, &matched, &rules) != 0)
		snprintf(buf, size, "(out of memory)");
	else
		snprintf(buf, size, "%zu of %zu %ss match its %zu rule%s",
			 matched, ss->pk->n, payload_unit(ss), rules,
			 rules == 1 ? "" : "s");
}

/* Rule r's conditions for a message: "/a/ and not /b/", long ones cut. */
static void rule_text(const struct ruleset *rs, size_t r, char *buf,
		      size_t size)
{
	const struct rule *ru = &rs->r[r];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = ru->first; k < ru->first + ru->n && o < size; k++) {
		const struct rule_pattern *p = &rs->p[k];
		int n = snprintf(buf + o, size - o, "%s%s/%.60s%s/",
				 k > ru->first ? " and " : "",
				 p->negated ? "not " : "", p->re,
				 p->len > 60 ? "..." : "");
		o += n > 0 ? (size_t)n : 0;
	}
}

/* Where two answers differ: rules, packets, the rule to name. */
struct rules_diff {
	size_t rules;   /* rules that differ */
	size_t packets; /* packets where some rule differs */
	size_t named;   /* the first rule whose count differs, else the
			   first to differ on the first packet that does */
	size_t first;   /* the first packet where `named` differs */
};

/* The first packet where parts g and w differ, or (size_t)-1. */
static size_t first_differ(const struct scen_size *ss, const unsigned char *g,
			   const unsigned char *w)
{
	for (size_t b = 0; b < part_bytes(ss); b++)
		if (g[PART_BITS + b] != w[PART_BITS + b])
			return b * 8 + (size_t)__builtin_ctz(
					       (unsigned)(g[PART_BITS + b] ^
							  w[PART_BITS + b]));
	return (size_t)-1;
}

/* Compare the rules c's engine runs of got and want.  0, or -1 (memory). */
static int rules_differ(const struct scen_size *ss, const struct case_item *c,
			const void *got, const void *want, struct rules_diff *d)
{
	const struct peng *pe = case_engine(c->arg);
	size_t nb = part_bytes(ss), counted = (size_t)-1, early = (size_t)-1;
	unsigned char *any = calloc(nb ? nb : 1, 1);

	*d = (struct rules_diff){0, 0, 0, 0};
	if (any == NULL)
		return -1;
	for (size_t r = 0; r < ss->ops.parts; r++) {
		const unsigned char *g = rule_part(ss, got, r);
		const unsigned char *w = rule_part(ss, want, r);
		size_t at;
		if (!pe->ok[r] || w[0] != CASE_PART_SET ||
		    (at = first_differ(ss, g, w)) == (size_t)-1)
			continue;
		d->rules++;
		for (size_t b = 0; b < nb; b++)
			any[b] |= g[PART_BITS + b] ^ w[PART_BITS + b];
		if (counted == (size_t)-1 && part_count(g) != part_count(w))
			counted = r;
		if (early == (size_t)-1 || at < d->first) {
			early = r;
			d->first = at;
		}
	}
	for (size_t b = 0; b < nb; b++)
		d->packets += (size_t)__builtin_popcount(any[b]);
	free(any);
	d->named = counted != (size_t)-1 ? counted : early;
	if (d->named != (size_t)-1)
		d->first = first_differ(ss, rule_part(ss, got, d->named),
					rule_part(ss, want, d->named));
	return 0;
}

/*
 * The rule a MISMATCH names, with the packets the engine says it matches
 * and the expected number, and the first packet where they differ.
 */
static void rules_explain(void *arg, const struct case_item *c,
			  const void *got, const void *want, char *buf,
			  size_t size)
{
	const struct scen_size *ss = arg;
	const struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	const struct packets *pk = ss->pk;
	struct rules_diff d;
	const unsigned char *g, *w;
	const struct packet *p;
	const char *src;
	char text[200], conds[200];

	if (rules_differ(ss, c, got, want, &d) != 0 || d.named == (size_t)-1) {
		snprintf(buf, size, "%s", d.rules ? "out of memory"
						  : "no rule it runs differs");
		return;
	}
	g = rule_part(ss, got, d.named);
	w = rule_part(ss, want, d.named);
	p = &pk->pkt[d.first];
	src = by_name[payload_rule_expect_by(pr, pk, d.named)];
	payload_excerpt(p->p, p->len, 0, 64, text, sizeof(text));
	rule_text(&pr->rs, d.named, conds, sizeof(conds));
	snprintf(buf, size, "rule %s (%s) matches %zu of %zu %ss, %s %zu; "
		 "%zu of %zu rules differ, on %zu %ss; first: %s %zu, "
		 "match %d, %s %d; rule %s; %s \"%s\"",
		 pr->rs.r[d.named].name, pr->rs.r[d.named].where, part_count(g),
		 pk->n, payload_unit(ss), src, part_count(w), d.rules, pr->rs.n,
		 d.packets, payload_unit(ss), payload_unit(ss), d.first,
		 part_bit(g, d.first), src, part_bit(w, d.first), conds,
		 payload_unit(ss), text);
}

/* The real-life op as work: match_ids of every compiled group. */
static int rules_work_fill(const struct payload_rules *pr,
			     const struct peng *pe, struct pcase *pc,
			     struct bench *b)
{
	void **sets = calloc(pr->ngroups ? pr->ngroups : 1, sizeof(*sets));
	size_t n = 0;
	int rc = 0;

	if (sets == NULL)
		return -1;
	for (size_t g = 0; g < pr->ngroups; g++)
		if (pe->sets[g].h != NULL)
			sets[n++] = pe->sets[g].h;
	rc = payload_work_fill(pc, pe->e, ENGINE_OP_MATCH_IDS, sets, n, b);
	free(sets);
	return rc;
}

/* The memory metrics of the sets the case's op runs. */
static int rules_mem_fill(const struct scen_size *ss, const struct peng *pe,
			  struct bench *b)
{
	const struct payload_rules *pr = &((struct reallife *)ss->sr->data)->pr;
	void **h = calloc(pr->ngroups ? pr->ngroups : 1, sizeof(*h));
	void *const *fh = payload_flow_native(ss, pe->e) ? pe->fh[ss->mode]
							 : NULL;
	size_t n = 0;

	if (h == NULL)
		return -1;
	for (size_t g = 0; g < pr->ngroups; g++)
		if (pe->sets[g].h != NULL)
			h[n++] = fh != NULL ? fh[g] : pe->sets[g].h;
	payload_mem_fill(pe->e, h, n, b);
	free(h);
	return 0;
}

static int rules_bench(void *arg, struct case_item *c, const void *answer,
		       struct bench *b)
{
	struct pcase *pc = c->arg;
	struct pthreads *pt = b->arg; /* NULL: the one-thread benchmark */
	size_t matched, rules;

	if (packets_matched(arg, c, answer, &matched, &rules) != 0)
		return -1;
	pc->h = c->h;
	payload_bench_fill(pc, matched, b);
	b->extra[b->nextra++] = (struct bench_metric){
		"rules", BETTER_EXACT, (double)case_engine(pc)->nok};
	if (rules_mem_fill(arg, case_engine(pc), b) != 0)
		return -1;
	if (pt != NULL)
		return payload_threads_fill(pt, c, answer, b);
	return rules_work_fill(&((struct reallife *)pc->ss->sr->data)->pr,
			       case_engine(pc), pc, b);
}

/* A case's sets are its engine's, freed at teardown; a voter's its own. */
static void rules_free(void *arg, struct case_item *c)
{
	const struct scen_size *ss = arg;

	if (!c->voter)
		return;
	payload_rules_free(&((struct reallife *)ss->sr->data)->pr, c->h);
	free(c->h);
}

/* case_ops.voter: any engine (one class); voter_compile() gates it. */
static int rules_voter(void *st, const struct case_item *c,
		       const struct engine *e, int *klass)
{
	(void)st;
	(void)c;
	(void)e;
	*klass = 0;
	return 0;
}

static const struct case_ops rules_ops = {
	.part_name = "rule",
	.compile = rules_compile,
	.answer = rules_answer,
	.expect = rules_expect,
	.describe = rules_describe,
	.explain = rules_explain,
	.bench = rules_bench,
	.release = rules_free,
	.failed = payload_case_failed,
	.voter = rules_voter,
};

/* The verified count of rule r at ss (see payload.h). */
size_t payload_rules_matched(const struct scen_size *ss, size_t r)
{
	for (size_t i = 0; ss->tabled && i < ss->t.n; i++) {
		const struct case_item *c = &ss->t.c[i];
		const unsigned char *p;
		if (!c->planned || c->unverified || c->answer == NULL)
			continue;
		p = rule_part(ss, c->answer, r);
		if (p[0] == CASE_PART_SET)
			return part_count(p);
	}
	return PAYLOAD_NO_MATCHES;
}

/* ---- on threads (--threads, suites/payload_threads.c) ---- */

/*
 * A thread's state is a copy of the engine's struct peng whose sets are
 * the thread's own states over the engine's compiled sets (the same maps)
 * and whose match_ids and pattern scratch are its own; ok is shared.
 */
static void rules_thread_end(struct pslot *s)
{
	struct peng *t = s->st;
	const struct payload_rules *pr =
		&((struct reallife *)s->pc->ss->sr->data)->pr;

	if (t == NULL)
		return;
	for (size_t g = 0; t->sets != NULL && g < pr->ngroups; g++)
		if (t->sets[g].h != NULL)
			t->e->thread_free(t->sets[g].h);
	free(t->sets);
	free(t->ids);
	free(t->hit);
	free(t->vids);
	waf_scratch_release(&t->ws);
	free(t);
	s->st = NULL;
}

static int rules_thread_begin(struct pslot *s)
{
	const struct payload_rules *pr =
		&((struct reallife *)s->pc->ss->sr->data)->pr;
	const struct peng *pe = case_engine(s->pc);
	size_t nids = 1;
	struct peng *t = malloc(sizeof(*t));

	if (t == NULL)
		return ENGINE_ERR_NOMEM;
	*t = *pe;
	s->st = t;
	/* its own scratch: the values' (variables) too */
	t->ws = (struct waf_scratch){NULL, 0};
	t->sets = calloc(pr->ngroups ? pr->ngroups : 1, sizeof(*t->sets));
	t->hit = calloc(pr->rs.np ? pr->rs.np : 1, 1);
	for (size_t g = 0; g < pr->ngroups; g++)
		nids = pe->sets[g].n > nids ? pe->sets[g].n : nids;
	t->ids = calloc(nids, 1);
	t->vids = calloc(nids, 1);
	if (t->sets == NULL || t->hit == NULL || t->ids == NULL ||
	    t->vids == NULL)
		goto fail;
	for (size_t g = 0; g < pr->ngroups; g++) {
		t->sets[g] = pe->sets[g];
		if (pe->sets[g].h == NULL)
			continue;
		t->sets[g].h = pe->e->thread_new(pe->sets[g].h);
		if (t->sets[g].h == NULL)
			goto fail;
	}
	return 0;
fail:
	rules_thread_end(s);
	return ENGINE_ERR_NOMEM;
}

static int rules_thread_run(struct pslot *s, uint64_t n)
{
	return rules_loop(s->pc->ss, s->st, s->lo, s->hi, &s->next, n,
			  &s->sink);
}

/* (rule, packet) pairs of the slot's share where the rule holds. */
static int rules_thread_check(struct pslot *s, uint64_t *got)
{
	const struct payload_rules *pr =
		&((struct reallife *)s->pc->ss->sr->data)->pr;
	struct peng *t = s->st;

	*got = 0;
	for (size_t i = s->lo; i < s->hi; i++) {
		int rc = packet_hits(s->pc->ss, pr, t, i);
		if (rc < 0)
			return rc;
		for (size_t r = 0; r < pr->rs.n; r++)
			*got += t->ok[r] && rules_holds(&pr->rs, r, t->hit);
	}
	return 0;
}

/* The same pairs in the case's verified answer. */
static uint64_t rules_thread_want(const struct scen_size *ss,
				  const struct case_item *c,
				  const void *answer, size_t lo, size_t hi)
{
	const struct peng *pe = case_engine(c->arg);
	uint64_t n = 0;

	for (size_t r = 0; r < ss->ops.parts; r++) {
		const unsigned char *p = rule_part(ss, answer, r);
		if (!pe->ok[r] || p[0] != CASE_PART_SET)
			continue;
		for (size_t i = lo; i < hi; i++)
			n += (uint64_t)part_bit(p, i);
	}
	return n;
}

static const struct payload_thread_ops rules_threads = {
	.begin = rules_thread_begin,
	.end = rules_thread_end,
	.run = rules_thread_run,
	.check = rules_thread_check,
	.want = rules_thread_want,
	.answer = "(rule, packet) matches",
};

/* ---- the scenario ---- */

static int reallife_setup(struct payload_run *r, struct scen_run *sr,
			  struct suite_ctx *ctx)
{
	if (payload_rules_scen_new(sr, r->cfg) != 0 ||
	    payload_rules_setup(sr->data, r, ctx) != 0)
		return -1;
	check_rules_run(sr->data, r, ctx);
	return 0;
}

/* Its rows record what the rules are, and how they are read. */
static int reallife_inputs(const struct scen_size *ss, struct result_inputs *in,
			   int options)
{
	const struct reallife *rl = ss->sr->data;

	return rl != NULL ? payload_rules_inputs(&rl->pr, in, options) : 0;
}

const struct scenario scenario_real_life = {
	.name = "real-life", .title = "real-life", .in_default = 1,
	.help = "10 rules per packet (or --rules), match_ids (HTTP)",
	.plant = PACKETS_HTTP,
	.ops = &rules_ops, .run = rules_run, .threads = &rules_threads,
	.setup = reallife_setup, .table = rules_table,
	.teardown = payload_rules_scen_free, .inputs = reallife_inputs,
};
