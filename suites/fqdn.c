/*
 * fqdn.c - the FQDN suite: how fast can a DNS proxy decide whether a
 * policy's toFQDNs selectors allow a query name?  It reproduces the Go
 * benchmark of Cilium's DNS proxy (seed 000) on every engine and adds two
 * strategies beyond it (fqdn_strategies.h).
 *
 * For each policy size (--domains=N[,N...]), strategy and engine:
 *   generate          build the regex string(s) and the name set
 *                     (engine-independent: engine=none)
 *   compile           the engine compiles the regex (or the set)
 *   combined-compile  both
 *   match-name, match-pattern, bad-match-pattern, bad-match-tld
 *                     one query per op, cycling through the query set:
 *                     rewrite (lower case, trailing dot, reversal), the
 *                     name-set lookup, then the regex
 *   queries           the same over --queries FILE
 * The trie strategy uses no engine (engine=none).
 *
 * Verification comes first: every strategy x engine verdict for every
 * query is compared with the reference matcher (fqdn_ref.h); a pair that
 * differs gets a MISMATCH row naming the query and no time.  The verdicts
 * are computed in a forked child, one answer per case and query set
 * within --timeout (case_answers, as the scan and payload suites do):
 * an engine stuck or crashing while verifying is a timeout or error row
 * and the run goes on.  A case that verified then asks its queries once
 * in the parent, so that the measuring children start with what RE2's
 * lazy DFA learned (steady state, as before; cold, RE2's baseline at 500
 * selectors took 3 ms a query instead of 5 us).  The timed match loop
 * checks each verdict again
 * against the reference's.  A regex that one engine rejects but another
 * compiled is beyond the first engine's limits (an unsupported row); one
 * that no engine compiled is an error.  The queries phase also reports
 * `allowed`, how many of the --queries names the policy allows (verified:
 * the strategy's count, equal to the reference's), an exact metric anyone
 * can check with their own tool.
 *
 * The suite's default --benchtime is 100ms (about 300 benchmarks with
 * every engine must fit in five minutes); a user's --benchtime wins.
 */
#define _GNU_SOURCE
#include "suites/suite.h"

#include "corpora/fqdn_policy.h"
#include "harness/interrupt.h"
#include "report/fqdn_tables.h"
#include "suites/case.h"
#include "suites/fqdn_ref.h"
#include "suites/fqdn_strategies.h"
#include "suites/fqdn_verify.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FQDN_MAX_SIZES 16
#define FQDN_DEFAULT_DOMAINS 500
#define FQDN_MAX_DOMAINS 1000000

enum fqdn_phase {
	PH_GENERATE,
	PH_COMPILE,
	PH_COMBINED,
	PH_MATCH_FIRST, /* the query sets follow, in enum fqdn_qset order */
	PH_QUERIES = PH_MATCH_FIRST + FQDN_Q_COUNT,
	PH_COUNT,
};

#define FQDN_NSETS (FQDN_Q_COUNT + 1) /* the generated sets, then --queries */

/* One policy size: the inputs and the reference's verdicts. */
struct fqdn_size {
	size_t domains;
	struct fqdn_policy policy;
	struct fqdn_ref ref;
	struct fqdn_queries q[FQDN_NSETS];
	unsigned char *expect[FQDN_NSETS];
	struct fqdn_built *built; /* one per strategy */
};

struct fqdn_case;

/* What a verifying child sends back for one case and query set. */
struct fqdn_answer {
	uint64_t total;   /* queries asked */
	uint64_t wrong;   /* verdicts that differ from the reference */
	uint64_t allowed; /* queries the strategy allowed */
	uint64_t index;   /* the first wrong (or failing) query */
	int64_t got;      /* the strategy's verdict on it */
};

/* One benchmark: a phase of a case. */
struct fqdn_op {
	struct fqdn_case *c;
	enum fqdn_phase phase;
	size_t next; /* the query the next op takes */
};

/* One size x strategy x engine (engine NULL: none). */
struct fqdn_case {
	struct fqdn_size *sz;
	const struct fqdn_strategy *s;
	const struct engine *e;
	struct fqdn_built *built; /* the size's, shared */
	void *h;                  /* compiled regex, NULL when none */
	int wanted;               /* --bench selects one of its phases */
	int crc;                  /* compile status (enum engine_status) */
	struct engine_error err;  /* when crc < 0 */
	char *buf;                /* the rewritten query */
	struct fqdn_built kept;   /* held between retain and release */
	void *kept_h;
	struct fqdn_op op[PH_COUNT];
	struct fqdn_answer ans[FQDN_NSETS];     /* verification, per set */
	struct isolate_verdict iv[FQDN_NSETS];
};

