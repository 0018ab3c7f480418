/*
 * payload_rules.c - the payload suite's real-life scenario: rule sets
 * compiled per engine (native sets where the engine has them, the
 * adapter's loop otherwise) and verified rule by rule, packet by packet
 * (see payload.h).
 *
 * An engine that cannot compile some of a user's rules runs the others:
 * each refused rule is an unsupported row naming the engine and the rule,
 * and the engine's real-life rows carry the number of rules it ran.
 */
#define _GNU_SOURCE
#include "suites/payload.h"

#include "harness/isolate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANSWER_NONE 2 /* the engine did not compile this rule */

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
	for (size_t i = 0; i < pr->rs.n; i++) {
		struct rule_group *g = group_for(pr, pr->rs.r[i].flags);
		size_t *grown;

		if (g == NULL)
			return -1;
		grown = realloc(g->rule, (g->n + 1) * sizeof(*grown));
		if (grown == NULL)
			return -1;
		g->rule = grown;
		g->rule[g->n++] = i;
	}
	return 0;
}

void payload_rules_release(struct payload_rules *pr)
{
	for (size_t g = 0; g < pr->ngroups; g++)
		free(pr->groups[g].rule);
	free(pr->groups);
	rules_release(&pr->rs);
	memset(pr, 0, sizeof(*pr));
}

/* ---- compiling ---- */

/* Row for a rule pe's engine refused; built-in rules must compile. */
static void rule_refused(struct suite_ctx *ctx, const struct payload_rules *pr,
			 const struct peng *pe, size_t i,
			 const struct engine_error *err)
{
	const struct rule *r = &pr->rs.r[i];
	char name[256], part[64], at[32] = "";

	bench_name_part(r->name, strlen(r->name), part, sizeof(part));
	if (err->offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err->offset);
	snprintf(name, sizeof(name), "%s/scenario=real-life/engine=%s/rule=%s",
		 PAYLOAD_PREFIX, pe->e->name, part);
	suite_fail(ctx, PAYLOAD_SUITE, name,
		   pr->builtin || err->status == ENGINE_ERR_NOMEM ? RESULT_ERROR
								 : RESULT_UNSUPPORTED,
		   "%s cannot compile rule %s (%s): %s%s%s",
		   pe->e->name, r->name, r->where, err->msg, at,
		   pr->builtin ? "" : "; its real-life rows run the other rules "
				      "(partial)");
}

/* Try each rule alone: pe->ok[i] = 1 when the engine compiles it. */
static void compile_each(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe)
{
	for (size_t i = 0; i < pr->rs.n; i++) {
		struct engine_pattern p = {pr->rs.r[i].re, pr->rs.r[i].len};
		struct engine_error err = {0, -1, -1, ""};
		void *h = NULL;

		if (pe->e->compile(&p, 1, pr->rs.r[i].flags, &h, &err) == 0) {
			pe->ok[i] = 1;
			pe->nok++;
			pe->e->free(h);
		} else {
			rule_refused(ctx, pr, pe, i, &err);
		}
	}
}

/*
 * Compile the set of group g's rules that pe compiled alone.  A rule the
 * set compile blames (err.pattern) is refused and the set retried.
 * 0, or a negative status with err filled when no set could be built.
 */
static int compile_group(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe, const struct rule_group *g,
			 struct eset *es, struct engine_error *err)
{
	struct engine_pattern *pats = calloc(g->n, sizeof(*pats));
	int rc = ENGINE_ERR_NOMEM;

	es->map = calloc(g->n, sizeof(*es->map));
	if (pats == NULL || es->map == NULL)
		goto out;
	for (;;) {
		es->n = 0;
		for (size_t k = 0; k < g->n; k++) {
			const struct rule *r = &pr->rs.r[g->rule[k]];
			if (!pe->ok[g->rule[k]])
				continue;
			pats[es->n] = (struct engine_pattern){r->re, r->len};
			es->map[es->n++] = g->rule[k];
		}
		rc = 0;
		if (es->n == 0)
			break;
		rc = pe->e->compile(pats, es->n, g->flags, &es->h, err);
		if (rc == 0 || err->pattern < 0 || (size_t)err->pattern >= es->n)
			break;
		/* the set blames one rule that compiled alone: drop it */
		rule_refused(ctx, pr, pe, es->map[err->pattern], err);
		pe->ok[es->map[err->pattern]] = 0;
		pe->nok--;
	}
out:
	free(pats);
	if (rc == ENGINE_ERR_NOMEM && err->msg[0] == '\0')
		engine_error_set(err, rc, -1, -1, "out of memory");
	return rc;
}

int payload_rules_compile(struct suite_ctx *ctx, const struct payload_rules *pr,
			  struct peng *pe)
{
	size_t largest = 1;

