/*
 * payload_ruleset.c - the rule-set machinery of the payload suite's rule
 * scenarios (payload_ruleset.h): loading and grouping a rule set, what
 * its rules read (--rules-target), the reference, compiling the rules per
 * engine, the requests parsed from the packets, and the expected answer
 * of each rule (planted, the reference's, else left to the vote).
 *
 * Engines compile patterns, the rules' conditions (corpora/rules.h); a
 * rule's answer on a packet is combined from the answers for its patterns
 * by rules_holds(), the same way for every engine and the reference, so
 * a negated condition needs no regex of its own.
 */
#define _GNU_SOURCE
#include "suites/payload_ruleset.h"

#include "corpora/digest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- grouping ---- */

/* What rule r reads: its variables, or NULL for the whole packet. */
static const struct waf_spec *rule_spec(const struct payload_rules *pr,
					size_t r)
{
	return pr->has_spec != NULL && pr->has_spec[r] ? &pr->spec[r] : NULL;
}

static int same_spec(const struct waf_spec *a, const struct waf_spec *b)
{
	return a == NULL || b == NULL ? a == b : waf_spec_same(a, b);
}

static struct rule_group *group_for(struct payload_rules *pr, unsigned flags,
				    const struct waf_spec *spec)
{
	struct rule_group *grown;

	for (size_t g = 0; g < pr->ngroups; g++)
		if (pr->groups[g].flags == flags &&
		    same_spec(pr->groups[g].spec, spec))
			return &pr->groups[g];
	grown = realloc(pr->groups, (pr->ngroups + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	pr->groups = grown;
	memset(&grown[pr->ngroups], 0, sizeof(*grown));
	grown[pr->ngroups].flags = flags;
	grown[pr->ngroups].spec = spec;
	return &grown[pr->ngroups++];
}

int payload_rules_group(struct payload_rules *pr)
{
	for (size_t i = 0; i < pr->rs.np; i++) {
		struct rule_group *g = group_for(pr, pr->rs.p[i].flags,
						 rule_spec(pr, pr->rs.p[i].rule));
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

/* ---- what the rules read (--rules-target) ---- */

const char *payload_rules_target_name(const struct payload_rules *pr)
{
	return pr->variables ? "variables" : "raw";
}

/* Rule r's spec into pr, or its reason to skip.  0, or -1 (memory). */
static int rule_target(struct payload_rules *pr, size_t r)
{
	const struct rule *ru = &pr->rs.r[r];
	char why[160];

	if (ru->vars == NULL)
		return 0; /* not ModSecurity's: the whole packet */
	if (waf_spec_parse(ru->vars, ru->actions, pr->rs.modsec, &pr->spec[r],
			   why, sizeof(why)) == 0) {
		pr->has_spec[r] = 1;
		for (size_t k = ru->first; k < ru->first + ru->n; k++)
			if (pr->rs.p[k].negated)
				snprintf(why, sizeof(why), "a negated operator "
					 "(!@rx) on each of several values");
		if (why[0] == '\0')
			return 0;
		pr->has_spec[r] = 0;
	}
	pr->skip[r] = strdup(why);
	pr->nskip++;
	return pr->skip[r] == NULL ? -1 : 0;
}

int payload_rules_targets(struct payload_rules *pr, enum rules_target t,
			  char *err, size_t size)
{
	size_t modsec = 0;

	for (size_t r = 0; r < pr->rs.n; r++)
		modsec += pr->rs.r[r].vars != NULL;
	if (t == RULES_TARGET_VARIABLES && modsec == 0) {
		snprintf(err, size, "--rules-target=variables: none of the %zu "
			 "rules is a ModSecurity SecRule (no variables to read)",
			 pr->rs.n);
		return -1;
	}
	pr->variables = t == RULES_TARGET_VARIABLES ||
			(t == RULES_TARGET_AUTO && modsec > 0);
	pr->skip = calloc(pr->rs.n + 1, sizeof(*pr->skip));
	pr->spec = calloc(pr->rs.n + 1, sizeof(*pr->spec));
	pr->has_spec = calloc(pr->rs.n + 1, 1);
	if (pr->skip == NULL || pr->spec == NULL || pr->has_spec == NULL)
		goto nomem;
	for (size_t r = 0; pr->variables && r < pr->rs.n; r++)
		if (rule_target(pr, r) != 0)
			goto nomem;
	return 0;
nomem:
	snprintf(err, size, "out of memory");
	return -1;
}

void payload_rules_skipped(struct suite_ctx *ctx, const struct payload_rules *pr,
			   const char *name)
{
	for (size_t r = 0; pr->skip != NULL && r < pr->rs.n; r++) {
		const struct rule *ru = &pr->rs.r[r];
		char part[64], row[256];
		if (pr->skip[r] == NULL)
			continue;
		bench_name_part(ru->name, strlen(ru->name), part, sizeof(part));
		snprintf(row, sizeof(row), name, part);
		suite_fail(ctx, PAYLOAD_SUITE, row, RESULT_UNSUPPORTED,
			   "rule %s (%s) on its variables (--rules-target="
			   "variables): rxbench does not apply %s; the other "
			   "rules run", ru->name, ru->where, pr->skip[r]);
	}
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
	for (size_t r = 0; pr->skip != NULL && r < pr->rs.n; r++)
		free(pr->skip[r]);
	free(pr->skip);
	free(pr->spec);
	free(pr->has_spec);
	waf_scratch_release(&pr->ws);
	for (size_t g = 0; g < pr->ngroups; g++)
		free(pr->groups[g].pat);
	free(pr->groups);
	rules_release(&pr->rs);
	memset(pr, 0, sizeof(*pr));
}

/* ---- compiling ---- */

/* compile_group(): a dropped rule's patterns may sit in sets built before. */
#define COMPILE_AGAIN 1

unsigned payload_rule_needs(const struct payload_rules *pr, size_t r)
{
	const struct rule *ru = &pr->rs.r[r];
	unsigned needs = 0;

	for (size_t k = ru->first; k < ru->first + ru->n; k++)
		needs |= engine_pattern_needs(pr->rs.p[k].re, pr->rs.p[k].len);
	return needs;
}

/* Rule-wide refusals (rule_refused()'s k): no one condition is to blame. */
#define WHOLE_RULE ((size_t)-1)

/*
 * Row for rule ri, which pe's engine refused at its pattern k (or as a
 * whole: WHOLE_RULE); built-in rules must compile.  No row without ctx
 * (a voter's rules, suites/case.h).
 */
static void rule_refused(struct suite_ctx *ctx, const struct payload_rules *pr,
			 const struct peng *pe, size_t ri, size_t k,
			 const struct engine_error *err)
{
	const struct rule *r = &pr->rs.r[ri];
	char name[256], part[64], at[32] = "", cond[128] = "";

	if (ctx == NULL)
		return;
	bench_name_part(r->name, strlen(r->name), part, sizeof(part));
	if (err->offset >= 0)
		snprintf(at, sizeof(at), " (offset %ld)", err->offset);
	if (r->n > 1 && k != WHOLE_RULE)
		snprintf(cond, sizeof(cond), ", condition %zu of %zu /%.60s%s/",
			 k - r->first + 1, r->n, pr->rs.p[k].re,
			 pr->rs.p[k].len > 60 ? "..." : "");
	snprintf(name, sizeof(name), "%s/scenario=real-life/engine=%s/rule=%s",
		 PAYLOAD_PREFIX, engine_bench_name(pe->e), part);
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

		if (pr->skip != NULL && pr->skip[r] != NULL)
			continue; /* one row for every engine: setup's */
		if (pr->dollar != NULL && pr->dollar[r] &&
		    !(pe->e->caps & CAP_PERL_DOLLAR)) {
			/* a packet ending in '\n' would answer differently */
			err.status = ENGINE_ERR_UNSUPPORTED;
			snprintf(err.msg, sizeof(err.msg), "`$` is the end of data "
				 "only in %s, PCRE's `$` also matches before a "
				 "final newline (needs perl-dollar)", pe->e->name);
			rule_refused(ctx, pr, pe, r, WHOLE_RULE, &err);
			continue;
		}
		if (payload_rule_needs(pr, r) & ~pe->e->caps) {
			char caps[128];
			engine_caps_format(payload_rule_needs(pr, r) & ~pe->e->caps,
					   caps, sizeof(caps));
			err.status = ENGINE_ERR_UNSUPPORTED;
			snprintf(err.msg, sizeof(err.msg), "needs %s, which %s "
				 "lacks", caps, pe->e->name);
			rule_refused(ctx, pr, pe, r, WHOLE_RULE, &err);
			continue;
		}
		while (k < ru->first + ru->n &&
		       compile_alone(pe->e, &pr->rs.p[k], &err) == 0)
			k++;
		if (k < ru->first + ru->n) {
			rule_refused(ctx, pr, pe, r, k, &err);
			continue;
		}
		pe->ok[r] = 1;
		pe->nok++;
	}
}

/*
 * The group whose set holds group g's patterns for pe: g, or for an
 * engine that takes each pattern's flags (compile_flagged) the first
 * group that reads what g reads (groups differ by flags or by what they
 * read): one set per packet, not one per flag combination.
 */
static size_t set_owner(const struct payload_rules *pr, const struct peng *pe,
			size_t g)
{
	if (pe->e->compile_flagged == NULL)
		return g;
	for (size_t o = 0; o < g; o++)
		if (same_spec(pr->groups[o].spec, pr->groups[g].spec))
			return o;
	return g;
}

/*
 * The patterns of the set of group g (set_owner(g) == g) whose rules pe
 * runs into pats, their flags into flags, es->map and es->n (rs.np at
 * most).  1 when their flags differ (only with compile_flagged: only
 * then does a set hold more than one group), else 0.
 */
static int set_patterns(const struct payload_rules *pr, const struct peng *pe,
			size_t g, struct engine_pattern *pats, unsigned *flags,
			struct eset *es)
{
	int mixed = 0;

	es->n = 0;
	for (size_t h = g; h < pr->ngroups; h++) {
		const struct rule_group *rg = &pr->groups[h];
		if (set_owner(pr, pe, h) != g)
			continue;
		for (size_t k = 0; k < rg->n; k++) {
			const struct rule_pattern *p = &pr->rs.p[rg->pat[k]];
			if (!pe->ok[p->rule])
				continue;
			pats[es->n] = (struct engine_pattern){p->re, p->len};
			flags[es->n] = rg->flags;
			mixed |= rg->flags != flags[0];
			es->map[es->n++] = rg->pat[k];
		}
	}
	return mixed;
}

/*
 * Compile the set of group g's patterns whose rules pe runs (with the
 * groups it owns, set_owner(); none when another group owns it).  A
 * pattern the set compile blames (err.pattern) has its rule refused and
 * the set is retried.  0; COMPILE_AGAIN when the refused rule has
 * patterns in other groups (their sets must be built again); or a
 * negative status with err filled when no set could be built.
 */
static int compile_group(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe, size_t g, struct eset *es,
			 struct engine_error *err)
{
	struct engine_pattern *pats = calloc(pr->rs.np + 1, sizeof(*pats));
	unsigned *flags = calloc(pr->rs.np + 1, sizeof(*flags));
	int rc = ENGINE_ERR_NOMEM;
	size_t blamed;

	es->map = calloc(pr->rs.np + 1, sizeof(*es->map));
	if (pats == NULL || flags == NULL || es->map == NULL)
		goto out;
	for (;;) {
		rc = 0;
		es->n = 0;
		if (set_owner(pr, pe, g) != g)
			break;
		if (set_patterns(pr, pe, g, pats, flags, es))
			rc = pe->e->compile_flagged(pats, flags, es->n, &es->h,
						    err);
		else if (es->n > 0)
			rc = pe->e->compile(pats, es->n, flags[0], &es->h, err);
		if (es->n == 0)
			break;
		if (rc == 0 || err->pattern < 0 || (size_t)err->pattern >= es->n)
			break;
		/* the set blames a pattern that compiled alone: drop its rule */
		blamed = es->map[err->pattern];
		rule_refused(ctx, pr, pe, pr->rs.p[blamed].rule, blamed, err);
		pe->ok[pr->rs.p[blamed].rule] = 0;
		pe->nok--;
		rc = COMPILE_AGAIN;
		if (pr->rs.r[pr->rs.p[blamed].rule].n > 1)
			break;
	}
out:
	free(pats);
	free(flags);
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

/*
 * Into out (pe->why, or a flow mode's pe->fwhy): group g's set does not
 * compile (`what`: "" or " for flows"), the engine's reason msg; the
 * set's size and flags, "flags 0x1", or for a set of several groups
 * (set_owner()) each group's, "flags 0x1, 0".
 */
static void set_failed(const struct payload_rules *pr, const struct peng *pe,
		       size_t g, char *out, size_t size, const char *what,
		       const char *msg)
{
	size_t at = (size_t)snprintf(out, size, "the set of %zu patterns "
				     "(flags %#x", pe->sets[g].n,
				     pr->groups[g].flags);

	for (size_t h = g + 1; h < pr->ngroups && at < size; h++)
		if (set_owner(pr, pe, h) == g)
			at += (size_t)snprintf(out + at, size - at, ", %#x",
					       pr->groups[h].flags);
	if (at < size)
		snprintf(out + at, size - at, ") does not compile%s: %s",
			 what, msg);
}

/* One set per group; sets the real-life status when none can be built. */
static void compile_sets(struct suite_ctx *ctx, const struct payload_rules *pr,
			 struct peng *pe)
{
	for (size_t g = 0; g < pr->ngroups;) {
		struct engine_error err = {0, -1, -1, ""};
		int rc = compile_group(ctx, pr, pe, g, &pe->sets[g], &err);
		if (rc == COMPILE_AGAIN) {
			sets_free(pr, pe);
			g = 0;
			continue;
		}
		if (rc == 0) {
			g++;
			continue;
		}
		pe->status = rc == ENGINE_ERR_UNSUPPORTED ? RESULT_UNSUPPORTED
							  : RESULT_ERROR;
		set_failed(pr, pe, g, pe->why, sizeof(pe->why), "", err.msg);
		return;
	}
}

int payload_rules_compile(struct suite_ctx *ctx, const struct payload_rules *pr,
			  struct peng *pe)
{
	/* a set holds a group's patterns, or several groups' (set_owner()) */
	size_t largest = pr->rs.np ? pr->rs.np : 1;

	pe->ok = calloc(pr->rs.n ? pr->rs.n : 1, 1);
	pe->hit = calloc(pr->rs.np ? pr->rs.np : 1, 1);
	pe->sets = calloc(pr->ngroups ? pr->ngroups : 1, sizeof(*pe->sets));
	pe->ids = calloc(largest, 1);
	pe->vids = calloc(largest, 1);
	if (pe->ok == NULL || pe->hit == NULL || pe->sets == NULL ||
	    pe->ids == NULL || pe->vids == NULL)
		return -1;
	if (engine_unavailable(pe->e) != NULL) { /* no row per rule */
		pe->status = RESULT_UNSUPPORTED;
		snprintf(pe->why, sizeof(pe->why), "%s",
			 engine_unavailable(pe->e));
		return 0;
	}
	if (pr->variables && engine_self_timed(pe->e)) {
		pe->status = RESULT_UNSUPPORTED;
		snprintf(pe->why, sizeof(pe->why), "a runner scans whole "
			 "packets: --rules-target=variables runs in process");
		return 0;
	}
	if (pe->e->match_ids == NULL) {
		pe->status = RESULT_UNSUPPORTED;
		snprintf(pe->why, sizeof(pe->why),
			 "no match_ids (which rules matched)");
		return 0;
	}
	compile_each(ctx, pr, pe);
	if (pe->status == RESULT_OK) /* else refused as a whole */
		compile_sets(ctx, pr, pe);
	if (pe->status == RESULT_OK && pe->nok == 0) {
		pe->status = RESULT_UNSUPPORTED;
		snprintf(pe->why, sizeof(pe->why),
			 "none of the %zu rules compiles (see the rows above)",
			 pr->rs.n);
	}
	return 0;
}

/* Whether set es's patterns share one flag combination. */
static int set_flat(const struct payload_rules *pr, const struct eset *es)
{
	for (size_t k = 1; k < es->n; k++)
		if (pr->rs.p[es->map[k]].flags != pr->rs.p[es->map[0]].flags)
			return 0;
	return 1;
}

/* Free pe's flow sets of mode m. */
static void flow_sets_free(const struct payload_rules *pr, struct peng *pe,
			   int m)
{
	for (size_t g = 0; pe->fh[m] != NULL && g < pr->ngroups; g++)
		if (pe->fh[m][g] != NULL)
			pe->e->free(pe->fh[m][g]);
	free(pe->fh[m]);
	pe->fh[m] = NULL;
}

/*
 * pe's sets again for flow mode m, with compile_flow (the rules the block
 * sets run, in the same order).  A set that does not compile leaves the
 * mode out for the engine, fwhy[m] saying why.  0, or -1 out of memory.
 */
static int flow_sets_compile(const struct payload_rules *pr, struct peng *pe,
			     enum payload_mode m)
{
	size_t most = 1;
	struct engine_pattern *pats;

	for (size_t g = 0; g < pr->ngroups; g++)
		most = pe->sets[g].n > most ? pe->sets[g].n : most;
	pats = calloc(most, sizeof(*pats));
	pe->fh[m] = calloc(pr->ngroups ? pr->ngroups : 1, sizeof(void *));
	if (pats == NULL || pe->fh[m] == NULL) {
		free(pats);
		return -1;
	}
	for (size_t g = 0; g < pr->ngroups; g++) {
		const struct eset *es = &pe->sets[g];
		struct engine_error err = {0, -1, -1, ""};
		for (size_t k = 0; k < es->n; k++)
			pats[k] = (struct engine_pattern){pr->rs.p[es->map[k]].re,
							  pr->rs.p[es->map[k]].len};
		if (!set_flat(pr, es)) {
			snprintf(err.msg, sizeof(err.msg), "its patterns' flags "
				 "differ (compile_flow takes one set's)");
		} else if (es->h == NULL ||
			   pe->e->compile_flow((enum engine_flow)m, pats, es->n,
					       pr->rs.p[es->map[0]].flags,
					       &pe->fh[m][g], &err) == 0) {
			continue;
		}
		set_failed(pr, pe, g, pe->fwhy[m], sizeof(pe->fwhy[m]),
			   " for flows", err.msg);
		flow_sets_free(pr, pe, m);
		break;
	}
	free(pats);
	return 0;
}

void payload_rules_free(const struct payload_rules *pr, struct peng *pe)
{
	for (int m = 0; m < PMODE_COUNT; m++)
		flow_sets_free(pr, pe, m);
	sets_free(pr, pe);
	free(pe->sets);
	free(pe->ok);
	free(pe->hit);
	free(pe->ids);
	free(pe->vids);
	waf_scratch_release(&pe->ws);
	pe->sets = NULL;
	pe->ok = NULL;
	pe->hit = NULL;
	pe->ids = NULL;
	pe->vids = NULL;
}


int payload_rules_setup(struct reallife *rl, const struct payload_run *r,
			struct suite_ctx *ctx)
{
	rl->eng = calloc(r->neng ? r->neng : 1, sizeof(*rl->eng));
	if (rl->eng == NULL)
		return -1;
	rl->neng = r->neng;
	payload_rules_skipped(ctx, &rl->pr, PAYLOAD_PREFIX
			      "/scenario=real-life/rule=%s");
	for (size_t e = 0; e < r->neng; e++) {
		struct peng *pe = &rl->eng[e];
		pe->e = r->engines[e];
		if (payload_rules_compile(ctx, &rl->pr, pe) != 0)
			return -1;
		for (size_t m = 0; m < r->nmode; m++)
			if (r->modes[m] != PMODE_BLOCK && pe->status == RESULT_OK &&
			    !rl->pr.variables && /* variables: block only */
			    pe->e->compile_flow != NULL && pe->e->match_flow &&
			    flow_sets_compile(&rl->pr, pe, r->modes[m]) != 0)
				return -1;
	}
	return 0;
}

void payload_rules_teardown(struct reallife *rl)
{
	for (size_t e = 0; rl->eng != NULL && e < rl->neng; e++)
		payload_rules_free(&rl->pr, &rl->eng[e]);
	free(rl->eng);
	payload_rules_release(&rl->pr);
	memset(rl, 0, sizeof(*rl));
}
/* Is why[i] the start of a number standing alone ("line 2:", "is 40
 * bytes"), not a part of a word or of 0x0a? Its length, or 0. */
static size_t lone_number(const char *why, size_t i)
{
	size_t n = strspn(why + i, "0123456789");

	if (n == 0 || (i > 0 && isalnum((unsigned char)why[i - 1])) ||
	    isalnum((unsigned char)why[i + n]))
		return 0;
	return n;
}

/*
 * Count why packet i is not a request: its reason with each number
 * standing alone as N ("the body is N bytes, Content-Length says N"), in
 * the first free or equal slot; the last slot takes what the others
 * cannot.
 */
static void notreq_count(struct scen_size *ss, const char *why)
{
	char key[sizeof(ss->notreq[0].why)];
	size_t o = 0;

	for (size_t i = 0; why[i] != '\0' && o + 2 < sizeof(key); i++) {
		size_t n = lone_number(why, i);
		if (n > 0) {
			key[o++] = 'N';
			i += n - 1;
			continue;
		}
		key[o++] = why[i];
	}
	key[o] = '\0';
	for (size_t k = 0; k < PAYLOAD_NOTREQ; k++)
		if (ss->notreq[k].n == 0 || strcmp(ss->notreq[k].why, key) == 0 ||
		    k == PAYLOAD_NOTREQ - 1) {
			if (ss->notreq[k].n == 0)
				snprintf(ss->notreq[k].why,
					 sizeof(ss->notreq[k].why), "%s", key);
			else if (strcmp(ss->notreq[k].why, key) != 0)
				snprintf(ss->notreq[k].why,
					 sizeof(ss->notreq[k].why), "other reasons");
			ss->notreq[k].n++;
			return;
		}
}

int payload_requests(struct scen_size *ss, const struct payload_rules *pr)
{
	const struct packets *pk = ss->pk;
	char why[160];

	if (!pr->variables || ss->req != NULL)
		return 0;
	ss->req = calloc(pk->n + 1, sizeof(*ss->req));
	ss->is_req = calloc(pk->n + 1, 1);
	ss->nreq = 0;
	memset(ss->notreq, 0, sizeof(ss->notreq));
	if (ss->req == NULL || ss->is_req == NULL)
		return -1;
	for (size_t i = 0; i < pk->n; i++) {
		int rc;
		http_req_init(&ss->req[i]);
		ss->req[i].modsec = pr->rs.modsec;
		rc = http_req_parse(&ss->req[i], pk->pkt[i].p, pk->pkt[i].len,
				    why, sizeof(why));
		if (rc < 0)
			return -1;
		ss->is_req[i] = rc == 0;
		ss->nreq += rc == 0;
		if (rc != 0)
			notreq_count(ss, why);
	}
	return 0;
}


int payload_pattern_on(const struct payload_rules *pr, size_t k,
		       const struct packet *p, const struct http_req *q,
		       struct waf_scratch *s,
		       int (*match)(void *arg, const char *v, size_t n),
		       void *arg)
{
	const struct waf_spec *spec = rule_spec(pr, pr->rs.p[k].rule);

	if (spec == NULL)
		return match(arg, p->p, p->len);
	if (q == NULL)
		return 0;
	return waf_each(spec, q, s, match, arg);
}

static int ref_match(void *arg, const char *v, size_t n)
{
	return ref_is_match(arg, v, n);
}

/* The reference's answer for rule r on packet p (every condition in
 * reach), q its request or NULL: 1, 0, or -1 out of memory. */
static int ref_answer(struct payload_rules *pr, size_t r,
		      const struct packet *p, const struct http_req *q)
{
	const struct rule *ru = &pr->rs.r[r];

	for (size_t k = ru->first; k < ru->first + ru->n; k++) {
		int rc = payload_pattern_on(pr, k, p, q, &pr->ws, ref_match,
					    pr->ref[k]);
		if (rc < 0)
			return -1;
		pr->ref_hit[k] = (unsigned char)rc;
	}
	return rules_holds(&pr->rs, r, pr->ref_hit);
}

int payload_rule_ref(struct payload_rules *pr, size_t r, const struct packet *p,
		     const struct http_req *q)
{
	return ref_answer(pr, r, p, q);
}

enum payload_expect_by payload_rule_expect_by(const struct payload_rules *pr,
					      const struct packets *pk,
					      size_t r)
{
	if (pr->builtin && pk->mark != NULL)
		return PAYLOAD_BY_PLANTED;
	return pr->by_ref[r] ? PAYLOAD_BY_REFERENCE : PAYLOAD_BY_VOTE;
}

int payload_rule_expect(struct payload_rules *pr, const struct scen_size *ss,
			size_t r, unsigned char *bits, size_t *count)
{
	const struct packets *pk = ss->pk;
	enum payload_expect_by src = payload_rule_expect_by(pr, pk, r);

	*count = 0;
	if (src == PAYLOAD_BY_VOTE)
		return PAYLOAD_BY_VOTE;
	for (size_t i = 0; i < pk->n; i++) {
		const struct http_req *q = payload_req(ss, i);
		int holds;
		holds = src == PAYLOAD_BY_PLANTED ? (int)((pk->mark[i] >> r) & 1)
					  : ref_answer(pr, r, &pk->pkt[i], q);
		if (holds < 0)
			return -1;
		if (holds) {
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
			(*count)++;
		}
	}
	return src;
}

/* ---- loading, and what a benchmark records of the rules ---- */

int payload_rules_load(struct payload_rules *pr,
		       const struct payload_config *cfg)
{
	char err[512];

	ruleset_init(&pr->rs);
	pr->rs.modsec = cfg->modsec;
	pr->builtin = cfg->nrule_files == 0;
	if (pr->builtin && rules_builtin(&pr->rs) != 0)
		return -1;
	for (size_t i = 0; i < cfg->nrule_files; i++) {
		if (rules_load(&pr->rs, cfg->rule_files[i], cfg->rules_format, err,
			       sizeof(err)) != 0) {
			fprintf(stderr, "rxbench: %s\n", err);
			return -1;
		}
	}
	if (payload_rules_targets(pr, cfg->rules_target, err, sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	if (payload_rules_group(pr) != 0)
		return -1;
	return payload_rules_reference(pr);
}

int payload_rules_scen_new(struct scen_run *sr,
			   const struct payload_config *cfg)
{
	struct reallife *rl = calloc(1, sizeof(*rl));

	sr->data = rl;
	return rl != NULL ? payload_rules_load(&rl->pr, cfg) : -1;
}

void payload_rules_scen_free(struct scen_run *sr)
{
	if (sr->data != NULL)
		payload_rules_teardown(sr->data);
	free(sr->data);
	sr->data = NULL;
}

/*
 * What the rules are, whatever their source (the built-in set, a file, a
 * directory): how many rules and conditions were loaded and skipped, and
 * the sha256 of the conditions as compiled (each one's bytes, flags and
 * negation), so two runs on other rules never pair.
 */
static int rules_digest(const struct ruleset *rs, struct result_inputs *in)
{
	size_t len = 0, at = 0;
	unsigned char *buf;
	char hex[DIGEST_HEX_SIZE];
	int rc;

	for (size_t i = 0; i < rs->np; i++)
		len += rs->p[i].len + 2 + sizeof(unsigned);
	buf = malloc(len + 1);
	if (buf == NULL)
		return -1;
	for (size_t i = 0; i < rs->np; i++) {
		const struct rule_pattern *p = &rs->p[i];
		memcpy(buf + at, p->re, p->len);
		at += p->len;
		buf[at++] = '\0';
		buf[at++] = (unsigned char)p->negated;
		memcpy(buf + at, &p->flags, sizeof(p->flags));
		at += sizeof(p->flags);
	}
	rc = result_inputs_addf(in, "rules-loaded", "%zu", rs->n) |
	     result_inputs_addf(in, "rule-conditions", "%zu", rs->np) |
	     result_inputs_addf(in, "rules-skipped", "%zu", rs->skipped);
	if (digest_sha256_hex(buf, at, hex) == 0)
		rc |= result_inputs_add(in, "rules-sha256", hex, strlen(hex));
	free(buf);
	return rc ? -1 : 0;
}

int payload_rules_inputs(const struct payload_rules *pr,
			 struct result_inputs *in, int options)
{
	int rc;

	if (!options)
		return rules_digest(&pr->rs, in);
	rc = result_inputs_addf(in, "rules-target", "%s",
				payload_rules_target_name(pr));
	if (pr->variables)
		rc |= result_inputs_addf(in, "modsec", "%d", (int)pr->rs.modsec);
	return rc ? -1 : 0;
}