static struct {
	size_t sizes[FQDN_MAX_SIZES];
	size_t nsizes;
	uint64_t seed;
	const char *policy_path;
	const char *queries_path;
	struct fqdn_policy file_policy; /* --policy, read once */
	struct fqdn_queries file_queries;
	char **tlds;
	long ntlds;
	int tlds_psl;
	struct fqdn_size *sz;
	struct fqdn_case *cases;
	size_t ncases;
} st = {.seed = 1};

static const char *phase_name(enum fqdn_phase ph)
{
	static const char *const names[] = {"generate", "compile",
					    "combined-compile"};

	if (ph < PH_MATCH_FIRST)
		return names[ph];
	if (ph == PH_QUERIES)
		return "queries";
	return fqdn_qset_name((enum fqdn_qset)(ph - PH_MATCH_FIRST));
}

/* Parse one size of --domains; 0 or -1. */
static int parse_size(const char *s, size_t len, size_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (len == 0 || len >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > FQDN_MAX_DOMAINS)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* --domains=N or N1,N2,...: each 1..1000000, at most 16. */
static int parse_domains(const char *v)
{
	size_t n = 0;

	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");
		if (n == FQDN_MAX_SIZES || parse_size(p, len, &st.sizes[n]) != 0) {
			fprintf(stderr, "rxbench: --domains=%s: use a number of "
				"selectors from 1 to %d, or a list like "
				"100,500,1000 (at most %d sizes)\n", v,
				FQDN_MAX_DOMAINS, FQDN_MAX_SIZES);
			return SUITE_OPT_INVALID;
		}
		n++;
		p += len;
		if (*p == '\0')
			break;
	}
	st.nsizes = n;
	return SUITE_OPT_OK;
}

static int parse_seed(const char *v)
{
	char *end = NULL;
	unsigned long long n = 0;

	errno = 0;
	if (v[0] >= '0' && v[0] <= '9')
		n = strtoull(v, &end, 10);
	if (end == NULL || errno != 0 || *end != '\0') {
		fprintf(stderr, "rxbench: --seed=%s: not a number\n", v);
		return SUITE_OPT_INVALID;
	}
	st.seed = n;
	return SUITE_OPT_OK;
}

static int fqdn_set_option(const char *key, const char *value)
{
	static const char *const keys[] = {"domains", "seed", "policy",
					   "queries"};
	int ours = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ours |= strcmp(key, keys[i]) == 0;
	if (!ours)
		return SUITE_OPT_UNKNOWN;
	if (value == NULL)
		return SUITE_OPT_NEEDS_VALUE;
	if (strcmp(key, "domains") == 0)
		return parse_domains(value);
	if (strcmp(key, "seed") == 0)
		return parse_seed(value);
	if (strcmp(key, "policy") == 0)
		st.policy_path = value;
	else
		st.queries_path = value;
	return SUITE_OPT_OK;
}