	pe->ok = calloc(pr->rs.n, 1);
	pe->sets = calloc(pr->ngroups, sizeof(*pe->sets));
	for (size_t g = 0; g < pr->ngroups; g++)
		largest = pr->groups[g].n > largest ? pr->groups[g].n : largest;
	pe->ids = calloc(largest, 1);
	if (pe->ok == NULL || pe->sets == NULL || pe->ids == NULL)
		return -1;
	if (pe->e->match_ids == NULL) {
		pe->status[SC_REALLIFE] = RESULT_UNSUPPORTED;
		snprintf(pe->why[SC_REALLIFE], sizeof(pe->why[0]),
			 "%s: no match_ids (which rules matched)", pe->e->name);
		return 0;
	}
	compile_each(ctx, pr, pe);
	for (size_t g = 0; g < pr->ngroups; g++) {
		struct engine_error err = {0, -1, -1, ""};
		if (compile_group(ctx, pr, pe, &pr->groups[g], &pe->sets[g],
				  &err) == 0)
			continue;
		pe->status[SC_REALLIFE] = RESULT_ERROR;
		snprintf(pe->why[SC_REALLIFE], sizeof(pe->why[0]),
			 "%s: the set of %zu rules (flags %#x) does not compile: %s",
			 pe->e->name, pr->groups[g].n, pr->groups[g].flags, err.msg);
		return 0;
	}
	if (pe->nok == 0) {
		pe->status[SC_REALLIFE] = RESULT_UNSUPPORTED;
		snprintf(pe->why[SC_REALLIFE], sizeof(pe->why[0]),
			 "%s compiles none of the %zu rules", pe->e->name,
			 pr->rs.n);
	}
	return 0;
}

void payload_rules_free(const struct payload_rules *pr, struct peng *pe)
{
	for (size_t g = 0; pe->sets != NULL && g < pr->ngroups; g++) {
		if (pe->sets[g].h != NULL)
			pe->e->free(pe->sets[g].h);
		free(pe->sets[g].map);
	}
	free(pe->sets);
	free(pe->ok);
	free(pe->ids);
	pe->sets = NULL;
	pe->ok = NULL;
	pe->ids = NULL;
}

/* ---- verifying ---- */

/* An engine's verdict on one size: how many packets differ, and the first. */
struct verdict {
	size_t differ;
	size_t matched; /* packets where some rule matched */
	size_t pkt, rule;
	int got, want;
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
 * Engine pe's answer per rule for one packet into row (0, 1, or
 * ANSWER_NONE for a rule it did not compile).  0 or a negative status.
 */
