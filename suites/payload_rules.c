/*
 * payload_rules.c - the payload suite's real-life scenario: rule sets
 * compiled per engine (native sets where the engine has them, the
 * adapter's loop otherwise) and verified rule by rule, packet by packet
 * (see payload.h).
 *
 * Engines compile patterns, the rules' conditions (corpora/rules.h); a
 * rule's answer on a packet is combined from the engine's answers for its
 * patterns by rules_holds(), the same way for every engine, so a negated
 * condition needs no regex of its own.  The rule's answers are what is
 * verified, and with them the number of packets each rule matches.
 *
 * An engine that cannot compile some of a user's rules runs the others:
 * each refused rule (any of its patterns refused) is an unsupported row
 * naming the engine and the rule, and the engine's real-life rows carry
 * the number of rules it ran.
 */
#define _GNU_SOURCE
#include "suites/payload.h"

#include "harness/isolate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANSWER_NONE 2 /* the engine does not run this rule */

/* ---- grouping ---- */

static struct rule_group *group_for(struct payload_rules *pr, unsigned flags)
{
	struct rule_group *grown;

	for (size_t g = 0; g < pr->ngroups; g++)
		if (pr->groups[g].flags == flags)
			return &pr->groups[g];
	grown = realloc(pr->groups, (pr->ngroups + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	pr->groups = grown;
	memset(&grown[pr->ngroups], 0, sizeof(*grown));
	grown[pr->ngroups].flags = flags;
	return &grown[pr->ngroups++];
}

int payload_rules_group(struct payload_rules *pr)
{
	for (size_t i = 0; i < pr->rs.np; i++) {
		struct rule_group *g = group_for(pr, pr->rs.p[i].flags);
		size_t *grown;

		if (g == NULL)
			return -1;
		grown = realloc(g->pat, (g->n + 1) * sizeof(*grown));
		if (grown == NULL)
			return -1;
		g->pat = grown;
		g->pat[g->n++] = i;
	}
	return 0;
}

int payload_rules_reference(struct payload_rules *pr)
{
	const struct ruleset *rs = &pr->rs;
	char why[160];

	pr->ref = calloc(rs->np + 1, sizeof(*pr->ref));
	pr->by_ref = calloc(rs->n + 1, 1);
	pr->dollar = calloc(rs->n + 1, 1);
	pr->ref_hit = calloc(rs->np + 1, 1);
	if (pr->ref == NULL || pr->by_ref == NULL || pr->dollar == NULL ||
	    pr->ref_hit == NULL)
		return -1;
	for (size_t k = 0; k < rs->np; k++) {
		const struct rule_pattern *p = &rs->p[k];
		int rc = ref_compile(p->re, p->len, p->flags, &pr->ref[k], why,
				     sizeof(why));
		if (rc == REF_NOMEM)
			return -1;
		if (rc != REF_OK)
			pr->ref[k] = NULL;
	}
	for (size_t r = 0; r < rs->n; r++) {
		const struct rule *ru = &rs->r[r];
		pr->by_ref[r] = 1;
		for (size_t k = ru->first; k < ru->first + ru->n; k++) {
			pr->by_ref[r] &= pr->ref[k] != NULL;
			/* out of reach: judged by its bytes */
			pr->dollar[r] |= pr->ref[k] != NULL
				? (ref_features(pr->ref[k]) & REF_USES_DOLLAR) != 0
				: memchr(rs->p[k].re, '$', rs->p[k].len) != NULL;
		}
	}
	return 0;
}

void payload_rules_release(struct payload_rules *pr)
{
	for (size_t k = 0; pr->ref != NULL && k < pr->rs.np; k++)
		if (pr->ref[k] != NULL)
			ref_free(pr->ref[k]);
	free(pr->ref);
	free(pr->by_ref);
	free(pr->dollar);
	free(pr->ref_hit);
	for (size_t g = 0; g < pr->ngroups; g++)
		free(pr->groups[g].pat);
	free(pr->groups);
	rules_release(&pr->rs);
	memset(pr, 0, sizeof(*pr));
}

/* ---- compiling ---- */

/* compile_group(): a dropped rule's patterns may sit in sets built before. */
#define COMPILE_AGAIN 1

/*
 * Row for the rule of pattern k, which pe's engine refused; built-in rules
 * must compile.
 */
static void rule_refused(struct suite_ctx *ctx, const struct payload_rules *pr,
			 const struct peng *pe, size_t k,
			 const struct engine_error *err)
{
	const struct rule *r = &pr->rs.r[pr->rs.p[k].rule];
	char name[256], part[64], at[32] = "", cond[128] = "";

	bench_name_part(r->name, strlen(r->name), part, sizeof(part));
	if (err->offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err->offset);
	if (r->n > 1)
		snprintf(cond, sizeof(cond), ", condition %zu of %zu /%.60s%s/",
			 k - r->first + 1, r->n, pr->rs.p[k].re,
			 pr->rs.p[k].len > 60 ? "..." : "");
	snprintf(name, sizeof(name), "%s/scenario=real-life/engine=%s/rule=%s",
		 PAYLOAD_PREFIX, pe->e->name, part);
	suite_fail(ctx, PAYLOAD_SUITE, name,
		   pr->builtin || err->status == ENGINE_ERR_NOMEM ? RESULT_ERROR
								 : RESULT_UNSUPPORTED,
		   "%s cannot compile rule %s (%s)%s: %s%s%s",
		   pe->e->name, r->name, r->where, cond, err->msg, at,
		   pr->builtin ? "" : "; its real-life rows run the other rules "
				      "(partial)");
}

/* Compile pattern p alone and free it again.  0, or -1 with err filled. */
static int compile_alone(const struct engine *e, const struct rule_pattern *p,
			 struct engine_error *err)
{
	struct engine_pattern ep = {p->re, p->len};
	void *h = NULL;

	if (e->compile(&ep, 1, p->flags, &h, err) != 0)
		return -1;
	e->free(h);
	return 0;
}

/* Try each rule's patterns alone: pe->ok[r] = 1 when all compile. */
static void compile_each(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe)
{
	for (size_t r = 0; r < pr->rs.n; r++) {
		const struct rule *ru = &pr->rs.r[r];
		struct engine_error err = {0, -1, -1, ""};
		size_t k = ru->first;

		if (pr->dollar != NULL && pr->dollar[r] &&
		    !(pe->e->caps & CAP_PERL_DOLLAR)) {
			/* a packet ending in '\n' would answer differently */
			err.status = ENGINE_ERR_UNSUPPORTED;
			snprintf(err.msg, sizeof(err.msg), "`$` is the end of data "
				 "only in %s, PCRE's `$` also matches before a "
				 "final newline (needs perl-dollar)", pe->e->name);
			rule_refused(ctx, pr, pe, k, &err);
			continue;
		}
		while (k < ru->first + ru->n &&
		       compile_alone(pe->e, &pr->rs.p[k], &err) == 0)
			k++;
		if (k < ru->first + ru->n) {
			rule_refused(ctx, pr, pe, k, &err);
			continue;
		}
		pe->ok[r] = 1;
		pe->nok++;
	}
}

/*
 * Compile the set of group g's patterns whose rules pe runs.  A pattern
 * the set compile blames (err.pattern) has its rule refused and the set
 * is retried.  0; COMPILE_AGAIN when the refused rule has patterns in
 * other groups (their sets must be built again); or a negative status
 * with err filled when no set could be built.
 */
static int compile_group(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe, const struct rule_group *g,
			 struct eset *es, struct engine_error *err)
{
	struct engine_pattern *pats = calloc(g->n, sizeof(*pats));
	int rc = ENGINE_ERR_NOMEM;
	size_t blamed;

	es->map = calloc(g->n, sizeof(*es->map));
	if (pats == NULL || es->map == NULL)
		goto out;
	for (;;) {
		es->n = 0;
		for (size_t k = 0; k < g->n; k++) {
			const struct rule_pattern *p = &pr->rs.p[g->pat[k]];
			if (!pe->ok[p->rule])
				continue;
			pats[es->n] = (struct engine_pattern){p->re, p->len};
			es->map[es->n++] = g->pat[k];
		}
		rc = 0;
		if (es->n == 0)
			break;
		rc = pe->e->compile(pats, es->n, g->flags, &es->h, err);
		if (rc == 0 || err->pattern < 0 || (size_t)err->pattern >= es->n)
			break;
		/* the set blames a pattern that compiled alone: drop its rule */
		blamed = es->map[err->pattern];
		rule_refused(ctx, pr, pe, blamed, err);
		pe->ok[pr->rs.p[blamed].rule] = 0;
		pe->nok--;
		rc = COMPILE_AGAIN;
		if (pr->rs.r[pr->rs.p[blamed].rule].n > 1)
			break;
	}
out:
	free(pats);
	if (rc == ENGINE_ERR_NOMEM && err->msg[0] == '\0')
		engine_error_set(err, rc, -1, -1, "out of memory");
	return rc;
}

/* Free pe's compiled sets (the array stays, zeroed). */
static void sets_free(const struct payload_rules *pr, struct peng *pe)
{
	for (size_t g = 0; pe->sets != NULL && g < pr->ngroups; g++) {
		if (pe->sets[g].h != NULL)
			pe->e->free(pe->sets[g].h);
		free(pe->sets[g].map);
		memset(&pe->sets[g], 0, sizeof(pe->sets[g]));
	}
}

/* One set per group; sets the real-life status when none can be built. */
static void compile_sets(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe)
{
	for (size_t g = 0; g < pr->ngroups;) {
		struct engine_error err = {0, -1, -1, ""};
		int rc = compile_group(ctx, pr, pe, &pr->groups[g], &pe->sets[g],
				       &err);
		if (rc == COMPILE_AGAIN) {
			sets_free(pr, pe);
			g = 0;
			continue;
		}
		if (rc == 0) {
			g++;
			continue;
		}
		pe->status = RESULT_ERROR;
		snprintf(pe->why, sizeof(pe->why),
			 "%s: the set of %zu patterns (flags %#x) does not "
			 "compile: %s", pe->e->name, pr->groups[g].n,
			 pr->groups[g].flags, err.msg);
		return;
	}
}

int payload_rules_compile(struct suite_ctx *ctx, const struct payload_rules *pr,
			  struct peng *pe)
{
	size_t largest = 1;

	pe->ok = calloc(pr->rs.n ? pr->rs.n : 1, 1);
	pe->hit = calloc(pr->rs.np ? pr->rs.np : 1, 1);
	pe->sets = calloc(pr->ngroups ? pr->ngroups : 1, sizeof(*pe->sets));
	for (size_t g = 0; g < pr->ngroups; g++)
		largest = pr->groups[g].n > largest ? pr->groups[g].n : largest;
	pe->ids = calloc(largest, 1);
	if (pe->ok == NULL || pe->hit == NULL || pe->sets == NULL ||
	    pe->ids == NULL)
		return -1;
	if (pe->e->match_ids == NULL) {
		pe->status = RESULT_UNSUPPORTED;
		snprintf(pe->why, sizeof(pe->why),
			 "%s: no match_ids (which rules matched)", pe->e->name);
		return 0;
	}
	compile_each(ctx, pr, pe);
	compile_sets(ctx, pr, pe);
	if (pe->status == RESULT_OK && pe->nok == 0) {
		pe->status = RESULT_UNSUPPORTED;
		snprintf(pe->why, sizeof(pe->why),
			 "%s compiles none of the %zu rules", pe->e->name,
			 pr->rs.n);
	}
	return 0;
}

void payload_rules_free(const struct payload_rules *pr, struct peng *pe)
{
	sets_free(pr, pe);
	free(pe->sets);
	free(pe->ok);
	free(pe->hit);
	free(pe->ids);
	pe->sets = NULL;
	pe->ok = NULL;
	pe->hit = NULL;
	pe->ids = NULL;
}

/* ---- verifying ---- */

#define NO_PACKET ((size_t)-1)

/* What verification counts per engine and rule. */
struct tally {
	size_t matched; /* packets the rule matched */
	size_t first;   /* first packet where it differs, or NO_PACKET */
	int got, want;  /* the answers there */
	int unverified; /* it ran on a packet nothing could decide */
};

/* The expected answers' counts per rule. */
struct expect {
	size_t matched; /* packets it should match */
	size_t undecided; /* packets where nothing decides its answer */
};

/* An engine's verdict on one size: how many packets differ, and where. */
struct verdict {
	size_t differ;
	size_t matched; /* packets where some rule matched */
	size_t pkt;     /* where it failed (iv) */
	size_t rule;    /* the first rule that differs on the first packet */
	struct tally *t; /* per rule */
	struct isolate_verdict iv; /* status < 0: it failed on packet `pkt` */
};

/*
 * Packets per verifying child: as many as keep its answers (a row of
 * rules per packet and engine) under VERIFY_CHUNK_BYTES, at most
 * VERIFY_CHUNK.  Few children, because what an engine builds lazily while
 * matching (RE2's DFA states, glibc's) is built again in each.
 */
#define VERIFY_CHUNK 8192
#define VERIFY_CHUNK_BYTES ((size_t)64 << 20)

/*
 * Engine pe's answer per rule for one packet into row: 0 or 1, combined
 * from its answers per pattern by rules_holds() (the same for every
 * engine), or ANSWER_NONE for a rule it does not run.  0 or a negative
 * status.
 */
static int answer_row(const struct payload_rules *pr, struct peng *pe,
		      const struct packet *p, unsigned char *row)
{
	memset(pe->hit, 0, pr->rs.np);
	for (size_t g = 0; g < pr->ngroups; g++) {
		const struct eset *es = &pe->sets[g];
		long rc;

		if (es->h == NULL)
			continue;
		rc = pe->e->match_ids(es->h, p->p, p->len, pe->ids);
		if (rc < 0)
			return (int)rc;
		for (size_t k = 0; k < es->n; k++)
			pe->hit[es->map[k]] = pe->ids[k] != 0;
	}
	for (size_t r = 0; r < pr->rs.n; r++)
		row[r] = !pe->ok[r] ? ANSWER_NONE
			 : (unsigned char)rules_holds(&pr->rs, r, pe->hit);
	return 0;
}

/* A chunk of packets x the engines still verifying, for isolate_answers(). */
struct rows_job {
	const struct payload_rules *pr;
	struct peng *pes;
	const struct packets *pk;
	size_t from, npk; /* packets [from, from + npk) */
	size_t *live;     /* engine of each slot */
	size_t nlive;
};

/* Item slot * npk + j: engine live[slot]'s row for packet from + j. */
static int rows_answer(void *arg, size_t item, void *out)
{
	const struct rows_job *j = arg;

	return answer_row(j->pr, &j->pes[j->live[item / j->npk]],
			  &j->pk->pkt[j->from + item % j->npk], out);
}

/* An engine that failed on a packet is not asked about the rest. */
static size_t rows_after_failure(void *arg, size_t item)
{
	const struct rows_job *j = arg;

	return (item / j->npk + 1) * j->npk;
}

/*
 * Engine e's row for packet `from + k` of a computed chunk into row:
 * ANSWER_NONE when it is not verifying or failed there.
 */
static void chunk_row(const struct rows_job *j, const unsigned char *answers,
		      const struct isolate_verdict *iv, size_t e, size_t k,
		      unsigned char *row)
{
	for (size_t slot = 0; slot < j->nlive; slot++) {
		size_t item = slot * j->npk + k;
		if (j->live[slot] != e || iv[item].status != 0)
			continue;
		memcpy(row, answers + item * j->pr->rs.n, j->pr->rs.n);
		return;
	}
	memset(row, ANSWER_NONE, j->pr->rs.n);
}

/* The first failure of each engine in the chunk, into its verdict. */
static void chunk_failures(const struct rows_job *j,
			   const struct isolate_verdict *iv, struct verdict *v)
{
	for (size_t slot = 0; slot < j->nlive; slot++)
		for (size_t k = 0; k < j->npk; k++) {
			const struct isolate_verdict *x = &iv[slot * j->npk + k];
			struct verdict *ve = &v[j->live[slot]];
			if (x->status == 0)
				continue;
			ve->iv = *x;
			ve->pkt = j->from + k;
			break;
		}
}

/* The reference's answer for rule r on packet p (every condition in reach). */
static int ref_answer(const struct payload_rules *pr, size_t r,
		      const struct packet *p)
{
	const struct rule *ru = &pr->rs.r[r];

	for (size_t k = ru->first; k < ru->first + ru->n; k++)
		pr->ref_hit[k] = (unsigned char)ref_is_match(pr->ref[k], p->p,
							     p->len);
	return rules_holds(&pr->rs, r, pr->ref_hit);
}

/*
 * Libraries among engines [0, e) of pes that answered `a` for rule r (any
 * answer for a = -1): is engine e's library already counted?
 */
static int library_counted(const struct peng *pes, size_t e, size_t nrules,
			   const unsigned char *rows, size_t r, int a)
{
	const char *lib = engine_library(pes[e].e);

	for (size_t k = 0; k < e; k++) {
		unsigned char b = rows[k * nrules + r];
		if (b != ANSWER_NONE && (a < 0 || b == a) &&
		    strcmp(engine_library(pes[k].e), lib) == 0)
			return 1;
	}
	return 0;
}

/* A strict majority of at least three libraries, or -1. */
static int library_vote(const struct payload_rules *pr, const struct peng *pes,
			const unsigned char *rows, size_t nrows, size_t r)
{
	size_t votes[2] = {0, 0}, total = 0;

	for (size_t e = 0; e < nrows; e++) {
		unsigned char a = rows[e * pr->rs.n + r];
		if (a == ANSWER_NONE)
			continue;
		total += !library_counted(pes, e, pr->rs.n, rows, r, -1);
		votes[a] += !library_counted(pes, e, pr->rs.n, rows, r, a);
	}
	for (int a = 0; a < 2; a++)
		if (votes[a] >= 3 && 2 * votes[a] > total)
			return a;
	return -1;
}

/* What decides rule r's expected answers. */
enum expect_by { BY_PLANTED, BY_REFERENCE, BY_VOTE };

static enum expect_by expect_source(const struct payload_rules *pr,
				    const struct packets *pk, size_t r)
{
	if (pr->builtin && pk->mark != NULL)
		return BY_PLANTED;
	return pr->by_ref[r] ? BY_REFERENCE : BY_VOTE;
}

/*
 * The expected answer of rule r on packet i: the planted mark, the
 * reference's answer, or a strict majority of at least three libraries;
 * -1 when nothing decides it (never the order of the engines).
 */
static int expected(const struct payload_rules *pr, const struct peng *pes,
		    const struct packets *pk, size_t i, size_t r,
		    const unsigned char *rows, size_t nrows)
{
	switch (expect_source(pr, pk, r)) {
	case BY_PLANTED:
		return (pk->mark[i] >> r) & 1;
	case BY_REFERENCE:
		return ref_answer(pr, r, &pk->pkt[i]);
	default:
		return library_vote(pr, pes, rows, nrows, r);
	}
}

/* Engine v's row of packet i against the expected answers want. */
static void judge_row(const struct payload_rules *pr, size_t i,
		      const unsigned char *row, const signed char *want,
		      struct verdict *v)
{
	int differs = 0, any = 0;

	for (size_t r = 0; r < pr->rs.n; r++) {
		if (row[r] == ANSWER_NONE)
			continue;
		any |= row[r];
		v->t[r].matched += row[r];
		if (want[r] < 0) {
			v->t[r].unverified = 1;
			continue;
		}
		if (want[r] == row[r])
			continue;
		if (v->t[r].first == NO_PACKET)
			v->t[r] = (struct tally){v->t[r].matched, i, row[r],
						 want[r], v->t[r].unverified};
		if (!differs && v->differ == 0)
			v->rule = r;
		differs = 1;
	}
	v->differ += (size_t)differs;
	v->matched += (size_t)any;
}

/*
 * Compare every engine's row of packet i with the expected answers;
 * want has one slot per rule, ex counts them.
 */
static void judge_packet(const struct payload_rules *pr,
			 const struct peng *pes, const struct packets *pk,
			 size_t i, const unsigned char *rows, size_t nrows,
			 signed char *want, struct expect *ex, struct verdict *v)
{
	for (size_t r = 0; r < pr->rs.n; r++) {
		want[r] = (signed char)expected(pr, pes, pk, i, r, rows, nrows);
		ex[r].matched += want[r] == 1;
		ex[r].undecided += want[r] < 0;
	}
	for (size_t e = 0; e < nrows; e++)
		if (v[e].iv.status >= 0)
			judge_row(pr, i, rows + e * pr->rs.n, want, &v[e]);
}

/*
 * The rule a mismatch names: the first whose count differs from the
 * expected one, else the first that differs on a packet.
 */
static size_t named_rule(const struct payload_rules *pr, const struct verdict *v,
			 const struct expect *ex, size_t *ndiffer)
{
	size_t named = NO_PACKET;

	*ndiffer = 0;
	for (size_t r = 0; r < pr->rs.n; r++) {
		if (v->t[r].first == NO_PACKET)
			continue;
		(*ndiffer)++;
		if (named == NO_PACKET && v->t[r].matched != ex[r].matched)
			named = r;
	}
	return named != NO_PACKET ? named : v->rule;
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

static const char *const by_name[] = {
	[BY_PLANTED] = "planted", [BY_REFERENCE] = "reference",
	[BY_VOTE] = "majority",
};

/* "planted 61", "reference 61", "majority 61 (undecided on 2 packets)". */
static void expect_text(const struct payload_rules *pr, const struct packets *pk,
			size_t r, const struct expect *ex, char *buf, size_t size)
{
	const char *by = by_name[expect_source(pr, pk, r)];

	if (ex->undecided > 0)
		snprintf(buf, size, "%s %zu (undecided on %zu packets)", by,
			 ex->matched, ex->undecided);
	else
		snprintf(buf, size, "%s %zu", by, ex->matched);
}

/* "planted 1", "reference 0": one expected answer. */
static void answer_text(const struct payload_rules *pr,
			const struct packets *pk, size_t r, int want, char *buf,
			size_t size)
{
	snprintf(buf, size, "%s %d", by_name[expect_source(pr, pk, r)], want);
}

/* "reference: 250 rules, majority of 3+ libraries: 4 rules". */
static void sources_text(const struct payload_rules *pr,
			 const struct packets *pk, char *buf, size_t size)
{
	size_t n[3] = {0, 0, 0}, o = 0;

	for (size_t r = 0; r < pr->rs.n; r++)
		n[expect_source(pr, pk, r)]++;
	buf[0] = '\0';
	for (int k = 0; k < 3; k++) {
		int w;
		if (n[k] == 0 || o >= size)
			continue;
		w = snprintf(buf + o, size - o, "%s%s: %zu rules", o ? ", " : "",
			     k == BY_VOTE ? "majority of 3+ libraries"
					  : by_name[k], n[k]);
		o += w > 0 ? (size_t)w : 0;
	}
}

/* The row of a failed engine. */
static void failure_row(struct suite_ctx *ctx, const struct peng *pe,
			const struct scen_size *in, const struct verdict *v)
{
	const struct packets *pk = in->pk;
	const struct packet *p = &pk->pkt[v->pkt];
	char name[256], text[200], why[256];

	payload_name(name, sizeof(name), in->sr->sc, in->in->label, pe->e);
	payload_excerpt(p->p, p->len, 0, 64, text, sizeof(text));
	isolate_verdict_text(&v->iv, ctx->opts, why, sizeof(why));
	suite_fail(ctx, PAYLOAD_SUITE, name,
		   v->iv.status == ISOLATE_TIMEOUT ? RESULT_TIMEOUT : RESULT_ERROR,
		   "%s: real-life: %s on packet %zu \"%s\"", pe->e->name, why,
		   v->pkt, text);
}

/*
 * The row of a mismatching engine: the rule named_rule() picks, with the
 * number of packets the engine says it matches and the expected number,
 * and the first packet where they differ.
 */
static void mismatch_row(struct suite_ctx *ctx, const struct payload_rules *pr,
			 const struct peng *pe, const struct scen_size *in,
			 const struct verdict *v, const struct expect *ex)
{
	const struct packets *pk = in->pk;
	size_t ndiffer, r = named_rule(pr, v, ex, &ndiffer);
	const struct tally *t = &v->t[r];
	const struct packet *p = &pk->pkt[t->first];
	char name[256], text[200], conds[200], want[96], one[48];

	payload_name(name, sizeof(name), in->sr->sc, in->in->label, pe->e);
	payload_excerpt(p->p, p->len, 0, 64, text, sizeof(text));
	rule_text(&pr->rs, r, conds, sizeof(conds));
	expect_text(pr, pk, r, &ex[r], want, sizeof(want));
	answer_text(pr, pk, r, t->want, one, sizeof(one));
	suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_MISMATCH,
		   "%s: real-life, size %s: rule %s (%s) matches %zu of %zu "
		   "packets, %s; %zu of %zu rules differ, on %zu packets; first: "
		   "packet %zu, match %d, %s; rule %s; packet \"%s\"",
		   pe->e->name, in->in->label, pr->rs.r[r].name, pr->rs.r[r].where,
		   t->matched, pk->n, want, ndiffer, pr->rs.n, v->differ,
		   t->first, t->got, one, conds, text);
}

/* The buffers of one size's verification. */
struct verify_state {
	unsigned char *rows;  /* npes x rules: one packet's answers */
	signed char *want;    /* per rule: one packet's expected answers */
	struct expect *ex;    /* per rule */
	struct verdict *v;    /* per engine */
	struct tally *t;      /* npes x rules, behind v[e].t */
};

static int verify_state_init(struct verify_state *vs, size_t npes,
			     size_t nrules)
{
	vs->rows = malloc(npes * nrules + 1);
	vs->want = malloc(nrules + 1);
	vs->ex = calloc(nrules + 1, sizeof(*vs->ex));
	vs->v = calloc(npes + 1, sizeof(*vs->v));
	vs->t = calloc(npes * nrules + 1, sizeof(*vs->t));
	if (vs->rows == NULL || vs->want == NULL || vs->ex == NULL ||
	    vs->v == NULL || vs->t == NULL)
		return -1;
	for (size_t e = 0; e < npes; e++)
		vs->v[e].t = vs->t + e * nrules;
	for (size_t i = 0; i < npes * nrules; i++)
		vs->t[i].first = NO_PACKET;
	return 0;
}

static void verify_state_release(struct verify_state *vs)
{
	free(vs->rows);
	free(vs->want);
	free(vs->ex);
	free(vs->v);
	free(vs->t);
}

/*
 * Compute one chunk's rows in a verifying child (isolate_answers: a rule
 * set an engine takes too long over is a timeout row, not a stuck run) and
 * judge its packets.  0, 1 when a signal stopped it, -1 out of memory.
 */
static int verify_chunk(struct suite_ctx *ctx, struct rows_job *j,
			const unsigned char *ok, size_t npes,
			struct verify_state *vs)
{
	size_t nrules = j->pr->rs.n;
	struct isolate_items it = {0, nrules ? nrules : 1, rows_answer,
				   rows_after_failure, j};
	unsigned char *answers;
	struct isolate_verdict *iv;
	int rc = -1;

	j->nlive = 0;
	for (size_t e = 0; e < npes; e++)
		if (ok[e] && vs->v[e].iv.status >= 0)
			j->live[j->nlive++] = e;
	it.n = j->nlive * j->npk;
	answers = malloc(it.n * it.size + 1);
	iv = calloc(it.n + 1, sizeof(*iv));
	if (answers == NULL || iv == NULL)
		goto out;
	rc = 1;
	if (isolate_answers(&it, ctx->opts, answers, iv) == ISOLATE_INTERRUPTED)
		goto out;
	for (size_t k = 0; k < j->npk; k++) {
		for (size_t e = 0; e < npes; e++)
			chunk_row(j, answers, iv, e, k, vs->rows + e * nrules);
		judge_packet(j->pr, j->pes, j->pk, j->from + k, vs->rows, npes,
			     vs->want,
			     vs->ex, vs->v);
	}
	chunk_failures(j, iv, vs->v);
	rc = 0;
out:
	free(answers);
	free(iv);
	return rc;
}

/* Rules of engine v that ran on a packet nothing could decide. */
static size_t unverified_rules(const struct payload_rules *pr,
			       const struct verdict *v)
{
	size_t n = 0;

	for (size_t r = 0; r < pr->rs.n; r++)
		n += (size_t)v->t[r].unverified;
	return n;
}

/* Rows for the engines that failed or differ; their ok_out[e] cleared. */
static void verify_rows(struct suite_ctx *ctx, const struct payload_rules *pr,
			const struct peng *pes, size_t npes,
			const struct scen_size *in, const struct verify_state *vs,
			unsigned char *ok_out)
{
	for (size_t e = 0; e < npes; e++) {
		const struct verdict *v = &vs->v[e];
		if (!ok_out[e] || (v->iv.status == 0 && v->differ == 0))
			continue;
		if (v->iv.status < 0)
			failure_row(ctx, &pes[e], in, v);
		else
			mismatch_row(ctx, pr, &pes[e], in, v, vs->ex);
		ok_out[e] = 0;
	}
}

static int payload_rules_verify(struct suite_ctx *ctx,
				const struct payload_rules *pr, struct peng *pes,
				size_t npes, const struct scen_size *in,
				unsigned char *ok_out, size_t *unverified,
				size_t *matched, size_t *rule_matched, char *by,
				size_t bysize)
{
	const struct packets *pk = in->pk;
	struct verify_state vs = {0};
	struct rows_job j = {pr, pes, pk, 0, 0, NULL, 0};
	size_t chunk;
	int rc = -1;

	j.live = calloc(npes ? npes : 1, sizeof(*j.live));
	if (j.live == NULL || verify_state_init(&vs, npes, pr->rs.n) != 0)
		goto out;
	chunk = VERIFY_CHUNK_BYTES / (npes * pr->rs.n + 1);
	chunk = chunk < 1 ? 1 : chunk > VERIFY_CHUNK ? VERIFY_CHUNK : chunk;
	rc = 0;
	for (j.from = 0; j.from < pk->n && rc == 0; j.from += j.npk) {
		j.npk = pk->n - j.from < chunk ? pk->n - j.from : chunk;
		rc = verify_chunk(ctx, &j, ok_out, npes, &vs);
	}
	if (rc == 1) /* interrupted: nothing of this size is planned */
		memset(ok_out, 0, npes);
	if (rc != 0)
		goto out;
	for (size_t e = 0; e < npes; e++) {
		matched[e] = vs.v[e].matched;
		unverified[e] = unverified_rules(pr, &vs.v[e]);
	}
	for (size_t r = 0; r < pr->rs.n; r++)
		rule_matched[r] = vs.ex[r].matched;
	sources_text(pr, pk, by, bysize);
	verify_rows(ctx, pr, pes, npes, in, &vs, ok_out);
out:
	verify_state_release(&vs);
	free(j.live);
	return rc == 1 ? 0 : rc;
}

/* ---- the scenario's hooks (see struct scenario) ---- */

/*
 * A user's rule set that no selected engine runs: the real-life scenario
 * it was given for measures nothing, which is an error row, not only the
 * engines' unsupported rows.
 */
static void check_rules_run(const struct reallife *rl,
			    const struct payload_run *r, struct suite_ctx *ctx)
{
	const struct scenario *sc = payload_scenario("real-life");
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

int payload_rules_setup(struct reallife *rl, const struct payload_run *r,
			struct suite_ctx *ctx)
{
	rl->eng = calloc(r->neng ? r->neng : 1, sizeof(*rl->eng));
	if (rl->eng == NULL)
		return -1;
	rl->neng = r->neng;
	for (size_t e = 0; e < r->neng; e++) {
		rl->eng[e].e = r->engines[e];
		if (payload_rules_compile(ctx, &rl->pr, &rl->eng[e]) != 0)
			return -1;
	}
	check_rules_run(rl, r, ctx);
	return 0;
}

void payload_rules_teardown(struct reallife *rl)
{
	for (size_t e = 0; rl->eng != NULL && e < rl->neng; e++)
		payload_rules_free(&rl->pr, &rl->eng[e]);
	for (size_t i = 0; i < PAYLOAD_MAX_SIZES; i++)
		free(rl->rule_matched[i]);
	free(rl->eng);
	payload_rules_release(&rl->pr);
	memset(rl, 0, sizeof(*rl));
}

/* The engine's rule sets of a case. */
static const struct peng *case_engine(const struct pcase *pc)
{
	const struct reallife *rl = pc->ss->sr->data;

	return &rl->eng[pc->ei];
}

/* All rule sets of the engine on one packet: matches, or <0. */
static long rules_once(const struct payload_rules *pr, const struct peng *pe,
		       const struct packet *p)
{
	long hits = 0;

	for (size_t g = 0; g < pr->ngroups; g++) {
		long rc;
		if (pe->sets[g].h == NULL)
			continue;
		rc = pe->e->match_ids(pe->sets[g].h, p->p, p->len, pe->ids);
		if (rc < 0)
			return rc;
		hits += rc;
	}
	return hits;
}

int payload_rules_run(void *arg, uint64_t n)
{
	struct pcase *c = arg;
	const struct payload_rules *pr = &((struct reallife *)c->ss->sr->data)->pr;
	const struct peng *pe = case_engine(c);
	const struct packets *pk = c->ss->pk;
	size_t i = c->next;
	uint64_t hits = 0;

	while (n > 0) {
		size_t end = i + (n < pk->n - i ? (size_t)n : pk->n - i);
		n -= end - i;
		for (; i < end; i++) {
			long rc = rules_once(pr, pe, &pk->pkt[i]);
			if (rc < 0)
				return (int)rc;
			hits += (uint64_t)rc;
		}
		i = i == pk->n ? 0 : i;
	}
	c->next = i;
	c->sink += hits;
	return 0;
}

/* Plan case pc's benchmark, verified as `verified` says. */
static int plan_engine(struct suite_ctx *ctx, struct pcase *pc, size_t matched,
		       const char *verified, int unverified)
{
	struct bench b = {0};
	char name[256];

	payload_name(name, sizeof(name), pc->ss->sr->sc, pc->ss->in->label,
		     pc->e);
	if (!suite_wants(ctx, name))
		return 0;
	payload_bench_fill(pc, matched, &b);
	b.extra[b.nextra++] = (struct bench_metric){
		"rules", BETTER_EXACT, (double)case_engine(pc)->nok};
	b.name = strdup(name);
	b.suite = PAYLOAD_SUITE;
	b.verified = strdup(verified);
	b.unverified = unverified;
	if (b.name == NULL || b.verified == NULL || plan_add(ctx->plan, &b)) {
		free(b.name);
		free(b.verified);
		return -1;
	}
	return 0;
}

/*
 * Plan engine pc's real-life benchmark, whose answers agreed with every
 * expected answer; `unverified` of its rules ran on packets nothing could
 * decide: an unverified row then, or with --allow-unverified a benchmark
 * marked so.  0, or -1 out of memory.
 */
static int plan_verified(struct suite_ctx *ctx, struct pcase *pc,
			 size_t matched, size_t unverified, const char *by)
{
	const struct peng *pe = case_engine(pc);
	char text[512], name[256];

	if (unverified == 0) {
		snprintf(text, sizeof(text), "every rule on every packet: %s",
			 by);
		return plan_engine(ctx, pc, matched, text, 0);
	}
	snprintf(text, sizeof(text), "%zu of its %zu rules not verified on some "
		 "packets: out of the reference's reach, and no strict majority "
		 "of at least 3 libraries (%s)%s", unverified, pe->nok, by,
		 ctx->allow_unverified ? ""
				       : "; --allow-unverified times it anyway");
	if (ctx->allow_unverified)
		return plan_engine(ctx, pc, matched, text, 1);
	payload_name(name, sizeof(name), pc->ss->sr->sc, pc->ss->in->label,
		     pc->e);
	suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_UNVERIFIED, "%s: %s",
		   pe->e->name, text);
	return 0;
}

int payload_rules_plan(struct scen_size *ss, struct suite_ctx *ctx)
{
	struct reallife *rl = ss->sr->data;
	size_t si = (size_t)(ss->in - ss->run->in), n = rl->neng;
	unsigned char *ok = calloc(n ? n : 1, 1);
	size_t *matched = calloc(n ? n : 1, sizeof(*matched));
	size_t *unverified = calloc(n ? n : 1, sizeof(*unverified));
	char by[256];
	int rc = -1;

	ss->pc = calloc(n ? n : 1, sizeof(*ss->pc));
	rl->rule_matched[si] = calloc(rl->pr.rs.n ? rl->pr.rs.n : 1,
				      sizeof(size_t));
	if (ok == NULL || matched == NULL || unverified == NULL ||
	    ss->pc == NULL || rl->rule_matched[si] == NULL)
		goto out;
	ss->npc = n;
	for (size_t i = 0; i < n; i++) {
		char name[256];
		ss->pc[i] = (struct pcase){.ss = ss, .e = rl->eng[i].e, .ei = i};
		payload_name(name, sizeof(name), ss->sr->sc, ss->in->label,
			     rl->eng[i].e);
		ok[i] = rl->eng[i].status == RESULT_OK && suite_wants(ctx, name);
		if (rl->eng[i].status != RESULT_OK && suite_wants(ctx, name))
			suite_fail(ctx, PAYLOAD_SUITE, name, rl->eng[i].status,
				   "%s", rl->eng[i].why);
	}
	rc = payload_rules_verify(ctx, &rl->pr, rl->eng, n, ss, ok, unverified,
				  matched, rl->rule_matched[si], by, sizeof(by));
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (!ok[i])
			continue;
		rl->verified[si] = 1;
		rc = plan_verified(ctx, &ss->pc[i], matched[i], unverified[i],
				   by);
	}
out:
	free(ok);
	free(matched);
	free(unverified);
	return rc;
}

void payload_rules_note(const struct scen_run *sr, const struct payload_run *r,
			size_t e, char *buf, size_t size, char *foot,
			size_t fsize)
{
	const struct reallife *rl = sr->data;
	const struct peng *pe = &rl->eng[e];

	(void)r;
	snprintf(buf, size, "real-life: %s, %zu of %zu rules in %zu set%s",
		 engine_set_native(pe->e) ? "native multi-pattern set"
					  : "rules tried in turn (no native set)",
		 pe->nok, rl->pr.rs.n, rl->pr.ngroups,
		 rl->pr.ngroups == 1 ? "" : "s");
	if (pe->status == RESULT_OK && pe->nok < rl->pr.rs.n)
		snprintf(foot, fsize, "* partial: %s compiled %zu of the %zu "
			 "rules (the others are SKIP rows above)", pe->e->name,
			 pe->nok, rl->pr.rs.n);
}

/* ---- the per-rule table ---- */

/* Rule r's verified packets over every size. */
static size_t rule_total(const struct reallife *rl, const struct payload_run *r,
			 size_t rule)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nin; i++)
		if (rl->verified[i])
			n += rl->rule_matched[i][rule];
	return n;
}