/* The policy of size n: generated, or the first n selectors of --policy. */
static int size_policy(struct fqdn_size *z, size_t n, int explicit_n)
{
	const struct fqdn_policy *fp = &st.file_policy;

	fqdn_policy_init(&z->policy);
	if (st.policy_path == NULL)
		return fqdn_policy_generate(&z->policy, n, st.seed, st.tlds,
					    st.ntlds);
	if (!explicit_n)
		n = fp->n;
	if (n > fp->n) {
		fprintf(stderr, "rxbench: --domains=%zu: %s has only %zu "
			"selectors\n", n, st.policy_path, fp->n);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (fqdn_policy_add(&z->policy, fp->sel[i].kind, fp->sel[i].text,
				    fp->sel[i].len, fp->sel[i].line) != 0)
			return -1;
	return 0;
}

/* The query sets of z and the reference's verdict on each query. */
static int size_queries(struct fqdn_size *z)
{
	for (size_t k = 0; k < FQDN_NSETS; k++) {
		struct fqdn_queries *q = &z->q[k];
		fqdn_queries_init(q);
		if (k < FQDN_Q_COUNT &&
		    fqdn_queries_generate(q, &z->policy, (enum fqdn_qset)k,
					  st.seed) != 0)
			return -1;
		for (size_t i = 0; k == FQDN_Q_COUNT && i < st.file_queries.n; i++)
			if (fqdn_queries_add(q, st.file_queries.name[i],
					     st.file_queries.len[i]) != 0)
				return -1;
		z->expect[k] = malloc(q->n + 1);
		if (z->expect[k] == NULL)
			return -1;
		for (size_t i = 0; i < q->n; i++) {
			int a = fqdn_ref_allows(&z->ref, q->name[i], q->len[i]);
			if (a < 0)
				return -1;
			z->expect[k][i] = (unsigned char)a;
		}
	}
	return 0;
}

/* Inputs of one size, and every strategy's generated regex and set. */
static int size_init(struct fqdn_size *z, size_t n, int explicit_n)
{
	z->domains = n;
	if (size_policy(z, n, explicit_n) != 0)
		return -1;
	z->domains = z->policy.n;
	if (fqdn_ref_init(&z->ref, &z->policy) != 0 || size_queries(z) != 0)
		return -1;
	z->built = calloc(fqdn_nstrategies, sizeof(*z->built));
	if (z->built == NULL)
		return -1;
	for (size_t i = 0; i < fqdn_nstrategies; i++)
		if (fqdn_generate(&fqdn_strategies[i], &z->policy,
				  &z->built[i]) != 0)
			return -1;
	return 0;
}

static void size_release(struct fqdn_size *z)
{
	for (size_t k = 0; k < FQDN_NSETS; k++) {
		fqdn_queries_release(&z->q[k]);
		free(z->expect[k]);
	}
	for (size_t i = 0; z->built != NULL && i < fqdn_nstrategies; i++)
		fqdn_built_release(&z->built[i]);
	free(z->built);
	fqdn_ref_release(&z->ref);
	fqdn_policy_release(&z->policy);
}

static int case_has_engine(const struct fqdn_case *c)
{
	return c->e != NULL;
}

/* "FQDN/phase=P/strategy=S/engine=E[/domains=N]"; phase NULL leaves it out. */
static void case_name(const struct fqdn_case *c, const char *phase, char *buf,
		      size_t size)
{
	char dom[32] = "";

	if (st.nsizes > 1)
		snprintf(dom, sizeof(dom), "/domains=%zu", c->sz->domains);
	snprintf(buf, size, "FQDN%s%s/strategy=%s/engine=%s%s",
		 phase ? "/phase=" : "", phase ? phase : "", c->s->name,
		 case_has_engine(c) ? c->e->name : "none", dom);
}

/* The verdict of case c on query q: 1 allowed, 0 denied, <0 engine error. */
static int case_allows(struct fqdn_case *c, const char *q, size_t len)
{
	return fqdn_decide(c->s, c->built, c->e, c->h, q, len, c->buf);
}

/* Compile b's regexes on e.  0, or a negative engine status with err. */
static int built_compile(const struct fqdn_built *b, const struct engine *e,
			 void **h, struct engine_error *err)
{
	struct engine_pattern one, *pats = &one;
	int rc;

	*h = NULL;
	if (b->nre == 0)
		return 0;
	if (b->nre > 1) {
		pats = malloc(b->nre * sizeof(*pats));
		if (pats == NULL)
			return ENGINE_ERR_NOMEM;
	}
	for (size_t i = 0; i < b->nre; i++)
		pats[i] = (struct engine_pattern){b->re[i], b->relen[i]};
	rc = e->compile(pats, b->nre, 0, h, err);
	if (pats != &one)
		free(pats);
	return rc;
}

/* --- the timed ops (run by the harness; no clock here) --- */

static int run_generate(void *arg, uint64_t n)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;
	struct fqdn_built b;

	for (uint64_t i = 0; i < n; i++) {
		if (fqdn_generate(c->s, &c->sz->policy, &b) != 0)
			return ENGINE_ERR_NOMEM;
		fqdn_built_release(&b);
	}
	return 0;
}

static int run_compile(void *arg, uint64_t n)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;
	struct engine_error err;
	void *h;

	for (uint64_t i = 0; i < n; i++) {
		int rc = built_compile(c->built, c->e, &h, &err);
		if (rc != 0)
			return rc;
		c->e->free(h);
	}
	return 0;
}