static int answer_row(const struct payload_rules *pr, struct peng *pe,
		      const struct packet *p, unsigned char *row)
{
	memset(row, ANSWER_NONE, pr->rs.n);
	for (size_t g = 0; g < pr->ngroups; g++) {
		const struct eset *es = &pe->sets[g];
		long rc;

		if (es->h == NULL)
			continue;
		rc = pe->e->match_ids(es->h, p->p, p->len, pe->ids);
		if (rc < 0)
			return (int)rc;
		for (size_t k = 0; k < es->n; k++)
			row[es->map[k]] = pe->ids[k] != 0;
	}
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

/*
 * The expected answer of rule r on packet i: the planted mark when it
 * applies, else the strict majority of the engines that answered; -1
 * when they tie.
 */
static int expected(const struct payload_rules *pr, const struct packets *pk,
		    size_t i, size_t r, const unsigned char *rows, size_t nrows)
{
	size_t yes = 0, total = 0;

	if (pr->builtin && pk->mark != NULL)
		return (pk->mark[i] >> r) & 1;
	for (size_t e = 0; e < nrows; e++) {
		unsigned char a = rows[e * pr->rs.n + r];
		total += a != ANSWER_NONE;
		yes += a == 1;
	}
	if (2 * yes == total)
		return -1;
	return 2 * yes > total;
}

/*
 * Compare every engine's row of packet i with the expected answers;
 * want has one slot per rule.
 */
static void judge_packet(const struct payload_rules *pr,
			 const struct packets *pk, size_t i,
			 const unsigned char *rows, size_t nrows,
			 signed char *want, struct verdict *v)
{
	for (size_t r = 0; r < pr->rs.n; r++)
		want[r] = (signed char)expected(pr, pk, i, r, rows, nrows);
	for (size_t e = 0; e < nrows; e++) {
		const unsigned char *row = rows + e * pr->rs.n;
		int differs = 0, any = 0;

		if (v[e].iv.status < 0)
			continue;
		for (size_t r = 0; r < pr->rs.n; r++) {
			if (row[r] == ANSWER_NONE)
				continue;
			any |= row[r];
			if (want[r] == row[r])
				continue;
			if (!differs && v[e].differ == 0) {
				v[e].pkt = i;
				v[e].rule = r;
				v[e].got = row[r];
				v[e].want = want[r];
			}
			differs = 1;
		}
		v[e].differ += (size_t)differs;
		v[e].matched += (size_t)any;
	}
}

/* The row of a failed or mismatching engine. */
static void verdict_row(struct suite_ctx *ctx, const struct payload_rules *pr,
			const struct peng *pe, const struct size_in *in,
			const struct verdict *v)
{
	const struct packets *pk = in->corpus[SC_REALLIFE];
	const struct packet *p = &pk->pkt[v->pkt];
	char name[256], text[200];

	payload_name(name, sizeof(name), SC_REALLIFE, in, pe->e);
	payload_excerpt(p->p, p->len, 0, 64, text, sizeof(text));
	if (v->iv.status < 0) {
		char why[256];
		isolate_verdict_text(&v->iv, ctx->opts, why, sizeof(why));
		suite_fail(ctx, PAYLOAD_SUITE, name,
			   v->iv.status == ISOLATE_TIMEOUT ? RESULT_TIMEOUT
							: RESULT_ERROR,
			   "%s: real-life: %s on packet %zu \"%s\"", pe->e->name,
			   why, v->pkt, text);
		return;
	}
	suite_fail(ctx, PAYLOAD_SUITE, name, RESULT_MISMATCH,
		   "%s: real-life, size %s: %zu of %zu packets differ (%zu "
		   "matching packets); first: packet %zu, rule %s /%s/: match "
		   "%d, %s; packet \"%s\"",
		   pe->e->name, in->label, v->differ, pk->n, v->matched, v->pkt,
		   pr->rs.r[v->rule].name, pr->rs.r[v->rule].re, v->got,
		   v->want < 0 ? "the engines tie"
		   : pr->builtin && pk->mark ? (v->want ? "planted 1" : "planted 0")
		   : (v->want ? "majority 1" : "majority 0"), text);
}

/*
 * Compute one chunk's rows in a verifying child (isolate_answers: a rule
 * set an engine takes too long over is a timeout row, not a stuck run) and
 * judge its packets.  0, 1 when a signal stopped it, -1 out of memory.
 */
static int verify_chunk(struct suite_ctx *ctx, struct rows_job *j,
			const unsigned char *ok, size_t npes,
			unsigned char *rows, signed char *want, struct verdict *v)
{
	size_t nrules = j->pr->rs.n;
	struct isolate_items it = {0, nrules ? nrules : 1, rows_answer,
				   rows_after_failure, j};
	unsigned char *answers;
	struct isolate_verdict *iv;
	int rc = -1;

	j->nlive = 0;
	for (size_t e = 0; e < npes; e++)
		if (ok[e] && v[e].iv.status >= 0)
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
			chunk_row(j, answers, iv, e, k, rows + e * nrules);
		judge_packet(j->pr, j->pk, j->from + k, rows, npes, want, v);
	}
	chunk_failures(j, iv, v);
	rc = 0;
out:
	free(answers);
	free(iv);
	return rc;
}

int payload_rules_verify(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pes, size_t npes, const struct size_in *in,
			 unsigned char *ok_out, size_t *matched)
{
	const struct packets *pk = in->corpus[SC_REALLIFE];
	unsigned char *rows = malloc(npes * pr->rs.n + 1);
	signed char *want = malloc(pr->rs.n + 1);
	struct verdict *v = calloc(npes ? npes : 1, sizeof(*v));
	struct rows_job j = {pr, pes, pk, 0, 0, NULL, 0};
	size_t chunk;
	int rc = -1;

	j.live = calloc(npes ? npes : 1, sizeof(*j.live));
	if (rows == NULL || want == NULL || v == NULL || j.live == NULL)
		goto out;
	chunk = VERIFY_CHUNK_BYTES / (npes * pr->rs.n + 1);
	chunk = chunk < 1 ? 1 : chunk > VERIFY_CHUNK ? VERIFY_CHUNK : chunk;
	rc = 0;
	for (j.from = 0; j.from < pk->n; j.from += j.npk) {
		j.npk = pk->n - j.from < chunk ? pk->n - j.from : chunk;
		rc = verify_chunk(ctx, &j, ok_out, npes, rows, want, v);
		if (rc != 0)
			break;
	}
	if (rc == 1) { /* interrupted: nothing of this size is planned */
		memset(ok_out, 0, npes);
		rc = 0;
		goto out;
	}
	if (rc != 0)
		goto out;
	for (size_t e = 0; e < npes; e++) {
		matched[e] = v[e].matched;
		if (!ok_out[e] || (v[e].iv.status == 0 && v[e].differ == 0))
			continue;
		verdict_row(ctx, pr, &pes[e], in, &v[e]);
		ok_out[e] = 0;
	}
	rc = 0;
out:
	free(rows);
	free(want);
	free(v);
	free(j.live);
	return rc;
}