/*
 * The rules the per-rule table lists into pick (at most RULE_TABLE_MAX):
 * all in file order when they fit, else those matching most packets.
 * Returns how many.
 */
#define RULE_TABLE_MAX 20

static size_t rules_to_list(const struct reallife *rl,
			    const struct payload_run *run, size_t *pick)
{
	size_t n = 0, nrules = rl->pr.rs.n;

	if (nrules <= RULE_TABLE_MAX) {
		for (; n < nrules; n++)
			pick[n] = n;
		return n;
	}
	for (size_t r = 0; r < nrules; r++) {
		size_t total = rule_total(rl, run, r), at;

		if (n == RULE_TABLE_MAX &&
		    total <= rule_total(rl, run, pick[n - 1]))
			continue;
		n += n < RULE_TABLE_MAX;
		/* pick stays sorted, most first; the last one falls out */
		for (at = n - 1; at > 0 && rule_total(rl, run, pick[at - 1]) < total;
		     at--)
			pick[at] = pick[at - 1];
		pick[at] = r;
	}
	return n;
}

/* Row order: largest packets first, as the tables above. */
static void rule_size_order(const struct payload_run *r, size_t *order)
{
	for (size_t i = 0; i < r->nin; i++)
		order[i] = i;
	for (size_t i = 1; i < r->nin; i++)
		for (size_t j = i; j > 0 && r->in[order[j - 1]].size <
						    r->in[order[j]].size; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* One rule's row: its verified packets and their share, per size. */
static void write_rule_row(FILE *out, const struct reallife *rl,
			   const struct payload_run *run, size_t r,
			   const size_t *order, size_t si0, int width)
{
	fprintf(out, "| %-*s |", width, rl->pr.rs.r[r].name);
	for (size_t i = 0; i < run->nin; i++) {
		size_t si = order[i];
		const struct packets *pk = run->ss[si0 + si].pk;
		char cell[48] = "n/a";
		if (rl->verified[si])
			snprintf(cell, sizeof(cell), "%zu (%.2f%%)",
				 rl->rule_matched[si][r],
				 100.0 * (double)rl->rule_matched[si][r] /
					 (double)(pk->n ? pk->n : 1));
		fprintf(out, " %16s |", cell);
	}
	fputc('\n', out);
}

/* The per-rule table's header row and the line under it. */
static void write_rule_head(FILE *out, const struct payload_run *run,
			    const size_t *order, int width)
{
	fprintf(out, "| %-*s |", width, "rule");
	for (size_t i = 0; i < run->nin; i++)
		fprintf(out, " %16s |", run->in[order[i]].label);
	fputs("\n|", out);
	for (int k = 0; k < width + 2; k++)
		fputc('-', out);
	for (size_t i = 0; i < run->nin; i++)
		fputs("|------------------", out);
	fputs("|\n", out);
}

/*
 * After the tables: how many packets each rule matches per size, as
 * verified (the answer every timed engine gave), and their share.
 */
void payload_rules_report(const struct scen_run *sr,
			  const struct payload_run *run, struct suite_ctx *ctx,
			  FILE *out)
{
	const struct reallife *rl = sr->data;
	size_t order[PAYLOAD_MAX_SIZES], pick[RULE_TABLE_MAX], n, silent = 0;
	size_t si0 = (size_t)(sr - run->sr) * run->nin;
	int width = 4, verified = 0;

	(void)ctx;
	for (size_t i = 0; i < run->nin; i++)
		verified |= rl->verified[i];
	if (!verified)
		return;
	rule_size_order(run, order);
	n = rules_to_list(rl, run, pick);
	for (size_t k = 0; k < n; k++)
		if ((int)strlen(rl->pr.rs.r[pick[k]].name) > width)
			width = (int)strlen(rl->pr.rs.r[pick[k]].name);
	fprintf(out, "\nreal-life: packets each rule matches (verified) and "
		"their share, per size%s:\n\n",
		n < rl->pr.rs.n ? "; the rules matching most" : "");
	write_rule_head(out, run, order, width);
	for (size_t k = 0; k < n; k++)
		write_rule_row(out, rl, run, pick[k], order, si0, width);
	for (size_t r = 0; r < rl->pr.rs.n; r++)
		silent += rule_total(rl, run, r) == 0;
	if (n < rl->pr.rs.n)
		fprintf(out, "and %zu more rules; %zu of all %zu match no packet\n",
			rl->pr.rs.n - n, silent, rl->pr.rs.n);
}

size_t payload_rules_matched(const struct scen_size *ss, size_t r)
{
	const struct reallife *rl = ss->sr->data;
	size_t si = (size_t)(ss->in - ss->run->in);

	return rl->verified[si] ? rl->rule_matched[si][r] : PAYLOAD_NO_MATCHES;
}