/* Generate, then compile when the strategy has an engine. */
static int combined_once(struct fqdn_case *c, struct fqdn_built *b, void **h)
{
	struct engine_error err;
	int rc;

	*h = NULL;
	if (fqdn_generate(c->s, &c->sz->policy, b) != 0)
		return ENGINE_ERR_NOMEM;
	if (!case_has_engine(c))
		return 0;
	rc = built_compile(b, c->e, h, &err);
	if (rc != 0)
		fqdn_built_release(b);
	return rc;
}

static int run_combined(void *arg, uint64_t n)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;
	struct fqdn_built b;
	void *h;

	for (uint64_t i = 0; i < n; i++) {
		int rc = combined_once(c, &b, &h);
		if (rc != 0)
			return rc;
		if (h != NULL)
			c->e->free(h);
		fqdn_built_release(&b);
	}
	return 0;
}

/* One query per op; a verdict that differs from the reference's fails. */
static int run_match(void *arg, uint64_t n)
{
	struct fqdn_op *op = arg;
	struct fqdn_case *c = op->c;
	size_t k = (size_t)(op->phase - PH_MATCH_FIRST);
	const struct fqdn_queries *q = &c->sz->q[k];
	const unsigned char *want = c->sz->expect[k];
	size_t j = op->next;

	for (uint64_t i = 0; i < n; i++) {
		int v = case_allows(c, q->name[j], q->len[j]);
		if (v < 0)
			return v;
		if (v != want[j])
			return ENGINE_ERR_MATCH;
		if (++j == q->n)
			j = 0;
	}
	op->next = j;
	return 0;
}

/* B(heap)/op: what one generate / compile / both keeps. */
static int retain_op(void *arg)
{
	struct fqdn_op *op = arg;
	struct fqdn_case *c = op->c;
	struct engine_error err;

	memset(&c->kept, 0, sizeof(c->kept));
	c->kept_h = NULL;
	if (op->phase == PH_GENERATE)
		return fqdn_generate(c->s, &c->sz->policy, &c->kept) != 0
			       ? ENGINE_ERR_NOMEM
			       : 0;
	if (op->phase == PH_COMPILE)
		return built_compile(c->built, c->e, &c->kept_h, &err);
	return combined_once(c, &c->kept, &c->kept_h);
}

static void release_op(void *arg)
{
	struct fqdn_case *c = ((struct fqdn_op *)arg)->c;

	if (c->kept_h != NULL)
		c->e->free(c->kept_h);
	c->kept_h = NULL;
	fqdn_built_release(&c->kept);
}

/* --- verification and planning --- */

/* Phases this case times. */
static int case_has_phase(const struct fqdn_case *c, enum fqdn_phase ph)
{
	int trie = (c->s->flags & FQDN_S_TRIE) != 0;

	if (ph == PH_GENERATE)
		return !case_has_engine(c);
	if (ph == PH_COMPILE)
		return case_has_engine(c) && c->built->nre > 0;
	if (ph == PH_COMBINED)
		return trie || (case_has_engine(c) && c->built->nre > 0);
	if (!trie && !case_has_engine(c))
		return 0;
	return c->sz->q[ph - PH_MATCH_FIRST].n > 0;
}

/* 1 when --bench selects any benchmark of this case. */
static int case_wanted(const struct suite_ctx *ctx, const struct fqdn_case *c)
{
	char name[256];

	for (int ph = 0; ph < PH_COUNT; ph++) {
		if (!case_has_phase(c, (enum fqdn_phase)ph))
			continue;
		case_name(c, phase_name((enum fqdn_phase)ph), name, sizeof(name));
		if (suite_wants(ctx, name))
			return 1;
	}
	return 0;
}

/* Compile c's regex (when it has an engine and is wanted): c->crc, c->err. */
static void case_compile(struct fqdn_case *c)
{
	c->err = (struct engine_error){0, -1, -1, ""};
	c->crc = 0;
	if (!c->wanted || !case_has_engine(c))
		return;
	if ((c->s->flags & FQDN_S_MULTI) && !engine_set_native(c->e)) {
		c->crc = ENGINE_ERR_UNSUPPORTED;
		snprintf(c->err.msg, sizeof(c->err.msg), "strategy %s needs a "
			 "native multi-pattern set", c->s->name);
		c->err.pattern = -1;
		return;
	}
	c->crc = built_compile(c->built, c->e, &c->h, &c->err);
	if (c->crc != 0)
		c->h = NULL;
}

/*
 * The row of a case that did not compile.  The regexes are built from
 * checked selectors with syntax every engine claims, so when another
 * engine compiled the same regex, a rejection is this engine's limit
 * (pattern size: Hyperscan's 16,000 bytes, PCRE2's 64 KiB link size;
 * TRE's fixed compile stack, which it reports as REG_ESPACE "out of
 * memory"): unsupported.  When no engine compiled it, it is an error.
 */
static void case_compile_row(struct suite_ctx *ctx, const struct fqdn_case *c,
			     int others_compiled)
{
	const struct fqdn_built *b = c->built;
	int limit = (c->crc == ENGINE_ERR_COMPILE ||
		     c->crc == ENGINE_ERR_NOMEM) && others_compiled;
	char name[256], what[64];

	case_name(c, NULL, name, sizeof(name));
	if (c->crc == ENGINE_ERR_UNSUPPORTED && c->err.pattern < 0) {
		suite_fail(ctx, "fqdn", name, RESULT_UNSUPPORTED, "%s: %s",
			   c->e->name, c->err.msg);
		return;
	}
	if (b->nre == 1)
		snprintf(what, sizeof(what), "regex of %zu bytes", b->relen[0]);
	else
		snprintf(what, sizeof(what), "set of %zu regexes", b->nre);
	suite_fail(ctx, "fqdn", name,
		   limit || c->crc == ENGINE_ERR_UNSUPPORTED ? RESULT_UNSUPPORTED
							     : RESULT_ERROR,
		   "%s: strategy %s, %zu domains, %s: %s: %s (pattern %ld, "
		   "offset %ld)%s", c->e->name, c->s->name, c->sz->domains,
		   what, engine_status_name(c->crc), c->err.msg, c->err.pattern,
		   c->err.offset,
		   limit ? "; other engines compiled it: a limit of this engine"
			 : "");
}

/* Query set k of case c with the reference's verdicts. */
static struct fqdn_qset_ref case_set(const struct fqdn_case *c, size_t k)
{
	return (struct fqdn_qset_ref){
		phase_name((enum fqdn_phase)(PH_MATCH_FIRST + k)), &c->sz->q[k],
		c->sz->expect[k]};
}

/* Cases that verify: a compiled regex, or the trie. */
static int case_verifies(const struct fqdn_case *c)
{
	return c->wanted && c->crc == 0 &&
	       (case_has_engine(c) || (c->s->flags & FQDN_S_TRIE));
}

/* The cases of one strategy being verified, for case_answers(). */
struct verify_job {
	struct fqdn_case **c;
	size_t n;
};

/* Item i: case i / FQDN_NSETS on query set i % FQDN_NSETS. */
static int verify_answer(void *arg, size_t i, void *out)
{
	const struct verify_job *j = arg;
	struct fqdn_case *c = j->c[i / FQDN_NSETS];
	struct fqdn_qset_ref set = case_set(c, i % FQDN_NSETS);
	struct fqdn_verdict v;
	struct fqdn_answer a;

	fqdn_verify(c->s, c->built, c->e, c->h, &set, 1, c->buf, &v);
	a = (struct fqdn_answer){v.total, v.wrong, v.allowed, v.index, v.got};
	memcpy(out, &a, sizeof(a)); /* sent back on failure too: the query */
	return v.status;
}

/* A case that failed on a set is not asked about the rest. */
static size_t verify_after_failure(void *arg, size_t i)
{
	(void)arg;
	return (i / FQDN_NSETS + 1) * FQDN_NSETS;
}

/*
 * Every verifying case of cs[0..n) against the reference, in a child
 * (isolate.h): answers into each case's ans[] and iv[].  0,
 * STATUS_INTERRUPTED, or -1 out of memory.
 */
static int cases_verify(struct suite_ctx *ctx, struct fqdn_case *cs, size_t n)
{
	struct verify_job j = {calloc(n + 1, sizeof(*j.c)), 0};
	struct isolate_items it = {0, sizeof(struct fqdn_answer), verify_answer,
				   verify_after_failure, &j};
	struct fqdn_answer *out = NULL;
	struct isolate_verdict *v = NULL;
	int rc = -1;

	for (size_t i = 0; j.c != NULL && i < n; i++)
		if (case_verifies(&cs[i]))
			j.c[j.n++] = &cs[i];
	it.n = j.n * FQDN_NSETS;
	out = calloc(it.n + 1, sizeof(*out));
	v = calloc(it.n + 1, sizeof(*v));
	if (j.c == NULL || out == NULL || v == NULL)
		goto out;
	rc = case_answers(&it, ctx->opts, out, v);
	if (rc == STATUS_INTERRUPTED)
		goto out;
	for (size_t i = 0; i < it.n; i++) {
		j.c[i / FQDN_NSETS]->ans[i % FQDN_NSETS] = out[i];
		j.c[i / FQDN_NSETS]->iv[i % FQDN_NSETS] = v[i];
	}
	rc = 0;
out:
	free(j.c);
	free(out);
	free(v);
	return rc;
}

/* Answer a of set k as a verdict, the query it names included. */
static struct fqdn_verdict answer_verdict(const struct fqdn_case *c, size_t k,
					  const struct fqdn_answer *a, int status)
{
	struct fqdn_qset_ref set = case_set(c, k);
	struct fqdn_verdict v = {.total = a->total, .wrong = a->wrong,
				 .allowed = a->allowed, .status = status,
				 .index = a->index, .set = set.name,
				 .got = (int)a->got};

	if (a->index < set.q->n) {
		v.query = set.q->name[a->index];
		v.qlen = set.q->len[a->index];
		v.want = set.expect[a->index];
	}
	return v;
}

/* The row of a case that failed in set k (isolate verdict iv). */
static void case_failed_row(struct suite_ctx *ctx, const struct fqdn_case *c,
			    size_t k, const struct isolate_verdict *iv)
{
	const char *engine = case_has_engine(c) ? c->e->name : "none";
	struct fqdn_verdict v = answer_verdict(c, k, &c->ans[k], iv->status);
	char name[256], why[2048];

	case_name(c, NULL, name, sizeof(name));
	if (iv->end == ISOLATE_ANSWERED) { /* the engine's own status */
		fqdn_verdict_text(&v, c->s->name, engine, c->sz->domains, why,
				  sizeof(why));
		suite_fail(ctx, "fqdn", name, result_status_of(iv->status),
			   "%s", why);
		return;
	}
	case_verdict_text(iv, ctx->opts, why, sizeof(why));
	suite_fail(ctx, "fqdn", name, result_status_of(iv->status),
		   "%s: strategy %s, %zu domains, query set %s: %s", engine,
		   c->s->name, c->sz->domains, v.set, why);
}

/* What verification found for c: 0, or -1 after its row. */
static int case_verified(struct suite_ctx *ctx, const struct fqdn_case *c)
{
	struct fqdn_verdict v = {0}, first = {0};
	char name[256], why[2048];

	for (size_t k = 0; k < FQDN_NSETS; k++) {
		if (c->iv[k].status != 0) {
			case_failed_row(ctx, c, k, &c->iv[k]);
			return -1;
		}
		if (c->ans[k].wrong > 0 && first.wrong == 0)
			first = answer_verdict(c, k, &c->ans[k], 0);
		v.wrong += c->ans[k].wrong;
		v.total += c->ans[k].total;
	}
	if (v.wrong == 0)
		return 0;
	first.wrong = v.wrong;
	first.total = v.total;
	case_name(c, NULL, name, sizeof(name));
	fqdn_verdict_text(&first, c->s->name,
			  case_has_engine(c) ? c->e->name : "none",
			  c->sz->domains, why, sizeof(why));
	suite_fail(ctx, "fqdn", name, RESULT_MISMATCH, "%s", why);
	return -1;
}

static int plan_phase(struct suite_ctx *ctx, struct fqdn_case *c,
		      enum fqdn_phase ph)
{
	static int (*const run[])(void *, uint64_t) = {
		run_generate, run_compile, run_combined};
	struct fqdn_op *op = &c->op[ph];
	struct bench b = {0};
	char name[256];

	case_name(c, phase_name(ph), name, sizeof(name));
	if (!suite_wants(ctx, name))
		return 0;
	*op = (struct fqdn_op){c, ph, 0};
	b.name = strdup(name);
	b.suite = "fqdn";
	b.run = ph < PH_MATCH_FIRST ? run[ph] : run_match;
	if (ph < PH_MATCH_FIRST) {
		b.retain = retain_op;
		b.release = release_op;
	}
	b.arg = op;
	b.extra[0] = (struct bench_metric){"domains", BETTER_EXACT,
					   (double)c->sz->domains};
	b.nextra = 1;
	if (ph == PH_QUERIES)
		b.extra[b.nextra++] = (struct bench_metric){
			"allowed", BETTER_EXACT,
			(double)c->ans[FQDN_Q_COUNT].allowed};
	if (b.name == NULL || plan_add(ctx->plan, &b) != 0) {
		free(b.name);
		return -1;
	}
	return 0;
}

/* The rewrite buffer, whether --bench wants c, its compiled regex. */
static int case_prepare(const struct suite_ctx *ctx, struct fqdn_case *c)
{
	size_t maxq = 0;

	for (size_t k = 0; k < FQDN_NSETS; k++)
		if (c->sz->q[k].maxlen > maxq)
			maxq = c->sz->q[k].maxlen;
	c->buf = malloc(maxq + 2);
	if (c->buf == NULL)
		return -1;
	c->wanted = case_wanted(ctx, c);
	case_compile(c);
	return 0;
}

/*
 * Ask a verified case every query once more, here: what an engine builds
 * lazily while matching (RE2's DFA states) is then in the parent, and
 * every measuring child starts from it, as a long-running proxy would
 * (before verification moved to a child, it did this).  Safe to run in
 * this process: the child just gave each of these answers within
 * --timeout without crashing.
 */
static void case_warm(struct fqdn_case *c)
{
	for (size_t k = 0; k < FQDN_NSETS && !interrupt_signal(); k++) {
		const struct fqdn_queries *q = &c->sz->q[k];
		for (size_t i = 0; i < q->n; i++)
			(void)case_allows(c, q->name[i], q->len[i]);
	}
}

/* Plan one compiled case, once verified.  -1 only when out of memory. */
static int case_plan(struct suite_ctx *ctx, struct fqdn_case *c)
{
	if (!c->wanted)
		return 0;
	if (case_verifies(c) && case_verified(ctx, c) != 0)
		return 0;
	if (case_verifies(c) && case_has_engine(c))
		case_warm(c);
	for (int ph = 0; ph < PH_COUNT; ph++)
		if (case_has_phase(c, (enum fqdn_phase)ph) &&
		    plan_phase(ctx, c, (enum fqdn_phase)ph) != 0)
			return -1;
	return 0;
}

/*
 * The cases of one strategy at size z (engine none first): compile on
 * every engine, verify those that compiled (in a child), then a row for
 * each that failed either, and plan the others.
 */
static int strategy_plan(struct suite_ctx *ctx, struct fqdn_size *z, size_t i)
{
	const struct fqdn_strategy *s = &fqdn_strategies[i];
	size_t ne = (s->flags & FQDN_S_TRIE) ? 0 : ctx->nengines;
	struct fqdn_case *cs = &st.cases[st.ncases];
	int compiled = 0, rc;

	for (size_t j = 0; j <= ne; j++) {
		cs[j] = (struct fqdn_case){.sz = z, .s = s,
					   .e = j ? ctx->engines[j - 1] : NULL,
					   .built = &z->built[i]};
		st.ncases++;
		if (case_prepare(ctx, &cs[j]) != 0)
			return -1;
		compiled += j > 0 && cs[j].wanted && cs[j].crc == 0;
	}
	rc = cases_verify(ctx, cs, ne + 1);
	if (rc != 0)
		return rc == STATUS_INTERRUPTED ? 0 : -1;
	for (size_t j = 0; j <= ne; j++) {
		if (cs[j].crc != 0)
			case_compile_row(ctx, &cs[j], compiled > 0);
		else if (case_plan(ctx, &cs[j]) != 0)
			return -1;
	}
	return 0;
}

/*
 * A query is its line's bytes exactly, CR included (fqdn_policy.h); say
 * so once when a --queries file looks like CRLF text, since Cilium denies
 * every such name.
 */
static void note_crlf(void)
{
	const struct fqdn_queries *q = &st.file_queries;
	size_t n = 0, first = 0;

	for (size_t i = q->n; i-- > 0;)
		if (q->len[i] > 0 && q->name[i][q->len[i] - 1] == '\r') {
			n++;
			first = i;
		}
	if (n > 0)
		fprintf(stderr, "rxbench: note: %s: %zu of %zu queries end with "
			"a CR (line %zu first; a CRLF file?): a query is its "
			"line's exact bytes, and Cilium denies a name with a "
			"CR\n", st.queries_path, n, q->n, first + 1);
}

/* --policy, --queries and the TLD list: read once for all sizes. */
static int load_files(void)
{
	char err[1024];

	fqdn_policy_init(&st.file_policy);
	fqdn_queries_init(&st.file_queries);
	if (st.policy_path != NULL &&
	    fqdn_policy_load(&st.file_policy, st.policy_path, err,
			     sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	if (st.queries_path != NULL &&
	    fqdn_queries_load(&st.file_queries, st.queries_path, err,
			      sizeof(err)) != 0) {
		fprintf(stderr, "rxbench: %s\n", err);
		return -1;
	}
	note_crlf();
	st.ntlds = fqdn_tlds_load(FQDN_PSL_PATH, &st.tlds, &st.tlds_psl);
	return st.ntlds < 0 ? -1 : 0;
}

/* Run context the JSON file keeps: where the inputs came from. */
static void note_inputs(struct suite_ctx *ctx)
{
	char buf[512];

	if (st.policy_path != NULL)
		snprintf(buf, sizeof(buf), "%s (%zu selectors)", st.policy_path,
			 st.file_policy.n);
	else
		snprintf(buf, sizeof(buf), "generated, seed %llu, TLDs from %s "
			 "(%ld)", (unsigned long long)st.seed,
			 st.tlds_psl ? FQDN_PSL_PATH : "the built-in list",
			 st.ntlds);
	results_meta_set(ctx->results, "fqdn-policy", buf);
	if (st.queries_path != NULL)
		results_meta_set(ctx->results, "fqdn-queries", st.queries_path);
}

/* The cases of size z, strategy by strategy. */
static int size_plan(struct suite_ctx *ctx, struct fqdn_size *z)
{
	for (size_t i = 0; i < fqdn_nstrategies && !interrupt_signal(); i++)
		if (strategy_plan(ctx, z, i) != 0)
			return -1;
	return 0;
}

static int fqdn_prepare(struct suite_ctx *ctx)
{
	int explicit_n = st.nsizes > 0;

	if (st.nsizes == 0) {
		st.sizes[0] = FQDN_DEFAULT_DOMAINS;
		st.nsizes = 1;
	}
	if (load_files() != 0)
		return -1;
	note_inputs(ctx);
	st.sz = calloc(st.nsizes, sizeof(*st.sz));
	st.cases = calloc(st.nsizes * fqdn_nstrategies * (ctx->nengines + 1),
			  sizeof(*st.cases));
	if (st.sz == NULL || st.cases == NULL)
		return -1;
	for (size_t i = 0; i < st.nsizes && !interrupt_signal(); i++) {
		if (size_init(&st.sz[i], st.sizes[i], explicit_n) != 0 ||
		    size_plan(ctx, &st.sz[i]) != 0)
			return -1;
	}
	return 0;
}

static void fqdn_report(struct suite_ctx *ctx, FILE *out)
{
	fqdn_tables_write(out, ctx->results, "fqdn",
			  ctx->opts->fixed_n ? 0 : ctx->opts->benchtime_ns);
}

static void fqdn_cleanup(void)
{
	for (size_t i = 0; i < st.ncases; i++) {
		struct fqdn_case *c = &st.cases[i];
		if (c->h != NULL)
			c->e->free(c->h);
		free(c->buf);
	}
	for (size_t i = 0; st.sz != NULL && i < st.nsizes; i++)
		size_release(&st.sz[i]);
	fqdn_policy_release(&st.file_policy);
	fqdn_queries_release(&st.file_queries);
	fqdn_tlds_release(st.tlds, st.ntlds, st.tlds_psl);
	free(st.cases);
	free(st.sz);
	st.cases = NULL;
	st.sz = NULL;
	st.tlds = NULL;
	st.ncases = 0;
}

const struct suite suite_fqdn = {
	.name = "fqdn",
	.desc = "Cilium DNS proxy: toFQDNs selectors as regex, name set, trie",
	.usage = "  --domains=N[,N...]    policy sizes (default 500); several "
		 "sizes report scaling\n"
		 "  --seed=N              generator seed (default 1)\n"
		 "  --policy=FILE         CiliumNetworkPolicy YAML or a list, one "
		 "selector per line\n"
		 "  --queries=FILE        query names, one per line (phase "
		 "queries)\n",
	.in_default = 1,
	.default_benchtime_ns = 100e6,
	.set_option = fqdn_set_option,
	.legacy_prepare = fqdn_prepare,
	.legacy_report = fqdn_report,
	.reports_growth = 1,
	.legacy_cleanup = fqdn_cleanup,
};
